"""No English sentence on the Japanese page (issue 37): every rule flag a move of the shipped
examples can raise, and every refusal of a bad move (through ``service.record`` and the record
API asked in Japanese), said in Japanese by the functions the page and the API use
(``exports.i18n.violation_json``, ``translate``). A move is tried as recorded and as a
scorekeeper might mistype it (a field dropped, a number off, a name swapped), so the flags of
most rules are raised, not only the few the examples break."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from exports import i18n
from projections import registry
from projections.base import META_TYPES, at
from recorder import logformat

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted(ROOT.glob("examples/*-example.jsonl"))
# English: two or more words of letters in a row ("recorded power", "discards down"); a rule id
# (GL-7.5), a field (card), a number or a name alone is not a sentence.
SENTENCE = re.compile(r"(?<![\w.-])[A-Za-z]{2,}(?:'[a-z]+)?(?:[ ,]+[A-Za-z]{2,}(?:'[a-z]+)?)+(?![\w-])")


def names_of(header: Mapping[str, Any], ruleset: Any) -> list[str]:
    """What a match names as recorded (players, decks, cards, dice, squares): never translated."""
    found = [str(p.get(k)) for p in header["players"] for k in ("id", "name") if p.get(k)]
    found += [str(v) for p in header["players"] for v in (p.get("deck") or {}).values() if isinstance(v, str)]
    found += [str(n) for n in ruleset.vocabulary(header)]
    found += [str(header["match"]["id"])]
    return sorted(set(found), key=len, reverse=True)


def english_in(text: str, names: list[str]) -> list[str]:
    for name in names:
        if len(name) > 1:
            text = text.replace(name, " ")
    return SENTENCE.findall(text)


def test_the_check_bites():
    assert english_in("ルール GL-7.5: recorded power 10–7, the cards say 10–5", [])
    assert english_in("A holds 8 cards and discards down to 6", [])
    assert english_in("card: missing or wrong", [])
    assert not english_in("GL-7.5: 記録された攻撃力 10–7 (card: ありません; partners.0.die)", [])
    assert not english_in("Team Red の手札", ["Team Red"])


def mistypes(move: Mapping[str, Any], players: list[str]) -> Iterator[dict[str, Any]]:
    """The move as recorded, then as a scorekeeper might mistype it."""
    yield dict(move)
    for key, value in move.items():
        if key == "seq":
            continue
        yield {k: v for k, v in move.items() if k != key}
        if isinstance(value, bool):
            yield {**move, key: not value}
        elif isinstance(value, int):
            for delta in (1, -1, 5, 100):
                yield {**move, key: value + delta}
        elif isinstance(value, str):
            yield {**move, key: "zz"}
            for p in players:
                yield {**move, key: p}
        elif isinstance(value, list):
            yield {**move, key: []}
            yield {**move, key: value + value[:1]}
            yield {**move, key: value[:-1]}
        elif value is None:
            yield {**move, key: 1}


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_every_flag_and_refusal_of_an_example_is_japanese(path):
    header, entries = logformat.read_file(str(path))
    ruleset = registry.for_header(header)
    names = names_of(header, ruleset)
    players = [p["id"] for p in header["players"]]
    board = ruleset.initial_board(header)
    rules: set[str] = set()
    said: set[str] = set()
    english: dict[str, str] = {}
    for entry in entries:
        if entry["type"] in META_TYPES:
            continue
        for move in mistypes(entry, players):
            errors = logformat.validate_entry(ruleset, header, move, entry["seq"])
            if errors:
                for e in errors:
                    ja = i18n.translate("ja", at(f"{path.name}:{entry['seq']}", e))
                    said.add(ja)
                    for found in english_in(ja, names):
                        english.setdefault(str(e), found)
                continue
            for v in ruleset.check(board, move):
                ja = i18n.violation_json("ja", v)["message"]
                rules.add(v.rule)
                said.add(ja)
                for found in english_in(ja, names):
                    english.setdefault(f"{v.rule}: {v.message}", found)
        board = ruleset.apply(board, entry)
    assert not english, "\n".join(f"{k}  <- {v!r}" for k, v in sorted(english.items()))
    assert len(rules) >= 8 and len(said) >= 50, (sorted(rules), len(said))  # the mistypes reach many rules
