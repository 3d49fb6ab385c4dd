"""The statistics read model: one row per match and one per player, in a SQLite file of its own.

The event store stays the source of truth. This file is a projection of it that can be
deleted at any time: ``ReadModel.catch_up(store)`` reads the store's notifications after the
last one it has seen, once each, and folds the lines they carry into the matches they touch.
Each match's fold (a ruled-view ``Replay`` without rule checks: a row needs the result and
the turn, not the violations) is kept per process, so a new line costs one ``apply``; a
ruling that changes the past refolds from the checkpoint before the step it changes
(``Replay.extend``). A match this process has no fold for is folded from the notifications
themselves when they hold its whole stream (an import, a rebuild), from the writer's own
head fold when it hands one over (``known``), and only otherwise loaded from the store. Each
page of rows is written with one ``executemany``. The last notification id is written in
the same transaction as the rows it produced, so a crash leaves the model at a consistent
point and the next catch-up resumes.

Where it lives: for a store file ``X.db``, ``X.readmodel.db`` beside it; for a PostgreSQL
store ``./kifu.readmodel.db``; ``KIFU_READMODEL`` or an explicit path overrides both.
"""

from __future__ import annotations

import contextlib
import gc
import json
import os
import sqlite3
import threading
import uuid
import weakref
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Self

from sqlite_utils import Database

from projections import cardstats, deskrows, registry, stats
from projections.base import N_, said
from projections import errors
from projections.errors import KifuError
from projections.names import name_key, normalise_name
from projections.replay import Replay

SCHEMA_VERSION = 7  # 2: event_key, player_key (statistics filter in SQL); 3: sides, pairs; 4: created;
# 5: desk (what the judges' desk shows of a match) and table checked (projections/deskrows.py);
# 6: index matches_by_event (event, created): the list of events probes it once per event;
# 7: cards (each card of each side of a decided match: listed, times played; projections/cardstats.py)
PAGE = 1000
FOLDS_KEPT = 512  # matches whose fold one process keeps between catch-ups
MATCH_COLUMNS = (
    "id", "stream", "game", "rules", "title", "event", "round", "table", "date", "players", "decks",
    "archetypes", "player_count", "first", "finished", "winner", "reason", "steps", "turns", "error",
    "event_key", "created", "desk",
)
RESULT_COLUMNS = (
    "match_id", "player", "name", "deck", "archetype", "deck_key", "archetype_key", "seat", "is_first", "outcome",
    "player_key",
)
BATCH = 50_000  # notifications read in one catch-up transaction
# A rebuild of at least this many notifications folds its matches in one process per core
# (at most PARTS_MAX): below it, starting the processes costs more than they save.
PARALLEL_FROM = 20_000
PARTS_MAX = 4
PART_PAGE = 1000  # lines a rebuild process reads at a time (a longer match is read whole)
WRITE_ROWS = 500  # matches a rebuild writes at a time (at most; or as many as make PART_PAGE events)
SEND_ROWS = 50  # matches a rebuild process sends at a time (small: the rows flow, the last batch is small)
PIPE_BYTES = 1 << 20  # what the pipe from a rebuild process may hold (_widen): a few batches of rows
DEFAULT_READMODEL = "kifu.readmodel.db"
PROJECTED = ("matches", "results", "sides", "pairs", "cards")  # the tables a fold writes (table_rows)


_FOLDS: dict[str, OrderedDict[str, Replay]] = {}


class ReadModelError(KifuError):
    """The read model cannot be opened or brought up to date (delete it, or --rebuild)."""


class ForeignFileError(ReadModelError):
    """The file given as the read model is another program's database: left as it is."""


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
        return str(store.safe_db)
    return os.path.abspath(str(store.db))


def _mark(stream: Any, version: int) -> str:
    """What ``Store.event_at`` says of the event of ``stream`` at ``version``."""
    return f"{str(stream).replace('-', '')}/{int(version)}"


def notice(message: str) -> None:
    """Tell the person at the terminal what the read model did on its own (took over a model
    of an earlier kifu, projected one of another layout anew): one line (``errors.say``)."""
    errors.say(message)


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
    match_id: str,
    stream: str,
    header: Mapping[str, Any],
    entries: Sequence[Mapping[str, Any]],
    rep: Replay | None = None,
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The ``matches`` row and the ``results`` rows of one match, from its whole log (or the
    fold ``rep`` of exactly that log, when the caller has one)."""
    static, players = _header_rows(match_id, stream, header)
    row = dict(static, steps=len(entries))
    try:
        if rep is None:
            rep = Replay(header, entries, checks=False)
        result = rep.result()
        board = rep.board(rep.steps)
        turn = getattr(board, "turn", None)  # what board_json says; without building all of it
        if not isinstance(turn, int):
            turn = rep.ruleset.board_json(board).get("turn")
        row["turns"] = turn if isinstance(turn, int) else None
        row["desk"] = deskrows.facts(header, entries, result, board, rep.ruleset)
        if result is not None and result.pending is None:  # a pending result (KIFU-3) is not counted yet
            row.update(finished=1, winner=result.winner, reason=result.reason)
            # its cards (not a column: _write turns them into the cards table's rows)
            row["cards"] = cardstats.match_cards(header, rep.moves_by_step, rep.board(0))
    except KifuError as exc:  # e.g. a game this build does not have: keep the row, skip it in stats
        row["error"] = str(exc)
    except Exception as exc:
        row["error"] = f"{type(exc).__name__}: {exc}"
    if row["error"] is not None:  # the desk still lists the match, with its players, lines and time
        try:
            row["desk"] = deskrows.facts(header, entries, None, None, None)
        except Exception:
            row["desk"] = None
    results = []
    for p in players:
        if not row["finished"]:
            outcome = None
        elif row["winner"] is None:
            outcome = "draw"
        else:
            outcome = "win" if p["player"] == row["winner"] else "loss"
        results.append(dict(p, outcome=outcome))
    return row, results


TableRows = tuple[tuple[Any, ...], list[tuple[Any, ...]], list[tuple[Any, ...]], list[tuple[Any, ...]],
                  list[tuple[Any, ...]]]  # one match's rows of matches, results, sides, pairs, cards


def table_rows(row: Mapping[str, Any], results: Sequence[Mapping[str, Any]]) -> TableRows:
    """One match's rows as the tables take them (``match_rows``' row and its results): the
    ``matches`` row, its ``results`` rows, and what the statistics count of it (``sides``,
    ``pairs``: stats.fact_rows; ``cards``: cardstats.card_rows). A rebuild's processes make
    these, so the process that writes only inserts them."""
    sides, pairs = stats.fact_rows(row, results)
    return (tuple([row[c] for c in MATCH_COLUMNS]), [tuple([r[c] for c in RESULT_COLUMNS]) for r in results],
            sides, pairs, cardstats.card_rows(row, results) if row.get("cards") else [])


_UPSERT_MATCH = (
    f"insert into matches ({', '.join(f'[{c}]' for c in MATCH_COLUMNS)}) "
    f"values ({', '.join('?' for _ in MATCH_COLUMNS)}) on conflict (id) do update set "
    + ", ".join(f"[{c}] = excluded.[{c}]" for c in MATCH_COLUMNS if c not in ("id", "created"))
    + ", created = coalesce(excluded.created, matches.created)"
)
_INSERT_RESULTS = (f"insert into results ({', '.join(f'[{c}]' for c in RESULT_COLUMNS)}) "
                   f"values ({', '.join('?' for _ in RESULT_COLUMNS)})")
_INSERT_SIDES = "insert into sides values (?, ?, ?, ?, ?, ?, ?, ?, ?)"
_INSERT_PAIRS = "insert into pairs values (?, ?, ?, ?, ?, ?, ?, ?, ?)"
_INSERT_CARDS = "insert into cards values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"


@dataclass(frozen=True)
class Folded:
    """A match's rows made by ``match_rows`` in another process (a folder import's worker,
    recorder/bulkprep.py), handed to ``catch_up`` in ``known`` in place of the fold itself:
    the rows of the match at ``steps`` lines (``created`` is set where the rows are written)."""

    steps: int
    row: dict[str, Any]
    results: list[dict[str, Any]]


# The rows' parts that come from the header alone, per match: a header never changes, and the
# record path asks for the same match's rows at every line. Kept with the header object they
# were made from (held here, so its id cannot be reused): another header, other rows.
_HEADER_ROWS: OrderedDict[tuple[str, str], tuple[Mapping[str, Any], dict[str, Any], list[dict[str, Any]]]] = OrderedDict()
HEADER_ROWS_KEPT = 512


# json.dumps(x, ensure_ascii=False) without making its encoder again at every call (a rebuild
# writes three of these a match): the same text.
_json = json.JSONEncoder(ensure_ascii=False).encode


def _header_rows(
    match_id: str, stream: str, header: Mapping[str, Any]
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    key = (match_id, stream)
    kept = _HEADER_ROWS.get(key)
    if kept is not None and kept[0] is header:
        with contextlib.suppress(KeyError):  # another thread let it go meanwhile: still good to use
            _HEADER_ROWS.move_to_end(key)
        return kept[1], kept[2]
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
        "players": _json([p.get("name") or p.get("id") for p in players]),
        "decks": _json([d.get("name") for d in decks]),
        "archetypes": _json([d.get("archetype") for d in decks]),
        "player_count": len(players),
        "first": first,
        "finished": 0,
        "winner": None,
        "reason": None,
        "steps": 0,
        "turns": None,
        "error": None,
        "event_key": name_key(meta.get("event")),
        "created": None,  # the notification id of the match's first event: set where it is known
        "desk": None,  # what the judges' desk shows (deskrows.facts): set by match_rows
    }
    first_index = ids.index(first) if first in ids else 0
    results = []
    for i, (p, deck) in enumerate(zip(players, decks)):
        pid = ids[i]
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
            "outcome": None,
            "player_key": name_key(p.get("name") or pid),
        })
    _HEADER_ROWS[key] = (header, row, results)
    while len(_HEADER_ROWS) > HEADER_ROWS_KEPT:
        try:
            _HEADER_ROWS.popitem(last=False)
        except KeyError:
            break
    return row, results


# -- the read model --------------------------------------------------------------------------------


class ReadModel:
    """The sqlite-utils database of the statistics read model."""

    def __init__(self, path: str):
        self.path = path
        # Folds live per process and per read-model file, across ReadModel objects (the
        # record path opens one per write).
        self._folds = _FOLDS.setdefault(os.path.abspath(path), OrderedDict())
        self._created: dict[Any, int] = {}  # a header read in a batch that ends inside its stream
        # The store object whose first event matched (see _same_store), weakly: a read model kept
        # open for the process (recorder.cli.stats) must not keep a closed store alive.
        self._checked: weakref.ref[Any] | None = None
        parent = os.path.dirname(os.path.abspath(path))
        if not os.path.isdir(parent):
            raise ReadModelError(f"read model {path}: directory {parent} does not exist")
        try:
            # One connection a server's worker threads share (each use holds the caller's lock).
            self.db = Database(sqlite3.connect(path, check_same_thread=False))
            self.db.conn.execute("PRAGMA busy_timeout = 10000")
            if not self.db["state"].exists():
                self._refuse_foreign()  # before anything is written to the file, WAL included
            # A projection that can be rebuilt: write-ahead log, synced at checkpoints rather
            # than at every commit (a write's own commit in the store is the durable one).
            self.db.conn.execute("PRAGMA journal_mode = WAL")
            self.db.conn.execute("PRAGMA synchronous = NORMAL")
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
                for name in ("matches", "results", "sides", "pairs", "cards", "checked", "state"):
                    self.db[name].drop(ignore=True)
            notice(said(N_("read model {path}: written by another kifu (layout {old}); projected anew in layout {new}"),
                        path=self.path, old=version, new=SCHEMA_VERSION))
        with self.db.atomic():
            self.db["matches"].create(  # type: ignore[union-attr]
                {
                    "id": str, "stream": str, "game": str, "rules": str, "title": str,
                    "event": str, "round": int, "table": str, "date": str, "players": str,
                    "decks": str, "archetypes": str, "player_count": int, "first": str,
                    "finished": int, "winner": str, "reason": str, "steps": int, "turns": int,
                    "error": str, "event_key": str, "created": int, "desk": str,
                },
                pk="id",
                if_not_exists=True,
            )
            self.db["matches"].create_index(["stream"], unique=True, if_not_exists=True)  # type: ignore[union-attr]
            self.db["results"].create(  # type: ignore[union-attr]
                {
                    "match_id": str, "player": str, "name": str, "deck": str, "archetype": str,
                    "deck_key": str, "archetype_key": str, "seat": int, "is_first": int,
                    "outcome": str, "player_key": str,
                },
                pk=("match_id", "player"),
                foreign_keys=[("match_id", "matches", "id")],
                if_not_exists=True,
            )
            self.db["matches"].create_index(["game", "finished"], if_not_exists=True)  # type: ignore[union-attr]
            self.db["matches"].create_index(["event_key"], if_not_exists=True)  # type: ignore[union-attr]
            self.db["matches"].create_index(["created"], if_not_exists=True)  # type: ignore[union-attr]
            self.db.execute("create index if not exists matches_by_event on matches (event, created)")
            # statistics (projections/stats.py): the day a date filter compares; the counts and
            # reasons of every match without a sort; a player's matches by the player index
            self.db.execute(f"create index if not exists matches_by_day on matches ({stats.DAY.replace('m.', '')})")
            self.db.execute("create index if not exists matches_by_result on matches (finished, error, reason, turns)")
            self.db["results"].create_index(["player_key"], if_not_exists=True)  # type: ignore[union-attr]
            self.db["results"].create_index(["player"], if_not_exists=True)  # type: ignore[union-attr]
            # What the statistics count of each match that counts, written with its rows
            # (stats.fact_rows): the report groups these instead of joining results to itself.
            # Each count of the report reads one covering index, in its GROUP BY order.
            self.db.execute(
                "create table if not exists sides (match_id text, game text, seat integer, outcome text, "
                "deck text, archetype text, deck_once integer, archetype_once integer, turns integer)")
            self.db.execute(
                "create table if not exists pairs (match_id text, game text, a_deck text, a_archetype text, "
                "b_deck text, b_archetype text, a_first integer, b_first integer, outcome text)")
            for table, columns in (
                ("sides", "match_id"), ("pairs", "match_id"),
                ("sides", "game, seat, outcome"),
                ("sides", "game, deck_once, deck, turns"),
                ("sides", "game, archetype_once, archetype, turns"),
                ("pairs", "game, a_deck, b_deck, a_first, b_first, outcome"),
                ("pairs", "game, a_archetype, b_archetype, a_first, b_first, outcome"),
            ):
                name = f"{table}_by_" + "_".join(c.strip() for c in columns.split(",")[:3])
                self.db.execute(f"create index if not exists {name} on {table} ({columns})")
            self.db.execute(cardstats.CARDS_DDL)
            for ddl in cardstats.CARDS_INDEXES:
                self.db.execute(ddl)
            self.db.execute(deskrows.CHECKED_DDL)
            self.db["state"].create({"key": str, "value": str}, pk="key", if_not_exists=True)  # type: ignore[union-attr]
            self.db["state"].upsert({"key": "schema", "value": str(SCHEMA_VERSION)}, pk="key")  # type: ignore[union-attr]

    def _refuse_foreign(self) -> None:
        """A file without kifu's state table may still be a read model that lost it (project it
        again), or another program's database given by mistake: never write into that, and
        never let ``rebuild`` delete it."""
        ours = {"matches": MATCH_COLUMNS, "results": RESULT_COLUMNS, "sides": (), "pairs": (), "cards": (),
                "checked": ()}
        tables = [name for name in self.db.table_names() if not name.startswith("sqlite_")]
        foreign = [
            name for name in tables
            if name not in ours or not set(ours[name]) <= {c.name for c in self.db[name].columns}
        ]
        if foreign:
            raise ForeignFileError(
                f"read model {self.path}: not a kifu read model (it has tables kifu did not make: "
                f"{', '.join(sorted(foreign)[:5])}); give another --readmodel or KIFU_READMODEL"
            )
        with self.db.atomic():  # a read model that lost its state: project it again
            for name in tables:
                self.db[name].drop(ignore=True)

    def _check_identity(self, store: Any, state: Mapping[str, str], source: str) -> None:
        """The store a read model was built from is known by its id (``Store.identity``), not its
        path: a store moved, copied or restored with its read model keeps it. A model of another
        store is refused, unless it lies where that store lay (the store was replaced in place:
        ``_same_store`` then projects it anew). A model written before stores had an id names a
        path only: it is taken over once when its first event is the store's (the same store,
        moved), and says so."""
        if self._checked is not None and self._checked() is store:
            return
        sid = store.identity()
        known_id, known_source = state.get("store_id"), state.get("source")
        if known_id is not None and known_id != sid and known_source != source:
            raise ReadModelError(
                f"read model {self.path} was built from store {known_id} ({known_source}), "
                f"not store {sid} ({source}): run kifu stats --rebuild or give --readmodel"
            )
        if known_id is None and known_source is not None and known_source != source and \
                state.get("first_event") != first_event(store):
            raise ReadModelError(
                f"read model {self.path} was built from {known_source}, not {source}: "
                f"run kifu stats --rebuild or give --readmodel"
            )
        if known_source is None or (known_id == sid and known_source == source):
            return  # a new model (its first page writes them), or nothing moved
        try:
            with self.db.atomic():  # the store's id (first time) and where it lies now
                self.db.conn.executemany("insert or replace into state (key, value) values (?, ?)",
                                         [("store_id", str(sid)), ("source", source)])
        except sqlite3.Error as exc:
            raise ReadModelError(f"read model {self.path}: {exc}") from None
        if known_id is None and known_source is not None:
            notice(said(N_("read model {path}: it now names store {id} (it was written by an earlier kifu)"),
                        path=self.path, id=sid))

    def _same_store(self, store: Any) -> bool:
        """Whether ``store`` is the one this model was built from, by its first event (a store
        deleted and made anew differs there) and the event at its position (a copy of the store
        that went its own way since, or an older backup, holds another there, or none).
        Checked once per store object: an open store cannot be replaced under it."""
        if self._checked is not None and self._checked() is store:
            return True
        same = self._get("first_event") == first_event(store)
        mark = self._get("position")
        if same and mark is not None:
            same = store.event_at(self.last_id()) == mark
        if same:
            self._checked = weakref.ref(store)
        return same

    def _get(self, key: str) -> str | None:
        row = self.db.conn.execute("select value from state where key = ?", [key]).fetchone()
        return None if row is None else str(row[0])

    def last_id(self) -> int:
        return int(self._get("last_notification_id") or 0)

    def source(self) -> str | None:
        return self._get("source")

    # -- catching up -------------------------------------------------------------------------------

    def catch_up(
        self,
        store: Any,
        page: int = PAGE,
        on_page: Callable[[int], None] | None = None,
        known: Mapping[str, Replay | Folded] | None = None,
        from_scratch: bool = False,
    ) -> int:
        """Read every notification after the last one seen; return how many were read.

        ``from_scratch`` empties the model and writes the whole store's rows in ONE transaction:
        readers see the old model or the new one, never half of one (``rebuild``; it reads by
        parts, see ``_rebuild_by_parts``).

        ``known`` maps match ids to ruled-view replays the caller already folded to the
        store's head (the record path's head fold), or to their rows folded elsewhere
        (``Folded``): those matches are not folded again.
        Each page is one transaction that takes the write lock first (BEGIN IMMEDIATE), so two
        processes catching up at once take turns instead of writing stale rows over new ones."""
        source = source_of(store)
        state = dict(self.db.conn.execute("select key, value from state").fetchall())
        if not from_scratch:
            self._check_identity(store, state, source)
        # A writer that hands over its folds has just written: no need to ask whether there is
        # anything new (one query less on the record path).
        top = None if known and not from_scratch else store.max_notification_id()
        last = self.last_id()
        if last and ((top is not None and last > top) or not self._same_store(store)):
            self._reset()  # the store was replaced (deleted and made anew): start again from nothing
            last = 0
        if from_scratch:
            assert top is not None
            parts = rebuild_parts() if top >= PARALLEL_FROM else 1
            return self._rebuild_by_parts(store, source, top, parts, on_page)
        total = 0
        try:
            while top is None or top > last:  # nothing new: no write transaction at all
                self.db.execute("BEGIN IMMEDIATE")
                with no_gc():
                    read = self._catch_up_page(store, source, page, known or {})
                self.db.commit()
                if not read:
                    break
                total += read
                if on_page:
                    on_page(read)
                if read < BATCH:
                    break  # the store was read to its end (what came since, the next catch-up reads)
                top, last = store.max_notification_id(), self.last_id()
        except sqlite3.Error as exc:
            self.db.rollback()
            self._folds.clear()  # the rows were not written: the folds may be ahead of them
            raise ReadModelError(f"read model {self.path}: {exc}") from None
        except BaseException:
            self.db.rollback()
            self._folds.clear()
            raise
        return total

    def _catch_up_page(self, store: Any, source: str, page: int, known: Mapping[str, Replay | Folded]) -> int:
        """Read pages until the store is exhausted (or BATCH notifications), fold the lines
        into the matches they touch, then write each touched match's rows once."""
        after = self.last_id()
        first_after = after
        # Keyed by the stream id as the recorder returns it (a UUID: turned into text only
        # once per match, not once per event).
        touched: dict[Any, str] = {}  # stream -> match id, in first-touched order
        headers: dict[Any, dict[str, Any]] = {}  # streams that start in this batch
        created = self._created  # first notification ids of streams whose row is not written yet
        lines: dict[Any, list[dict[str, Any]]] = {}
        # Streams whose fold the writer handed over are not even decoded, only counted.
        given = {store.stream_of(mid): mid for mid in known}
        tops: dict[Any, int] = {}
        count = 0
        # What the writer stored: (first notification id, last, stream, its last version), or
        # a list of them in order (a folder import's matches, recorder/bulk.py).
        written = getattr(store, "written", None)
        spans = [written] if isinstance(written, tuple) else list(written or ())
        handed = False
        mark = ""  # the event at ``after`` (``Store.event_at``), known without asking
        for first, last, stream, top in spans:
            if last <= after:
                continue  # handed over by an earlier page
            if first != after + 1 or stream not in given or count >= BATCH:
                break
            # The writer's own events are the next notifications: nothing to read back (the
            # notifications after them, if any, the next catch-up reads).
            handed = True
            touched[stream] = given[stream]
            tops[stream] = top
            if top == last - first + 1:  # the writer's events start with the match's header
                created[stream] = first
            count += last - first + 1
            after = last
            mark = _mark(stream, top)
        if handed and spans[-1][1] != after:  # a gap (another writer) or a full page: read on
            handed = count >= BATCH
        while not handed and count < BATCH:
            notes = store.lines_after(after, page, frozenset(given))
            if not notes:
                break
            for nid, stream, version, header, entry in notes:
                if stream in given:
                    touched.setdefault(stream, given[stream])
                    tops[stream] = version
                    if version == 1:  # its header (not decoded: the writer's fold has it)
                        created[stream] = nid
                elif isinstance(header, dict):
                    headers[stream] = header
                    created[stream] = nid
                    touched.setdefault(stream, str(header["match"]["id"]))
                    lines[stream] = []
                elif isinstance(entry, dict):
                    if stream not in touched:
                        touched[stream] = self._match_of(str(stream))
                    lines.setdefault(stream, []).append(entry)
            after = notes[-1][0]
            mark = _mark(notes[-1][1], notes[-1][2])
            count += len(notes)
            if len(notes) < page:
                break
        if not count:
            return 0
        rows: list[dict[str, Any]] = []
        results: list[dict[str, Any]] = []
        checked: list[tuple[str, int, list[dict[str, Any]]]] = []
        for stream_id, match_id in touched.items():
            stream = str(stream_id)
            rep: Replay | None
            if stream_id in tops and known[match_id].steps == tops[stream_id] - 1:
                given_fold = known[match_id]  # the writer's own fold, exactly at the line just read
                self._folds.pop(stream, None)
                if isinstance(given_fold, Folded):  # folded by another process: its rows, as they are
                    rows.append(dict(given_fold.row, created=created.pop(stream_id, given_fold.row["created"])))
                    results += given_fold.results
                    continue
                rep = given_fold
                if rep.checks:  # checked to its head already (it decided the line): the desk's violations
                    with contextlib.suppress(Exception):
                        checked.append((match_id, rep.steps, [v.to_json() for v in rep.violations()]))
            elif stream_id in tops and known[match_id].steps > tops[stream_id] - 1:
                continue  # this batch ends inside the stream: its row comes with the next batch
            else:
                rep = self._fold(store, stream, match_id, headers.get(stream_id), lines.get(stream_id, []))
            row, res = match_rows(match_id, stream, rep.header, rep.entries, rep) if rep else self._reload(
                store, stream, match_id
            )
            if stream_id in created:
                row["created"] = created.pop(stream_id)
            rows.append(row)
            results += res
        self._write(rows, results)
        deskrows.save_checked(self.db.conn, checked)
        self._find_created(store, [r["id"] for r in rows if r["created"] is None])
        self.db.conn.executemany(
            "insert or replace into state (key, value) values (?, ?)",
            [("last_notification_id", str(after)), ("position", mark)]
            + ([("first_event", first_event(store)), ("source", source), ("store_id", str(store.identity()))]
               if first_after == 0 else []),
        )
        return count

    def _rebuild_by_parts(
        self, store: Any, source: str, top: int, parts: int, on_page: Callable[[int], None] | None
    ) -> int:
        """``catch_up(from_scratch=True)``: the matches split into ``parts`` parts
        (``store.part_of``), each walked stream by stream up to notification ``top`` and folded
        one match at a time into the rows the tables take (``_part_rows``, ``table_rows``), each
        part in a process of its own; this process only merges the parts' rows in the order
        their matches began and writes them a batch at a time, in one transaction (the writes
        are the one thing a rebuild cannot spread: a fold of its own would make every other
        process wait for it). Nothing holds more than a page of lines (or one match's) and a
        batch of rows: the memory does not grow with the store. With one part, no process is
        started: this one reads, folds and writes."""
        import heapq
        import multiprocessing

        ctx = multiprocessing.get_context("fork")
        children: list[tuple[Any, Any]] = []
        reader = None
        if parts > 1:
            _load_games()  # once, here: each process forked below has them, not importing them again
        try:
            for part in range(parts if parts > 1 else 0):
                mine, theirs = ctx.Pipe(duplex=False)
                _widen(theirs)
                child = ctx.Process(target=_part_child, args=(store.reader, part, parts, top, theirs), daemon=True)
                child.start()
                theirs.close()
                children.append((child, mine))
            self.db.execute("BEGIN IMMEDIATE")
            self._clear()
            indexes = self._drop_indexes()
            with no_gc():
                sources: list[Iterator[Packed]]
                if children:
                    sources = [_received(child, conn, self.path) for child, conn in children]
                else:
                    reader = store.reader()
                    sources = [map(_packed, _part_rows(reader, 0, 1, top))]
                batch: list[Packed] = []
                passed = events = 0
                for found in heapq.merge(*sources, key=lambda f: f[0]):
                    batch.append(found)
                    events += found[1]
                    if len(batch) >= WRITE_ROWS or events >= PART_PAGE:  # a page of events, or of rows
                        passed = self._write_found(batch, passed, on_page)
                        batch, events = [], 0
                passed = self._write_found(batch, passed, on_page)
            if on_page and top > passed:  # the events of other kinds of streams, passed over
                on_page(top - passed)
            for sql in indexes:
                self.db.execute(sql)
            self.db.conn.executemany(
                "insert or replace into state (key, value) values (?, ?)",
                [("last_notification_id", str(top)), ("source", source), ("first_event", first_event(store)),
                 ("store_id", str(store.identity())), ("position", str(store.event_at(top)))],
            )
            self.db.commit()
        except sqlite3.Error as exc:
            self.db.rollback()
            raise ReadModelError(f"read model {self.path}: {exc}") from None
        except BaseException:
            self.db.rollback()
            raise
        finally:
            if reader is not None:
                reader.close()
            for child, conn in children:
                if child.is_alive():
                    child.terminate()
                child.join()
                conn.close()
        return top

    def _drop_indexes(self) -> list[str]:
        """Drop the indexes of the tables a rebuild fills (not the primary keys); their SQL, to
        make them again in the same transaction once every row is in: an index built once from
        all the rows costs less than one kept up to date row by row. A rebuild that fails rolls
        the drop back with the rest."""
        con = self.db.conn
        found = con.execute(
            "select name, sql from sqlite_master where type = 'index' and sql is not null and tbl_name in "
            f"({', '.join('?' for _ in PROJECTED)}) order by name", PROJECTED).fetchall()
        for name, _ in found:
            con.execute(f'drop index "{name}"')
        return [str(sql) for _, sql in found]

    def _write_found(self, batch: list[Packed], done: int, on_page: Callable[[int], None] | None) -> int:
        """Write a batch of a rebuild's rows; the progress is the events of the matches written
        (a header and its lines each: what remains, other streams' events, is counted at the end)."""
        if not batch:
            return done
        self._insert([p[2] for p in batch])
        events = sum(p[1] for p in batch)
        if on_page:
            on_page(events)
        return done + events

    def _fold(
        self,
        store: Any,
        stream: str,
        match_id: str,
        header: dict[str, Any] | None,
        new: list[dict[str, Any]],
    ) -> Replay | None:
        """The match's fold up to the lines just read, as cheaply as it can be had; None when
        the match can only be folded from a full reload (its game is not in this build...)."""
        folds = self._folds
        try:
            if header is not None:  # the whole stream is in this batch: fold what we read
                rep = Replay(header, new, checks=False)
            elif stream in folds and new and folds[stream].steps == new[0]["seq"] - 1:
                rep = folds[stream]
                rep.extend(new)
            else:  # a fold this process lacks, or a writer's fold behind the store: load it
                last = new[-1]["seq"] if new else None
                header_, entries = store.load(match_id)
                rep = Replay(header_, entries, checks=False)
                if last is not None and rep.steps > last:
                    # another writer is already further on: fold what we read, no more
                    rep = Replay(header_, entries[:last], checks=False)
        except Exception:  # e.g. a game this build does not have, a ruleset bug: match_rows
            folds.pop(stream, None)  # keeps the row with its error
            return None
        folds[stream] = rep
        folds.move_to_end(stream)
        while len(folds) > FOLDS_KEPT:
            folds.popitem(last=False)
        return rep

    def _find_created(self, store: Any, ids: list[str]) -> None:
        """``created`` of rows written without it whose header this process never read (a row
        lost behind its back, a catch-up stopped inside a stream): asked of the store."""
        if not ids:
            return
        con = self.db.conn
        marks = ", ".join("?" for _ in ids)
        for mid, stream in con.execute(
                f"select id, stream from matches where created is null and id in ({marks})", ids).fetchall():
            con.execute("update matches set created = ? where id = ?",
                        (store.first_notification_id(uuid.UUID(stream)), mid))

    def _reload(self, store: Any, stream: str, match_id: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        header, entries = store.load(match_id)
        return match_rows(match_id, stream, header, entries)

    def _write(self, rows: list[dict[str, Any]], results: list[dict[str, Any]], fresh: bool = False) -> None:
        """Write matches' rows over what the model holds of them (``fresh``: it holds nothing
        of them, a rebuild's model emptied in the same transaction)."""
        if not rows:
            return
        con = self.db.conn
        if not fresh:
            if len(rows) == 1 and self._only_the_match_row(rows[0]):
                return
            ids = [(r["id"],) for r in rows]
            con.executemany("delete from results where match_id = ?", ids)
            con.executemany("delete from sides where match_id = ?", ids)
            con.executemany("delete from pairs where match_id = ?", ids)
            con.executemany("delete from cards where match_id = ?", ids)
        by_match: dict[str, list[dict[str, Any]]] = {}
        for r in results:
            by_match.setdefault(r["match_id"], []).append(r)
        self._insert([table_rows(row, by_match.get(row["id"], [])) for row in rows])

    def _insert(self, tables: Sequence[TableRows]) -> None:
        """Insert matches' rows as ``table_rows`` shaped them, each table in one ``executemany``
        (a row of ``matches`` written again keeps its ``created``: only a header's batch knows it)."""
        con = self.db.conn
        con.executemany(_UPSERT_MATCH, [t[0] for t in tables])
        for sql, i in ((_INSERT_RESULTS, 1), (_INSERT_SIDES, 2), (_INSERT_PAIRS, 3), (_INSERT_CARDS, 4)):
            con.executemany(sql, [r for t in tables for r in t[i]])

    def _only_the_match_row(self, row: dict[str, Any]) -> bool:
        """The record path's common case, one line onto an unfinished match: when the match's
        row already stands unfinished and without error, its results rows (its players, from
        the header, with no outcome) are the same and it has no sides or pairs (nothing counts
        before a result), and the rest of its row comes from the header, which never changes:
        only its steps, turns and desk facts are written, in one statement that also asks how it stands."""
        if row["finished"] or row["error"] is not None:
            return False
        cur = self.db.conn.execute(
            "update matches set steps = ?, turns = ?, desk = ? where id = ? and finished = 0 and error is null",
            (row["steps"], row["turns"], row["desk"], row["id"]),
        )
        return cur.rowcount == 1

    def _reset(self) -> None:
        with self.db.atomic():
            self._clear()

    def _clear(self) -> None:
        self._folds.clear()
        self._created.clear()
        self._checked = None
        for name in ("results", "sides", "pairs", "cards", "matches", "checked"):
            self.db.execute(f"delete from {name}")
        self.db.execute("delete from state where key in ('last_notification_id', 'first_event', 'source', 'store_id', "
                        "'position')")

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

    def report(self, filters: Any = None) -> dict[str, Any]:
        """The statistics report (``projections.stats``), computed in SQL."""
        return stats.report_sql(self.db.conn, filters)

    def games(self) -> list[str]:
        return stats.games_sql(self.db.conn)

    def card_report(self, filters: Any, min_sample: int = 0) -> dict[str, Any]:
        """The card statistics of one game (``projections.cardstats``), computed in SQL."""
        return cardstats.report_sql(self.db.conn, filters, min_sample)

    def count(self) -> int:
        return int(self.db.execute("select count(*) from matches").fetchone()[0])


# -- opening, rebuilding -------------------------------------------------------------------------


def rebuild_parts() -> int:
    """Processes a large rebuild folds in: ``KIFU_REBUILD_PARTS`` when set, else one per core;
    at most ``PARTS_MAX``, and 1 where processes cannot be forked. The same on both backends:
    each part asks the database for its own streams only (``store.part_streams``)."""
    import multiprocessing

    if "fork" not in multiprocessing.get_all_start_methods():
        return 1
    given = os.environ.get("KIFU_REBUILD_PARTS", "")
    wanted = int(given) if given.isdigit() and int(given) > 0 else os.cpu_count() or 1
    return min(wanted, PARTS_MAX)


Found = tuple[int, dict[str, Any], list[dict[str, Any]]]  # (first notification, match row, result rows)
Packed = tuple[int, int, TableRows]  # (first notification, events: its lines and header, the rows of its tables)


@contextlib.contextmanager
def no_gc() -> Iterator[None]:
    """Without the cyclic garbage collector: a bulk read allocates objects by the million, and
    the collector would walk the live ones again at each generation (about a fifth of a
    rebuild's CPU). Folds make no reference cycles (tests/core/test_rebuild_memory.py holds
    them to it), so what a fold lets go is freed by its reference count meanwhile."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def _widen(conn: Any) -> None:
    """Let the pipe from a rebuild process hold ``PIPE_BYTES`` (Linux: ``F_SETPIPE_SZ``; the
    default holds 64 KiB, less than one batch of rows). This process takes the parts' rows in
    the order their matches began, so a part that runs ahead waits until the others catch up;
    with room for a few batches in the pipe it goes on folding meanwhile, instead of leaving
    its core idle whenever the other part (or this process, writing) is behind. Where the
    system does not allow it, the pipe stays as it is: slower, the same rows."""
    import fcntl

    size = getattr(fcntl, "F_SETPIPE_SZ", None)
    if size is None:
        return
    with contextlib.suppress(OSError, ValueError):
        fcntl.fcntl(conn.fileno(), size, PIPE_BYTES)


def _load_games() -> None:
    """Import every game this build has (``registry.GAMES``), so that processes forked
    after it find them imported (each would import them again itself, and the report that
    follows a rebuild in this process too). A game that cannot be imported is left to the
    fold, which writes its matches' rows with the error (``match_rows``)."""
    for game in list(registry.GAMES):
        with contextlib.suppress(Exception):
            registry.get(game)


def _share(streams: list[tuple[int, Any, int]], part: int, parts: int) -> list[tuple[int, Any, int]]:
    """Part ``part`` of ``parts`` of ``streams`` (as ``store.part_streams`` lists them: first
    notification, stream, events; in the order they began), still in that order: each stream
    goes to the part that has the fewest events so far (the first such part), so every part
    folds about as many events. Every process that lists the same streams gets the same parts;
    each stream is in exactly one."""
    if parts <= 1:
        return streams
    loads = [0] * parts
    mine = []
    for found in streams:
        least = loads.index(min(loads))
        loads[least] += found[2]
        if least == part:
            mine.append(found)
    return mine


def _part_rows(store: Any, part: int, parts: int, top: int) -> Iterator[Found]:
    """The rows of every match of part ``part`` of ``parts`` as of notification ``top``, one
    match at a time in the order they began: the store's streams are listed from the
    primary-key index (``store.part_streams``) and shared out by their events (``_share``),
    then the part's are read a page of streams at a time (about ``PART_PAGE`` lines, or one
    whole match when it is longer) through that index (``store.stream_lines``), each folded and
    let go. A stream whose first event is not a match's start (another kind of stream in the
    same store) is skipped; so is an event that carries no line."""
    streams = _share(store.part_streams(0, 1, top), part, parts)
    start = 0
    while start < len(streams):
        end, lines = start + 1, streams[start][2]
        while end < len(streams) and lines + streams[end][2] <= PART_PAGE:
            lines += streams[end][2]
            end += 1
        page = streams[start:end]
        read = store.stream_lines([stream for _, stream, _ in page], top)
        for first, stream, _ in page:
            found = _folded(first, stream, read.pop(stream, None))
            if found is not None:
                yield found
        del read, page  # this page's lines are let go before the next page is read
        start = end


def _folded(first: int, stream: Any, read: tuple[dict[str, Any] | None, list[dict[str, Any]]] | None) -> Found | None:
    """One match's rows from its header and lines (None for a stream that is not a match's)."""
    if read is None:
        return None
    header, entries = read
    if header is None:
        return None
    row, results = match_rows(str(header["match"]["id"]), _stream_text(stream), header, entries)
    row["created"] = first
    return first, row, results


def _stream_text(stream: Any) -> str:
    """A stream id as the rows spell it (a UUID's canonical text), however the recorder handed
    it out (a ``UUID``, or the text SQLite stores: its hex digits without hyphens)."""
    if not isinstance(stream, uuid.UUID):
        with contextlib.suppress(ValueError):
            stream = uuid.UUID(str(stream))
    return str(stream)


def _packed(found: Found) -> Packed:
    """A match's rows as a rebuild writes them (``table_rows``), with where it began and its events."""
    first, row, results = found
    return first, row["steps"] + 1, table_rows(row, results)


def _part_child(opener: Callable[[], Any], part: int, parts: int, top: int, conn: Any) -> None:
    """A rebuild process (forked): its part's rows as the tables take them (``_packed``),
    ``SEND_ROWS`` matches at a time, then ("done", None); or one line saying what went wrong.
    A send waits while the parent is behind, so no more than a batch or two of rows is ever in
    flight."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle: it ends us
    store = None
    try:
        store = opener()  # its own connections: none of the parent's is used after a fork
        batch: list[Packed] = []
        with no_gc():
            for found in _part_rows(store, part, parts, top):
                batch.append(_packed(found))
                if len(batch) >= SEND_ROWS:
                    conn.send(("rows", batch))
                    batch = []
        if batch:
            conn.send(("rows", batch))
        conn.send(("done", None))
    except BaseException as exc:
        conn.send(("error", str(exc) if isinstance(exc, KifuError) else f"{type(exc).__name__}: {exc}"))
    finally:
        if store is not None:
            store.close()
        conn.close()


def _received(child: Any, conn: Any, path: str) -> Iterator[Packed]:
    """The rows a rebuild process sends, as they come; its error as a ReadModelError."""
    while True:
        try:
            kind, payload = conn.recv()
        except EOFError:
            raise ReadModelError(f"read model {path}: a rebuild process ended without its rows "
                                 f"(exit code {child.join() or child.exitcode})") from None
        if kind == "done":
            return
        if kind != "rows":
            raise ReadModelError(payload)
        yield from payload


def open_readmodel(store: Any, path: str | None = None) -> ReadModel:
    return ReadModel(path or default_path(store.db))


def rebuild(
    store: Any, path: str | None = None, on_page: Callable[[int], None] | None = None
) -> ReadModel:
    """Build the read model again from the whole store, in place and in one transaction
    (readers see the old model or the new one, never half of one). A file that is not a
    read model any more (damaged, or another layout) is replaced."""
    path = path or default_path(store.db)
    try:
        rm = ReadModel(path)
    except ForeignFileError:
        raise
    except ReadModelError:
        for name in (path, f"{path}-journal", f"{path}-wal", f"{path}-shm"):
            if os.path.exists(name):
                os.remove(name)
        rm = ReadModel(path)
    try:
        rm.catch_up(store, on_page=on_page, from_scratch=True)
    except BaseException:
        rm.close()
        raise
    return rm


_OPEN: dict[str, ReadModel] = {}  # read models this process keeps open between writes, by path
_OPEN_LOCK = threading.Lock()


def after_write(store: Any, known: Mapping[str, Any]) -> None:
    """The read model's after-write listener (recorder/hooks.py runs it after every write,
    whichever face wrote): catch the read model up. ``known``: the writer's head folds, so
    the written match is not folded again. The read model stays open between writes (a
    server, ``kifu record -i``, an import). A read model that belongs to another store or is
    damaged is left as it is (``kifu stats`` says so and how to fix it); any other failure is
    raised to the hook runner, which warns (the write itself succeeded)."""
    try:
        path = default_path(store.db)
        with _OPEN_LOCK:
            rm = _OPEN.get(path)
            if rm is None or not os.path.exists(path):  # first write, or the file was deleted
                if rm is not None:
                    rm.close()
                rm = _OPEN[path] = open_readmodel(store, path)
            try:
                rm.catch_up(store, known=known)
            except BaseException:
                _OPEN.pop(path, None)
                rm.close()
                raise
    except ReadModelError:
        pass


def catch_up_store(
    store: Any,
    path: str | None = None,
    on_page: Callable[[int], None] | None = None,
    known: Mapping[str, Replay | Folded] | None = None,
) -> ReadModel:
    """Open the store's read model and bring it up to date (the usual way in)."""
    rm = open_readmodel(store, path)
    try:
        rm.catch_up(store, on_page=on_page, known=known)
    except BaseException:
        rm.close()
        raise
    return rm
