"""``kifu verify``: read a whole store and say what is damaged. It never repairs.

One consistent read of the store (``Store.snapshot``), stream by stream: each stream's versions
run from 1 without a gap, each stored event decodes and its topic is one kifu knows, a match's
seq is its version less one, each match header and each tournament stream folds, each match
replays. Then the read model, opened read-only (never caught up): it names this store, its
position is an event of this store, and its rows equal a fresh fold of the store up to that
position (every match, or ``sample`` of them chosen at random). One ``Problem`` per fault, each
naming its stream (its match or event), its seq and what is wrong.

A byte changed inside a value that still decodes (a die's face, a name) is a different record,
not a broken one: no checksum stands beside the events, so only the read model, when it counted
that value, can show it.
"""

from __future__ import annotations

import json
import os
import random
import sqlite3
import uuid
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from projections.base import N_, at, said
from recorder.ids import TOURNAMENT_OPENED_TOPICS
from recorder.store import MATCH_TOPICS, Store

TOURNAMENT_TOPICS = tuple(t.rpartition(".")[0] + "." for t in TOURNAMENT_OPENED_TOPICS)
PROGRESS_EVERY = 2000  # events between two progress calls
# What the read model counts of each match besides its matches and results rows
# (projections/readmodel.py ``table_rows``), in the order table_rows gives them.
FACT_TABLES = ("sides", "pairs", "cards")


@dataclass(frozen=True)
class Problem:
    """One fault: where (a stream, the match or event it is, a seq) and what."""

    what: str
    stream: str | None = None
    match: str | None = None
    event: str | None = None
    seq: int | None = None

    def line(self) -> str:
        where = []
        if self.match is not None:
            where.append(f"match {self.match!r}")
        elif self.event is not None:
            where.append(f"event {self.event!r}")
        if self.stream is not None:
            where.append(f"(stream {self.stream})" if where else f"stream {self.stream}")
        if self.seq is not None:
            where.append(f"seq {self.seq}")
        return at(" ".join(where), self.what) if where else self.what

    def to_json(self) -> dict[str, Any]:
        return {"stream": self.stream, "match": self.match, "event": self.event, "seq": self.seq,
                "what": self.what, "line": self.line()}


@dataclass
class Report:
    events: int = 0
    streams: int = 0
    matches: int = 0
    tournaments: int = 0
    compared: int = 0  # matches whose read-model rows were compared
    readmodel: str | None = None  # the read model's file, when there is one
    notes: list[str] = field(default_factory=list)  # not faults: what was not compared, and why
    problems: list[Problem] = field(default_factory=list)

    @property
    def whole(self) -> bool:
        return not self.problems

    def to_json(self) -> dict[str, Any]:
        return {"whole": self.whole, "events": self.events, "streams": self.streams, "matches": self.matches,
                "tournaments": self.tournaments, "compared": self.compared, "readmodel": self.readmodel,
                "notes": self.notes, "problems": [p.to_json() for p in self.problems]}


@dataclass
class _Stream:
    stream: str
    versions: list[tuple[int, int, str, bytes]]  # (version, notification id, topic, state)


def _streams(events: Iterator[tuple[int, str, int, str, bytes]]) -> Iterator[_Stream]:
    current: _Stream | None = None
    for nid, stream, version, topic, state in events:
        if current is None or current.stream != stream:
            if current is not None:
                yield current
            current = _Stream(stream, [])
        current.versions.append((version, nid, topic, state))
    if current is not None:
        yield current


class _ReadModelFile:
    """The read model, opened read-only: its state and its rows by match."""

    def __init__(self, path: str):
        self.path = path
        self.con = sqlite3.connect(f"file:{os.path.abspath(path)}?mode=ro", uri=True, timeout=10)
        self.con.execute("BEGIN")  # one snapshot of it, as of the store
        self.state = dict(self.con.execute("select key, value from state").fetchall())

    def match_of(self, stream: str) -> str | None:
        row = self.con.execute("select id from matches where stream = ?", [str(uuid.UUID(stream))]).fetchone()
        return None if row is None else str(row[0])

    def ids(self) -> set[str]:
        return {str(r[0]) for r in self.con.execute("select id from matches")}

    def row(self, match_id: str) -> tuple[dict[str, Any] | None, list[dict[str, Any]]]:
        from projections.readmodel import MATCH_COLUMNS, RESULT_COLUMNS

        cur = self.con.execute(f"select {', '.join(f'[{c}]' for c in MATCH_COLUMNS)} from matches where id = ?",
                               [match_id])
        found = cur.fetchone()
        if found is None:
            return None, []
        results = self.con.execute(
            f"select {', '.join(f'[{c}]' for c in RESULT_COLUMNS)} from results where match_id = ? order by player",
            [match_id]).fetchall()
        return dict(zip(MATCH_COLUMNS, found)), [dict(zip(RESULT_COLUMNS, r)) for r in results]

    def table(self, name: str, match_id: str) -> Counter[tuple[Any, ...]]:
        """The rows of one match in table ``name`` (``sides``, ``pairs``, ``cards``), as a
        multiset: the order they were written in is no part of them."""
        return Counter(tuple(r) for r in self.con.execute(f"select * from {name} where match_id = ?", [match_id]))

    def checked(self, match_id: str) -> tuple[int, str] | None:
        """The desk's kept violations of the match (``checked``: steps, violations JSON), or None."""
        row = self.con.execute("select steps, violations from checked where match_id = ?", [match_id]).fetchone()
        return None if row is None else (int(row[0]), str(row[1]))

    def strays(self) -> list[tuple[str, str]]:
        """(table, match id) of rows whose match the ``matches`` table has no row of."""
        return [(name, str(mid)) for name in ("results", *FACT_TABLES, "checked") for (mid,) in self.con.execute(
            f"select distinct match_id from {name} where match_id not in (select id from matches) order by match_id")]

    def close(self) -> None:
        self.con.close()


def verify(store: Store, readmodel_path: str | None = None, sample: int | None = None,
           on_progress: Callable[[int, int], None] | None = None, seed: int | None = None) -> Report:
    """Read everything and report what is damaged (``Report.problems``); change nothing.
    ``on_progress(done, total)``: events read so far."""
    from eventsourcing.utils import resolve_topic

    import recorder.domain  # noqa: F401 - registers the event classes (and their old topics)
    from projections import readmodel

    report = Report()
    problems = report.problems
    known_topics: dict[str, bool] = {}
    rm: _ReadModelFile | None = None
    path = readmodel_path or readmodel.default_path(store.db)
    if os.path.exists(path):
        try:
            rm = _ReadModelFile(path)
        except sqlite3.Error as exc:
            problems.append(Problem(said(N_("read model {path}: cannot be read ({error})"), path=path, error=exc)))
        else:
            report.readmodel = path
            if rm.state.get("schema") != str(readmodel.SCHEMA_VERSION):
                report.notes.append(said(N_("read model {path}: another layout; not compared (it is projected anew "
                                       "on its next use)"), path=path))
                rm.close()
                rm = None
    else:
        report.notes.append(said(N_("no read model at {path}: nothing to compare (it is built on first use)"),
            path=path))
    try:
        with store.snapshot() as snap:
            report.events = snap.count
            position = _check_position(store, rm, snap.top, problems) if rm is not None else None
            wanted: set[str] | None = None
            rm_ids: set[str] = set()
            if rm is not None and position is not None:
                rm_ids = rm.ids()
                if sample is not None and sample < len(rm_ids):
                    wanted = set(random.Random(seed).sample(sorted(rm_ids), sample))
            seen: set[str] = set()
            done = 0
            for st in _streams(snap.events()):
                report.streams += 1
                done += len(st.versions)
                if on_progress is not None and (done // PROGRESS_EVERY != (done - len(st.versions)) // PROGRESS_EVERY
                                                or done == snap.count):
                    on_progress(done, snap.count)
                kind = _check_stream(st, problems, known_topics, resolve_topic,
                                     rm.match_of if rm is not None else None)
                if kind is None:
                    continue
                if kind[0] == "match":
                    report.matches += 1
                    match_id, header, lines = kind[1], kind[2], kind[3]
                    rep = _replays(st, match_id, header, [line for line, _ in lines], problems)
                    if rm is None or position is None or st.versions[0][1] > position:
                        continue
                    seen.add(match_id)
                    if wanted is not None and match_id not in wanted:
                        continue
                    report.compared += 1
                    upto = [line for line, nid in lines if nid <= position]
                    _compare(rm, st, match_id, header, upto, rep if len(upto) == len(lines) else None, problems,
                             [line for line, _ in lines])
                elif kind[0] == "tournament":
                    report.tournaments += 1
            for match_id in sorted(rm_ids - seen):
                problems.append(Problem(N_("the read model has a row of it; the store has no such match"),
                                        match=match_id))
            if rm is not None and position is not None:
                for table, match_id in rm.strays():
                    problems.append(Problem(said(N_("the read model's {table} table has rows of it; its matches "
                                                    "table has none"), table=table), match=match_id))
            if on_progress is not None:
                on_progress(snap.count, snap.count)
    finally:
        if rm is not None:
            rm.close()
    return report


def _check_position(store: Store, rm: _ReadModelFile, top: int, problems: list[Problem]) -> int | None:
    """The read model names this store and stands at one of its events: its position, else
    None (its rows are then not compared: they are another store's, or of another time)."""
    state = rm.state
    sid = store.identity(create=False)
    known = state.get("store_id")
    if known is not None and sid is not None and known != sid:
        problems.append(Problem(said(N_("read model {path}: built from store {known} ({source}), not this store "
                                   "{sid}"), path=rm.path, known=known, source=state.get("source"), sid=sid)))
        return None
    last = int(state.get("last_notification_id") or 0)
    if last > top:
        problems.append(Problem(said(N_("read model {path}: its position {last} is past the store's newest event "
                                   "{top}"), path=rm.path, last=last, top=top)))
        return None
    mark = state.get("position")
    if mark and last:
        found = store.event_at(last)
        if found != mark:
            problems.append(Problem(said(N_("read model {path}: at its position {last} the store holds {found}, not "
                                       "{mark}"), path=rm.path, last=last, found=found or "nothing", mark=mark)))
            return None
    return last


def _check_stream(st: _Stream, problems: list[Problem], known_topics: dict[str, bool],
                  resolve: Callable[[str], Any], match_of: Callable[[str], str | None] | None = None
                  ) -> tuple[Any, ...] | None:
    """Versions, decoding and topics of one stream; what it is: ("match", id, header, [(line,
    notification id)]), ("tournament", name), or None (nothing more to check)."""
    store_decode = _decode
    stream = st.stream
    first_version, _, first_topic, first_state = st.versions[0]
    head: dict[str, Any] | None = None
    if first_version == 1:
        decoded_head = _decode(first_state)
        head = decoded_head if isinstance(decoded_head, dict) else None
    kind = ("match" if first_topic.startswith(MATCH_TOPICS) else
            "tournament" if first_topic.startswith(TOURNAMENT_TOPICS) else None)
    name: str | None = None
    if kind == "match" and isinstance(head, dict) and isinstance(head.get("header"), dict):
        name = str((head["header"].get("match") or {}).get("id"))
    elif kind == "tournament" and isinstance(head, dict) and isinstance(head.get("opened"), dict):
        name = str((head["opened"].get("event") or {}).get("name"))
    elif kind == "match" and match_of is not None:  # its header is lost: the read model may know it
        name = match_of(stream)

    def problem(what: str, seq: int | None = None) -> None:
        problems.append(Problem(what, stream=stream, match=name if kind == "match" else None,
                                event=name if kind == "tournament" else None, seq=seq))

    def seq_of(version: int) -> int | None:
        return version - 1 if kind in ("match", "tournament") else None

    if first_version != 1:
        problem(said(N_("begins at version {v}: its first {n} event(s) are missing"),
            v=first_version, n=first_version - 1))
    expected = first_version
    lines: list[tuple[dict[str, Any], int]] = []
    broken = first_version != 1
    for version, nid, topic, state in st.versions:
        if version != expected:
            problem(said(N_("missing: the stream jumps from seq {a} to seq {b}"), a=expected - 2, b=version - 1)
                    if kind else said(N_("missing: the stream jumps from version {a} to version {b}"),
                        a=expected - 1, b=version), seq=seq_of(expected))
            broken = True
        expected = version + 1
        if topic not in known_topics:
            try:
                resolve(topic)
                known_topics[topic] = True
            except Exception:
                known_topics[topic] = False
        if not known_topics[topic]:
            problem(said(N_("unknown kind of event {topic!r}"), topic=topic), seq_of(version))
            broken = True
            continue
        decoded = store_decode(state)
        if isinstance(decoded, str):
            problem(said(N_("the stored event does not decode: {error}"), error=decoded), seq_of(version))
            broken = True
            continue
        if version == 1:
            continue
        if kind is not None and not topic.startswith(MATCH_TOPICS if kind == "match" else TOURNAMENT_TOPICS):
            problem(said(N_("an event of another kind of stream: {topic}"), topic=topic), seq_of(version))
            broken = True
            continue
        line = decoded.get("entry" if kind == "match" else "line")
        if kind is not None:
            if not isinstance(line, dict):
                problem(N_("the stored event carries no line"), seq_of(version))
                broken = True
                continue
            if line.get("seq") != version - 1:
                problem(said(N_("the line says seq {said}, it is stored as seq {seq}"),
                    said=line.get("seq"), seq=version - 1), seq_of(version))
                broken = True
            lines.append((line, nid))
    if kind is None or head is None:
        return None
    if kind == "match":
        header = head.get("header")
        if not isinstance(header, dict):
            problem(N_("the match's first event carries no header"), 0)
            return None
        if broken:
            return None  # its faults are named; a replay of what is left would only repeat them
        return ("match", name, header, lines)
    opened = head.get("opened")
    if not isinstance(opened, dict):
        problem(N_("the event's first event carries no header"), 0)
        return None
    if not broken:
        from projections import tournament as T

        try:
            T.fold(opened, [line for line, _ in lines])
        except Exception as exc:
            problem(said(N_("does not fold: {error}"), error=_first_line(exc)))
    return ("tournament", name)


def _decode(state: bytes) -> dict[str, Any] | str:
    """A stored state decoded as every read decodes it (plain JSON), or what is wrong with it."""
    import json

    try:
        obj = json.loads(state.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        return _first_line(exc)
    if not isinstance(obj, dict):
        return "not a JSON object"
    return obj


def _replays(st: _Stream, match_id: str, header: dict[str, Any], entries: list[dict[str, Any]],
             problems: list[Problem]) -> Any:
    """The match's fold to its last line, or None (its fault named)."""
    from projections.replay import Replay

    try:
        rep = Replay(header, entries, checks=False)
        rep.board(rep.steps)
        rep.result()
    except Exception as exc:
        problems.append(Problem(said(N_("does not replay: {error}"), error=_first_line(exc)),
                                stream=st.stream, match=match_id))
        return None
    return rep


def _compare(rm: _ReadModelFile, st: _Stream, match_id: str, header: dict[str, Any], entries: list[dict[str, Any]],
             rep: Any, problems: list[Problem], lines: list[dict[str, Any]] | None = None) -> None:
    """The read model's rows of one match, in every table a fold writes (``matches``,
    ``results``, ``sides``, ``pairs``, ``cards``: readmodel.table_rows), against a fresh fold of
    its lines up to the model's position; and the desk's kept violations (``checked``) against
    a checked fold of the lines they are of (``lines``: all the match's lines in the store)."""
    from projections.readmodel import MATCH_COLUMNS, RESULT_COLUMNS, match_rows, table_rows

    stream_text = str(uuid.UUID(st.stream))
    row, results = match_rows(match_id, stream_text, header, entries, rep)
    row["created"] = st.versions[0][1]
    held, held_results = rm.row(match_id)
    if held is None:
        problems.append(Problem(N_("the read model has no row of it"), stream=st.stream, match=match_id))
        return
    differ = [c for c in MATCH_COLUMNS if held.get(c) != row.get(c)]
    for column in differ:
        problems.append(Problem(said(N_("the read model's {column} is {held!r}; the store folds to {fresh!r}"),
            column=column, held=_short(held.get(column)), fresh=_short(row.get(column))),
            stream=st.stream, match=match_id))
    fresh = [{c: r.get(c) for c in RESULT_COLUMNS} for r in sorted(results, key=lambda r: str(r["player"]))]
    if not differ and held_results != fresh:
        problems.append(Problem(N_("the read model's results rows differ from a fresh fold of the store"),
                                stream=st.stream, match=match_id))
    folded = table_rows(row, results)
    for table, rows in zip(FACT_TABLES, folded[2:]):
        kept, made = rm.table(table, match_id), Counter(rows)
        if kept != made:
            odd = sorted((kept - made) or (made - kept), key=repr)[0][1:]  # its match is named already
            problems.append(Problem(
                said(N_("the read model's {table} rows differ from a fresh fold of the store ({held} held, {fresh} "
                        "folded; {which}: {row})"), table=table, held=sum(kept.values()), fresh=sum(made.values()),
                     which=said(N_("held, not folded")) if kept - made else said(N_("folded, not held")),
                     row=_short(", ".join(map(repr, odd)), 160)),
                stream=st.stream, match=match_id))
    _compare_checked(rm, st, match_id, header, lines if lines is not None else entries, problems)


def _compare_checked(rm: _ReadModelFile, st: _Stream, match_id: str, header: dict[str, Any],
                     lines: list[dict[str, Any]], problems: list[Problem]) -> None:
    """The violations the desk keeps for the match's first ``steps`` lines (``checked``), against
    a checked fold of those lines (its ruled view, as the desk folds it)."""
    kept = rm.checked(match_id)
    if kept is None:
        return
    steps, text = kept
    if steps > len(lines):
        problems.append(Problem(said(N_("the read model keeps violations of its first {steps} lines; the store "
                                        "holds {lines}"), steps=steps, lines=len(lines)),
                                stream=st.stream, match=match_id))
        return
    fresh = _violations(header, lines[:steps], steps)
    if fresh is None:  # a match that does not replay is named as such already
        return
    try:
        held = json.loads(text)
    except ValueError:
        held = text
    if held != _plain(fresh) and (steps == len(lines) or held != _plain(_violations(header, lines, steps))):
        problems.append(Problem(said(N_("the read model's checked row (the violations of its first {steps} lines) "
                                        "differs from a checked fold of the store"), steps=steps),
                                stream=st.stream, match=match_id))


def _violations(header: dict[str, Any], lines: list[dict[str, Any]], steps: int) -> list[dict[str, Any]] | None:
    """The violations of the first ``steps`` of ``lines`` as the desk keeps them (a checked
    fold of the ruled view; the desk may have folded the match further, where a later ruling
    can change an earlier step's): None when the lines do not replay."""
    from projections.replay import Replay

    try:
        return [v.to_json() for v in Replay(header, lines).violations(steps)]
    except Exception:
        return None


def _plain(value: Any) -> Any:
    """As it reads back from the JSON the read model keeps (tuples become lists)."""
    return json.loads(json.dumps(value, ensure_ascii=False))


def _short(value: Any, most: int = 60) -> Any:
    text = value if isinstance(value, str) else None
    return text[:most] + "…" if text is not None and len(text) > most else value


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip() or type(exc).__name__
    return text.splitlines()[0]
