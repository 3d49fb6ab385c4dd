"""What the contract suite runs on: every registered ruleset (every version of every game, and
the toy game of tests/toy.py), the matches its own generator plays, and moves that are
structurally valid but were never played (perturbations of the played ones and of each move
type's example).

"Structurally valid" is what the recorder lets through: ``logformat.validate_entry`` (the
envelope, ``by`` a player, and the ruleset's own ``validate_move``). Anything it accepts can
end up in a record, so ``apply``, ``check`` and ``describe`` must take it.
"""

from __future__ import annotations

import copy
import inspect
import random
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from projections import registry
from projections.base import Ruleset
from projections.errors import UnknownGameError
from recorder import logformat

ROOT = Path(__file__).resolve().parents[2]
SEEDS = (0, 1, 2)
STEPS_SAMPLED = 8  # boards of a generated match the perturbed moves are tried on
UNKNOWN_NAME = "存在しない名前"


def all_rulesets() -> dict[str, Ruleset]:
    """``"game/version"`` -> ruleset, for every version of every registered game."""
    out: dict[str, Ruleset] = {}
    for game in registry.available():
        newest = registry.get(game)
        for version in range(1, newest.version + 1):
            try:
                out[f"{game}/{version}"] = registry.get(game, version)
            except UnknownGameError:
                continue
    return out


RULESETS = all_rulesets()


def cases(known: Mapping[str, str] | None = None, seeds: tuple[int, ...] = ()) -> list[Any]:
    """One pytest case per ruleset (per ruleset and seed with ``seeds``). ``known`` maps a case
    id (``game/version``, or ``game/version-seedN``) to the reason it fails this check today
    (a finding, reported): that single case is ``xfail(strict=True)``, so it fails the suite
    again once fixed, until the mark goes."""
    known = known or {}
    out = []
    for rid, rs in RULESETS.items():
        for seed in seeds or (None,):
            case = rid if seed is None else f"{rid}-seed{seed}"
            values = (rs,) if seed is None else (rs, seed)
            marks = [pytest.mark.xfail(strict=True, reason=known[case])] if case in known else []
            out.append(pytest.param(*values, id=case, marks=marks))
    return out


def rules_id(rs: Ruleset) -> str:
    return f"{rs.name}/{rs.version}"


def rules_doc(rs: Ruleset) -> Path:
    """A shipped game's rules page is ``docs/rules/<game>.md``; a game registered at run time
    (the toy) keeps its page beside the module that defines it."""
    shipped = ROOT / "docs" / "rules" / f"{rs.name}.md"
    if shipped.exists():
        return shipped
    return Path(inspect.getfile(type(rs))).with_suffix(".md")


@dataclass(frozen=True)
class Played:
    """A generated match with the board before every move (``boards[i]`` is before move i)."""

    header: dict[str, Any]
    moves: list[dict[str, Any]]
    boards: list[Any]


@cache
def played(rid: str, seed: int) -> Played:
    rs = RULESETS[rid]
    header, moves = rs.generate(random.Random(seed), f"contract-{rs.name}-{seed}")
    header = logformat.normalise_header(copy.deepcopy(header))
    board = rs.initial_board(header)
    boards = [board]
    for move in moves:
        board = rs.apply(board, move)
        boards.append(board)
    return Played(header, moves, boards)


def sampled_steps(n: int) -> list[int]:
    """About STEPS_SAMPLED board indices spread over 0..n, always the first and the last."""
    if n <= STEPS_SAMPLED:
        return list(range(n + 1))
    return sorted({round(i * n / (STEPS_SAMPLED - 1)) for i in range(STEPS_SAMPLED)})


def positions(rs: Ruleset, seeds: tuple[int, ...] = SEEDS[:2]) -> Iterator[tuple[str, Played, int, Any]]:
    """(where, match, step, board before move ``step + 1``) at the sampled steps of the
    generated matches of ``seeds``."""
    for seed in seeds:
        game = played(rules_id(rs), seed)
        for step in sampled_steps(len(game.moves)):
            yield f"seed {seed}, before move {step + 1}", game, step, game.boards[step]


def structurally_valid(rs: Ruleset, header: Mapping[str, Any], move: Mapping[str, Any]) -> bool:
    return not logformat.validate_entry(rs, header, dict(move), move["seq"])


# -- perturbations ---------------------------------------------------------------------------


def value_pool(moves: list[Mapping[str, Any]]) -> dict[str, list[Any]]:
    """Every value each field took in these moves: a field's value swapped for another it
    took elsewhere is a realistic wrong move (a die that is not there, a square out of range)."""
    pool: dict[str, list[Any]] = {}
    for move in moves:
        for key, value in move.items():
            seen = pool.setdefault(key, [])
            if value not in seen and len(seen) < 12:
                seen.append(value)
    return pool


def variants(value: Any, names: list[str], depth: int = 0) -> Iterator[Any]:
    """Values of the same shape as ``value``, some of them nonsense for the game."""
    if isinstance(value, bool):
        yield not value
    elif isinstance(value, int):
        yield from (0, -1, value + 1, value - 1, 99)
    elif isinstance(value, str):
        yield from names[:2]
        yield from (UNKNOWN_NAME, value + "#2", "")
    elif isinstance(value, list):
        yield []
        if value:
            yield value[::-1]
            yield value[1:]
            yield [value[0], *value]
            if depth < 2:
                for other in list(variants(value[0], names, depth + 1))[:4]:
                    yield [other, *value[1:]]
    elif isinstance(value, dict):
        yield {}
        for key in list(value)[:6]:
            yield {k: v for k, v in value.items() if k != key}
            if depth < 2:
                for other in list(variants(value[key], names, depth + 1))[:4]:
                    yield {**value, key: other}


def perturbed(
    move: Mapping[str, Any], players: list[str], pool: Mapping[str, list[Any]], names: list[str]
) -> Iterator[dict[str, Any]]:
    """``move`` by each player, with each field dropped, swapped for a value the field took
    elsewhere, or bent into another value of its shape."""
    base = dict(move)
    for pid in players:
        yield {**base, "by": pid}
    for key, value in move.items():
        if key in ("seq", "type", "by"):
            continue
        yield {k: v for k, v in base.items() if k != key}
        for other in pool.get(key, []):
            if other != value:
                yield {**base, key: other}
        for other in variants(value, names):
            yield {**base, key: other}


def trial_moves(rs: Ruleset, game: Played, step: int) -> list[dict[str, Any]]:
    """Structurally valid moves to try on the board before move ``step`` (0-based): every
    move type's example, the moves played anywhere in the match, and their perturbations."""
    players = [p["id"] for p in game.header["players"]]
    names = sorted(set(rs.vocabulary(game.header)))
    pool = value_pool([*game.moves, *(dict(s.example) for s in rs.move_types.values())])
    seq = step + 1
    rng = random.Random(seq)
    sources = [dict(s.example) for s in rs.move_types.values() if s.example]
    if step < len(game.moves):
        sources.append(game.moves[step])
    sources += rng.sample(game.moves, min(6, len(game.moves)))
    out: list[dict[str, Any]] = []
    seen: set[str] = set()
    for source in sources:
        for move in [dict(source), *perturbed(source, players, pool, names)]:
            move["seq"] = seq
            key = logformat.dumps(move)
            if key in seen:
                continue
            seen.add(key)
            if structurally_valid(rs, game.header, move):
                out.append(move)
    return out


def shown(move: Mapping[str, Any]) -> str:
    return logformat.clip(logformat.dumps(move), 300)
