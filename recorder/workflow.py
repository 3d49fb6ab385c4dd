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
from typing import Any

from projections.base import N_, said
from projections.base import META_TYPES, FieldError
# Where a dispute stands is a state of the match, computed in projections/ (the pages read it too).
from projections.disputes import DisputeState, dispute_states, suggested_replacement, violation_at

WORKFLOW_TYPES = frozenset({"annotate", "retract", "dispute", "ruling", "appeal", "correct", "penalty"})



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
        return [FieldError("on", said(N_("seq {on} is a {type}, not a move"), on=entry['on'], type=target['type']))]
    return []


def _retract(
    entries: Sequence[Mapping[str, Any]], by_seq: Mapping[int, Mapping[str, Any]], entry: Mapping[str, Any]
) -> list[FieldError]:
    target = by_seq.get(entry.get("on"))  # type: ignore[arg-type]
    if target is not None and target["type"] != "annotate":
        return [FieldError("on", said(N_("seq {on} is a {type}, not an annotation"), on=entry['on'], type=target['type']))]
    if any(e["type"] == "retract" and e.get("on") == entry.get("on") for e in entries):
        return [FieldError("on", said(N_("annotation {on} is already retracted"), on=entry['on']))]
    return []


def _ruling(
    entries: Sequence[Mapping[str, Any]], by_seq: Mapping[int, Mapping[str, Any]], entry: Mapping[str, Any]
) -> list[FieldError]:
    errors: list[FieldError] = []
    if entry.get("decision") == "upheld":
        for key in ("replace", "rewind"):
            if entry.get(key):
                errors.append(FieldError(key, N_("only an overturned ruling replaces or rewinds moves")))
    dispute = by_seq.get(entry.get("dispute"))  # type: ignore[arg-type]
    if dispute is None:
        return errors
    if dispute["type"] != "dispute":
        return errors + [FieldError("dispute", said(N_("seq {seq} is a {type}, not a dispute"), seq=dispute['seq'], type=dispute['type']))]
    state = dispute_states(entries)[dispute["seq"]]
    level = entry.get("level", "floor")
    status = state.status
    if status == "final":
        errors.append(FieldError("dispute", said(N_("dispute {seq} has a head judge's ruling (seq {ruling}), which is final"), seq=state.seq, ruling=state.rulings[-1]['seq'])))
    elif status == "ruled":
        errors.append(FieldError("dispute", said(N_("dispute {seq} is already ruled (seq {ruling}); appeal that ruling to the head judge first"), seq=state.seq, ruling=state.rulings[-1]['seq'])))
    elif status == "appealed" and level != "head":
        errors.append(FieldError("level", said(N_("dispute {seq} is under appeal: only the head judge (level head) rules now"), seq=state.seq)))
    return errors


def _appeal(
    entries: Sequence[Mapping[str, Any]], by_seq: Mapping[int, Mapping[str, Any]], entry: Mapping[str, Any]
) -> list[FieldError]:
    ruling = by_seq.get(entry.get("ruling"))  # type: ignore[arg-type]
    if ruling is None:
        return []
    if ruling["type"] != "ruling":
        return [FieldError("ruling", said(N_("seq {seq} is a {type}, not a ruling"), seq=ruling['seq'], type=ruling['type']))]
    if ruling.get("level", "floor") != "floor":
        return [FieldError("ruling", said(N_("ruling {seq} is the head judge's, which is final and cannot be appealed"), seq=ruling['seq']))]
    state = dispute_states(entries).get(ruling.get("dispute"))  # type: ignore[arg-type]
    if state is None:
        return []
    if state.status == "final":
        return [FieldError("ruling", said(N_("dispute {seq} is already decided by the head judge"), seq=state.seq))]
    if any(a.get("ruling") == ruling["seq"] for a in state.appeals):
        return [FieldError("ruling", said(N_("ruling {seq} is already appealed"), seq=ruling['seq']))]
    return []


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


__all__ = ["WORKFLOW_TYPES", "DisputeState", "dispute_states", "event_penalties", "suggested_replacement",
           "violation_at", "workflow_errors"]
