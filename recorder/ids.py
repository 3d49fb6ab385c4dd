"""The stream id of a match, without the domain model (reading a match needs only this)."""

from __future__ import annotations

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
