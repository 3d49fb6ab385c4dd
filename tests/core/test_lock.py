"""Installs that do not drift (issue 38): `make install` installs exactly requirements.lock, and
the lock satisfies every dependency pyproject.toml declares."""

from __future__ import annotations

import re
import tomllib
from importlib import metadata
from pathlib import Path

from packaging.markers import default_environment
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[2]
LOCK = ROOT / "requirements.lock"
# what a venv brings of its own, and kifu itself (installed from the tree, not from the index)
NOT_LOCKED = {"pip", "setuptools", "wheel", "kifu"}


def locked() -> dict[str, str]:
    """The lock's pins that apply on this machine: {canonical name: version}."""
    env = default_environment()
    pins: dict[str, str] = {}
    for raw in LOCK.read_text(encoding="utf-8").splitlines():
        line = raw.split(" #", 1)[0].strip()
        if not line or line.startswith("#"):
            continue
        req = Requirement(line)
        spec = list(req.specifier)
        assert len(spec) == 1 and spec[0].operator == "==", f"requirements.lock: {raw!r} is not an exact pin"
        if req.marker is None or req.marker.evaluate(env):
            pins[canonicalize_name(req.name)] = spec[0].version
    return pins


def installed() -> dict[str, str]:
    return {canonicalize_name(d.metadata["Name"]): d.version for d in metadata.distributions()}


def test_every_locked_package_is_installed_at_its_locked_version():
    have = installed()
    wrong = {name: (want, have.get(name)) for name, want in locked().items() if have.get(name) != want}
    assert wrong == {}, "installed versions differ from requirements.lock (run make install): " + repr(wrong)


def test_nothing_is_installed_that_the_lock_does_not_name():
    extra = set(installed()) - set(locked()) - NOT_LOCKED
    assert extra == set(), f"installed but not in requirements.lock: {sorted(extra)}"


def test_the_lock_satisfies_every_declared_dependency():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    declared = list(project["dependencies"]) + [r for extra in project["optional-dependencies"].values() for r in extra]
    pins = locked()
    env = default_environment()
    unmet = []
    for text in declared:
        req = Requirement(text)
        if req.marker is not None and not req.marker.evaluate({**env, "extra": ""}):
            continue
        version = pins.get(canonicalize_name(req.name))
        if version is None or not req.specifier.contains(version, prereleases=True):
            unmet.append(f"{text} (locked: {version})")
    assert unmet == [], "requirements.lock is stale against pyproject.toml (run make lock): " + "; ".join(unmet)


def test_a_pin_that_breaks_a_declared_range_is_caught(tmp_path, monkeypatch):
    """The staleness check bites: a lock holding typer 0.25 breaks pyproject's typer<0.25."""
    stale = re.sub(r"^typer==\S+", "typer==0.25.0", LOCK.read_text(encoding="utf-8"), flags=re.M)
    fake = tmp_path / "requirements.lock"
    fake.write_text(stale, encoding="utf-8")
    monkeypatch.setitem(globals(), "LOCK", fake)
    try:
        test_the_lock_satisfies_every_declared_dependency()
    except AssertionError as exc:
        assert "typer" in str(exc)
    else:
        raise AssertionError("a lock pinning typer 0.25 passed the staleness check")
