"""The Match aggregate: one event stream per match, one immutable domain event per log line;
and the Tournament aggregate (an "event" in the CLI): one stream per tournament, one domain
event per line of its log (docs/log-format.md, "The event log").

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
from eventsourcing.utils import register_topic

from recorder.ids import MATCH_NAMESPACE, TOURNAMENT_NAMESPACE, match_uuid, tournament_uuid

__all__ = ["EVENT_CLASSES", "MATCH_NAMESPACE", "TOURNAMENT_LINE_CLASSES", "TOURNAMENT_NAMESPACE", "Match",
           "Tournament", "match_uuid", "tournament_line_event", "tournament_uuid"]


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


class Tournament(Aggregate):
    """A tournament's stream. Its events carry the event log's header (``Opened``, as
    ``opened``) or one line (``line``), never a match's ``header``/``entry``: the read model
    and the rebuild pass over them (they fold matches only). Deciding happens in
    recorder/tournament_service.py before a line is appended; folding
    (projections/tournament.py) never validates."""

    class Opened(Aggregate.Created):
        opened: dict[str, Any]

    class LineRecorded(Aggregate.Event):
        line: dict[str, Any]

    class PlayerRegistered(LineRecorded): ...

    class PlayerDropped(LineRecorded): ...

    class PlayerReinstated(LineRecorded): ...

    class RoundPaired(LineRecorded): ...

    class PairingChanged(LineRecorded): ...

    class RoundClosed(LineRecorded): ...

    class ListsPublished(LineRecorded):
        """The organiser published the deck lists of an event opened with closed lists
        (``kifu event publish-lists``): from this line on every reader sees their cards."""
    class PlayerCheckedIn(LineRecorded): ...
    # issue 33: players' own reports of their table's result, and a judge's time extension.
    class ResultReported(LineRecorded): ...

    class TimeExtended(LineRecorded): ...
    class TopCutPaired(LineRecorded):
        """The top cut: its seeds from the final Swiss standings and its first playoff round."""

    @staticmethod
    def create_id(opened: dict[str, Any]) -> UUID:  # type: ignore[override]
        return tournament_uuid(opened["event"]["name"])

    @event(Opened)
    def __init__(self, opened: dict[str, Any]) -> None:
        self.opened = opened


TOURNAMENT_LINE_CLASSES: dict[str, type[Tournament.LineRecorded]] = {
    "register": Tournament.PlayerRegistered,
    "drop": Tournament.PlayerDropped,
    "reinstate": Tournament.PlayerReinstated,
    "pair": Tournament.RoundPaired,
    "change": Tournament.PairingChanged,
    "close": Tournament.RoundClosed,
    "publish-lists": Tournament.ListsPublished,
    "checkin": Tournament.PlayerCheckedIn,
    "report": Tournament.ResultReported,
    "extend": Tournament.TimeExtended,
    "cut": Tournament.TopCutPaired,
}

# Stores written before issue 32 hold the tournament's events under the module they were
# declared in then, recorder/tournament.py: those topics still resolve to these classes.
_MOVED: tuple[type, ...] = (Tournament, Tournament.Opened, Tournament.LineRecorded,
                            Tournament.PlayerRegistered, Tournament.PlayerDropped, Tournament.PlayerReinstated,
                            Tournament.RoundPaired, Tournament.PairingChanged, Tournament.RoundClosed)
for _cls in _MOVED:
    register_topic("recorder.tournament:" + _cls.__qualname__, _cls)


def tournament_line_event(stream: UUID, version: int, line: dict[str, Any],
                          timestamp: datetime | None = None) -> Tournament.LineRecorded:
    """The domain event of one tournament line at a known version (the class of its type)."""
    cls = TOURNAMENT_LINE_CLASSES[line["type"]]
    return cls(  # type: ignore[call-arg]
        originator_id=stream, originator_version=version,
        timestamp=timestamp or cls.create_timestamp(), line=line,
    )
