"""``make bench`` / ``kifu bench``: the benchmark lives in ``recorder/tools/bench/``; this module
keeps the old import path."""

from __future__ import annotations

from recorder.tools.bench import SECTIONS, run, show

__all__ = ["SECTIONS", "run", "show"]
