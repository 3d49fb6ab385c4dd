"""The statistics read model: one row per match and one per player, in a SQLite file of its own.

The event store stays the source of truth. This file is a projection of it that can be
deleted at any time: ``ReadModel.catch_up(store)`` reads the store's notifications after the
last one it has seen, and for every match they touch reloads the whole match
(``store.load``) and recomputes its rows with ``Replay`` (ruled view). Simple and correct:
a ruling that changes the past changes the row, because the row is always recomputed from
every line. The last notification id is written in the same transaction as the rows it
produced, so a crash leaves the model at a consistent point and the next catch-up resumes.

Where it lives: for a store file ``X.db``, ``X.readmodel.db`` beside it; for a PostgreSQL
store ``./kifu.readmodel.db``; ``KIFU_READMODEL`` or an explicit path overrides both.
"""

from __future__ import annotations

import json
import os
import sqlite3
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Self

from sqlite_utils import Database

from projections.errors import KifuError
from projections.replay import Replay

SCHEMA_VERSION = 1
PAGE = 1000
BATCH = 50_000  # notifications read in one catch-up transaction
DEFAULT_READMODEL = "kifu.readmodel.db"


class ReadModelError(KifuError):
    """The read model cannot be opened or brought up to date (delete it, or --rebuild)."""


def normalise_name(text: Any) -> str:
    """The key deck and archetype names are matched on: NFKC (full-width and half-width
    spellings become one), trimmed, inner runs of whitespace collapsed to one space."""
    if text is None:
        return ""
    return " ".join(unicodedata.normalize("NFKC", str(text)).split())


def default_path(store_db: str) -> str:
    """``X.db`` -> ``X.readmodel.db``; a postgresql:// store -> ``./kifu.readmodel.db``."""
    env = os.environ.get("KIFU_READMODEL")
    if env:
        return env
    if store_db.startswith(("postgresql://", "postgres://")):
        return DEFAULT_READMODEL
    root, ext = os.path.splitext(store_db)
    return f"{root}.readmodel{ext or '.db'}"


def source_of(store: Any) -> str:
    """What identifies the store a read model was built from."""
    if getattr(store, "is_postgres", False):
        return str(store._safe_db())
    return os.path.abspath(str(store.db))


def first_event(store: Any) -> str:
    """A fingerprint of the store's first event: a store deleted and made anew differs here
    even when it has grown past the read model's position again."""
    first = store.notifications(0, 1)
    if not first:
        return ""
    event = first[0][1]
    return f"{event.originator_id}@{getattr(event, 'timestamp', '')}"


# -- one match -> rows ---------------------------------------------------------------------------


def match_rows(
    match_id: str, stream: str, header: Mapping[str, Any], entries: Sequence[Mapping[str, Any]]
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The ``matches`` row and the ``results`` rows of one match, from its whole log."""
    meta = header.get("match") or {}
    players = [p for p in header.get("players") or [] if isinstance(p, dict)]
    decks = [(p.get("deck") or {}) for p in players]
    ids = [str(p.get("id")) for p in players]
    first = header.get("first") or (ids[0] if ids else None)
    row: dict[str, Any] = {
        "id": match_id,
        "stream": stream,
        "game": header.get("game"),
        "rules": header.get("rules"),
        "title": meta.get("title"),
        "event": meta.get("event"),
        "round": meta.get("round"),
        "table": None if meta.get("table") is None else str(meta.get("table")),
        "date": None if meta.get("date") is None else str(meta.get("date")),
        "players": json.dumps([p.get("name") or p.get("id") for p in players], ensure_ascii=False),
        "decks": json.dumps([d.get("name") for d in decks], ensure_ascii=False),
        "archetypes": json.dumps([d.get("archetype") for d in decks], ensure_ascii=False),
        "player_count": len(players),
        "first": first,
        "finished": 0,
        "winner": None,
        "reason": None,
        "steps": len(entries),
        "turns": None,
        "error": None,
    }
    try:
        rep = Replay(header, entries)
        result = rep.result()
        turn = rep.board_json(rep.steps).get("turn")
        row["turns"] = turn if isinstance(turn, int) else None
        if result is not None:
            row.update(finished=1, winner=result.winner, reason=result.reason)
    except KifuError as exc:  # e.g. a game this build does not have: keep the row, skip it in stats
        row["error"] = str(exc)
    except Exception as exc:
        row["error"] = f"{type(exc).__name__}: {exc}"
    first_index = ids.index(first) if first in ids else 0
    results = []
    for i, (p, deck) in enumerate(zip(players, decks)):
        pid = ids[i]
        if not row["finished"]:
            outcome = None
        elif row["winner"] is None:
            outcome = "draw"
        else:
            outcome = "win" if pid == row["winner"] else "loss"
        results.append({
            "match_id": match_id,
            "player": pid,
            "name": p.get("name"),
            "deck": deck.get("name"),
            "archetype": deck.get("archetype"),
            "deck_key": normalise_name(deck.get("name")),
            "archetype_key": normalise_name(deck.get("archetype")),
            "seat": (i - first_index) % len(players) + 1,
            "is_first": int(pid == first),
            "outcome": outcome,
        })
    return row, results


# -- the read model --------------------------------------------------------------------------------


class ReadModel:
    """The sqlite-utils database of the statistics read model."""

    def __init__(self, path: str):
        self.path = path
        parent = os.path.dirname(os.path.abspath(path))
        if not os.path.isdir(parent):
            raise ReadModelError(f"read model {path}: directory {parent} does not exist")
        try:
            self.db = Database(path)
            self.db.conn.execute("PRAGMA busy_timeout = 10000")
            self._ensure_schema()
        except sqlite3.DatabaseError as exc:
            raise ReadModelError(f"read model {path}: {exc} (delete it, or run kifu stats --rebuild)") from None

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _ensure_schema(self) -> None:
        state = self.db["state"]
        if state.exists():
            version = self._get("schema")
            if version == str(SCHEMA_VERSION):
                return
            # Another layout: a read model holds nothing that cannot be projected again.
            with self.db.atomic():
                for name in ("matches", "results", "state"):
                    self.db[name].drop(ignore=True)
        with self.db.atomic():
            self.db["matches"].create(  # type: ignore[union-attr]
                {
                    "id": str, "stream": str, "game": str, "rules": str, "title": str,
                    "event": str, "round": int, "table": str, "date": str, "players": str,
                    "decks": str, "archetypes": str, "player_count": int, "first": str,
                    "finished": int, "winner": str, "reason": str, "steps": int, "turns": int,
                    "error": str,
                },
                pk="id",
                if_not_exists=True,
            )
            self.db["matches"].create_index(["stream"], unique=True, if_not_exists=True)  # type: ignore[union-attr]
            self.db["results"].create(  # type: ignore[union-attr]
                {
                    "match_id": str, "player": str, "name": str, "deck": str, "archetype": str,
                    "deck_key": str, "archetype_key": str, "seat": int, "is_first": int,
                    "outcome": str,
                },
                pk=("match_id", "player"),
                foreign_keys=[("match_id", "matches", "id")],
                if_not_exists=True,
            )
            self.db["state"].create({"key": str, "value": str}, pk="key", if_not_exists=True)  # type: ignore[union-attr]
            self.db["state"].upsert({"key": "schema", "value": str(SCHEMA_VERSION)}, pk="key")  # type: ignore[union-attr]

    def _get(self, key: str) -> str | None:
        rows = list(self.db.query("select value from state where key = ?", [key]))
        return rows[0]["value"] if rows else None

    def last_id(self) -> int:
        return int(self._get("last_notification_id") or 0)

    def source(self) -> str | None:
        return self._get("source")

    # -- catching up -------------------------------------------------------------------------------

    def catch_up(
        self, store: Any, page: int = PAGE, on_page: Callable[[int], None] | None = None
    ) -> int:
        """Read every notification after the last one seen; return how many were read.

        Each page is one transaction that takes the write lock first (BEGIN IMMEDIATE), so two
        processes catching up at once take turns instead of writing stale rows over new ones."""
        source = source_of(store)
        known = self.source()
        if known is not None and known != source:
            raise ReadModelError(
                f"read model {self.path} was built from {known}, not {source}: "
                f"run kifu stats --rebuild or give --readmodel"
            )
        if self.last_id() and (
            self.last_id() > store.max_notification_id() or self._get("first_event") != first_event(store)
        ):
            self._reset()  # the store was replaced (deleted and made anew): start again from nothing
        total = 0
        while True:
            try:
                self.db.execute("BEGIN IMMEDIATE")
                read = self._catch_up_page(store, source, page)
            except sqlite3.Error as exc:
                self.db.rollback()
                raise ReadModelError(f"read model {self.path}: {exc}") from None
            except BaseException:
                self.db.rollback()
                raise
            self.db.commit()
            if not read:
                return total
            total += read
            if on_page:
                on_page(read)

    def _catch_up_page(self, store: Any, source: str, page: int) -> int:
        """Read pages until the store is exhausted (or BATCH notifications), then recompute
        each touched match once: a 10,000-event import touches one match in ten pages, and
        replaying it once per page made catching up quadratic."""
        after = self.last_id()
        first_after = after
        touched: dict[str, str] = {}  # stream uuid -> match id, in first-touched order
        count = 0
        while count < BATCH:
            notes = store.notifications(after, page)
            if not notes:
                break
            for _, event in notes:
                stream = str(event.originator_id)
                if stream in touched:
                    continue
                header = getattr(event, "header", None)
                if isinstance(header, dict):
                    touched[stream] = str(header["match"]["id"])
                elif hasattr(event, "entry"):
                    touched[stream] = self._match_of(stream)
            after = notes[-1][0]
            count += len(notes)
            if len(notes) < page:
                break
        if not count:
            return 0
        for stream, match_id in touched.items():
            header, entries = store.load(match_id)
            row, results = match_rows(match_id, stream, header, entries)
            self.db.execute("delete from results where match_id = ?", [match_id])
            self.db["matches"].upsert(row, pk="id")  # type: ignore[union-attr]
            if results:
                self.db["results"].insert_all(results, pk=("match_id", "player"))  # type: ignore[union-attr]
        state = self.db["state"]
        state.upsert({"key": "last_notification_id", "value": str(after)}, pk="key")  # type: ignore[union-attr]
        state.upsert({"key": "source", "value": source}, pk="key")  # type: ignore[union-attr]
        if first_after == 0:
            state.upsert({"key": "first_event", "value": first_event(store)}, pk="key")  # type: ignore[union-attr]
        return count

    def _reset(self) -> None:
        with self.db.atomic():
            for name in ("results", "matches"):
                self.db.execute(f"delete from {name}")
            self.db.execute("delete from state where key in ('last_notification_id', 'first_event')")

    def _match_of(self, stream: str) -> str:
        rows = list(self.db.query("select id from matches where stream = ?", [stream]))
        if not rows:
            raise ReadModelError(
                f"read model {self.path}: an event of stream {stream} arrived before its match "
                f"was seen: run kifu stats --rebuild"
            )
        return str(rows[0]["id"])

    # -- reading -------------------------------------------------------------------------------

    def matches(self) -> list[dict[str, Any]]:
        """Every match row (JSON columns decoded) with its ``results`` rows, in id order."""
        by_match: dict[str, list[dict[str, Any]]] = {}
        for r in self.db.query("select * from results order by match_id, seat"):
            by_match.setdefault(r["match_id"], []).append(r)
        out = []
        for m in self.db.query("select * from matches order by id"):
            for key in ("players", "decks", "archetypes"):
                m[key] = json.loads(m[key]) if m[key] else []
            m["results"] = by_match.get(m["id"], [])
            out.append(m)
        return out

    def count(self) -> int:
        return int(self.db.execute("select count(*) from matches").fetchone()[0])


# -- opening, rebuilding -------------------------------------------------------------------------


def open_readmodel(store: Any, path: str | None = None) -> ReadModel:
    return ReadModel(path or default_path(store.db))


def rebuild(
    store: Any, path: str | None = None, on_page: Callable[[int], None] | None = None
) -> ReadModel:
    """Build the read model from nothing in a file beside it, then swap it in (readers see the
    old model or the new one, never half of one)."""
    path = path or default_path(store.db)
    tmp = f"{path}.rebuild-{os.getpid()}"
    for name in (tmp, f"{tmp}-journal"):
        if os.path.exists(name):
            os.remove(name)
    fresh = ReadModel(tmp)
    try:
        fresh.catch_up(store, on_page=on_page)
    finally:
        fresh.close()
    os.replace(tmp, path)
    return ReadModel(path)


def catch_up_store(store: Any, path: str | None = None, on_page: Callable[[int], None] | None = None) -> ReadModel:
    """Open the store's read model and bring it up to date (the usual way in)."""
    rm = open_readmodel(store, path)
    try:
        rm.catch_up(store, on_page=on_page)
    except BaseException:
        rm.close()
        raise
    return rm
