"""Replay: fold a match's lines into boards, in either view, and seek to any step.

Two views of one immutable record:

* ``recorded`` — every move as it was logged; rulings and corrections are ignored.
* ``ruled`` — the judges' word applied: an ``overturned`` ruling (or a ``correct``) voids the
  move it is about and plays its ``replace`` moves in its place; ``rewind`` also voids every
  move after it and before the ruling. The last effective ruling of a dispute counts (a head
  judge's over a floor judge's).

A line that breaks a rule decides nothing by itself (KIFU-3, docs/rules/core.md): when the
move that ends the match is flagged, the result is provisional (``Result.pending``) until a
judge upholds the move or a ruling or correction replaces it; while it is pending, the lines
after it are checked as usual, not flagged as played after the result (KIFU-2). House option
``flagged_results`` (``pending`` or ``stand``; each rules version says its default).

Step N is the board after line N, in both views, so the views can be compared step by step.
Seeking keeps a checkpoint board every ``CHECKPOINT`` steps (boards are immutable values, so
a checkpoint is just a reference): going back or jumping never replays from the start.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, UTC
from typing import Any

from projections import registry
from projections.base import N_, said
from projections.package import FLAGGED_RESULTS, freeze
from projections.base import META_TYPES, Board, Pending, Result, Ruleset, Violation

VIEWS = ("ruled", "recorded")
CHECKPOINT = 50
# A fold without checks keeps a frozen board every KEEP_BEFORE steps while the match is
# undecided, so the rules a deciding line broke (KIFU-3) are found by folding at most that many
# steps again, not from the last checkpoint.
KEEP_BEFORE = 4
# Core rule ids (docs/rules/core.md).
APPLY_FAILED = "KIFU-1"
AFTER_RESULT = "KIFU-2"
FLAGGED_DECISION = "KIFU-3"


@dataclass(frozen=True)
class Frame:
    """The board after one step, with what the core derives around it."""

    step: int
    board: Board
    result: Result | None
    violations: tuple[Violation, ...]  # every violation up to and including this step


def effective_moves(
    entries: Sequence[Mapping[str, Any]], view: str
) -> list[list[Mapping[str, Any]]]:
    """For each step (1..n) the game moves that take effect there, in the given view."""
    moves: list[list[Mapping[str, Any]]] = [
        [] if e["type"] in META_TYPES else [e] for e in entries
    ]
    if view == "recorded":
        return moves
    by_seq = {e["seq"]: e for e in entries}
    # The decision in force for each dispute: the last ruling on it (the workflow makes sure a
    # head ruling is last and final).
    final: dict[int, Mapping[str, Any]] = {}
    for entry in entries:
        if entry["type"] == "ruling":
            final[entry["dispute"]] = entry
    replacements: list[tuple[int, int, Mapping[str, Any]]] = []  # (ruled at, on, source)
    for dispute_seq, ruling in final.items():
        dispute = by_seq.get(dispute_seq)
        if dispute is None or dispute["type"] != "dispute" or ruling["decision"] != "overturned":
            continue
        replacements.append((ruling["seq"], dispute["on"], ruling))
    for entry in entries:
        if entry["type"] == "correct":
            replacements.append((entry["seq"], entry["on"], entry))
    # Apply in the order they were recorded, so a later correction wins over an earlier one.
    for ruled_at, on, source in sorted(replacements, key=lambda r: r[0]):
        if not 1 <= on <= len(moves):
            continue
        replace: list[Mapping[str, Any]] = [dict(m, seq=on) for m in source.get("replace", [])]
        moves[on - 1] = replace
        if source.get("rewind"):
            for later in range(on + 1, ruled_at):
                moves[later - 1] = []
    return moves


def upheld_moves(entries: Sequence[Mapping[str, Any]], view: str) -> frozenset[int]:
    """The moves a judge upheld (the final ruling of a dispute on them says ``upheld``); in the
    recorded view rulings are ignored, so none."""
    if view == "recorded":
        return frozenset()
    by_seq = {e["seq"]: e for e in entries}
    final: dict[int, Mapping[str, Any]] = {}
    for entry in entries:
        if entry["type"] == "ruling":
            final[entry["dispute"]] = entry
    out = set()
    for dispute_seq, ruling in final.items():
        dispute = by_seq.get(dispute_seq)
        if dispute is not None and dispute["type"] == "dispute" and ruling["decision"] == "upheld":
            out.add(int(dispute["on"]))
    return frozenset(out)


def flagged_results(header: Mapping[str, Any], ruleset: Ruleset) -> str:
    """The house option ``flagged_results`` of a match (KIFU-3): the header's, else the
    default of its rules version (``stand`` for a ruleset that predates the rule)."""
    given = (header.get("match") or {}).get("house_rules")
    value = given.get("flagged_results") if isinstance(given, Mapping) else None
    if value in FLAGGED_RESULTS:
        return str(value)
    return str(getattr(ruleset, "flagged_results", "stand"))


def result_overrides(
    entries: Sequence[Mapping[str, Any]], players: Sequence[str]
) -> list[tuple[int, Result]]:
    """Results decided by the table or the judges rather than by the rules."""
    out: list[tuple[int, Result]] = []

    def other(pid: str) -> str | None:
        rest = [p for p in players if p != pid]
        return rest[0] if len(rest) == 1 else None

    for e in entries:
        if e["type"] == "result":
            out.append((e["seq"], Result(e.get("winner"), str(e.get("reason", "declared")))))
        elif e["type"] == "concede":
            out.append((e["seq"], Result(other(e["by"]), "concession")))
        elif e["type"] == "penalty" and e.get("penalty") in ("game-loss", "match-loss", "disqualification"):
            out.append((e["seq"], Result(other(e["player"]), f"penalty-{e['penalty']}")))
    return out


def as_of(entries: Sequence[Mapping[str, Any]], moment: datetime) -> list[Mapping[str, Any]]:
    """The lines already recorded at ``moment`` (lines without a time count as recorded)."""
    out = []
    for e in entries:
        at = e.get("at")
        if at is not None and _parse_time(at) > moment:
            break
        out.append(e)
    return out


def _parse_time(text: str) -> datetime:
    moment = datetime.fromisoformat(str(text).replace("Z", "+00:00"))
    if moment.tzinfo is None:

        moment = moment.replace(tzinfo=UTC)
    return moment


class _FoldAgain(Exception):
    """A working fold met a move its ruleset could not apply."""


class Replay:
    """Boards of one match in one view, with random access by step."""

    def __init__(
        self,
        header: Mapping[str, Any],
        entries: Sequence[Mapping[str, Any]],
        view: str = "ruled",
        ruleset: Ruleset | None = None,
        checks: bool = True,
    ):
        if view not in VIEWS:
            raise ValueError(f"view must be one of {', '.join(VIEWS)}")
        self.header = header
        self.entries = list(entries)
        self.view = view
        self.checks = checks  # False: boards and results only (read models), no rule checks
        self.ruleset = ruleset or registry.for_header(dict(header))
        # Folds run on a working board the ruleset may change in place (projections.package.
        # evolve); what is kept (checkpoints, the cursor, boards handed out) is frozen first.
        self._working = getattr(self.ruleset, "apply_working", None)
        self.players = [p["id"] for p in header["players"]]
        self._moves = effective_moves(self.entries, view)
        self._overrides = result_overrides(self.entries, self.players)
        self._override_steps = [s for s, _ in self._overrides]
        self._flagged = flagged_results(header, self.ruleset)
        self._upheld = upheld_moves(self.entries, view)
        # Steps where the rules decided the match (the result went from none to one), found by
        # the checking fold: step -> (index of the deciding move in the step, its seq, the rules
        # it broke). A fold without checks finds them only when asked (_find_decision).
        self._decisions: dict[int, tuple[int, int, tuple[Violation, ...]]] = {}
        self._before: tuple[int, Board] | None = None  # a frozen board kept by a fold without checks
        self._found: dict[int, tuple[int, tuple[Violation, ...]] | None] = {}  # its decisions, by step
        self._carry: tuple[int, bool] | None = None  # (step, decided after it) of the checking fold
        initial = self.ruleset.initial_board(header)
        freeze()
        self._checkpoints: dict[int, Board] = {0: initial}
        self._viol_steps: list[int] = []
        self._viols: list[Violation] = []
        self._checked_to = 0  # violations are complete up to this step
        self._cursor: tuple[int, Board] = (0, initial)
        self.persisted = 0  # lines of this record whose state is in the board-snapshot file

    @property
    def steps(self) -> int:
        return len(self.entries)

    @property
    def moves_by_step(self) -> list[list[Mapping[str, Any]]]:
        """The game moves that take effect at each step (index step - 1) in this view:
        empty for meta lines and voided moves, the replacements where a ruling replaced one."""
        return self._moves

    def extend(self, entries: Sequence[Mapping[str, Any]]) -> None:
        """Follow a live match: add newly recorded lines. Plain lines just extend (the next
        seek folds only them). A ruling or correction in the ruled view may change the past:
        the moves of every step are worked out again, and boards and violations are kept up
        to the first step whose moves changed; folding resumes from the last checkpoint
        before it, never from the start."""
        if not entries:
            return
        added = list(entries)
        self.entries.extend(added)
        if self.view == "ruled" and any(e["type"] in ("ruling", "correct") for e in added):
            moves = effective_moves(self.entries, self.view)
            old = self._moves
            changed = next((i for i in range(len(old)) if moves[i] != old[i]), len(old)) + 1
            upheld = upheld_moves(self.entries, self.view)
            if upheld != self._upheld:
                # an upheld deciding move settles its result: the lines after it are checked
                # again (now after the result, KIFU-2)
                changed = min(changed, min(upheld ^ self._upheld) + 1)
                self._upheld = upheld
            self._moves = moves
            self._forget_from(changed)
        else:
            self._moves.extend([] if e["type"] in META_TYPES else [e] for e in added)
        for step, result in result_overrides(added, self.players):
            self._overrides.append((step, result))
            self._override_steps.append(step)

    def _forget_from(self, step: int) -> None:
        """Drop every board and violation from ``step`` on (their moves changed)."""
        self._checkpoints = {s: b for s, b in self._checkpoints.items() if s < step}
        keep = bisect.bisect_left(self._viol_steps, step)
        del self._viol_steps[keep:], self._viols[keep:]
        self._decisions = {s: d for s, d in self._decisions.items() if s < step}
        if self._before is not None and self._before[0] >= step:
            self._before = None
        self._found = {}
        self._carry = None
        self._checked_to = min(self._checked_to, step - 1)
        if self._cursor[0] >= step:
            start = max(self._checkpoints)
            self._cursor = (start, self._checkpoints[start])

    def fork(self) -> Replay:
        """An independent replay of the same record sharing the boards computed so far
        (boards are immutable values): what-if for a line not yet recorded."""
        other = object.__new__(Replay)
        other.__dict__.update(self.__dict__)
        other.entries = list(self.entries)
        other._moves = list(self._moves)
        other._overrides = list(self._overrides)
        other._override_steps = list(self._override_steps)
        other._checkpoints = dict(self._checkpoints)
        other._viol_steps = list(self._viol_steps)
        other._viols = list(self._viols)
        other._decisions = dict(self._decisions)
        other._found = dict(self._found)
        return other

    def snapshot_state(self) -> dict[str, Any]:
        """Checkpoints and violations found so far, for ``projections.boardcache``."""
        return {"checkpoints": dict(self._checkpoints), "viol_steps": list(self._viol_steps),
                "viols": list(self._viols), "checked_to": self._checked_to, "cursor": self._cursor,
                "decisions": dict(self._decisions)}

    def restore_state(self, state: Mapping[str, Any]) -> None:
        """Seed this replay with the state another process computed for the same record. A
        state saved before KIFU-3 (no ``decisions``) is not used: the replay folds anew."""
        if "decisions" not in state:
            return
        self._decisions = dict(state["decisions"])
        self._checkpoints = dict(state["checkpoints"])
        self._viol_steps = list(state["viol_steps"])
        self._viols = list(state["viols"])
        self._checked_to = int(state["checked_to"])
        cursor = state.get("cursor")
        self._cursor = tuple(cursor) if cursor and cursor[0] <= self.steps else (0, self._checkpoints[0])  # type: ignore[assignment]

    def _fold(self, board: Board, step: int, record: bool) -> Board:
        moves = self._moves[step - 1]
        if not record:
            if not self.checks and moves and step % KEEP_BEFORE == 0 and self._flagged == "pending":
                freeze()  # the board before this step stays as it is: kept for _find_decision
                self._before = (step - 1, board)
            for move in moves:
                board = self._apply(board, move, step, False)
            return board
        known = self._carry[1] if self._carry is not None and self._carry[0] == step - 1 else None
        if not moves:
            self._carry = None if known is None else (step, known)
            return board
        decided = known if known is not None else self.ruleset.result(board) is not None
        for index, move in enumerate(moves):
            found: tuple[Violation, ...] = ()
            if decided and self._pending(step) is None:
                self._add(step, Violation(move["seq"], AFTER_RESULT, N_("move recorded after the match was decided")))
            else:
                found = tuple(self.ruleset.check(board, move))
                if decided:  # pending a ruling: not after the result, in the game's words either
                    after = getattr(self.ruleset, "after_result_rule", None)
                    found = tuple(v for v in found if v.rule != after)
                for v in found:
                    self._add(step, v)
            board = self._apply(board, move, step, True)
            now = self.ruleset.result(board) is not None
            if now and not decided:
                self._decisions[step] = (index, int(move["seq"]), found)
            decided = now
        self._carry = (step, decided)
        return board

    def _apply(self, board: Board, move: Mapping[str, Any], step: int, record: bool) -> Board:
        try:
            return (self._working or self.ruleset.apply)(board, move)
        except Exception as exc:  # a ruleset bug must not stop a replay or hide the record
            if self._working is not None:
                # The working board may be half changed: fold this stretch again purely.
                raise _FoldAgain from exc
            if record:
                self._add(step, Violation(move["seq"], APPLY_FAILED, said(N_("move could not be applied: {error}"), error=exc)))
            return board

    def _pending(self, step: int) -> Pending | None:
        """KIFU-3: why the result at ``step`` is only provisional, or None (no result, a clean
        deciding line, a deciding line a judge upheld, or house option ``stand``)."""
        if self._flagged != "pending":
            return None
        if self.checks:
            decided = [s for s in self._decisions if s <= step]
            if not decided:
                return None
            _, seq, found = self._decisions[max(decided)]
        else:
            if step not in self._found:
                self._found[step] = self._find_decision(step)
            if self._found[step] is None:
                return None
            seq, found = self._found[step]  # type: ignore[misc]
        if not found or seq in self._upheld:
            return None
        return Pending(seq, found[0].rule)

    def _find_decision(self, step: int) -> tuple[int, tuple[Violation, ...]] | None:
        """For a replay folded without checks: the last move at or before ``step`` that decided
        the match, and the rules it broke. The fold is taken up again from the latest kept board
        still undecided (the one ``_fold`` keeps every KEEP_BEFORE steps, else a checkpoint),
        purely, watching the result after each move."""
        starts = sorted([(s, b) for s, b in self._checkpoints.items() if s < step]
                        + ([self._before] if self._before is not None and self._before[0] < step else []),
                        key=lambda sb: sb[0], reverse=True)
        start = next(((s, b) for s, b in starts if self.ruleset.result(b) is None), None)
        if start is None:
            return None
        at, board = start
        last: tuple[Board, Mapping[str, Any]] | None = None
        decided = False
        for s in range(at + 1, step + 1):
            for move in self._moves[s - 1]:
                before = board
                try:
                    board = self.ruleset.apply(board, move)
                except Exception:  # KIFU-1: the board stays as it was, as in the fold
                    continue
                now = self.ruleset.result(board) is not None
                if now and not decided:
                    last = (before, move)
                decided = now
        if last is None:
            return None
        before, move = last
        return int(move["seq"]), tuple(self.ruleset.check(before, move))

    def _add(self, step: int, violation: Violation) -> None:
        self._viol_steps.append(step)
        self._viols.append(violation)

    def board(self, step: int) -> Board:
        if not 0 <= step <= self.steps:
            raise IndexError(f"step {step} is out of range 0..{self.steps}")
        cur_step, cur_board = self._cursor
        if cur_step <= step and step - cur_step < CHECKPOINT:
            start, board = cur_step, cur_board  # stepping forward: continue from the cursor
        else:
            start = max(s for s in self._checkpoints if s <= step)
            board = self._checkpoints[start]
        found, checked = len(self._viols), self._checked_to
        try:
            board = self._fold_range(board, start, step)
        except _FoldAgain:
            # A move the ruleset could not apply: forget what this stretch found and fold it
            # again with the pure apply, which leaves the board before that move as it was.
            del self._viol_steps[found:], self._viols[found:]
            self._decisions = {s: d for s, d in self._decisions.items() if s <= checked}
            self._carry = None
            self._checked_to = checked
            self._working = None
            board = self._fold_range(board, start, step)  # the start board is kept: unchanged
        freeze()
        self._cursor = (step, board)
        return board

    def _fold_range(self, board: Board, start: int, step: int) -> Board:
        for s in range(start + 1, step + 1):
            record = self.checks and s > self._checked_to
            board = self._fold(board, s, record)
            if record:
                self._checked_to = s
            if s % CHECKPOINT == 0:
                freeze()
                self._checkpoints.setdefault(s, board)
        return board

    def violations(self, step: int | None = None) -> tuple[Violation, ...]:
        if not self.checks:
            raise ValueError("this replay folds without rule checks (checks=False)")
        step = self.steps if step is None else step
        if step > self._checked_to:
            self.board(step)
        return tuple(self._viols[: bisect.bisect_right(self._viol_steps, step)])

    def result(self, step: int | None = None) -> Result | None:
        step = self.steps if step is None else step
        i = bisect.bisect_right(self._override_steps, step)
        if i:
            return self._overrides[i - 1][1]
        found = self.ruleset.result(self.board(step))
        if found is None:
            return None
        pending = self._pending(step)
        return found if pending is None else Result(found.winner, found.reason, pending)

    def frame(self, step: int | None = None) -> Frame:
        step = self.steps if step is None else step
        board = self.board(step)
        return Frame(step, board, self.result(step), self.violations(step))

    def frames(self) -> Iterator[Frame]:
        for step in range(self.steps + 1):
            yield self.frame(step)

    def board_json(self, step: int | None = None) -> dict[str, Any]:
        frame = self.frame(step)
        body = self.ruleset.board_json(frame.board)
        out: dict[str, Any] = {"game": self.ruleset.name, "step": frame.step, "view": self.view}
        out.update(body)
        out["result"] = frame.result.to_json() if frame.result else None
        out["violations"] = [v.to_json() for v in frame.violations]
        return out
