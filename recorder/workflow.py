"""The judges' workflow: which annotation, dispute, ruling, appeal and correction lines may
follow the lines already recorded, and where each dispute stands.

Checked when a line is recorded and when a log is imported, never when a match is replayed
(deciding is separate from applying: an old log keeps replaying even if these rules grow).
docs/rulings.md describes the workflow:

* an annotation may be on any earlier line; a ``retract`` names an annotation not yet
  retracted (the note stays in the history, marked retracted);
* a dispute and a correction name a game move (not a meta line);
* a ruling needs an open dispute: one with no ruling yet, or whose floor ruling is under
  appeal; a ruling on an appealed dispute is the head judge's (``level: head``); a head
  ruling is final; ``replace`` and ``rewind`` go only with ``overturned``;
* an appeal names a floor ruling, once, of a dispute the head judge has not decided.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from projections.base import META_TYPES, FieldError, Violation
from projections.errors import NotFoundError, WorkflowError
from projections.replay import Replay

WORKFLOW_TYPES = frozenset({"annotate", "retract", "dispute", "ruling", "appeal", "correct", "penalty"})


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


def workflow_errors(entries: Sequence[Mapping[str, Any]], entry: Mapping[str, Any]) -> list[FieldError]:
    """The judges' workflow, checked against every earlier line (DESIGN.md, docs/rulings.md).

    ``entry`` is already structurally valid (``logformat.validate_entry``): its references
    point at earlier seqs."""
    kind = entry.get("type")
    if kind not in WORKFLOW_TYPES:
        return []
    by_seq = {e["seq"]: e for e in entries}
    if kind in ("dispute", "correct"):
        return _on_a_move(by_seq, entry)
    if kind == "retract":
        return _retract(entries, by_seq, entry)
    if kind == "ruling":
        return _ruling(entries, by_seq, entry)
    if kind == "appeal":
        return _appeal(entries, by_seq, entry)
    return []


def _on_a_move(by_seq: Mapping[int, Mapping[str, Any]], entry: Mapping[str, Any]) -> list[FieldError]:
    target = by_seq.get(entry.get("on"))  # type: ignore[arg-type]
    if target is not None and target["type"] in META_TYPES:
        return [FieldError("on", f"seq {entry['on']} is a {target['type']}, not a move")]
    return []


def _retract(
    entries: Sequence[Mapping[str, Any]], by_seq: Mapping[int, Mapping[str, Any]], entry: Mapping[str, Any]
) -> list[FieldError]:
    target = by_seq.get(entry.get("on"))  # type: ignore[arg-type]
    if target is not None and target["type"] != "annotate":
        return [FieldError("on", f"seq {entry['on']} is a {target['type']}, not an annotation")]
    if any(e["type"] == "retract" and e.get("on") == entry.get("on") for e in entries):
        return [FieldError("on", f"annotation {entry['on']} is already retracted")]
    return []


def _ruling(
    entries: Sequence[Mapping[str, Any]], by_seq: Mapping[int, Mapping[str, Any]], entry: Mapping[str, Any]
) -> list[FieldError]:
    errors: list[FieldError] = []
    if entry.get("decision") == "upheld":
        for key in ("replace", "rewind"):
            if entry.get(key):
                errors.append(FieldError(key, "only an overturned ruling replaces or rewinds moves"))
    dispute = by_seq.get(entry.get("dispute"))  # type: ignore[arg-type]
    if dispute is None:
        return errors
    if dispute["type"] != "dispute":
        return errors + [FieldError("dispute", f"seq {dispute['seq']} is a {dispute['type']}, not a dispute")]
    state = dispute_states(entries)[dispute["seq"]]
    level = entry.get("level", "floor")
    status = state.status
    if status == "final":
        errors.append(FieldError("dispute", f"dispute {state.seq} has a head judge's ruling (seq {state.rulings[-1]['seq']}), which is final"))
    elif status == "ruled":
        errors.append(FieldError("dispute", f"dispute {state.seq} is already ruled (seq {state.rulings[-1]['seq']}); appeal that ruling to the head judge first"))
    elif status == "appealed" and level != "head":
        errors.append(FieldError("level", f"dispute {state.seq} is under appeal: only the head judge (level head) rules now"))
    return errors


def _appeal(
    entries: Sequence[Mapping[str, Any]], by_seq: Mapping[int, Mapping[str, Any]], entry: Mapping[str, Any]
) -> list[FieldError]:
    ruling = by_seq.get(entry.get("ruling"))  # type: ignore[arg-type]
    if ruling is None:
        return []
    if ruling["type"] != "ruling":
        return [FieldError("ruling", f"seq {ruling['seq']} is a {ruling['type']}, not a ruling")]
    if ruling.get("level", "floor") != "floor":
        return [FieldError("ruling", f"ruling {ruling['seq']} is the head judge's, which is final and cannot be appealed")]
    state = dispute_states(entries).get(ruling.get("dispute"))  # type: ignore[arg-type]
    if state is None:
        return []
    if state.status == "final":
        return [FieldError("ruling", f"dispute {state.seq} is already decided by the head judge")]
    if any(a.get("ruling") == ruling["seq"] for a in state.appeals):
        return [FieldError("ruling", f"ruling {ruling['seq']} is already appealed")]
    return []


# -- what the engine knows: violations and their suggested corrections ------------------------


def violation_at(
    header: Mapping[str, Any], entries: Sequence[Mapping[str, Any]], seq: int, rule: str | None = None
) -> Violation:
    """The violation at ``seq`` (in the ruled view) a dispute is to be opened from."""
    found = [v for v in Replay(header, entries, "ruled").violations() if v.seq == seq]
    if rule is not None:
        found = [v for v in found if v.rule == rule]
    if not found:
        what = f" of rule {rule}" if rule else ""
        raise NotFoundError(f"no violation{what} at seq {seq} in the ruled view (see kifu check)")
    if len(found) > 1:
        rules = ", ".join(v.rule for v in found)
        raise WorkflowError(f"seq {seq} breaks several rules ({rules}): name one, as SEQ:RULE")
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
        raise NotFoundError(f"no dispute {dispute_seq}")
    own = {r["seq"] for r in state.rulings}
    rest = [e for e in entries if e["seq"] not in own]
    on, rule = state.dispute["on"], state.dispute.get("rule")
    found = [v for v in Replay(header, rest, "ruled").violations() if v.seq == on and v.suggest is not None]
    if rule:
        found = [v for v in found if v.rule == rule]
    if not found:
        named = f" of rule {rule}" if rule else ""
        raise WorkflowError(f"the ruleset suggests no correction{named} for seq {on}: give --decision and --replace")
    return found[0], [{k: v for k, v in m.items() if k != "seq"} for m in found[0].suggest or ()]


# -- penalties across an event ----------------------------------------------------------------


def event_penalties(store: Any, event: str, player: str | None = None) -> list[dict[str, Any]]:
    """Every penalty of every match of ``event`` in time order; ``player`` matches a player's
    name or id (ids are per match, names carry across matches)."""
    rows: list[dict[str, Any]] = []
    for header in store.headers():
        match = header["match"]
        if match.get("event") != event:
            continue
        names = {p["id"]: p.get("name") or p["id"] for p in header["players"]}
        _, entries = store.load(match["id"])
        for e in entries:
            if e["type"] != "penalty":
                continue
            name = names.get(e["player"], e["player"])
            if player is not None and player not in (name, e["player"]):
                continue
            rows.append({
                "at": e.get("at"), "match": match["id"], "round": match.get("round"), "table": match.get("table"),
                "date": match.get("date"), "seq": e["seq"], "player": e["player"], "name": name,
                "penalty": e["penalty"], "infraction": e["infraction"], "by": e["by"],
                "on": e.get("on"), "text": e.get("text"),
            })
    # Lines recorded live carry ``at``; imported ones may not, and fall back to the match's
    # date and round so a whole event still reads in order.
    rows.sort(key=lambda r: (str(r["at"] or r["date"] or ""), r["round"] or 0, str(r["table"] or ""), r["seq"]))
    return rows
