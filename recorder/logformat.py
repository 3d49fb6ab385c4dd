"""The match log, format 1 (JSON Lines): parsing, validation and writing.

Line 1 is the header, every later line one event (DESIGN.md). Validation collects every
problem as ``FILE:LINE: field: problem`` and the caller imports nothing if there is any.
Only structure and the judges' workflow are refused here; a move that breaks a game rule is
well-formed, gets recorded, and is flagged by ``check``.
"""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Iterable, Mapping
from datetime import date, datetime
from typing import Any

from projections import registry
from projections.base import META_TYPES, FieldError, Ruleset
from projections.errors import KifuError, LogFormatError
from recorder.workflow import workflow_errors  # re-exported: service.prepare uses it from here

FORMAT = 1
SYMBOLS = ("!", "?", "!!", "??", "!?", "?!")
DECISIONS = ("upheld", "overturned")
LEVELS = ("floor", "head")
PENALTIES = ("warning", "game-loss", "match-loss", "disqualification")
MATCH_ID = re.compile(r"^[\w.:\-]{1,100}$")


# -- writing ---------------------------------------------------------------------------------


def dumps(obj: Mapping[str, Any]) -> str:
    return json.dumps(obj, ensure_ascii=False)


def export_lines(header: Mapping[str, Any], entries: Iterable[Mapping[str, Any]]) -> Iterable[str]:
    yield dumps(header)
    for entry in entries:
        yield dumps(entry)


# -- header ----------------------------------------------------------------------------------


def normalise_header(header: dict[str, Any]) -> dict[str, Any]:
    """Fill in what kifu fills in: a match id, the pinned rules version, the first player."""
    header = dict(header)
    match = dict(header.get("match") or {})
    if not match.get("id"):
        match["id"] = f"{header.get('game', 'match')}-{uuid.uuid4().hex[:12]}"
    header["match"] = match
    if not header.get("rules") and isinstance(header.get("game"), str):
        ruleset = registry.get(header["game"])
        header["rules"] = f"{ruleset.name}/{ruleset.version}"
    if not header.get("first") and header.get("players"):
        first = header["players"][0]
        if isinstance(first, dict) and "id" in first:
            header["first"] = first["id"]
    return header


def validate_header(header: Any) -> tuple[Ruleset | None, list[FieldError]]:
    if not isinstance(header, dict):
        return None, [FieldError("header", "line 1 must be a JSON object (the match header)")]
    errors: list[FieldError] = []
    if header.get("kifu") != FORMAT:
        errors.append(FieldError("kifu", f"must be {FORMAT} (the match-log format version)"))
    game = header.get("game")
    ruleset: Ruleset | None = None
    if not isinstance(game, str):
        errors.append(FieldError("game", "missing"))
    else:
        try:
            ruleset = registry.get(header.get("rules") or game)
            if ruleset.name != registry.canonical(game):
                errors.append(FieldError("rules", f"{header['rules']!r} is not a ruleset of {game!r}"))
        except KifuError as exc:
            errors.append(FieldError("rules" if header.get("rules") else "game", str(exc)))
    match = header.get("match")
    if not isinstance(match, dict):
        errors.append(FieldError("match", "must be an object"))
    else:
        mid = match.get("id")
        if mid is not None and (not isinstance(mid, str) or not MATCH_ID.match(mid)):
            errors.append(FieldError("match.id", "must be 1-100 letters, digits, '.', ':', '_' or '-'"))
        if "round" in match and not (isinstance(match["round"], int) and not isinstance(match["round"], bool)):
            errors.append(FieldError("match.round", "must be an integer"))
        if "table" in match and not isinstance(match["table"], (str, int)):
            errors.append(FieldError("match.table", "must be a string"))
        for key in ("title", "event"):
            if key in match and not isinstance(match[key], str):
                errors.append(FieldError(f"match.{key}", "must be a string"))
        if "date" in match:
            try:
                date.fromisoformat(match["date"])
            except (TypeError, ValueError):
                errors.append(FieldError("match.date", "must be a date YYYY-MM-DD"))
        if "house_rules" in match and not isinstance(match["house_rules"], dict):
            errors.append(FieldError("match.house_rules", "must be an object"))
    players = header.get("players")
    ids: list[str] = []
    if not isinstance(players, list) or not players:
        errors.append(FieldError("players", "must be a non-empty list"))
    else:
        for i, player in enumerate(players):
            where = f"players[{i}]"
            if not isinstance(player, dict):
                errors.append(FieldError(where, "must be an object"))
                continue
            pid = player.get("id")
            if not isinstance(pid, str) or not pid.strip():
                errors.append(FieldError(f"{where}.id", "must be a non-empty string"))
            elif pid in ids:
                errors.append(FieldError(f"{where}.id", f"duplicate player id {pid!r}"))
            else:
                ids.append(pid)
            if not isinstance(player.get("name", ""), str):
                errors.append(FieldError(f"{where}.name", "must be a string"))
            deck = player.get("deck")
            if deck is not None and not isinstance(deck, dict):
                errors.append(FieldError(f"{where}.deck", "must be an object"))
            elif isinstance(deck, dict):
                for key in ("name", "archetype"):
                    if key in deck and not isinstance(deck[key], str):
                        errors.append(FieldError(f"{where}.deck.{key}", "must be a string"))
        if ruleset is not None and not ruleset.min_players <= len(players) <= ruleset.max_players:
            span = f"{ruleset.min_players}" if ruleset.min_players == ruleset.max_players else (
                f"{ruleset.min_players} to {ruleset.max_players}")
            errors.append(FieldError("players", f"{ruleset.name} takes {span} players, not {len(players)}"))
    first = header.get("first")
    if first is not None and ids and first not in ids:
        errors.append(FieldError("first", f"{first!r} is not a player id ({', '.join(ids)})"))
    if ruleset is not None and not errors:
        errors.extend(ruleset.validate_header(header))
    return ruleset, errors


# -- events ----------------------------------------------------------------------------------


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _text(entry: Mapping[str, Any], key: str, errors: list[FieldError], required: bool = True) -> None:
    if key not in entry:
        if required:
            errors.append(FieldError(key, "missing"))
    elif not isinstance(entry[key], str) or (required and not entry[key].strip()):
        errors.append(FieldError(key, "must be a non-empty string"))


def _ref(entry: Mapping[str, Any], key: str, seq: int, errors: list[FieldError], required: bool = True) -> None:
    if key not in entry:
        if required:
            errors.append(FieldError(key, "missing"))
    elif not _is_int(entry[key]) or not 1 <= entry[key] < seq:
        errors.append(FieldError(key, f"must be the seq of an earlier event (1..{seq - 1})"))


def validate_replacements(ruleset: Ruleset, header: Mapping[str, Any], moves: Any) -> list[FieldError]:
    if not isinstance(moves, list):
        return [FieldError("replace", "must be a list of move objects")]
    errors: list[FieldError] = []
    players = {p["id"] for p in header["players"]}
    for i, move in enumerate(moves):
        if not isinstance(move, dict):
            errors.append(FieldError(f"replace[{i}]", "must be an object"))
            continue
        if move.get("type") not in ruleset.move_types:
            errors.append(FieldError(f"replace[{i}].type", f"unknown {ruleset.name} move type {move.get('type')!r}"))
            continue
        if move.get("by") not in players:
            errors.append(FieldError(f"replace[{i}].by", f"must be a player id ({', '.join(sorted(players))})"))
        for err in ruleset.validate_move(dict(move, seq=0)):
            errors.append(FieldError(f"replace[{i}].{err.field}", err.problem))
    return errors


def validate_entry(
    ruleset: Ruleset, header: Mapping[str, Any], entry: Any, seq: int
) -> list[FieldError]:
    """Structural problems of one event line expected at ``seq``."""
    if not isinstance(entry, dict):
        return [FieldError("line", "must be a JSON object")]
    errors: list[FieldError] = []
    if entry.get("seq") != seq:
        errors.append(FieldError("seq", f"expected {seq}, got {entry.get('seq')!r} (seq starts at 1 with no gaps)"))
    kind = entry.get("type")
    players = [p["id"] for p in header["players"]]
    if "at" in entry:
        try:
            datetime.fromisoformat(str(entry["at"]).replace("Z", "+00:00"))
        except ValueError:
            errors.append(FieldError("at", "must be an ISO 8601 timestamp"))
    if not isinstance(kind, str):
        errors.append(FieldError("type", "missing"))
        return errors
    if kind not in META_TYPES and kind not in ruleset.move_types:
        known = ", ".join(sorted(ruleset.move_types))
        errors.append(FieldError("type", f"unknown {ruleset.name} move type {kind!r} (known: {known})"))
        return errors
    if kind not in META_TYPES or kind == "concede":
        if entry.get("by") not in players:
            errors.append(FieldError("by", f"must be a player id ({', '.join(players)}), got {entry.get('by')!r}"))
    else:
        _text(entry, "by", errors)
    if kind not in META_TYPES:
        errors.extend(ruleset.validate_move(entry))
    elif kind == "annotate":
        _ref(entry, "on", seq, errors)
        _text(entry, "text", errors)
        if "symbol" in entry and entry["symbol"] not in SYMBOLS:
            errors.append(FieldError("symbol", f"must be one of {' '.join(SYMBOLS)}"))
        tags = entry.get("tags", [])
        if not isinstance(tags, list) or not all(isinstance(t, str) for t in tags):
            errors.append(FieldError("tags", "must be a list of strings"))
    elif kind == "retract":
        _ref(entry, "on", seq, errors)
        _text(entry, "text", errors, required=False)
    elif kind == "dispute":
        _ref(entry, "on", seq, errors)
        _text(entry, "claim", errors)
        _text(entry, "rule", errors, required=False)
    elif kind == "ruling":
        _ref(entry, "dispute", seq, errors)
        if entry.get("decision") not in DECISIONS:
            errors.append(FieldError("decision", "must be upheld or overturned"))
        _text(entry, "text", errors)
        _text(entry, "rule", errors, required=False)
        if "level" in entry and entry["level"] not in LEVELS:
            errors.append(FieldError("level", "must be floor or head"))
        if "rewind" in entry and not isinstance(entry["rewind"], bool):
            errors.append(FieldError("rewind", "must be true or false"))
        if "replace" in entry:
            errors.extend(validate_replacements(ruleset, header, entry["replace"]))
    elif kind == "correct":
        _ref(entry, "on", seq, errors)
        _text(entry, "text", errors)
        errors.extend(validate_replacements(ruleset, header, entry.get("replace", [])))
    elif kind == "appeal":
        _ref(entry, "ruling", seq, errors)
        _text(entry, "grounds", errors)
    elif kind == "penalty":
        if entry.get("player") not in players:
            errors.append(FieldError("player", f"must be a player id ({', '.join(players)})"))
        _text(entry, "infraction", errors)
        if entry.get("penalty") not in PENALTIES:
            errors.append(FieldError("penalty", f"must be one of {', '.join(PENALTIES)}"))
        _ref(entry, "on", seq, errors, required=False)
        _text(entry, "text", errors, required=False)
    elif kind == "result":
        if "winner" not in entry:
            errors.append(FieldError("winner", "missing (a player id, or null for a draw)"))
        elif entry["winner"] is not None and entry["winner"] not in players:
            errors.append(FieldError("winner", f"must be a player id ({', '.join(players)}) or null"))
        _text(entry, "reason", errors)
    return errors


# -- reading a whole file --------------------------------------------------------------------


def parse_lines(lines: Iterable[str], name: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Parse and validate a whole log; raise LogFormatError listing every problem."""
    problems: list[str] = []
    header: Any = None
    ruleset: Ruleset | None = None
    entries: list[dict[str, Any]] = []
    lineno = 0
    for lineno, raw in enumerate(lines, start=1):
        text = raw.strip()
        if not text:
            if lineno == 1:
                problems.append(f"{name}:1: header: empty line (line 1 must be the match header)")
            continue
        try:
            obj = json.loads(text)
        except json.JSONDecodeError as exc:
            problems.append(f"{name}:{lineno}: json: {exc.msg} at column {exc.colno}")
            if header is not None:  # the bad line still takes its seq: one problem, not a cascade
                entries.append({"seq": len(entries) + 1, "type": "<unparsed>"})
            continue
        if header is None:
            if lineno != 1:
                problems.append(f"{name}:{lineno}: header: line 1 did not hold the header")
            ruleset, errors = validate_header(obj)
            problems.extend(f"{name}:{lineno}: {e}" for e in errors)
            if errors or not isinstance(obj, dict):
                ruleset, header = None, {}
            else:
                header = normalise_header(obj)
            continue
        if ruleset is None:
            continue  # without a valid header the lines cannot be checked meaningfully
        errors = validate_entry(ruleset, header, obj, len(entries) + 1)
        if not errors:
            errors = workflow_errors(entries, obj)
        problems.extend(f"{name}:{lineno}: {e}" for e in errors)
        entries.append(dict(obj, seq=len(entries) + 1) if isinstance(obj, dict) else {"seq": len(entries) + 1, "type": "<unparsed>"})
    if header is None and not problems:
        problems.append(f"{name}:1: header: the file is empty")
    if problems:
        raise LogFormatError(problems)
    return header, entries


def read_file(path: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    try:
        with open(path, encoding="utf-8") as fh:
            return parse_lines(fh, path)
    except UnicodeDecodeError as exc:
        raise LogFormatError([f"{path}:1: encoding: not UTF-8 ({exc.reason})"]) from None
    except OSError as exc:
        raise LogFormatError([f"{path}:0: file: {exc.strerror}"]) from None
