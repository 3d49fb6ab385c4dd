"""The match log, format 1 (JSON Lines): parsing, validation and writing.

Line 1 is the header, every later line one event (DESIGN.md). Validation collects every
problem as ``FILE:LINE: field: problem`` and the caller imports nothing if there is any.
Only structure and the judges' workflow are refused here; a move that breaks a game rule is
well-formed, gets recorded, and is flagged by ``check``.
"""

from __future__ import annotations

from projections.base import N_, at, said, said_of

import json
import os
import re
import stat
import uuid
from collections.abc import Iterable, Mapping
from datetime import date, datetime
from sys import intern as _intern
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
MATCH_ID = re.compile(r"[\w.:\-]{1,100}")  # always with fullmatch: "$" lets a trailing newline in

# Documented limits (docs/log-format.md, "Limits"): a line past them is refused, never half-read.
MAX_DEPTH = 32  # nesting of objects and lists; the deepest real line is 5
MAX_INT = 2**53 - 1  # the largest integer a browser's JSON reads exactly
MAX_LINE = 1 << 20  # characters in one line of a log file or one command-line object
MAX_REPORTED = 10  # problem lines per file, then "and N more"
MAX_SHOWN = 200  # characters of one problem line; longer ones are cut with "…"


# -- writing ---------------------------------------------------------------------------------


def dumps(obj: Mapping[str, Any]) -> str:
    return json.dumps(obj, ensure_ascii=False)


def export_lines(header: Mapping[str, Any], entries: Iterable[Mapping[str, Any]]) -> Iterable[str]:
    yield dumps(header)
    for entry in entries:
        yield dumps(entry)


# -- values that can be stored ---------------------------------------------------------------


def show(value: Any, limit: int = 40) -> str:
    """A value quoted for a problem line: its repr, cut short, on one line."""
    if isinstance(value, str) and len(value) > limit * 4:
        value = value[: limit * 4]
    try:
        text = repr(value)
    except ValueError:  # an int past Python's digit limit
        text = f"<{type(value).__name__}>"
    return clip(text, limit)


def clip(text: str, limit: int = MAX_SHOWN) -> str:
    """One printable line: control characters, lone surrogates and other unprintables escaped,
    cut at ``limit`` characters."""
    if not text.isprintable():
        text = "".join(c if c.isprintable() else _escape(c) for c in text)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _escape(char: str) -> str:
    if char in "\n\r\t":
        return repr(char)[1:-1]
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def quote_name(name: str) -> str:
    """A file name as it is shown in a problem line: as is when printable, else in double
    quotes with its newline (or other unprintable characters) escaped, so it stays on one line."""
    if name.isprintable():
        return name
    return '"' + clip(name.replace("\\", "\\\\").replace('"', '\\"'), 10_000) + '"'


_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def _has_control(text: Any) -> bool:
    return isinstance(text, str) and _CONTROL.search(text) is not None


def _is_time(value: Any) -> bool:
    if not isinstance(value, str) or len(value) > 40:
        return False
    try:
        datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return False
    return True


def storable_errors(obj: Any) -> list[FieldError]:
    """What in a parsed (or built) value cannot be stored and read back as the same JSON:
    nesting past MAX_DEPTH, integers past MAX_INT, NaN and the infinities, lone surrogates,
    keys that are not strings. At most one problem: the first found."""
    stack: list[tuple[Any, str, int]] = [(obj, "", 0)]
    while stack:
        value, path, depth = stack.pop()
        if isinstance(value, (dict, list)):
            if depth >= MAX_DEPTH:
                return [FieldError(path or "line", said(N_("nested deeper than {MAX_DEPTH} levels"), MAX_DEPTH=MAX_DEPTH))]
            if isinstance(value, dict):
                for key, item in value.items():
                    if not isinstance(key, str):
                        return [FieldError(path or "line", said(N_("key {key} is not a string"), key=show(key)))]
                    where = f"{path}.{key}" if path else key
                    if not _encodable(key):
                        return [FieldError(clip(where, 60), N_("text that is not valid Unicode (a lone surrogate) cannot be stored"))]
                    stack.append((item, where, depth + 1))
            else:
                stack.extend((item, f"{path or 'line'}[{i}]", depth + 1) for i, item in enumerate(value))
        elif isinstance(value, str):
            if not _encodable(value):
                return [FieldError(clip(path or "line", 60), N_("text that is not valid Unicode (a lone surrogate) cannot be stored"))]
        elif isinstance(value, bool) or value is None:
            continue
        elif isinstance(value, int):
            if abs(value) > MAX_INT:
                return [FieldError(clip(path or "line", 60), said(N_("integer larger than {MAX_INT} (2**53 - 1)"), MAX_INT=MAX_INT))]
        elif isinstance(value, float):
            if value != value or value in (float("inf"), float("-inf")):
                return [FieldError(clip(path or "line", 60), N_("NaN and Infinity are not JSON numbers"))]
        else:
            return [FieldError(clip(path or "line", 60), said(N_("a {name} is not a JSON value"), name=type(value).__name__))]
    return []


def _encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


class _Refused(Exception):
    def __init__(self, field: str, problem: str):
        super().__init__(problem)
        self.error = FieldError(field, problem)


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    # Keys interned: the lines of a log share a few dozen keys, and json makes a new string
    # for each key of each line (a 100,000-line log parses to 78 MB instead of 125 MB).
    obj = {_intern(key): value for key, value in pairs}
    if len(obj) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _Refused(clip(key, 60), N_("duplicate key (each key once per object)"))
            seen.add(key)
    return obj


def _constant(name: str) -> Any:
    raise _Refused("json", said(N_("{name} is not a JSON number"), name=name))


def _parse_int(text: str) -> int:
    if len(text.lstrip("-")) > len(str(MAX_INT)):
        raise _Refused("json", said(N_("integer of {value} digits is larger than {MAX_INT} (2**53 - 1)"), value=len(text.lstrip('-')), MAX_INT=MAX_INT))
    value = int(text)
    if abs(value) > MAX_INT:
        raise _Refused("json", said(N_("integer {text} is larger than {MAX_INT} (2**53 - 1)"), text=text, MAX_INT=MAX_INT))
    return value


def _parse_float(text: str) -> float:
    if len(text) > 400:
        raise _Refused("json", said(N_("number of {text} characters is too long"), text=len(text)))
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise _Refused("json", said(N_("number {text} is too large for a float"), text=clip(text, 30)))
    return value


# A \uD800-\uDFFF escape (a surrogate: lone unless paired; the walk tells). A "\\uD8..."
# (an escaped backslash) also matches: that only costs the walk.
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")
# One decoder for every line (``json.loads`` with hooks builds a new one per call).
_DECODER = json.JSONDecoder(object_pairs_hook=_pairs, parse_constant=_constant,
                            parse_int=_parse_int, parse_float=_parse_float)
_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]')


def _depth_error(text: str) -> FieldError | None:
    """Check nesting before json.loads, whose recursion would otherwise fail past ~1000."""
    if text.count("[") + text.count("{") <= MAX_DEPTH:
        return None
    depth = 0
    for match in _TOKENS.finditer(text):
        token = match.group()
        if token in ("[", "{"):
            depth += 1
            if depth > MAX_DEPTH:
                return FieldError("json", said(N_("nested deeper than {MAX_DEPTH} levels"), MAX_DEPTH=MAX_DEPTH))
        elif token in ("]", "}"):
            depth -= 1
    return None


def refusal(text: str) -> tuple[Any, FieldError | None]:
    """Parse one JSON text: the value, or the one problem that refuses it. Every refusal of
    the format goes through here (files, ``kifu record``, ``kifu new``, the server's POST)."""
    value, error, _ = _parse(text)
    return value, error


def _parse(text: str) -> tuple[Any, FieldError | None, bool]:
    """(value, problem, whether the problem is that the text is not JSON at all)."""
    if len(text) > MAX_LINE:
        return None, FieldError("line", said(N_("longer than {MAX_LINE} characters ({text})"), MAX_LINE=MAX_LINE, text=len(text))), False
    deep = _depth_error(text)
    if deep is not None:
        return None, deep, False
    try:
        value = _DECODER.decode(text)
    except _Refused as exc:
        return None, exc.error, False
    except json.JSONDecodeError as exc:
        where = f"line {exc.lineno} column {exc.colno}" if exc.lineno > 1 else f"column {exc.colno}"
        return None, FieldError("json", f"{exc.msg} ({where})"), True
    except (RecursionError, ValueError) as exc:  # a limit the checks above should already catch
        return None, FieldError("json", clip(str(exc), 80)), False
    if _SURROGATE_ESCAPE.search(text) is None and _encodable(text):
        # Nothing the parse let through can be unstorable: its keys are strings, its numbers
        # passed the hooks, its depth was checked; a lone surrogate needs an escape or a raw
        # one in the text. The walk below costs as much as the parse: skip it.
        return value, None, False
    errors = storable_errors(value)
    return (None, errors[0], False) if errors else (value, None, False)


def loads_or_text(text: str, where: str) -> Any:
    """A value typed on a command line (``-f key=VALUE``): JSON where it is JSON, else the
    plain string; JSON past a limit (or text that cannot be stored) is refused."""
    value, error, syntax = _parse(text)
    if error is None:
        return value
    if syntax and _encodable(text):
        return text
    if syntax:
        raise LogFormatError([clip(at(where, N_("text that is not valid Unicode (a lone surrogate) cannot be stored")))])
    raise LogFormatError([clip(at(where, error))])


def loads(text: str, where: str) -> Any:
    """One JSON value, or LogFormatError(["WHERE: field: problem"])."""
    value, error = refusal(text)
    if error is not None:
        raise LogFormatError([clip(at(where, error))])
    return value


def loads_object(text: str, where: str, what: str = N_("a JSON object")) -> dict[str, Any]:
    value = loads(text, where)
    if not isinstance(value, dict):
        raise LogFormatError([said(N_("{where}: must be {what}"), where=where, what=what)])
    return value


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


def validate_header(header: Any, *, parsed: bool = False) -> tuple[Ruleset | None, list[FieldError]]:
    """``parsed``: the header comes from this module's parser, which has already refused what
    cannot be stored (as for ``validate_entry``: the walk was a fifth of a header's check)."""
    if not isinstance(header, dict):
        return None, [FieldError("header", N_("line 1 must be a JSON object (the match header)"))]
    errors: list[FieldError] = [] if parsed else storable_errors(header)
    if errors:
        return None, errors
    if not _is_int(header.get("kifu")) or header.get("kifu") != FORMAT:
        errors.append(FieldError("kifu", said(N_("must be {FORMAT} (the integer match-log format version)"), FORMAT=FORMAT)))
    game = header.get("game")
    ruleset: Ruleset | None = None
    if not isinstance(game, str):
        errors.append(FieldError("game", N_("missing") if game is None else said(N_("must be a string ({registry})"), registry=', '.join(registry.available()))))
    else:
        try:
            ruleset = registry.get(header.get("rules") or game)
            if ruleset.name != registry.canonical(game):
                errors.append(FieldError("rules", said(N_("{rules!r} is not a ruleset of {game!r}"), rules=header['rules'], game=game)))
        except KifuError as exc:
            errors.append(FieldError("rules" if header.get("rules") else "game", said_of(exc)))
    match = header.get("match")
    if not isinstance(match, dict):
        errors.append(FieldError("match", N_("must be an object")))
    else:
        mid = match.get("id")
        if mid is not None and (not isinstance(mid, str) or not MATCH_ID.fullmatch(mid)):
            errors.append(FieldError("match.id", N_("must be 1-100 letters, digits, '.', ':', '_' or '-'")))
        if "round" in match and not (isinstance(match["round"], int) and not isinstance(match["round"], bool)):
            errors.append(FieldError("match.round", N_("must be an integer")))
        if "table" in match and not isinstance(match["table"], (str, int)):
            errors.append(FieldError("match.table", N_("must be a string")))
        for key in ("title", "event"):
            if key in match and not isinstance(match[key], str):
                errors.append(FieldError(f"match.{key}", N_("must be a string")))
        for key in ("title", "event", "table"):
            if isinstance(match.get(key), str) and _has_control(match[key]):
                errors.append(FieldError(f"match.{key}", N_("must be one line without control characters")))
        if "date" in match:
            try:
                date.fromisoformat(match["date"])
            except (TypeError, ValueError):
                errors.append(FieldError("match.date", N_("must be a date YYYY-MM-DD")))
        if "house_rules" in match and not isinstance(match["house_rules"], dict):
            errors.append(FieldError("match.house_rules", N_("must be an object")))
    players = header.get("players")
    ids: list[str] = []
    if not isinstance(players, list) or not players:
        errors.append(FieldError("players", N_("must be a non-empty list")))
    else:
        for i, player in enumerate(players):
            where = f"players[{i}]"
            if not isinstance(player, dict):
                errors.append(FieldError(where, N_("must be an object")))
                continue
            pid = player.get("id")
            if not isinstance(pid, str) or not pid.strip():
                errors.append(FieldError(f"{where}.id", N_("must be a non-empty string")))
            elif pid in ids:
                errors.append(FieldError(f"{where}.id", said(N_("duplicate player id {pid!r}"), pid=pid)))
            else:
                ids.append(pid)
                if _has_control(pid) or len(pid) > 100:
                    errors.append(FieldError(f"{where}.id", N_("must be 1-100 characters without control characters")))
            if not isinstance(player.get("name", ""), str):
                errors.append(FieldError(f"{where}.name", N_("must be a string")))
            elif _has_control(player.get("name", "")):
                errors.append(FieldError(f"{where}.name", N_("must be one line without control characters")))
            deck = player.get("deck")
            if deck is not None and not isinstance(deck, dict):
                errors.append(FieldError(f"{where}.deck", N_("must be an object")))
            elif isinstance(deck, dict):
                for key in ("name", "archetype"):
                    if key in deck and not isinstance(deck[key], str):
                        errors.append(FieldError(f"{where}.deck.{key}", N_("must be a string")))
                    elif key in deck and _has_control(deck[key]):
                        errors.append(FieldError(f"{where}.deck.{key}", N_("must be one line without control characters")))
        if ruleset is not None and not ruleset.min_players <= len(players) <= ruleset.max_players:
            span = f"{ruleset.min_players}" if ruleset.min_players == ruleset.max_players else (
                f"{ruleset.min_players} to {ruleset.max_players}")
            errors.append(FieldError("players", said(N_("{name} takes {span} players, not {players}"), name=ruleset.name, span=span, players=len(players))))
    first = header.get("first")
    if first is not None and ids and first not in ids and not any(e.field.endswith(".id") for e in errors):
        errors.append(FieldError("first", said(N_("{first} is not a player id ({ids})"), first=show(first), ids=', '.join(ids))))
    if ruleset is not None and not errors:
        errors.extend(ruleset.validate_header(header))
    return ruleset, errors


# -- events ----------------------------------------------------------------------------------


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _text(entry: Mapping[str, Any], key: str, errors: list[FieldError], required: bool = True) -> None:
    if key not in entry:
        if required:
            errors.append(FieldError(key, N_("missing")))
    elif not isinstance(entry[key], str) or (required and not entry[key].strip()):
        errors.append(FieldError(key, N_("must be a non-empty string")))


def _ref(entry: Mapping[str, Any], key: str, seq: int, errors: list[FieldError], required: bool = True) -> None:
    if key not in entry:
        if required:
            errors.append(FieldError(key, N_("missing")))
    elif not _is_int(entry[key]) or not 1 <= entry[key] < seq:
        errors.append(FieldError(key, said(N_("must be the seq of an earlier event (1..{seq})"), seq=seq - 1)))


def validate_replacements(ruleset: Ruleset, header: Mapping[str, Any], moves: Any) -> list[FieldError]:
    if not isinstance(moves, list):
        return [FieldError("replace", N_("must be a list of move objects"))]
    errors: list[FieldError] = []
    players = {p["id"] for p in header["players"]}
    for i, move in enumerate(moves):
        if not isinstance(move, dict):
            errors.append(FieldError(f"replace[{i}]", N_("must be an object")))
            continue
        if move.get("type") not in ruleset.move_types:
            errors.append(FieldError(f"replace[{i}].type", said(N_("unknown {name} move type {type}"), name=ruleset.name, type=show(move.get('type')))))
            continue
        if move.get("by") not in players:
            errors.append(FieldError(f"replace[{i}].by", said(N_("must be a player id ({players})"), players=', '.join(sorted(players)))))
        for err in ruleset.validate_move(dict(move, seq=0)):
            errors.append(FieldError(f"replace[{i}].{err.field}", err.problem))
    return errors


def validate_entry(
    ruleset: Ruleset, header: Mapping[str, Any], entry: Any, seq: int, *, parsed: bool = False
) -> list[FieldError]:
    """Structural problems of one event line expected at ``seq``. ``parsed``: the line comes
    from this module's parser, which has already refused what cannot be stored (the walk
    over every value was a fifth of an import's time when it ran twice)."""
    if not isinstance(entry, dict):
        return [FieldError("line", N_("must be a JSON object"))]
    errors: list[FieldError] = [] if parsed else storable_errors(entry)
    if errors:
        return errors
    if entry.get("seq") != seq or not _is_int(entry.get("seq")):
        errors.append(FieldError("seq", said(N_("expected {seq}, got {seq2} (seq starts at 1 with no gaps)"), seq=seq, seq2=show(entry.get('seq')))))
    kind = entry.get("type")
    players = [p["id"] for p in header["players"]]
    for key in ("at", "claimed_at"):
        if key in entry and not _is_time(entry[key]):
            errors.append(FieldError(key, N_("must be an ISO 8601 timestamp")))
    if not isinstance(kind, str):
        errors.append(FieldError("type", N_("missing") if kind is None else N_("must be a string (a move type)")))
        return errors
    if kind not in META_TYPES and kind not in ruleset.move_types:
        known = ", ".join(sorted(ruleset.move_types))
        errors.append(FieldError("type", said(N_("unknown {name} move type {kind} (known: {known})"), name=ruleset.name, kind=show(kind), known=known)))
        return errors
    if kind not in META_TYPES or kind == "concede":
        if entry.get("by") not in players:
            errors.append(FieldError("by", said(N_("must be a player id ({players}), got {by}"), players=', '.join(players), by=show(entry.get('by')))))
    else:
        _text(entry, "by", errors)
        if isinstance(entry.get("by"), str) and (_has_control(entry["by"]) or len(entry["by"]) > 100):
            errors.append(FieldError("by", N_("must be a name of 1-100 characters without control characters")))
    if kind not in META_TYPES:
        errors.extend(ruleset.validate_move(entry))
    elif kind == "annotate":
        _ref(entry, "on", seq, errors)
        _text(entry, "text", errors)
        if "symbol" in entry and entry["symbol"] not in SYMBOLS:
            errors.append(FieldError("symbol", said(N_("must be one of {SYMBOLS}"), SYMBOLS=' '.join(SYMBOLS))))
        tags = entry.get("tags", [])
        if not isinstance(tags, list) or not all(isinstance(t, str) for t in tags):
            errors.append(FieldError("tags", N_("must be a list of strings")))
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
            errors.append(FieldError("decision", N_("must be upheld or overturned")))
        _text(entry, "text", errors)
        _text(entry, "rule", errors, required=False)
        if "level" in entry and entry["level"] not in LEVELS:
            errors.append(FieldError("level", N_("must be floor or head")))
        if "rewind" in entry and not isinstance(entry["rewind"], bool):
            errors.append(FieldError("rewind", N_("must be true or false")))
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
            errors.append(FieldError("player", said(N_("must be a player id ({players})"), players=', '.join(players))))
        _text(entry, "infraction", errors)
        if entry.get("penalty") not in PENALTIES:
            errors.append(FieldError("penalty", said(N_("must be one of {PENALTIES}"), PENALTIES=', '.join(PENALTIES))))
        _ref(entry, "on", seq, errors, required=False)
        _text(entry, "text", errors, required=False)
    elif kind == "result":
        if "winner" not in entry:
            errors.append(FieldError("winner", N_("missing (a player id, or null for a draw)")))
        elif entry["winner"] is not None and entry["winner"] not in players:
            errors.append(FieldError("winner", said(N_("must be a player id ({players}) or null"), players=', '.join(players))))
        _text(entry, "reason", errors)
    return errors


# -- reading a whole file --------------------------------------------------------------------


def parse_lines(lines: Iterable[str | bytes], name: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Parse and validate a whole log; raise LogFormatError listing its problems (each kind
    once, at most MAX_REPORTED lines, ``FILE:LINE: field: problem``). Lines may be bytes:
    then invalid UTF-8 is reported at its own line."""
    found: list[tuple[int, FieldError]] = []
    header: Any = None
    ruleset: Ruleset | None = None
    entries: list[dict[str, Any]] = []
    given_seq: int | None = 0  # the seq the previous line gave: a gap is reported once
    lineno = 0
    for lineno, raw in enumerate(lines, start=1):
        if isinstance(raw, bytes):
            if lineno == 1 and raw.startswith(b"\xef\xbb\xbf"):
                raw = raw[3:]
            try:
                raw = raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                found.append((lineno, FieldError("encoding", said(N_("not UTF-8 (byte 0x{raw:02x} at byte {exc} of the line)"), raw=raw[exc.start], exc=exc.start + 1))))
                if header is None:
                    break  # not a text file: one line says so
                entries.append({"seq": len(entries) + 1, "type": "<unparsed>"})
                given_seq = None
                continue
        text = raw.strip()
        if not text:
            if lineno == 1:
                found.append((1, FieldError("header", N_("empty line (line 1 must be the match header)"))))
            continue
        obj, error, syntax = _parse(text)
        if error is not None:
            if header is None and syntax:
                found.append((lineno, FieldError("header", said(N_("line {lineno} is not JSON, so this is not a match log ({problem})"), lineno=lineno, problem=error.problem))))
                break
            if header is None:  # nothing after a header that cannot be read can be checked
                found.append((lineno, error))
                break
            found.append((lineno, error))
            if header is not None:  # the bad line still takes its seq: one problem, not a cascade
                entries.append({"seq": len(entries) + 1, "type": "<unparsed>"})
                given_seq = None
            continue
        if header is None:
            if lineno != 1:
                found.append((lineno, FieldError("header", N_("line 1 did not hold the header"))))
            ruleset, errors = validate_header(obj, parsed=True)
            found.extend((lineno, e) for e in errors)
            if errors or not isinstance(obj, dict):
                ruleset, header = None, {}
            else:
                header = normalise_header(obj)
            continue
        if ruleset is None:
            continue  # without a valid header the lines cannot be checked meaningfully
        seq = len(entries) + 1
        claimed = obj.get("seq") if isinstance(obj, dict) and _is_int(obj.get("seq")) else None
        if claimed is not None and seq < claimed <= seq + 1000:
            # a gap: the missing lines are reported once, here, and the lines after it are
            # checked at the seq they give (their references point there), not as a cascade
            entries.extend({"seq": n, "type": "<unparsed>"} for n in range(seq, claimed))
            errors = [FieldError("seq", said(N_("expected {seq}, got {claimed} (seq starts at 1 with no gaps)"), seq=seq, claimed=claimed))]
            errors += [e for e in validate_entry(ruleset, header, obj, claimed, parsed=True) if e.field != "seq"]
            seq = claimed
        else:
            errors = validate_entry(ruleset, header, obj, seq, parsed=True)
            if claimed is not None and claimed != seq and given_seq is not None and claimed == given_seq + 1:
                # the lines follow on from a repeat already reported: not a new problem
                errors = [e for e in errors if e.field != "seq"]
        given_seq = claimed
        if not errors:
            errors = workflow_errors(entries, obj)
        found.extend((lineno, e) for e in errors)
        if not isinstance(obj, dict):
            obj = {"seq": seq, "type": "<unparsed>"}
        elif obj.get("seq") != seq or type(obj["seq"]) is not int:  # True == 1, 1.0 == 1: an int, as before
            obj = dict(obj, seq=seq)
        entries.append(obj)
    if header is None and not found:
        found.append((1, FieldError("header", N_("the file is empty"))))
    if found:
        raise LogFormatError(summarise(quote_name(name), found))
    return header, entries


def summarise(name: str, found: list[tuple[int, FieldError]]) -> list[str]:
    """One line per kind of problem (the same field and message apart from quoted values and
    numbers), with the other lines it occurred on; at most MAX_REPORTED lines, then a count."""
    kinds: dict[tuple[str, str], list[tuple[int, FieldError]]] = {}
    for lineno, error in found:
        key = (re.sub(r"\[\d+\]", "[]", error.field), re.sub(r"'[^']*'|\"[^\"]*\"|\d+", "#", error.problem))
        kinds.setdefault(key, []).append((lineno, error))
    out: list[str] = []
    for group in kinds.values():
        lineno, error = group[0]
        line = clip(at(f"{name}:{lineno}", error))
        if len(group) > 1:
            more = ", ".join(str(n) for n, _ in group[1:6]) + (", …" if len(group) > 6 else "")
            line = said(N_("{problem} (also lines {lines})") if len(group) > 2 else N_("{problem} (also line {lines})"),
                        problem=line, lines=more)
        out.append(line)
    if len(out) > MAX_REPORTED:
        rest = len(out) - MAX_REPORTED + 1
        out = out[: MAX_REPORTED - 1] + [at(name, said(N_("and {rest} more kinds of problem"), rest=rest))]
    return out


def read_file(path: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Read and check one log file. Only regular files are opened: a FIFO or a device would
    block or never end."""
    name = quote_name(path)
    if "\x00" in path:  # os.stat raises ValueError, not OSError, on it: no file can be named so
        raise LogFormatError([said(N_("{name}:0: file: a file name cannot hold a NUL character"), name=name)])
    try:
        info = os.stat(path)
    except OSError as exc:
        raise LogFormatError([said(N_("{name}:0: file: {strerror}"), name=name, strerror=exc.strerror)]) from None
    if not stat.S_ISREG(info.st_mode):
        kind = N_("a directory") if stat.S_ISDIR(info.st_mode) else N_("a FIFO") if stat.S_ISFIFO(info.st_mode) else N_("not a regular file")
        raise LogFormatError([said(N_("{name}:0: file: {kind}, not a match log (only regular files are read)"), name=name, kind=kind)])
    try:
        with open(path, "rb") as fh:
            return parse_lines(fh, path)
    except OSError as exc:
        raise LogFormatError([said(N_("{name}:0: file: {strerror}"), name=name, strerror=exc.strerror)]) from None
