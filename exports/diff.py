"""The two views of a match side by side: where ``recorded`` and ``ruled`` part, every step
whose board differs (field by field), and whether the result changes.

Both views are folded once, forward, step by step (Replay keeps a cursor, so this is one
pass each); only boards are compared, through the ruleset's ``board_json`` so the difference
reads in the game's own counters.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from projections.base import Result
from projections.replay import Replay, effective_moves

Change = tuple[str, Any, Any]  # (path, recorded value, ruled value)


@dataclass(frozen=True)
class StepDiff:
    step: int
    changes: tuple[Change, ...]


@dataclass(frozen=True)
class ViewDiff:
    steps: int
    parted_at: int | None  # first step whose moves differ between the views
    moves_differ: tuple[int, ...]  # steps where a move is voided or replaced
    boards_differ: tuple[StepDiff, ...]
    recorded_result: Result | None
    ruled_result: Result | None

    @property
    def result_changes(self) -> bool:
        return self.recorded_result != self.ruled_result

    def to_json(self) -> dict[str, Any]:
        def res(r: Result | None) -> dict[str, Any] | None:
            return r.to_json() if r else None

        return {
            "steps": self.steps,
            "parted_at": self.parted_at,
            "moves_differ": list(self.moves_differ),
            "boards_differ": [
                {"step": d.step, "changes": [{"path": p, "recorded": a, "ruled": b} for p, a, b in d.changes]}
                for d in self.boards_differ
            ],
            "result": {"recorded": res(self.recorded_result), "ruled": res(self.ruled_result),
                       "changes": self.result_changes},
        }


def diff_views(header: Mapping[str, Any], entries: Sequence[Mapping[str, Any]]) -> ViewDiff:
    recorded = Replay(header, entries, "recorded")
    ruled = Replay(header, entries, "ruled", recorded.ruleset)
    rec_moves, rul_moves = effective_moves(entries, "recorded"), effective_moves(entries, "ruled")
    moves_differ = tuple(i + 1 for i, (a, b) in enumerate(zip(rec_moves, rul_moves)) if a != b)
    boards: list[StepDiff] = []
    ruleset = recorded.ruleset
    for step in range(1, recorded.steps + 1):
        a, b = recorded.board(step), ruled.board(step)
        if a == b:
            continue
        changes = tuple(_changes(ruleset.board_json(a), ruleset.board_json(b)))
        boards.append(StepDiff(step, changes or (("board", "…", "…"),)))
    return ViewDiff(
        steps=recorded.steps,
        parted_at=moves_differ[0] if moves_differ else None,
        moves_differ=moves_differ,
        boards_differ=tuple(boards),
        recorded_result=recorded.result(),
        ruled_result=ruled.result(),
    )


def _changes(a: Any, b: Any, path: str = "") -> list[Change]:
    if isinstance(a, Mapping) and isinstance(b, Mapping):
        out: list[Change] = []
        for key in list(a) + [k for k in b if k not in a]:
            sub = f"{path}.{key}" if path else str(key)
            out.extend(_changes(a.get(key), b.get(key), sub))
        return out
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        out = []
        for i, (x, y) in enumerate(zip(a, b)):
            out.extend(_changes(x, y, f"{path}[{i}]"))
        return out
    return [] if a == b else [(path, a, b)]


def _spans(steps: Sequence[int]) -> str:
    spans: list[str] = []
    start = prev = None
    for s in steps:
        if prev is not None and s == prev + 1:
            prev = s
            continue
        if start is not None:
            spans.append(f"{start}" if start == prev else f"{start}-{prev}")
        start = prev = s
    if start is not None:
        spans.append(f"{start}" if start == prev else f"{start}-{prev}")
    return ", ".join(spans)


def _value(v: Any, width: int = 40) -> str:
    text = v if isinstance(v, str) else json.dumps(v, ensure_ascii=False)
    return text if len(text) <= width else text[: width - 1] + "…"


def format_diff(
    diff: ViewDiff, entries: Sequence[Mapping[str, Any]], limit: int = 5, max_spans: int = 30, lang: str = "en"
) -> str:
    """The difference for a terminal, in ``lang``: one heading line per finding, then the board
    changes of each differing step (at most ``limit`` fields per step; the fields' own names)."""
    from exports.i18n import gettext_for
    from exports.notation import reason_text

    _ = gettext_for(lang)
    if diff.parted_at is None and not diff.boards_differ and not diff.result_changes:
        return _("the views agree at every step (1..{last})").format(last=diff.steps)
    lines = []
    if diff.parted_at is not None:
        first = entries[diff.parted_at - 1]
        lines.append(_("the views part at step {step} ({type} by {by})").format(
            step=diff.parted_at, type=first["type"], by=first.get("by")))
        lines.append(_("moves voided or replaced at steps: {steps}").format(steps=_spans(diff.moves_differ)))
    if diff.boards_differ:
        lines.append(_("boards differ at {n} step(s): {steps}").format(
            n=len(diff.boards_differ), steps=_spans([d.step for d in diff.boards_differ])))
        # A change that carries on unchanged over later steps is shown once, for the span.
        runs: list[tuple[int, int, tuple[Change, ...]]] = []
        for d in diff.boards_differ:
            if runs and runs[-1][1] == d.step - 1 and runs[-1][2] == d.changes:
                runs[-1] = (runs[-1][0], d.step, d.changes)
            else:
                runs.append((d.step, d.step, d.changes))
        for first_step, last_step, changes in runs[:max_spans]:
            shown = ", ".join(f"{p}: {_value(a)} → {_value(b)}" for p, a, b in changes[:limit])
            more = " " + _("(+{n} more)").format(n=len(changes) - limit) if len(changes) > limit else ""
            span = (_("step {n}").format(n=first_step) if first_step == last_step
                    else _("steps {first}-{last}").format(first=first_step, last=last_step))
            lines.append(f"  {span}: {shown}{more}")
        if len(runs) > max_spans:
            lines.append("  " + _("… {n} more span(s) (--json lists every step)").format(n=len(runs) - max_spans))
    else:
        lines.append(_("no board differs"))

    def res(r: Result | None) -> str:
        if r is None:
            return _("in progress")
        return f"{r.winner or _('draw')} ({r.reason if lang == 'en' else reason_text(r.reason, lang)})"

    if diff.result_changes:
        lines.append(_("result changes: recorded {recorded} → ruled {ruled}").format(
            recorded=res(diff.recorded_result), ruled=res(diff.ruled_result)))
    else:
        lines.append(_("result unchanged: {result}").format(result=res(diff.ruled_result)))
    return "\n".join(lines)
