from __future__ import annotations

from pathlib import Path


DATA = Path(__file__).parent / "data"
GOLDEN = Path(__file__).parent / "golden"


