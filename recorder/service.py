"""What the faces (CLI, live logging, server, import) do, as functions over a Store.

Deciding lives here: a line is validated (structure, judges' workflow, names) and checked
against the rules before it is appended; the store and the aggregate only record.

``record`` is the one way a line is appended, for every face. It checks the line against the
head board that the previous append already folded (``head``): in one process (the server,
``kifu record -i``) the fold stays in memory; a new process (each ``kifu record``) seeds it
from the board-snapshot file beside the store, so appending never folds the match again.
"""

from __future__ import annotations

import contextlib
import sqlite3
import weakref
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import Any

from projections import boardcache, registry
from projections.base import META_TYPES, N_, Violation, at, joined, said
from projections.errors import ConflictError, IllegalMoveError, KifuError, LogFormatError
from projections.replay import AFTER_RESULT, Replay, _parse_time
from recorder import hooks, logformat
from recorder.store import Store, now_iso


def create_match(store: Store, header: dict[str, Any]) -> str:
    _, errors = logformat.validate_header(header)
    if errors:
        raise LogFormatError([at("header", e) for e in errors])
    header = logformat.normalise_header(header)
    # A match of an event kifu pairs is checked against the pairing (recorder/tournament_service.py).
    from recorder import tournament_service

    seated = tournament_service.pairing_errors(store, header)
    if seated:
        raise LogFormatError([at("header", e) for e in seated])
    match_id = store.create(header)
    hooks.after_write(store)
    return match_id


def import_file(store: Store, path: str) -> str:
    """Import one log file, all or nothing. Returns the match id."""
    header, entries = logformat.read_file(path)
    match_id = store.create(header, entries)
    hooks.after_write(store, {match_id: Replay(header, entries, checks=False)})
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
    """A replay seeded from the board-snapshot file beside the store, so a new process
    seeking in a long match folds at most a checkpoint interval or two, not the whole match.

    The file holds the state of a prefix of the record (the lines of a stored match never
    change): the lines after it are folded on top, and a ruling among them recomputes only
    from the last checkpoint before the step it changes."""
    if len(entries) < boardcache.MIN_LINES:
        return Replay(header, entries, view)
    cache = boardcache.open_cache(store.db)
    if cache is None:
        return Replay(header, entries, view)
    try:
        rep = Replay(header, entries, view)
        found = cache.load_prefix(match_id, view, header, entries, rep.ruleset)
        if found is not None:
            count, state = found
            rep = Replay(header, entries[:count], view)
            rep.restore_state(state)
            rep.extend(entries[count:])
        rep.board(rep.steps)  # fold to the head once (from the nearest checkpoint)
        rep.persisted = found[0] if found else 0
        if rep.steps // boardcache.SAVE_EVERY > rep.persisted // boardcache.SAVE_EVERY:
            cache.save_prefix(match_id, view, header, rep.entries, rep.ruleset, rep.snapshot_state())
            rep.persisted = rep.steps
    except sqlite3.Error:
        rep = Replay(header, entries, view)  # the cache is an optimisation only
    finally:
        cache.close()
    return rep


# -- the head of each match, per process ---------------------------------------------------------

HEADS_KEPT = 64  # matches whose head fold one process keeps (a venue's tables, with room)
_HEADS: weakref.WeakKeyDictionary[Store, OrderedDict[str, Replay]] = weakref.WeakKeyDictionary()


def head(store: Store, match_id: str) -> Replay:
    """The ruled-view replay of a match at the stream's head, kept per store and process and
    brought up to date with only the lines recorded since (by anyone)."""
    heads = _HEADS.setdefault(store, OrderedDict())
    rep = heads.get(match_id)
    if rep is None:
        header, entries = store.load(match_id)
        rep = cached_replay(store, match_id, header, entries, "ruled")
        heads[match_id] = rep
        while len(heads) > HEADS_KEPT:
            heads.popitem(last=False)
    else:
        rep.extend(store.load_since(match_id, rep.steps))
        heads.move_to_end(match_id)
    return rep


def forget_head(store: Store, match_id: str) -> None:
    heads = _HEADS.get(store)
    if heads is not None:
        heads.pop(match_id, None)


def parse_moment(text: str) -> datetime:
    try:
        return _parse_time(text)
    except ValueError:
        raise LogFormatError([said(N_("--as-of: {value!r} is not an ISO 8601 timestamp"), value=text)]) from None


def prepare(
    header: Mapping[str, Any], entries: Sequence[Mapping[str, Any]], line: Mapping[str, Any], where: str
) -> dict[str, Any]:
    """Validate one new line (without seq) against the match so far; return it with seq and at."""
    ruleset = registry.for_header(dict(header))
    entry = dict(line)
    entry["seq"] = len(entries) + 1
    if "at" in entry:  # a time sent with the line is the table's claim; `at` is the server's own
        entry["claimed_at"] = entry.pop("at")
    entry["at"] = now_iso()
    errors = logformat.validate_entry(ruleset, header, entry, entry["seq"])
    if not errors:
        errors = logformat.workflow_errors(entries, entry)
    if errors:
        raise LogFormatError([at(where, e) for e in errors])
    return entry


def violations_of(
    header: Mapping[str, Any],
    entries: Sequence[Mapping[str, Any]],
    entry: Mapping[str, Any],
    current: Replay | None = None,
) -> list[Violation]:
    """What the rules say about a new line, before it is recorded. ``current`` is the ruled
    view of ``entries`` if the caller keeps one (``head``); it is not changed."""
    rep = current or Replay(header, entries)
    kind = entry["type"]
    if kind in ("ruling", "correct"):
        before = {(v.seq, v.rule, v.message) for v in rep.violations()}
        after = rep.fork()
        after.extend([entry])  # refolds from the checkpoint before the step it changes
        return [v for v in after.violations() if (v.seq, v.rule, v.message) not in before]
    if kind in META_TYPES:
        return []
    board = rep.board(rep.steps)
    result = rep.result()
    if result is not None and result.pending is None:
        return [Violation(entry["seq"], AFTER_RESULT, N_("move recorded after the match was decided"))]
    found = list(rep.ruleset.check(board, entry))
    if result is not None:  # pending a ruling (KIFU-3): not after the result, in the game's words either
        own_rule = getattr(rep.ruleset, "after_result_rule", None)
        found = [v for v in found if v.rule != own_rule]
    return found


def name_errors(rep: Replay, entry: Mapping[str, Any], where: str) -> list[str]:
    """Names the match does not have (a die, card, square, player): refused, not recorded."""
    if entry["type"] in META_TYPES:
        return []
    find = getattr(rep.ruleset, "name_errors", None)
    if find is None:
        return []
    return [at(where, e) for e in find(rep.board(rep.steps), entry)]


def record(
    store: Store,
    match_id: str,
    line: Mapping[str, Any],
    strict: bool = False,
    *,
    expect: int | None = None,
    token: str | None = None,
    key: str | None = None,
    within: Callable[[Any], Sequence[int]] | None = None,
) -> tuple[int, list[Violation]]:
    """Append one line: the one write path of every face (``kifu record``, ``record -i``,
    the server's POST). With ``strict`` an illegal move is refused; otherwise it is recorded
    and its violations returned. ``expect`` is the seq the caller expects the line to get
    (the server's ``?expect=``): anything else is a conflict, nothing is written.
    ``token`` is the name of the token that wrote the line (kept on it); ``key`` an
    idempotency key: the same key again records nothing and returns the first seq
    (recorder/tokens.py). ``within``: how the line is inserted (``Store.append``), given by
    ``tokens.once`` so that the line, its token check and its key are one transaction."""
    if token is not None:
        line = dict(line, token=token)
    if key is not None:
        from recorder import tokens

        seq, found, _ = tokens.once(
            store, match_id, key, token, lambda inside: record(store, match_id, line, strict, expect=expect, within=inside)
        )
        return seq, found
    heads = _HEADS.get(store)
    kept = heads.get(match_id) if heads is not None else None
    if kept is not None:
        # Optimistic: decide on the head this process kept, without reading the stream
        # again. If the insert at the next version succeeds, no other writer had appended
        # (versions are contiguous and the primary key is on them), so the head was the
        # stream's head and the decision stands. Anything refused on it, including another
        # writer's line taking that version, is decided again on the stream's real head.
        try:
            return _record_on(store, match_id, kept, line, strict, expect, within=within)
        except _Stale:
            pass
    return _record_on(store, match_id, head(store, match_id), line, strict, expect, fresh=True, within=within)


class _Stale(Exception):
    """A line refused on a head that was not read again (nothing was written): decide again."""


def _record_on(
    store: Store,
    match_id: str,
    rep: Replay,
    line: Mapping[str, Any],
    strict: bool,
    expect: int | None,
    fresh: bool = False,
    within: Callable[[Any], Sequence[int]] | None = None,
) -> tuple[int, list[Violation]]:
    """Decide ``line`` on the head fold ``rep`` and append it. ``fresh``: ``rep`` was just
    brought up to the stream's head; otherwise a refusal raises ``_Stale`` (nothing written)."""
    try:
        entry = prepare(rep.header, rep.entries, line, match_id)
        if expect is not None and entry["seq"] != expect:
            raise ConflictError(said(N_("match {match!r} is at seq {seq}, not {expect}: reload and try again"),
                                     match=match_id, seq=entry["seq"] - 1, expect=expect - 1))
        problems = name_errors(rep, entry, match_id)
        if problems:
            raise LogFormatError(problems)
        found = violations_of(rep.header, rep.entries, entry, current=rep)
        if strict and found:
            raise IllegalMoveError(said(N_("{violations} (not recorded: --strict)"),
                                         violations=joined("; ", [at(v.rule, v.message) for v in found])))
        seq = store.append(match_id, entry, expect_seq=entry["seq"], read=True, within=within)
    except KifuError as exc:
        if not fresh:
            raise _Stale from exc
        if isinstance(exc, ConflictError):
            forget_head(store, match_id)
        raise
    heads = _HEADS.get(store)
    if heads is not None and match_id in heads:
        with contextlib.suppress(KeyError):  # let go meanwhile by another thread: loaded again next time
            heads.move_to_end(match_id)
    rep.extend([entry])
    _save_head(store, match_id, rep)
    hooks.after_write(store, {match_id: rep})
    return seq, found


def _save_head(store: Store, match_id: str, rep: Replay) -> None:
    """Keep the board-snapshot file a checkpoint interval behind the head at most, so the next
    process (the next ``kifu record``) starts near the head."""
    if rep.steps < boardcache.MIN_LINES or rep.steps // boardcache.SAVE_EVERY <= rep.persisted // boardcache.SAVE_EVERY:
        return
    cache = boardcache.open_cache(store.db)
    if cache is None:
        return
    try:
        rep.board(rep.steps)
        cache.save_prefix(match_id, rep.view, rep.header, rep.entries, rep.ruleset, rep.snapshot_state())
        rep.persisted = rep.steps
    except sqlite3.Error:
        pass
    finally:
        cache.close()
