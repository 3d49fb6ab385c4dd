"""The contract every ruleset keeps (projections/base.py), run on every registered ruleset —
the four games in every rules version, and the toy game — so a new game gets these checks by
being registered (docs/adding-a-game.md).

A case that fails here is a finding about that game: it is marked ``xfail(strict=True)`` in
``KNOWN`` below with what broke, never skipped, and the mark fails the suite once it is fixed.
"""

from __future__ import annotations

import contextlib
import copy
import json
import random
import re
from pathlib import Path

import pytest

from projections.base import Ruleset, Violation
from projections.replay import Replay
from recorder import logformat, service
from recorder.store import Store
from tests.contract.rulesets import (
    SEEDS,
    cases,
    played,
    positions,
    rules_doc,
    rules_id,
    sampled_steps,
    shown,
    structurally_valid,
    trial_moves,
)

LANGS = ("ja", "en")
# A rule id where a rules page defines it: a heading, a table's first cell or a bold lead.
DEFINED_ID = re.compile(r"^\s*(?:#{1,6}\s+|\|\s*|[-*]\s+\*\*|\*\*)`?([A-Z]{2,5}-\d+(?:\.\d+)*[a-z]?)\b", re.M)
CORE_IDS = frozenset(
    DEFINED_ID.findall((Path(__file__).resolve().parents[2] / "docs/rules/core.md").read_text("utf-8"))
)
# Notation is words: no dict, list or JSON syntax and no Python reprs leaking into it.
RAW = re.compile(r"[{}]|\[\s*['\"\]]|['\"][\w-]+['\"]\s*:|\b(?:None|True|False)\b|<[a-z]+ |&#")
MAX_SHOWN = 5  # failures listed per case

# Findings: cases that fail today, each xfail(strict=True). (The variants-war/1 generator that
# played under /2's defaults was the first finding: fixed, generate folds with the version's own
# initial_board.)
GENERATED_ILLEGAL: dict[str, str] = {}


def failures(found: list[str]) -> str:
    more = f"\n  … and {len(found) - MAX_SHOWN} more" if len(found) > MAX_SHOWN else ""
    return f"{len(found)} failure(s):\n  " + "\n  ".join(found[:MAX_SHOWN]) + more


def test_every_game_and_the_toy_are_under_contract():
    ids = {rid.split("/")[0] for rid in (rules_id(p.values[0]) for p in cases())}
    assert {"gandice", "mushijingi", "gurren-lagann", "variants-war", "toy"} <= ids


@pytest.mark.parametrize("rs", cases())
def test_protocol_and_move_examples(rs: Ruleset):
    assert isinstance(rs, Ruleset), f"{rules_id(rs)} lacks part of the protocol"
    assert rs.move_types, "no move types"
    game = played(rules_id(rs), SEEDS[0])
    problems = []
    for kind, spec in rs.move_types.items():
        assert spec.type == kind and spec.summary, kind
        example = dict(spec.example)
        if example.get("type") != kind:
            problems.append(f"{kind}: example is not a {kind} line: {shown(example)}")
        elif not structurally_valid(rs, game.header, {**example, "by": game.header["players"][0]["id"]}):
            errors = logformat.validate_entry(rs, game.header, example, example.get("seq", 1))
            problems.append(f"{kind}: example refused: {'; '.join(map(str, errors))}")
    assert not problems, failures(problems)


@pytest.mark.parametrize("rs", cases())
def test_apply_check_describe_name_errors_never_raise_on_structurally_valid_moves(rs: Ruleset):
    """Any move the recorder lets through, on boards from the start to the end of a match: the
    moves played elsewhere in it, each type's example, and perturbations of them."""
    problems: list[str] = []
    tried = 0
    for at, game, step, board in positions(rs):
        decided = rs.result(board) is not None
        for move in trial_moves(rs, game, step):
            tried += 1
            where = f"{at}: {shown(move)}"
            calls = [("apply", rs.apply, (board, move))]
            if not decided:  # the engine asks check nothing once the rules decided the match
                calls.append(("check", rs.check, (board, move)))
            calls += [(f"describe {lang}", rs.describe, (board, move, lang)) for lang in LANGS]
            if hasattr(rs, "name_errors"):  # optional in the protocol; the recorder asks it first
                calls.append(("name_errors", rs.name_errors, (board, move)))
            for what, fn, args in calls:
                try:
                    fn(*args)
                except Exception as exc:  # any exception is the finding
                    problems.append(f"{what} raised {type(exc).__name__}: {exc} — {where}")
    assert tried > 20, f"only {tried} moves tried"
    assert not problems, failures(problems)


@pytest.mark.parametrize("rs", cases())
def test_apply_leaves_a_kept_board_untouched(rs: Ruleset):
    problems: list[str] = []
    for seed in SEEDS[:2]:
        game = played(rules_id(rs), seed)
        steps = set(sampled_steps(len(game.moves)))
        for step, board in enumerate(game.boards):
            moves = [game.moves[step]] if step < len(game.moves) else []
            if step in steps:
                moves += trial_moves(rs, game, step)
            kept = copy.deepcopy(board)
            for move in moves:
                with contextlib.suppress(Exception):  # the never-raise test reports it
                    rs.apply(board, move)
                if board != kept:
                    problems.append(
                        f"seed {seed}: the board before move {step + 1} changed when {shown(move)} was applied"
                    )
                    break
    assert not problems, failures(problems)


@pytest.mark.parametrize("rs", cases())
def test_every_violation_cites_a_documented_rule(rs: Ruleset):
    doc = rules_doc(rs)
    assert doc.exists(), f"no rules page for {rs.name}: {doc}"
    documented = set(DEFINED_ID.findall(doc.read_text("utf-8"))) | CORE_IDS
    problems: list[str] = []
    cited: set[str] = set()
    for _, game, step, board in positions(rs):
        if rs.result(board) is not None:
            continue  # the engine flags KIFU-2 there and asks the ruleset nothing
        for move in trial_moves(rs, game, step):
            try:
                found = rs.check(board, move)
            except Exception:  # reported by the never-raise test
                continue
            for v in found:
                cited.add(v.rule)
                problems += violation_problems(rs, game.header, move, v, documented)
    assert cited, "no perturbed move broke a rule: the perturbations reach nothing"
    assert not problems, failures(sorted(set(problems)))


def violation_problems(rs: Ruleset, header: dict, move: dict, v: Violation, documented: set[str]) -> list[str]:
    out = []
    if not isinstance(v, Violation):
        return [f"check returned {type(v).__name__}, not a Violation, for {shown(move)}"]
    if v.rule not in documented:
        out.append(f"{v.rule} is not defined in {rules_doc(rs).name} (cited for {shown(move)})")
    if v.seq != move["seq"] or not v.message.strip():
        out.append(f"{v.rule}: seq {v.seq} / message {v.message!r} for move {move['seq']}")
    try:
        json.dumps(v.to_json(), ensure_ascii=False)
    except (TypeError, ValueError) as exc:
        out.append(f"{v.rule}: violation is not JSON ({exc})")
    for s in v.suggest or ():
        if not structurally_valid(rs, header, {**s, "seq": move["seq"]}):
            out.append(f"{v.rule}: suggested replacement would be refused: {shown(s)}")
    return out


@pytest.mark.parametrize("rs", cases())
def test_legal_moves_check_clean(rs: Ruleset):
    problems: list[str] = []
    offered = 0
    for at, game, step, board in positions(rs):
        if rs.result(board) is not None:
            continue
        for move in list(rs.legal_moves(board))[:40]:
            offered += 1
            move = {**move, "seq": step + 1}
            where = f"{at}: {shown(move)}"
            errors = logformat.validate_entry(rs, game.header, move, step + 1)
            if errors:
                problems.append(f"legal move refused ({'; '.join(map(str, errors))}) — {where}")
                continue
            found = rs.check(board, move)
            if found:
                problems.append(f"legal move breaks {', '.join(v.rule for v in found)} — {where}")
            rs.apply(board, move)
    assert not problems, failures(problems)
    assert offered, "legal_moves offered nothing on any board before the end"


@pytest.mark.parametrize(("rs", "seed"), cases(GENERATED_ILLEGAL, seeds=SEEDS))
def test_generated_matches_check_clean(rs: Ruleset, seed: int):
    game = played(rules_id(rs), seed)
    assert game.moves, "an empty match"
    for i, move in enumerate(game.moves):
        assert structurally_valid(rs, game.header, move), f"move {i + 1} refused: {shown(move)}"
    replay = Replay(game.header, game.moves)
    found = [f"{v.rule} at {v.seq}: {v.message}" for v in replay.violations()]
    assert not found, failures(found)
    assert replay.result() is not None or len(game.moves) >= 50, "a short generated match that never ends"


@pytest.mark.parametrize("rs", cases())
def test_generated_matches_round_trip_through_export_import_and_a_store(rs: Ruleset, tmp_path):
    game = played(rules_id(rs), SEEDS[0])
    lines = list(logformat.export_lines(game.header, game.moves))
    header, entries = logformat.parse_lines(lines, "generated.jsonl")
    assert list(logformat.export_lines(header, entries)) == lines, "export → parse → export changed the log"

    path = tmp_path / "generated.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    store = Store(str(tmp_path / "kifu.db"))
    try:
        match_id = service.import_file(store, str(path))
        stored = store.load(match_id)
        assert list(logformat.export_lines(*stored)) == lines, "import → export changed the log"
        again, fresh = Replay(*stored), Replay(game.header, game.moves)
        for step in range(len(game.moves) + 1):
            assert again.board_json(step) == fresh.board_json(step), f"board {step} differs after import"

        # the live path: each move through service.record, strictly (a legal move is accepted)
        live = {**game.header, "match": {**game.header["match"], "id": f"{match_id}-live"}}
        live_id = service.create_match(store, live)
        for move in game.moves:
            service.record(store, live_id, {k: v for k, v in move.items() if k != "seq"}, strict=True)
        recorded = [{k: v for k, v in e.items() if k != "at"} for e in store.load(live_id)[1]]
        assert recorded == game.moves, "moves recorded one by one differ from the generated ones"
    finally:
        store.close()


@pytest.mark.parametrize("rs", cases())
def test_describe_every_generated_move_in_words(rs: Ruleset):
    problems: list[str] = []
    for seed in SEEDS:
        game = played(rules_id(rs), seed)
        for i, move in enumerate(game.moves):
            for lang in LANGS:
                text = rs.describe(game.boards[i], move, lang)
                where = f"seed {seed}, move {i + 1} ({lang}): {shown(move)}"
                if not isinstance(text, str) or not text.strip():
                    problems.append(f"no text — {where}")
                elif RAW.search(text):
                    problems.append(f"raw syntax in {text!r} — {where}")
                elif "\n" in text:
                    problems.append(f"more than one line in {text!r} — {where}")
    assert not problems, failures(problems)


@pytest.mark.parametrize("rs", cases())
def test_generate_is_seeded_and_boards_render(rs: Ruleset):
    """The same seed gives the same match; every board of it renders as JSON and as text."""
    again = rs.generate(random.Random(SEEDS[0]), f"contract-{rs.name}-{SEEDS[0]}")
    game = played(rules_id(rs), SEEDS[0])
    assert again[1] == game.moves, "the same seed gave another match"
    assert not rs.validate_header(game.header), "the generated header is refused"
    problems: list[str] = []
    for step, board in enumerate(game.boards):
        data = rs.board_json(board)
        if not {"turn", "active", "players"} <= set(data):
            problems.append(f"board {step}: board JSON lacks {sorted({'turn', 'active', 'players'} - set(data))}")
        try:
            json.dumps(data, ensure_ascii=False)
        except (TypeError, ValueError) as exc:
            problems.append(f"board {step}: board JSON is not JSON ({exc})")
        text = rs.render_text(board)
        if not isinstance(text, str) or not text.strip():
            problems.append(f"board {step}: no terminal board")
    assert not problems, failures(problems)


@pytest.mark.parametrize("rs", cases())
def test_the_record_goes_on_after_an_illegal_move(rs: Ruleset):
    """A recorded illegal move is kept, and the match goes on from the board it left: the
    moves played next still fold, check, read and render on that board."""
    problems: list[str] = []
    for at, game, step, board in positions(rs):
        trials = trial_moves(rs, game, step)
        for odd in random.Random(step).sample(trials, min(25, len(trials))):
            try:
                after = rs.apply(board, odd)
            except Exception:  # reported by the never-raise test
                continue
            for move in game.moves[step : step + 6]:
                move = {**move, "seq": move["seq"] + 1}
                calls = [
                    ("check", lambda b, m: rs.result(b) is None and rs.check(b, m)),
                    ("describe", lambda b, m: rs.describe(b, m, "ja")),
                    ("board_json", lambda b, m: rs.board_json(b)),
                    ("render_text", lambda b, m: rs.render_text(b)),
                ]
                if move["seq"] == step + 2:  # listing legal moves is the costly question: once
                    calls.append(("legal_moves", lambda b, m: list(rs.legal_moves(b))))
                for what, fn in calls:
                    try:
                        fn(after, move)
                    except Exception as exc:  # any exception is the finding
                        problems.append(f"{what} raised {type(exc).__name__}: {exc} — {at}, after {shown(odd)}")
                try:
                    after = rs.apply(after, move)
                except Exception as exc:
                    problems.append(
                        f"apply raised {type(exc).__name__}: {exc} on {shown(move)} — {at}, after {shown(odd)}"
                    )
                    break
    assert not problems, failures(problems)
