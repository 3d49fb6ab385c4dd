"""Where each dispute of a match stands, and what the engine knows of the move it names (the
violation at it and the replacement the rules suggest): computed from the lines, as every state
of a match is. The recorder's workflow (recorder/workflow.py) decides which judges' lines may be
recorded; the pages (exports/) show these states.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from projections.base import N_, said
from projections.base import Violation
from projections.errors import NotFoundError, WorkflowError
from projections.replay import Replay


@dataclass
class DisputeState:
    """Where one dispute stands: ``open`` (no ruling), ``ruled`` (a floor ruling stands),
    ``appealed`` (a floor ruling is under appeal), ``final`` (the head judge ruled)."""

    dispute: Mapping[str, Any]
    rulings: list[Mapping[str, Any]] = field(default_factory=list)
    appeals: list[Mapping[str, Any]] = field(default_factory=list)

    @property
    def seq(self) -> int:
        return int(self.dispute["seq"])

    @property
    def status(self) -> str:
        if any(r.get("level") == "head" for r in self.rulings):
            return "final"
        if not self.rulings:
            return "open"
        appealed = {a.get("ruling") for a in self.appeals}
        return "appealed" if self.rulings[-1]["seq"] in appealed else "ruled"

    @property
    def is_open(self) -> bool:
        """Waiting for a ruling (a first one, or the head judge's after an appeal)."""
        return self.status in ("open", "appealed")

    @property
    def decision(self) -> Mapping[str, Any] | None:
        """The ruling in force: the last one (the workflow makes a head ruling last)."""
        return self.rulings[-1] if self.rulings else None

    def to_json(self) -> dict[str, Any]:
        d = self.dispute
        ruling = self.decision
        return {
            "dispute": self.seq,
            "on": d.get("on"),
            "by": d.get("by"),
            "claim": d.get("claim"),
            "rule": d.get("rule"),
            "status": self.status,
            "decision": ruling.get("decision") if ruling else None,
            "rulings": [r["seq"] for r in self.rulings],
            "appeals": [a["seq"] for a in self.appeals],
        }


def dispute_states(entries: Sequence[Mapping[str, Any]]) -> dict[int, DisputeState]:
    """Every dispute of a match by its seq, with its rulings and appeals in order."""
    states: dict[int, DisputeState] = {}
    ruling_of: dict[int, int] = {}  # ruling seq -> dispute seq
    for e in entries:
        kind = e.get("type")
        if kind == "dispute":
            states[e["seq"]] = DisputeState(e)
        elif kind == "ruling" and e.get("dispute") in states:
            states[e["dispute"]].rulings.append(e)
            ruling_of[e["seq"]] = e["dispute"]
        elif kind == "appeal" and e.get("ruling") in ruling_of:
            states[ruling_of[e["ruling"]]].appeals.append(e)
    return states


def violation_at(
    header: Mapping[str, Any], entries: Sequence[Mapping[str, Any]], seq: int, rule: str | None = None
) -> Violation:
    """The violation at ``seq`` (in the ruled view) a dispute is to be opened from."""
    found = [v for v in Replay(header, entries, "ruled").violations() if v.seq == seq]
    if rule is not None:
        found = [v for v in found if v.rule == rule]
    if not found:
        what = said(N_(" of rule {rule}"), rule=rule) if rule else ""
        raise NotFoundError(said(N_("no violation{what} at seq {seq} in the ruled view (see kifu check)"), what=what, seq=seq))
    if len(found) > 1:
        rules = ", ".join(v.rule for v in found)
        raise WorkflowError(said(N_("seq {seq} breaks several rules ({rules}): name one, as SEQ:RULE"), seq=seq, rules=rules))
    return found[0]


def suggested_replacement(
    header: Mapping[str, Any], entries: Sequence[Mapping[str, Any]], dispute_seq: int
) -> tuple[Violation, list[dict[str, Any]]]:
    """What the rules say should replace the disputed move: the ``suggest`` of the violation
    the dispute names (or of the first violation at that move that has one).

    The move is checked as the ruled view stood without this dispute's own rulings, so a
    head judge asked to rule after an appeal sees the same suggestion the floor judge saw."""
    state = dispute_states(entries).get(dispute_seq)
    if state is None:
        raise NotFoundError(said(N_("no dispute {dispute_seq}"), dispute_seq=dispute_seq))
    own = {r["seq"] for r in state.rulings}
    rest = [e for e in entries if e["seq"] not in own]
    on, rule = state.dispute["on"], state.dispute.get("rule")
    found = [v for v in Replay(header, rest, "ruled").violations() if v.seq == on and v.suggest is not None]
    if rule:
        found = [v for v in found if v.rule == rule]
    if not found:
        named = said(N_(" of rule {rule}"), rule=rule) if rule else ""
        raise WorkflowError(said(N_("the ruleset suggests no correction{named} for seq {on}: give --decision and --replace"), named=named, on=on))
    return found[0], [{k: v for k, v in m.items() if k != "seq"} for m in found[0].suggest or ()]


__all__ = ["DisputeState", "dispute_states", "suggested_replacement", "violation_at"]
