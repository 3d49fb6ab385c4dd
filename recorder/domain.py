"""The Match aggregate: one event stream per match, one immutable domain event per log line.

The aggregate's own state is deliberately tiny (the header and the stream length): the log
lines live in the events themselves and are read straight from the event store, so a
10,000-event match loads its aggregate from a snapshot in a millisecond and snapshots stay
small. Nothing here knows any game's rules; deciding happens before an event is triggered,
never inside an event's apply step (which runs again on every replay).

Event class names and their module path are stored as topics: they are part of the database
format. Never rename or move them; add ``register_topic`` aliases if you must.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any
from uuid import UUID

from eventsourcing.domain import Aggregate, event

from recorder.ids import MATCH_NAMESPACE, match_uuid

__all__ = ["EVENT_CLASSES", "MATCH_NAMESPACE", "Match", "match_uuid"]


class Match(Aggregate):
    """A recorded match. ``seq`` of a log line == aggregate version - 1."""

    class Started(Aggregate.Created):
        header: dict[str, Any]

    class EntryRecorded(Aggregate.Event):
        """Base of every log line after the header; ``entry`` is the line as a dict."""

        entry: dict[str, Any]

    # One past-tense event class per kind of line, so the stream reads as what happened.
    class MoveRecorded(EntryRecorded): ...

    class AnnotationAdded(EntryRecorded): ...

    class AnnotationRetracted(EntryRecorded): ...

    class DisputeOpened(EntryRecorded): ...

    class RulingIssued(EntryRecorded): ...

    class CorrectionRecorded(EntryRecorded): ...

    class AppealLodged(EntryRecorded): ...

    class PenaltyIssued(EntryRecorded): ...

    class Conceded(EntryRecorded): ...

    class ResultDeclared(EntryRecorded): ...

    @staticmethod
    def create_id(header: dict[str, Any]) -> UUID:  # type: ignore[override]
        return match_uuid(header["match"]["id"])

    @event(Started)
    def __init__(self, header: dict[str, Any]) -> None:
        self.header = header

    @property
    def match_id(self) -> str:
        return str(self.header["match"]["id"])

    @property
    def last_seq(self) -> int:
        return self.version - 1

    def record(self, entry: dict[str, Any], timestamp: datetime | None = None) -> None:
        """Append one already-validated log line. ``entry["seq"]`` must be the next seq.
        ``timestamp`` keeps the recorded time of a line copied from another store."""
        if entry.get("seq") != self.version:
            raise ValueError(f"seq {entry.get('seq')} is not the next seq {self.version}")
        self.trigger_event(EVENT_CLASSES.get(entry["type"], Match.MoveRecorded), entry=entry, timestamp=timestamp)


EVENT_CLASSES: dict[str, type[Match.EntryRecorded]] = {
    "annotate": Match.AnnotationAdded,
    "retract": Match.AnnotationRetracted,
    "dispute": Match.DisputeOpened,
    "ruling": Match.RulingIssued,
    "correct": Match.CorrectionRecorded,
    "appeal": Match.AppealLodged,
    "penalty": Match.PenaltyIssued,
    "concede": Match.Conceded,
    "result": Match.ResultDeclared,
}
