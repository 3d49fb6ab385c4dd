"""The stream ids of a match and of a tournament, without the domain model (reading needs only
these)."""

from __future__ import annotations

import unicodedata
from functools import lru_cache
from uuid import NAMESPACE_URL, UUID, uuid5

MATCH_NAMESPACE = uuid5(NAMESPACE_URL, "https://kifu.invalid/match")

# The topic of a match's first event (recorder.domain's Match.Started), as stored: part of the
# database format, like every topic (tests/core/test_store.py holds it to the class).
STARTED_TOPIC = "recorder.domain:Match.Started"


@lru_cache(maxsize=4096)  # asked for at every line recorded, and hashing it costs a SHA-1
def match_uuid(match_id: str) -> UUID:
    """The stream id of a match: a stable function of its public id, so a duplicate
    import collides on the primary key instead of silently creating a second stream."""
    return uuid5(MATCH_NAMESPACE, match_id)


# A tournament ("event" in the CLI): one stream per tournament, named by its name.
TOURNAMENT_NAMESPACE = uuid5(NAMESPACE_URL, "https://kifu.invalid/event")

# The topics of a tournament's first event (recorder.domain's Tournament.Opened), as stored:
# the first is what this build writes; the second is what builds before issue 32 wrote, when
# the class lived in recorder/tournament.py (recorder/domain.py registers it as an old topic).
TOURNAMENT_OPENED_TOPICS = ("recorder.domain:Tournament.Opened", "recorder.tournament:Tournament.Opened")


@lru_cache(maxsize=256)
def tournament_uuid(name: str) -> UUID:
    """The stream id of a tournament: a stable function of its name (NFKC, spaces folded, as
    projections.standings.player_key folds a name), so a second ``event new`` of the same name
    collides on the primary key."""
    return uuid5(TOURNAMENT_NAMESPACE, " ".join(unicodedata.normalize("NFKC", str(name or "")).split()))
