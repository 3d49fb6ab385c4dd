"""Documentation stays true: the log-format page is current, its examples are valid lines,
and every rule id a ruleset can emit is documented in docs/rules/<game>.md."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from projections import registry
from recorder import logformat
from recorder.tools import docgen

ROOT = Path(__file__).resolve().parents[2]
GAMES = [g for g in registry.available() if g != "toy"]


def test_log_format_doc_is_current():
    assert docgen.TARGET.read_text(encoding="utf-8") == docgen.render(), "run `make docs`"


@pytest.mark.parametrize("game", GAMES)
def test_every_move_type_has_a_valid_example_line(game):
    ruleset = registry.get(game)
    header, _ = ruleset.generate(__import__("random").Random(1), "doc-check")
    header = logformat.normalise_header(header)
    assert ruleset.move_types
    for name, spec in ruleset.move_types.items():
        example = dict(spec.example)
        assert example.get("type") == name, name
        assert spec.summary, name
        problems = [str(e) for e in logformat.validate_entry(ruleset, header, dict(example, seq=example.get("seq", 1)), example.get("seq", 1))]
        problems = [p for p in problems if not p.startswith(("by:", "seq:"))]
        assert not problems, (name, problems)


@pytest.mark.parametrize("game", GAMES)
def test_rule_ids_in_code_are_documented(game):
    ruleset = registry.get(game)
    doc = (ROOT / "docs" / "rules" / f"{ruleset.name}.md").read_text(encoding="utf-8")
    package = ROOT / "projections" / registry.GAMES[game].split(".")[-1]
    prefix = rule_prefix(doc)
    used = set()
    for path in package.rglob("*.py"):
        used |= set(re.findall(rf'"({prefix}-[0-9][0-9A-Za-z.\-]*)"', path.read_text(encoding="utf-8")))
    assert used, "no rule ids found in the ruleset"
    missing = sorted(r for r in used if r not in doc)
    assert not missing, f"rule ids used but not documented in docs/rules/{ruleset.name}.md: {missing}"


def rule_prefix(doc: str) -> str:
    """The game's rule-id prefix, read from its rules page (the one its ids start with, as
    ``GD`` in ``GD-4.1``; KIFU is the core's): a new game needs no entry here."""
    from collections import Counter

    found = Counter(m for m in re.findall(r"\b([A-Z]{2,5})-[0-9]", doc) if m != "KIFU")
    assert found, "no rule ids on the rules page"
    return found.most_common(1)[0][0]


@pytest.mark.parametrize("game", GAMES)
def test_the_rule_prefix_is_read_from_the_rules_page(game):
    doc = (ROOT / "docs" / "rules" / f"{registry.get(game).name}.md").read_text(encoding="utf-8")
    expected = {"gandice": "GD", "mushijingi": "MJ", "gurren-lagann": "GL", "variants-war": "VW"}
    if game in expected:
        assert rule_prefix(doc) == expected[game]
