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
from projections.errors import KifuError, LogFormatError
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
    found += [*ruleset.move_types, *META_TYPES]  # the log's own codes (known: attack, defend, ...)
    return sorted(set(found), key=len, reverse=True)


def english_in(text: str, names: list[str]) -> list[str]:
    for name in names:
        if len(name) > 1:  # a name as a whole word: "draw" is a move type, "drawn" would be English
            text = re.sub(rf"(?<![A-Za-z]){re.escape(name)}(?![A-Za-z])", " ", text)
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


def match_of(source: Path | str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A shipped example, or a game's seeded random match (``generated:GAME``)."""
    if isinstance(source, Path):
        return logformat.read_file(str(source))
    import random

    return registry.get(source.partition(":")[2]).generate(random.Random(0), "gen-flags")


GENERATED = [f"generated:{g}" for g in ("gandice", "gurren-lagann", "mushijingi", "variants-war")]


@pytest.mark.parametrize("path", EXAMPLES + GENERATED, ids=lambda p: p.stem if isinstance(p, Path) else p)
def test_every_flag_and_refusal_of_an_example_is_japanese(path):
    header, entries = match_of(path)
    where = path.name if isinstance(path, Path) else path
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
                    ja = i18n.translate("ja", at(f"{where}:{entry['seq']}", e))
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


def bad_lines(header: Mapping[str, Any], entries: list[dict[str, Any]], ruleset: Any) -> list[dict[str, Any]]:
    """Lines a scorekeeper might send by mistake, each refused: an unknown move type, a
    stranger's move, a move without its fields, a name the match does not have, a note on a
    line that is not there."""
    players = [p["id"] for p in header["players"]]
    move = next(e for e in entries if e["type"] not in META_TYPES)
    spec = ruleset.move_types[move["type"]]
    lines = [{"type": "no-such-move", "by": players[0]}, {**{k: v for k, v in move.items() if k != "seq"}, "by": "誰か"}]
    if set(spec.required) - {"by"}:
        lines.append({"type": move["type"], "by": move["by"]})  # every field missing
    named = next((k for k, v in move.items() if isinstance(v, str) and k not in ("type", "by", "at") and v), None)
    if named:
        lines.append({**{k: v for k, v in move.items() if k != "seq"}, named: "存在しない名前"})
    lines.append({"type": "annotate", "by": players[0], "on": 999, "text": "確認"})
    lines.append({"type": "ruling", "by": players[0], "dispute": 1, "decision": "upheld"})
    assert spec.required or named  # a move of every game has something to get wrong
    return lines


def flagged(header: Mapping[str, Any], entries: list[dict[str, Any]], ruleset: Any) -> tuple[int, dict[str, Any]]:
    """The first line of the example a mistype of which is recorded with a flag (well formed,
    names known, a rule broken): how many lines come before it, and the mistyped move."""
    board = ruleset.initial_board(header)
    find = getattr(ruleset, "name_errors", lambda _b, _m: [])
    for i, entry in enumerate(entries):
        if entry["type"] not in META_TYPES:
            for m in mistypes(entry, [p["id"] for p in header["players"]]):
                if "seq" in m and not logformat.validate_entry(ruleset, header, m, m["seq"]) and not find(board, m) \
                        and ruleset.check(board, m):
                    return i, {k: v for k, v in m.items() if k not in ("seq", "at")}
        board = ruleset.apply(board, entry)
    raise AssertionError("no mistype of a move is flagged")


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_every_refusal_of_a_bad_line_is_japanese(path, tmp_path):
    """Through the one write path (``service.record``) and the record API asked in Japanese
    (the page's cookie), then in English and asked nothing (a script): English, as before."""
    from starlette.testclient import TestClient

    from recorder import service
    from recorder.store import Store
    from recorder.web.server import create_app

    header, entries = logformat.read_file(str(path))
    ruleset = registry.for_header(header)
    names = names_of(header, ruleset)
    db = str(tmp_path / "kifu.db")
    store = Store(db)
    mid = service.create_match(store, header)
    before, mistyped = flagged(header, entries, ruleset)
    for e in entries[:before]:
        service.record(store, mid, {k: v for k, v in e.items() if k not in ("seq", "at")})
    bad = bad_lines(header, entries, ruleset)
    refused = 0
    for line in bad:
        with pytest.raises(KifuError) as caught:
            service.record(store, mid, line)
        problems = caught.value.problems if isinstance(caught.value, LogFormatError) else [i18n.said_of(caught.value)]
        for p in problems:
            ja = i18n.translate("ja", p)
            assert not english_in(ja, names), (p, ja)
            assert re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", ja), (p, ja)
            refused += 1
    store.close()
    assert refused >= len(bad)

    token = "t" * 32
    with TestClient(create_app(db, token)) as client:
        auth = {"Authorization": f"Bearer {token}"}
        url = f"/api/matches/{mid}/events"
        for line in bad:
            r = client.post(url, params={"lang": "ja"}, json=line, headers=auth)
            assert r.status_code == 400, r.text
            body = r.json()
            for said in [body["error"], *body.get("problems", [])]:
                assert not english_in(said, names) and re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", said), said
            english = client.post(url, json=line, headers=auth).json()["error"]
            assert english_in(english, names) or not re.search(r"[\u3040-\u30ff]", english), english
        # a line recorded with a flag: its violations in the page's language too
        r = client.post(url, json=mistyped, headers=auth, cookies={"kifu-lang": "ja"})
        assert r.status_code == 201, r.text
        flags = r.json()["violations"]
        assert flags
        for v in flags:
            assert not english_in(v["message"], names), v
