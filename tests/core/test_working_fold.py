"""Working folds (projections.package.evolve/freeze): a replay folds on boards it may change in
place, yet every board it keeps or hands out is the one the pure ``apply`` gives, and no kept
board ever changes (docs/engine.md, "Fast folds")."""

from __future__ import annotations

import contextlib
import pickle
from dataclasses import dataclass
from pathlib import Path

import pytest

from projections import registry
from projections.base import Violation
from projections.package import evolve, freeze, pure
from projections.replay import APPLY_FAILED, CHECKPOINT, Replay
from recorder.logformat import read_file
from recorder.tools.synth import generate

EXAMPLES = sorted((Path(__file__).parents[2] / "examples").glob("*.jsonl"))
GAMES = ["gandice", "mushijingi", "gurren-lagann", "variants-war"]


def _matches(game: str) -> list[tuple[dict, list[dict]]]:
    ruleset = registry.get(game)
    out = [generate(ruleset, seed, i) for seed in (3, 11) for i in range(3)]
    out += [read_file(str(p)) for p in EXAMPLES if p.name.startswith(game)]
    return out


def _pure_boards(rep: Replay) -> list:
    """Every step's board, folded with the pure ``apply`` one move at a time."""
    board = rep.ruleset.initial_board(rep.header)
    boards = [board]
    for moves in rep.moves_by_step:
        for move in moves:
            with contextlib.suppress(Exception):  # a move the ruleset cannot apply leaves the board
                board = rep.ruleset.apply(board, move)
        boards.append(board)
    return boards


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("view", ["ruled", "recorded"])
def test_a_working_fold_keeps_the_boards_the_pure_apply_gives(game: str, view: str) -> None:
    for header, entries in _matches(game):
        rep = Replay(header, entries, view=view, checks=False)
        pure_boards = _pure_boards(rep)
        kept = pickle.dumps(pure_boards)
        n = rep.steps
        assert rep.board(n) == pure_boards[n], header["match"]["id"]
        for step, board in rep._checkpoints.items():  # kept on the way, never changed after
            assert board == pure_boards[step], (header["match"]["id"], step)
        for step in sorted({1, n // 3, n // 2, n - 1, max(0, n - CHECKPOINT - 1)} - {-1}):
            assert rep.board(step) == pure_boards[step], (header["match"]["id"], step)
        assert pickle.dumps(pure_boards) == kept  # the pure boards were never touched


@pytest.mark.parametrize("game", GAMES)
def test_a_working_fold_finds_the_violations_of_a_pure_one(game: str) -> None:
    for header, entries in _matches(game):
        working = Replay(header, entries)
        plain = Replay(header, entries)
        plain._working = None  # the pure apply for every move
        assert working.violations() == plain.violations()
        assert working.result() == plain.result()
        assert working.board(working.steps) == plain.board(plain.steps)


def _copying_evolve(obj, **changes):
    """``evolve`` as it was before working folds: always a new object."""
    new = object.__new__(type(obj))
    new.__dict__.update(obj.__dict__)
    new.__dict__.update(changes)
    new.__dict__.pop("_w", None)
    return new


@pytest.mark.parametrize("game", GAMES)
def test_changing_in_place_gives_the_boards_copying_gave(game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Within a move and across moves: the fold's results do not depend on whether ``evolve``
    copied or changed its own objects in place (a stale reference read after its object was
    changed would show here)."""
    import sys

    matches = [generate(registry.get(game), seed, i) for seed in (5, 17, 23) for i in range(4)]
    matches += _matches(game)
    working = []
    for header, entries in matches:
        rep = Replay(header, entries, checks=False)
        working.append([rep.board(s) for s in range(rep.steps + 1)])
    with monkeypatch.context() as patch:
        for name, module in list(sys.modules.items()):
            if name.startswith("projections.") and getattr(module, "evolve", None) is evolve:
                patch.setattr(module, "evolve", _copying_evolve)
        for (header, entries), boards in zip(matches, working, strict=True):
            rep = Replay(header, entries, checks=False)
            rep._working = None
            copied = [rep.board(s) for s in range(rep.steps + 1)]
            assert copied == boards, header["match"]["id"]


def test_a_board_handed_out_never_changes_as_the_replay_goes_on() -> None:
    header, entries = _matches("variants-war")[0]
    rep = Replay(header, entries, checks=False)
    handed = rep.board(7)
    before = pickle.dumps(handed)
    rep.board(20)  # goes on from the board handed out
    rep.board(rep.steps)
    rep.board(3)
    rep.board(rep.steps - 1)
    assert pickle.dumps(handed) == before


# -- the mark itself ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Counter:
    n: int
    log: tuple[str, ...] = ()


def test_evolve_changes_in_place_only_what_the_working_fold_made() -> None:
    freeze()
    kept = Counter(0)
    first = evolve(kept, n=1)
    assert first is not kept and kept.n == 0  # a kept value is copied
    second = evolve(first, n=2)
    assert second is first and first.n == 2  # the fold's own copy changes in place
    freeze()
    third = evolve(second, n=3)
    assert third is not second and second.n == 2  # after freeze it is kept


def test_the_mark_does_not_survive_a_pickle_into_another_fold() -> None:
    freeze()
    mine = evolve(Counter(0), n=1)
    copied = pickle.loads(pickle.dumps(mine))
    assert evolve(copied, n=5) is not copied and copied.n == 1
    assert mine == Counter(1) and copied == Counter(1)  # the mark is not a field


def test_pure_leaves_an_unfrozen_board_given_to_it_alone() -> None:
    def fold(board: Counter, move: dict) -> Counter:
        """Count the moves and log their types."""
        board = evolve(board, n=board.n + 1)
        return evolve(board, log=board.log + (move["type"],))

    apply = pure(fold)
    freeze()
    working = evolve(Counter(0), n=10)  # made by a fold that has not frozen yet
    after = apply(working, {"type": "x"})
    assert working == Counter(10) and after == Counter(11, ("x",))
    again = apply(after, {"type": "y"})
    assert after == Counter(11, ("x",)) and again == Counter(12, ("x", "y"))
    assert apply.__name__ == "apply" and apply.__doc__ == fold.__doc__


# -- a ruleset that fails half way through a move ------------------------------------------------------


class HalfFails:
    """The toy game, folded in place, whose ``apply`` raises on a ``boom`` move after it has
    already changed its working board."""

    def __init__(self) -> None:
        self.toy = registry.get("toy")
        for name in ("name", "version", "aliases", "title", "min_players", "max_players",
                     "house_rules", "move_types"):
            setattr(self, name, getattr(self.toy, name))

    def __getattr__(self, name: str):
        return getattr(self.toy, name)

    def apply_working(self, board, move):
        board = evolve(board, turn=board.turn + 1)
        if move.get("points") == 3:
            raise RuntimeError("boom")
        return board

    def apply(self, board, move):
        return pure(self.apply_working)(board, move)

    def check(self, board, move):
        freeze()
        return []


def test_a_move_that_fails_half_applied_leaves_the_board_before_it() -> None:
    header = {"kifu": 1, "game": "toy", "rules": "toy/1", "match": {"id": "half"},
              "players": [{"id": "A"}, {"id": "B"}]}
    entries = [{"seq": i + 1, "type": "score", "by": "AB"[i % 2], "points": p}
               for i, p in enumerate([1, 2, 3, 1, 2])]
    folds = Replay(header, entries, ruleset=HalfFails(), checks=False)  # in place across moves
    assert folds.board(5).turn == 1 + 4  # the failed move changed nothing
    assert folds.board(2).turn == 3 and folds.board(3).turn == 3
    rep = Replay(header, entries, ruleset=HalfFails())
    assert rep.board(5).turn == 1 + 4
    failed = [v for v in rep.violations() if v.rule == APPLY_FAILED]
    assert failed == [Violation(3, APPLY_FAILED, "move could not be applied: boom")]


def test_a_replay_folds_with_the_working_apply_when_the_ruleset_has_one():
    """The speed is the point: a replay must fold with ``apply_working`` (one new board per
    stretch between kept boards), not with the pure ``apply`` (one per move)."""
    header, entries = _matches("mushijingi")[0]
    ruleset = registry.for_header(header)
    calls = {"apply": 0, "apply_working": 0}

    class Counting:
        def __getattr__(self, name):
            return getattr(ruleset, name)

        def apply(self, board, move):
            calls["apply"] += 1
            return ruleset.apply(board, move)

        def apply_working(self, board, move):
            calls["apply_working"] += 1
            return ruleset.apply_working(board, move)

    rep = Replay(header, entries, ruleset=Counting(), checks=False)
    assert rep.board(rep.steps) == Replay(header, entries, checks=False).board(rep.steps)
    moves = sum(len(m) for m in rep.moves_by_step)
    assert calls == {"apply": 0, "apply_working": moves}


def test_the_rulesets_working_apply_changes_in_place_what_it_made():
    header, entries = _matches("mushijingi")[0]
    ruleset = registry.for_header(header)
    moves = [m for step in Replay(header, entries, checks=False).moves_by_step for m in step][:6]
    kept = ruleset.apply(ruleset.initial_board(header), moves[0])
    first = ruleset.apply_working(kept, moves[1])
    assert first is not kept  # a kept board is copied
    board = first
    for move in moves[2:]:
        board = ruleset.apply_working(board, move)
        assert board is first  # then the fold's own board changes in place, move after move
    freeze()
    assert ruleset.apply(board, moves[2]) is not board  # the pure apply never does
