"""docs/architecture.md's layout table is held to the tree (issue 32): every file a row names
exists in that row's folder, and every module of recorder/, recorder/web/, projections/ and
exports/ (top level) is named in its folder's row. A module added without a word in the table,
or one the table names after it moved, fails here."""

from __future__ import annotations

import re

import pytest

from tests.contract.imports import ROOT

CHECKED = ("recorder/", "recorder/web/", "projections/", "exports/")


def layout_rows(text: str) -> dict[str, str]:
    """The table under ``## Layout``: its first cell (a folder) -> the rest of the row."""
    section = text[text.index("## Layout"):]
    section = section[:section.index("\n## ", 1)]
    rows = {}
    for line in section.splitlines():
        m = re.match(r"\|\s*`([^`]+)`\s*\|(.*)\|\s*$", line)
        if m:
            rows[m.group(1)] = m.group(2)
    return rows


def named_files(row: str) -> set[str]:
    return set(re.findall(r"`([A-Za-z0-9_]+\.py)`", row))


ROWS = layout_rows((ROOT / "docs" / "architecture.md").read_text(encoding="utf-8"))


def test_the_table_has_a_row_for_each_checked_folder():
    assert set(CHECKED) <= set(ROWS), set(CHECKED) - set(ROWS)


@pytest.mark.parametrize("folder", CHECKED)
def test_every_file_the_table_names_exists(folder):
    missing = sorted(f for f in named_files(ROWS[folder]) if not (ROOT / folder / f).is_file())
    assert not missing, f"docs/architecture.md names {folder}{missing}, which do not exist"


@pytest.mark.parametrize("folder", CHECKED)
def test_every_module_is_named_in_the_table(folder):
    modules = {p.name for p in (ROOT / folder).glob("*.py") if p.name != "__init__.py"}
    unnamed = sorted(modules - named_files(ROWS[folder]))
    assert not unnamed, f"docs/architecture.md's layout row {folder} does not name {unnamed}"


def test_the_check_can_fail():
    text = ("## Layout\n\n| path | what |\n|---|---|\n| `exports/` | the terminal (`text.py`), gone (`nowhere.py`) |\n"
            "\n## Next\n")
    row = layout_rows(text)["exports/"]
    assert named_files(row) == {"text.py", "nowhere.py"}
    assert not (ROOT / "exports" / "nowhere.py").exists()
    assert {p.name for p in (ROOT / "exports").glob("*.py")} - named_files(row)  # most modules unnamed
