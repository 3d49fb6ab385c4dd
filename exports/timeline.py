"""One walk over a match that every face shares: the HTML report, the server's match page,
the Markdown export and the JSON export all read the same ``Timeline``.

A timeline is a plain value: the header summary, one ``Row`` per log line (with the notes,
violations and rulings that belong to it) and access to the board JSON of any step through
the ``Replay`` it was built from.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from projections.base import META_TYPES, RESULT_TYPES, Violation
from projections.replay import Replay

ENVELOPE = ("seq", "type", "by", "at", "claimed_at", "token")  # token: who wrote it (recorder/tokens.py)
NOTE_TYPES = ("annotate", "dispute", "ruling", "correct", "appeal", "retract")
SYMBOLS = ("!!", "??", "!?", "?!", "!", "?")


def value_text(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def fields_of(entry: Mapping[str, Any]) -> list[tuple[str, str]]:
    """The fields of a line beyond its envelope, as (name, text) pairs."""
    return [(k, value_text(v)) for k, v in entry.items() if k not in ENVELOPE]


def describe_move(move: Mapping[str, Any]) -> str:
    body = " ".join(f"{k}={v}" for k, v in fields_of(move))
    return f"{move.get('type', '?')} by {move.get('by', '?')}" + (f" {body}" if body else "")


@dataclass
class Row:
    """One log line as the timeline shows it."""

    seq: int
    type: str
    by: str
    at: str | None
    meta: bool  # an event every game shares (annotate, dispute, ruling, ...)
    fields: list[tuple[str, str]]
    text: str  # the line's main text for a note (annotation text, claim, ruling text ...)
    target: int | None  # the move a note is about
    symbols: list[str] = field(default_factory=list)  # annotation symbols on this move
    violations: list[Violation] = field(default_factory=list)
    notes: list[int] = field(default_factory=list)  # seqs of notes about this move
    voided: bool = False  # void (or replaced) in the ruled view
    ruled_as: list[str] = field(default_factory=list)  # the ruled view's moves in its place (notation)
    retracted: bool = False
    notation: str = ""  # the line in words (exports.notation), in the timeline's language
    caption: str = ""  # what the caption above the board says at this step, in this view
    turn: int | None = None  # the turn the line was recorded in (the board before it)
    board_step: bool = True  # a step that can change the board or the result (not a note)
    names_player: bool = False  # the notation already starts with the player's name
    claimed_at: str | None = None  # the time the table sent with the line; ``at`` is kifu's own

    @property
    def claim_differs(self) -> bool:
        """The table's claimed time and the stored time are more than a minute apart."""
        return _minutes_apart(self.claimed_at, self.at)

    def who(self, names: Mapping[str, str]) -> str:
        """The player's name to show before the notation ("" when the notation says it)."""
        return "" if self.meta or self.names_player else str(names.get(self.by, self.by))

    @property
    def summary(self) -> str:
        return self.notation or describe_move({"type": self.type, "by": self.by, **dict(self.fields)})


@dataclass
class Timeline:
    header: Mapping[str, Any]
    title: str  # the game's title
    replay: Replay
    rows: list[Row]
    has_rulings: bool  # the two views can differ
    lang: str = "ja"
    turn_boards: dict[int, Any] = field(default_factory=dict)  # step -> board where a turn starts
    last_turn: int | None = None  # the turn of the last row
    turns: list[tuple[int, int]] = field(default_factory=list)  # (turn, step it starts at)
    note_steps: list[int] = field(default_factory=list)  # lines that leave the board as it was

    @property
    def match_id(self) -> str:
        return str(self.header["match"]["id"])

    @property
    def steps(self) -> int:
        return self.replay.steps

    def row(self, seq: int) -> Row | None:
        return self.rows[seq - 1] if 1 <= seq <= len(self.rows) else None

    def annotated_steps(self) -> list[int]:
        """Steps a printed report shows the board of: moves with notes or violations."""
        return [r.seq for r in self.rows if not r.meta and (r.notes or r.violations or r.symbols)]

    def summary(self) -> dict[str, Any]:
        return summary(self.header, self.replay)

    def caption(self, step: int) -> str:
        row = self.row(step)
        return row.caption if row else ""

    def turn_starts(self) -> list[tuple[int, int]]:
        """``(turn, step)`` for each turn: the board at ``step`` is the one its first line
        was played on, so "go to turn N" shows that board."""
        return list(self.turns)

    def board_steps(self) -> list[int]:
        """Steps that can change the board (moves; concessions, penalties and results):
        → and autoplay go from one to the next, notes are stepped through separately."""
        return [r.seq for r in self.rows if r.board_step]


def summary(header: Mapping[str, Any], rep: Replay) -> dict[str, Any]:
    """The header facts a list or a report heading shows."""
    m = header["match"]
    res = rep.result()
    names = {p["id"]: p.get("name") or p["id"] for p in header["players"]}
    result = None
    if res is not None:
        result = {"winner": res.winner, "winner_name": names.get(res.winner) if res.winner else None,
                  "reason": res.reason}
        if res.pending is not None:  # decided by a flagged line, awaiting a ruling (KIFU-3)
            result["pending"] = res.pending.to_json()
    return {
        "id": m["id"],
        "game": header["game"],
        "rules": header.get("rules"),
        "title": m.get("title"),
        "event": m.get("event"),
        "round": m.get("round"),
        "table": m.get("table"),
        "date": m.get("date"),
        "players": [
            {"id": p["id"], "name": p.get("name") or p["id"],
             "deck": (p.get("deck") or {}).get("name") or "",
             "archetype": (p.get("deck") or {}).get("archetype") or ""}
            for p in header["players"]
        ],
        "first": header.get("first"),
        "steps": rep.steps,
        "result": result,
        "violations": len(rep.violations()),
    }


def _note_text(e: Mapping[str, Any]) -> str:
    kind = e["type"]
    if kind == "annotate":
        return str(e.get("text", ""))
    if kind == "dispute":
        return str(e.get("claim", ""))
    if kind == "appeal":
        return str(e.get("grounds", ""))
    return str(e.get("text", ""))


def build(rep: Replay, lang: str = "ja") -> Timeline:
    """Walk the match once and gather what belongs to each line, with every line in words
    (``lang``): a move is described on the board before it in this view; a move the ruled
    view voids or replaces, on the board it was recorded on."""
    t = Timeline(rep.header, rep.ruleset.title, rep, [], False, lang)
    _add_rows(t, rep.entries, full=True)
    return t


def extend(t: Timeline) -> bool:
    """Add the rows of lines appended to ``t.replay`` since ``t`` was built (the replay was
    extended by the caller): a live match costs what is new. Returns False, changing nothing,
    when a new line is a ruling or correction (it can change earlier rows: build anew)."""
    new = t.replay.entries[len(t.rows):]
    if any(e["type"] in ("ruling", "correct") for e in new):
        return False
    _add_rows(t, new, full=False)
    return True


def _add_rows(t: Timeline, new: Sequence[Mapping[str, Any]], full: bool) -> None:
    from exports.i18n import gettext_for
    from exports.notation import line_text, moves_text
    from projections.secrecy import full_header

    rep, lang = t.replay, t.lang
    entries = rep.entries
    names = {p["id"]: p.get("name") or p["id"] for p in rep.header["players"]}
    _ = gettext_for(lang)
    by_seq = {e["seq"]: e for e in entries}
    has_rulings = full and any(e["type"] in ("ruling", "correct") for e in entries)
    t.has_rulings = t.has_rulings or has_rulings
    if has_rulings:
        # a public replay (projections/secrecy.py) folds its other view from the whole header, as itself
        other = type(rep)
        ruled = rep if rep.view == "ruled" else other(full_header(rep), entries, "ruled", rep.ruleset)
        recorded = rep if rep.view == "recorded" else other(full_header(rep), entries, "recorded", rep.ruleset)
        ruled_moves = ruled.moves_by_step
    rows: list[Row] = []
    for e in new:  # first the walk (it checks the rules as it folds), then the violations
        step = e["seq"] - 1
        before = rep.board(step)
        target = e.get("on")
        if e["type"] == "ruling":
            target = by_seq.get(e.get("dispute"), {}).get("on")
        elif e["type"] == "appeal":
            ruling = by_seq.get(e.get("ruling"), {})
            target = by_seq.get(ruling.get("dispute"), {}).get("on")
        meta = e["type"] in META_TYPES
        row = Row(
            seq=e["seq"], type=e["type"], by=str(e.get("by", "")), at=e.get("at"), meta=meta,
            claimed_at=e.get("claimed_at"),
            fields=fields_of(e), text=_note_text(e) if meta else "",
            target=target if meta and e["type"] in NOTE_TYPES else None,
            turn=_turn_of(before),
            board_step=not meta or e["type"] in RESULT_TYPES,
        )
        if row.turn is not None and row.turn != t.last_turn:
            t.turn_boards[step] = before
            t.turns.append((row.turn, step))
        if not row.board_step:
            t.note_steps.append(row.seq)
        voided = has_rulings and not meta and ruled_moves[step] != [e]
        on_board = recorded.board(step) if voided and rep.view == "ruled" else before
        row.notation = line_text(rep.ruleset, None if meta else on_board, e, lang, names)
        row.caption = row.notation
        if not meta:
            name = names.get(row.by, row.by)
            row.names_player = bool(row.by) and row.notation.startswith((f"{name} ", f"{name}:", f"{row.by} ", f"{row.by}:"))
            if not row.names_player:
                row.caption = f"{name}: {row.notation}"
        if voided:
            row.voided = True
            ruled_before = before if rep.view == "ruled" else ruled.board(step)
            instead = moves_text(rep.ruleset, ruled_before, ruled_moves[step], lang, names)
            row.ruled_as = [instead] if ruled_moves[step] else []
            if rep.view == "ruled":
                row.caption = _("as ruled: {moves}").format(moves=instead)
        t.rows.append(row)
        t.last_turn = row.turn if row.turn is not None else t.last_turn
        rows.append(row)
    seqs = {r.seq for r in rows}
    from exports.i18n import translate

    for v in rep.violations():
        if v.seq in seqs:  # said in the page's language (the ruleset builds it in English)
            t.rows[v.seq - 1].violations.append(replace(v, message=translate(lang, v.message)))
    for row in rows:
        e = by_seq[row.seq]
        if row.type == "retract" and isinstance(e.get("on"), int) and 1 <= e["on"] <= len(t.rows):
            note = t.rows[e["on"] - 1]
            if not note.retracted:
                note.retracted = True
                sym = by_seq[note.seq].get("symbol")
                if sym and note.target is not None and 1 <= note.target <= len(t.rows):
                    syms = t.rows[note.target - 1].symbols
                    if str(sym) in syms:
                        syms.remove(str(sym))
        if row.target is not None and 1 <= row.target <= len(t.rows):
            target_row = t.rows[row.target - 1]
            target_row.notes.append(row.seq)
            sym = e.get("symbol")
            if row.type == "annotate" and sym and not row.retracted:
                target_row.symbols.append(str(sym))


def _turn_of(board: Any) -> int | None:
    turn = getattr(board, "turn", None)
    return turn if isinstance(turn, int) and not isinstance(turn, bool) else None


def _minutes_apart(a: str | None, b: str | None) -> bool:
    from datetime import datetime

    if not a or not b:
        return False
    try:
        x, y = (datetime.fromisoformat(t.replace("Z", "+00:00")) for t in (a, b))
        return abs((x - y).total_seconds()) > 60
    except (TypeError, ValueError):  # a naive and an aware time, or a malformed one
        return a != b
