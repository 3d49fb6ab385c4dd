"""What the two faces (CLI and server) do, as functions over a Store.

Deciding lives here: a line is validated (structure, judges' workflow) and checked against
the rules before it is appended; the store and the aggregate only record.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping, Sequence
from datetime import datetime, UTC
from typing import Any

from projections import boardcache, registry
from projections.base import META_TYPES, Violation
from projections.errors import IllegalMoveError, LogFormatError
from projections.replay import AFTER_RESULT, Replay, _parse_time
from recorder import hooks, logformat
from recorder.store import Store, now_iso


def create_match(store: Store, header: dict[str, Any]) -> str:
    _, errors = logformat.validate_header(header)
    if errors:
        raise LogFormatError([f"header: {e}" for e in errors])
    header = logformat.normalise_header(header)
    match_id = store.create(header)
    hooks.after_write(store)
    return match_id


def import_file(store: Store, path: str) -> str:
    """Import one log file, all or nothing. Returns the match id."""
    header, entries = logformat.read_file(path)
    match_id = store.create(header, entries)
    hooks.after_write(store)
    return match_id


def replay(store: Store, match_id: str, view: str = "ruled", moment: str | None = None) -> Replay:
    """The match in one view; with ``moment``, as the record stood then (a line's own ``at``,
    else the time it was stored)."""
    if moment is None:
        header, entries = store.load(match_id)
        return cached_replay(store, match_id, header, entries, view)
    cut = parse_moment(moment)
    header, timed = store.load_timed(match_id)
    kept = []
    for entry, stored in timed:
        when = _parse_time(entry["at"]) if entry.get("at") else stored
        if when > cut:
            break
        kept.append(entry)
    return Replay(header, kept, view)


def cached_replay(
    store: Store, match_id: str, header: Mapping[str, Any], entries: list[dict[str, Any]], view: str
) -> Replay:
    """A replay seeded from the board-snapshot cache beside the store, so a new process
    seeking in a long match folds one checkpoint interval, not the whole match."""
    rep = Replay(header, entries, view)
    if len(entries) < boardcache.MIN_LINES:
        return rep
    cache = boardcache.open_cache(store.db)
    if cache is None:
        return rep
    try:
        key = boardcache.record_key(header, entries, rep.ruleset)
        state = cache.load(match_id, view, key)
        if state is not None:
            rep.restore_state(state)
        else:
            rep.board(rep.steps)  # one full pass, kept for every later call
            cache.save(match_id, view, key, rep.snapshot_state())
    except sqlite3.Error:
        pass  # the cache is an optimisation; the replay above is complete without it
    finally:
        cache.close()
    return rep


def parse_moment(text: str) -> datetime:
    try:
        return _parse_time(text)
    except ValueError:
        raise LogFormatError([f"--as-of: {text!r} is not an ISO 8601 timestamp"]) from None


def prepare(
    header: Mapping[str, Any], entries: Sequence[Mapping[str, Any]], line: Mapping[str, Any], where: str
) -> dict[str, Any]:
    """Validate one new line (without seq) against the match so far; return it with seq and at."""
    ruleset = registry.for_header(dict(header))
    entry = dict(line)
    entry["seq"] = len(entries) + 1
    entry.setdefault("at", now_iso())
    errors = logformat.validate_entry(ruleset, header, entry, entry["seq"])
    if not errors:
        errors = logformat.workflow_errors(entries, entry)
    if errors:
        raise LogFormatError([f"{where}: {e}" for e in errors])
    return entry


def violations_of(
    header: Mapping[str, Any],
    entries: Sequence[Mapping[str, Any]],
    entry: Mapping[str, Any],
    current: Replay | None = None,
) -> list[Violation]:
    """What the rules say about a new line, before it is recorded. ``current`` is a replay
    of ``entries`` in the ruled view, if the caller keeps one (live logging, the server)."""
    kind = entry["type"]
    if kind in ("ruling", "correct"):
        before = {(v.seq, v.rule, v.message) for v in (current or Replay(header, entries)).violations()}
        after = Replay(header, list(entries) + [entry]).violations()
        return [v for v in after if (v.seq, v.rule, v.message) not in before]
    if kind in META_TYPES:
        return []
    rep = current or Replay(header, entries)
    ruleset = rep.ruleset
    board = rep.board(rep.steps)
    if rep.result() is not None:
        return [Violation(entry["seq"], AFTER_RESULT, "move recorded after the match was decided")]
    return list(ruleset.check(board, entry))


def record(
    store: Store, match_id: str, line: Mapping[str, Any], strict: bool = False,
    token: str | None = None, key: str | None = None,
) -> tuple[int, list[Violation]]:
    """Append one line. With ``strict`` an illegal move is refused; otherwise it is recorded
    and its violations returned. ``token`` is the name of the token that wrote it (kept on
    the line); ``key`` an idempotency key: a second call with the same key records nothing
    and returns the first call's seq (recorder/tokens.py)."""
    if token is not None:
        line = dict(line, token=token)
    if key is not None:
        from recorder import tokens

        seq, found, _ = tokens.once(store, match_id, key, token, lambda: record(store, match_id, line, strict))
        return seq, found
    header, entries = store.load(match_id)
    entry = prepare(header, entries, line, match_id)
    found = violations_of(header, entries, entry)
    if strict and found:
        raise IllegalMoveError("; ".join(f"{v.rule}: {v.message}" for v in found) + " (not recorded: --strict)")
    seq = store.append(match_id, entry, expect_seq=entry["seq"])
    hooks.after_write(store)
    return seq, found


def utc_now() -> datetime:
    return datetime.now(UTC)
