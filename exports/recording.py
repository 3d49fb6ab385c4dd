"""The guided recording page (``/matches/ID/record``): what a scorekeeper taps on a phone.

The page asks ``/matches/ID/record/state`` for everything the current board allows and builds
its forms from that: the board (the viewer's renderer), the legal moves now as one-tap
choices (``ruleset.legal_moves`` with ``ruleset.describe`` labels), and a form per move type
built from the ruleset's ``MoveSpec`` with typed fields:

- ``choice``: buttons (few options) or a picker, filled from the legal moves of that type and
  this match's names (``ruleset.vocabulary``), never names the match does not have;
- ``faces``: options a field's help spells out (``stand/立ち, handstand/逆立ち, ...`` or
  ``normal / lateral / special``), as buttons;
- ``number``: a stepper (range from the help, e.g. ``(1-6)``);
- ``map``: a name -> option table (a Gandice summon: each die -> its face);
- ``list``: names toggled on in the order tapped (cards, figures, a path of squares);
- ``flag``: a yes/no toggle; ``json``: free JSON for the rare structured field.

The table's other lines (correct the last move, annotate, call a judge, concede, declare a
result) and the judge's ruling (with the engine's suggested correction) are built from the
same state. Nothing here decides anything: the POST goes through ``service.record``.
"""

from __future__ import annotations

import functools
import re
from html import unescape
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any
from urllib.parse import quote

from markupsafe import escape

from projections.base import META_TYPES, MoveSpec
from projections.replay import Replay
from projections.disputes import dispute_states, suggested_replacement
from projections.names import sifting
from projections.vocabulary import enum_options, is_square_field, names_for, squares_of
from exports import i18n, notation
from exports.i18n import gettext_for

LEGAL_MAX = 80
# Games whose legal-move lists carry one representative dice outcome (the table rolls the real
# one: projections/gandice/generate.py legal_moves): the page offers the choice alone, and the
# form's outcome pickers (faces, numbers) ask for what the dice showed.
OUTCOME_GAMES = frozenset({"gandice"})
OUTCOME_KINDS = ("faces", "map", "number")
LAST_LINES = 8

RANGE_RE = re.compile(r"\((\d+)\s*[-–]\s*(\d+)\)")

# Field names as a Japanese scorekeeper reads them (the specs' help text is English).
FIELD_JA = {
    "die": "ダイス", "target": "対象", "defender": "対象の持ち主", "face": "出目", "value": "数値",
    "item": "アイテム", "card": "カード", "bonus": "ボーナス", "partners": "合体相手", "rolls": "各ダイスの出目",
    "graveyard": "墓地へ", "into": "進化先", "source": "発動元", "effect": "効果", "take": "奪う",
    "state": "状態", "revive": "復活", "text": "説明", "hand": "手札", "attacker": "攻撃する虫",
    "technique": "技", "territory_card": "縄張りカード", "player": "プレイヤー", "damage": "ダメージ",
    "boost": "強化", "destroy": "破壊", "bounce": "手札に戻す", "flip": "裏返す", "draw": "ドロー枚数",
    "territory": "縄張り", "discard": "捨て札", "summon": "召喚", "from": "移動元", "to": "移動先",
    "cards": "カード", "count": "枚数", "square": "マス", "figure": "フィギュア", "user": "使用者",
    "set": "セット", "destroyed": "破壊", "moved": "移動", "drew": "ドロー", "discarded": "捨て札",
    "readied": "未行動に", "exhausted": "行動完了に", "deployed": "出陣", "power": "戦闘力",
    "figures": "フィギュア", "path": "経路", "attack": "攻撃側の戦闘力", "defend": "防御側の戦闘力",
    "outcome": "勝敗", "pile": "山", "actions": "効果の処理", "kind": "種類", "squares": "マス",
    "retreat": "撤退", "dice": "ダイス", "winner": "勝者", "reason": "理由",
    "do": "処理", "stat": "能力値", "op": "増減", "amount": "量", "until": "期限", "status": "状態",
    "result": "結果", "a": "マス1", "b": "マス2",
}

# Move types as the players say them (the type codes stay in the log).
TYPE_JA = {
    "summon": "召喚", "resummon": "再召喚", "attack": "攻撃", "defend": "防御", "item": "アイテム",
    "fuse": "合体", "split": "分離", "evolve": "進化", "effect": "効果", "setup": "準備", "draw": "ドロー",
    "set": "セット", "play": "プレイ", "reveal": "公開", "end_turn": "ターン終了", "deploy": "出陣",
    "support": "支援", "equip": "装備", "skill": "スキル", "trap": "罠", "move": "移動", "battle": "バトル",
    "draft": "ドラフト", "magic": "魔法", "position": "表示形式", "breakthrough": "突破", "master": "マスター",
}

TEXT = {
    "ja": {
        "title": "対局を記録", "legal": "いま指せる手（タップで入力）", "form": "手を入力", "type": "手の種類",
        "by": "手番", "send": "記録する", "more": "その他の項目", "none": "なし", "other": "その他の名前…",
        "clear": "クリア", "table": "卓の操作", "correct": "この手で直前の手を訂正", "annotate": "メモ",
        "dispute": "ジャッジを呼ぶ", "concede": "投了", "result": "結果を申告", "draw": "引き分け",
        "judge": "ジャッジ", "upheld": "支持（記録どおり）", "overturned": "覆す（提案どおり訂正）",
        "overturned_plain": "覆す（手を無効に）", "queue": "未送信", "token": "トークン", "save": "保存",
        "ok": "記録しました", "illegal": "記録しました — ルール違反があります", "refused": "記録できませんでした",
        "offline": "接続がありません：この端末に保存し、つながったら順に送ります",
        "conflict": "他の端末が先に記録しました。送信待ちの手を止めています",
        "theirs": "サーバーに記録された手", "mine": "この端末の送信待ち", "discard": "送信待ちを破棄",
        "resend": "続けて送る", "read_only": "このサーバーは読み取り専用です（トークンなしで起動）",
        "last": "直近の手", "disputes": "未裁定の異議", "suggest": "提案される訂正", "steps": "手目まで記録",
        "annotate_text": "ここは要確認", "dispute_claim": "ジャッジの確認をお願いします",
        "correct_text": "記録係による訂正", "ruling_text": "ジャッジの裁定", "agreed": "合意",
        "viewer": "観戦ページ", "finished": "対戦は終了しています", "pick": "選択",
        "violations": "この対戦の違反", "board": "盤面", "armed": "もう一度タップで確定",
        "sending": "送信中…", "legal_word": "合法", "rule_word": "ルール", "remember": "この端末に記憶する",
        "need_token": "トークンを入力して「保存」を押すと、この手から送信を再開します",
        "less": "1 減らす", "more_one": "1 増やす", "skip": "入力フォームへ", "unseen": "見えない",
        "empty": "なし（空）", "undo": "1 つ戻す", "note_type": "メモ", "on": "対象の手", "symbol": "記号",
        "text": "メモの文", "call_judge": "ジャッジを呼ぶ", "who": "記入者",
    },
    "en": {
        "title": "Record the match", "legal": "Legal moves now (tap to fill in)", "form": "Enter a move",
        "type": "Move type", "by": "By", "send": "Record", "more": "More fields", "none": "none",
        "other": "Other names…", "clear": "Clear", "table": "Table actions", "correct": "Correct the last move with this",
        "annotate": "Note", "dispute": "Call a judge", "concede": "Concede", "result": "Declare result",
        "draw": "Draw", "judge": "Judge", "upheld": "Uphold (as recorded)",
        "overturned": "Overturn (suggested correction)", "overturned_plain": "Overturn (void the move)",
        "queue": "Not sent yet", "token": "Token", "save": "Save", "ok": "Recorded",
        "illegal": "Recorded — it breaks a rule", "refused": "Not recorded",
        "offline": "No connection: kept on this device, sent in order when it returns",
        "conflict": "Another device recorded first. The queue is stopped",
        "theirs": "Recorded on the server", "mine": "Waiting on this device", "discard": "Discard the queue",
        "resend": "Send after them", "read_only": "This server is read-only (started without a token)",
        "last": "Last lines", "disputes": "Open disputes", "suggest": "Suggested correction", "steps": "lines recorded",
        "annotate_text": "check this", "dispute_claim": "judge call requested from the table",
        "correct_text": "scorekeeper's correction", "ruling_text": "judge's ruling", "agreed": "agreed",
        "viewer": "Viewer", "finished": "The match is decided", "pick": "pick",
        "violations": "Violations in this match", "board": "Board", "armed": "Tap again to confirm",
        "sending": "sending…", "legal_word": "legal", "rule_word": "rule", "remember": "remember on this device",
        "need_token": "Enter the token and press Save: sending resumes from this line",
        "less": "one less", "more_one": "one more", "skip": "Skip to the form", "unseen": "unseen",
        "empty": "none (empty)", "undo": "undo one", "note_type": "Note", "on": "on line", "symbol": "symbol",
        "text": "words", "call_judge": "Call a judge", "who": "written by",
    },
}


def text_for(lang: str) -> dict[str, str]:
    return TEXT["en" if lang == "en" else "ja"]


def _q(text: Any) -> str:
    return quote(str(text), safe="")


# -- field widgets ---------------------------------------------------------------------------


def _label(value: Any) -> str:
    return "—" if value is None else str(value)


def _uniq(values: Iterable[Any]) -> list[Any]:
    seen: list[Any] = []
    for v in values:
        if v not in seen:
            seen.append(v)
    return seen


_say = functools.lru_cache(maxsize=8)(gettext_for)  # per field of every form of every state: asked once


# Field kinds a ruleset declares (``FIELD_KINDS`` in its moves module, keyed "type.field";
# docs/recording-page.md): what the help text alone does not say. A declaration is a dict:
#   {"kind": "choice"|"list", "of": "names"|"players"|"squares", "null": "unseen"|"none",
#    "values": [...]}  (fixed options), {"kind": "number", "min": 1, "max": 6},
#   {"kind": "object", "fields": {sub: decl}}, {"kind": "objlist", "key": sub,
#    "variants": {key value: {sub: decl}}} or {"kind": "objlist", "fields": {sub: decl}},
#   {"kind": "text"}, {"kind": "flag"}, {"kind": "faces", "values": [...]}.
NUMBER_BUTTONS = 24  # a range up to this many values is drawn as buttons, one per value
NAME_BUTTONS = 16  # the names a field offers are buttons up to this many, a picker beyond


def _option(value: Any, label: Any = None) -> dict[str, Any]:
    return {"value": value, "label": _label(value) if label is None else str(label)}


def _null_label(help_text: str, t: Mapping[str, str]) -> str:
    """The label of a field's null button, when its help says null is allowed: "no item" or "unseen"."""
    low = help_text.lower()
    if "null" not in low:
        return ""
    return t["none"] if "no item" in low or "null for no" in low else t["unseen"]


def field_widget(
    name: str, help_text: str, spec: MoveSpec, legal: Sequence[Mapping[str, Any]],
    names: Sequence[str] | Callable[[], Sequence[str]], face_sets: Sequence[list[dict[str, str]]], lang: str,
    declared: Mapping[str, Any] | None = None, names_by: Mapping[str, Callable[[], Sequence[str]]] | None = None,
    players: Sequence[str] = (), squares: Callable[[], Sequence[str]] | None = None,
    vocabulary: Sequence[str] = (), on_board: Callable[[str], list[str]] | None = None,
) -> dict[str, Any]:
    """One field of a move type's form: its kind and the options the current board gives.
    ``names`` may be a function: the names a field may hold cost a check per name of the match
    (vocabulary.names_for), asked only by the kinds that offer names (map, list, choice).
    ``names_by``: the same per acting player (the page offers the names of whoever acts)."""
    if callable(names):
        names_of = names
    else:
        def names_of() -> Sequence[str]:
            return names  # type: ignore[return-value]
    t = text_for(lang)
    example = spec.example.get(name)
    seen = [m[name] for m in legal if name in m]
    said = _say(lang)(help_text) if help_text else help_text
    w: dict[str, Any] = {
        # The ruleset's description of a field (MoveSpec, English, parsed below for its options
        # and range) in the page's language from the catalog: shown beside the label in English,
        # kept as the label's tooltip in Japanese, where the widget says enough.
        "name": name, "help": said, "note": said if lang == "en" else "", "required": name in spec.required,
        "label": FIELD_JA.get(name, name) if lang != "en" else name,
        "legal": bool(seen), "null": _null_label(help_text, t),
    }

    def per_player() -> dict[str, list[str]]:
        if names_by:
            return {p: list(fn()) for p, fn in names_by.items()}
        return {"": list(names_of())}

    if declared:
        return _declared(w, declared, seen, per_player, players, squares, lang, vocabulary, on_board)
    enum = enum_options(help_text, said)
    if isinstance(example, bool) or any(isinstance(v, bool) for v in seen):
        return dict(w, kind="flag")
    if enum and not isinstance(example, (list, dict)):
        return dict(w, kind="faces", options=enum)
    if isinstance(example, int) or any(isinstance(v, int) for v in seen) or RANGE_RE.search(help_text):
        lo, hi = 0, 20
        r = RANGE_RE.search(help_text)
        if r:
            lo, hi = int(r.group(1)), int(r.group(2))
        return _number(w, lo, hi)
    if isinstance(example, dict) and example and all(isinstance(v, str) for v in example.values()):
        keys = _uniq(k for v in seen if isinstance(v, dict) for k in v)
        faces = next((f for f in face_sets if set(example.values()) <= {o["value"] for o in f}), [])
        if faces:
            return dict(w, kind="map", keys=keys or list(names_of()), options=faces)
    if (isinstance(example, list) and all(isinstance(v, (str, type(None))) for v in example)) or any(
        isinstance(v, list) and all(isinstance(x, str) for x in v) for v in seen
    ):
        opts = _uniq(x for v in seen if isinstance(v, list) for x in v if isinstance(x, str))
        return dict(w, kind="list", options=[_option(o) for o in opts], names=per_player())
    if name == "text" or name == "claim":
        return dict(w, kind="text")
    if isinstance(example, (dict, list)) or any(isinstance(v, (dict, list)) for v in seen):
        return dict(w, kind="json")
    opts = _uniq(v for v in seen if isinstance(v, str) or (v is None and not w["null"]))
    return dict(w, kind="choice", options=[_option(o) for o in opts], names=per_player())


def _number(w: dict[str, Any], lo: int, hi: int) -> dict[str, Any]:
    if hi - lo + 1 > NUMBER_BUTTONS:
        return dict(w, kind="json")
    return dict(w, kind="number", options=[_option(n) for n in range(lo, hi + 1)])


def _declared(w: dict[str, Any], decl: Mapping[str, Any], seen: Sequence[Any],
              per_player: Callable[[], dict[str, list[str]]], players: Sequence[str],
              squares: Callable[[], Sequence[str]] | None, lang: str,
              vocabulary: Sequence[str] = (), on_board: Callable[[str], list[str]] | None = None) -> dict[str, Any]:
    """A field drawn as its ruleset declares it (FIELD_KINDS). The parts of an object or of a
    list of objects offer every name of the match."""
    t = text_for(lang)
    kind = decl.get("kind", "choice")
    if "null" in decl:
        w = dict(w, null=t["none"] if decl["null"] == "none" else t["unseen"])
    if kind == "number":
        return _number(w, int(decl.get("min", 0)), int(decl.get("max", 20)))
    if kind in ("text", "flag", "json"):
        return dict(w, kind=kind)
    if kind in ("object", "objlist"):
        def sub(name: str, d: Mapping[str, Any]) -> dict[str, Any]:
            base = {"name": name, "help": "", "note": "", "required": False, "legal": False, "null": "",
                    "label": FIELD_JA.get(name, name) if lang != "en" else name}
            return _declared(base, d, [], lambda: {"": list(vocabulary)}, players, squares, lang, vocabulary, on_board)
        if kind == "object" or "fields" in decl:
            return dict(w, kind=kind, fields=[sub(k, d) for k, d in decl["fields"].items()])
        key = str(decl["key"])
        variants = {v: [sub(k, d) for k, d in subs.items()] for v, subs in decl["variants"].items()}
        return dict(w, kind=kind, key=sub(key, {"kind": "faces", "values": list(variants)}), variants=variants)
    values = decl.get("values")
    of = decl.get("of")
    if values is not None:
        opts = [_option(v) for v in values]
    elif of == "players":
        opts = [_option(p) for p in players]
    elif of == "squares" and squares is not None:
        opts = [_option(sq) for sq in squares()]
    elif of == "board" and on_board is not None:  # the values of a key of the board (蟲神器's uids)
        opts = [_option(x) for x in on_board(str(decl["key"]))]
    else:
        flat = [x for v in seen for x in (v if isinstance(v, list) else [v])]
        opts = [_option(o) for o in _uniq(x for x in flat if isinstance(x, str))]
    if kind == "faces":
        return dict(w, kind="faces", options=opts)
    names = per_player() if of in (None, "names") and values is None else {}
    return dict(w, kind="list" if kind == "list" else "choice", options=opts, names=names)


def _names_of(ruleset: Any, board: Any, by: str, spec: MoveSpec, field: str, names: Sequence[str],
              squares: Callable[[], Sequence[str]]) -> Callable[[], list[str]]:
    """The names ``field`` may hold, worked out when a widget asks (the page's state is fetched
    after every move: it costs about what a POST does only if no field pays for names it never shows)."""
    if is_square_field(spec, field) and (found := squares()):
        return lambda: list(found)
    return lambda: names_for(ruleset, board, by, spec, field, names)


def forms(
    ruleset: Any, legal: Sequence[Mapping[str, Any]], names: Sequence[str], lang: str,
    board: Any = None, by: str = "", squares: Sequence[str] | Callable[[], Sequence[str]] = (),
    players: Sequence[str] = (), board_json: Any = None,
) -> dict[str, Any]:
    """A form per move type of the ruleset, its fields typed and filled from the board.
    ``squares`` may be a function: the board's squares, looked for only when a field holds one."""
    say = _say(lang)
    face_sets = [o for spec in ruleset.move_types.values() for h in spec.fields.values()
                 if len(o := enum_options(h, say(h))) >= 3]
    given = squares
    squares_of_board = _once(given) if callable(given) else (lambda: given)
    out: dict[str, Any] = {}
    with sifting():  # one board for every field: what the name checks derive from it, derived once
        for spec in ruleset.move_types.values():
            out[spec.type] = _form(ruleset, spec, legal, names, lang, board, by, squares_of_board, face_sets,
                                   players, lambda key: values_of(board_json, key))
    kinds = getattr(ruleset, "field_kinds", {}) or {}
    for form in out.values():
        for fd in form["fields"]:
            if (kinds.get(f"{form['type']}.{fd['name']}") or {}).get("most") == "unseen":
                fd["most"] = unseen_in_hand(board_json, players)
    return out


def unseen_in_hand(board_json: Any, players: Sequence[str]) -> dict[str, int]:
    """Per player, the cards of their hand the scorekeeper has not seen (``null`` in the board's
    ``players.P.hand``): a list of cards named out of them (a reveal) holds at most as many, so
    the item that names the last of them completes the move (``most``: the page records it at
    once)."""
    out: dict[str, int] = {}
    table = (board_json or {}).get("players") if isinstance(board_json, Mapping) else None
    for p in players:
        hand = (table or {}).get(p, {}).get("hand") if isinstance(table, Mapping) else None
        if isinstance(hand, list) and any(c is None for c in hand):
            out[p] = sum(1 for c in hand if c is None)
    return out


def values_of(tree: Any, key: str) -> list[str]:
    """Every string value of ``key`` anywhere in ``tree`` (a board's JSON), in order."""
    out: list[str] = []
    todo = [tree]
    while todo:
        x = todo.pop(0)
        if isinstance(x, dict):
            if isinstance(x.get(key), str) and x[key] not in out:
                out.append(x[key])
            todo.extend(x.values())
        elif isinstance(x, (list, tuple)):
            todo.extend(x)
    return out


def _once(fn: Callable[[], Sequence[str]]) -> Callable[[], Sequence[str]]:
    """``fn()`` worked out at the first call and kept (the board's squares: a walk of its JSON)."""
    kept: list[Sequence[str]] = []

    def get() -> Sequence[str]:
        if not kept:
            kept.append(fn())
        return kept[0]
    return get


def _form(ruleset: Any, spec: MoveSpec, legal: Sequence[Mapping[str, Any]], names: Sequence[str], lang: str,
          board: Any, by: str, squares: Callable[[], Sequence[str]],
          face_sets: Sequence[list[dict[str, str]]], players: Sequence[str] = (),
          on_board: Callable[[str], list[str]] | None = None) -> dict[str, Any]:
    """The form of one move type: its fields offer the names of whichever player acts."""
    of_type = [m for m in legal if m.get("type") == spec.type]
    kinds = getattr(ruleset, "field_kinds", {}) or {}
    who = list(players) or [by]
    fields = [field_widget(k, v, spec, of_type, _names_of(ruleset, board, by, spec, k, names, squares), face_sets, lang,
                           declared=kinds.get(f"{spec.type}.{k}"),
                           names_by={p: _names_of(ruleset, board, p, spec, k, names, squares) for p in who},
                           players=players, squares=squares, vocabulary=names, on_board=on_board)
              for k, v in spec.fields.items() if k != "by"]
    label = spec.type if lang == "en" else TYPE_JA.get(spec.type, spec.type)
    summary = gettext_for(lang)(spec.summary) if spec.summary else spec.summary
    return {"type": spec.type, "label": label, "summary": summary, "fields": fields, "legal": len(of_type)}


# -- the state the page is built from --------------------------------------------------------------


def describe(ruleset: Any, board: Any, move: Mapping[str, Any], lang: str,
             short: Callable[[Mapping[str, Any]], str] | None = None) -> str:
    """``move`` in the game's notation; where the notation cannot say it (a suggestion with its
    targets left to tap), ``short``'s words, else the generic fallback."""
    fn = getattr(ruleset, "describe", None)
    if fn is not None:
        try:
            return str(fn(board, move, lang))
        except Exception:  # a ruleset's notation must never take the page down
            pass
    if short is not None:
        return short(move)
    return f"{move.get('by', '')} {notation.fallback(move, lang)}".strip()


def short_label(move: Mapping[str, Any], form_of: Mapping[str, Any], names: Mapping[str, str]) -> str:
    """A suggestion in the page's words: who, the move type's label, what is chosen, and … for
    what is left to tap."""
    f = form_of.get(str(move.get("type")), {})
    labels = {fd["name"]: {str(o["value"]): o["label"] for o in fd.get("options") or []} for fd in f.get("fields", [])}
    chosen = [labels.get(k, {}).get(str(v), str(v)) for k, v in move.items()
              if k not in ("type", "by") and isinstance(v, (str, int)) and v != ""]
    who = names.get(str(move.get("by")), str(move.get("by") or ""))
    rest = any(isinstance(v, (dict, list)) for v in move.values())
    return (f"{who} {f.get('label', move.get('type'))}" + (f": {' '.join(chosen)}" if chosen else "")
            + (" …" if rest else "")).strip()


def legal_now(rep: Replay) -> tuple[list[dict[str, Any]], Any, Any]:
    """The legal moves now with the ruleset's other suggestions (``suggestions``: effects with
    their actions from the card texts, a phase's dice), those of the likely next type first
    (``likely_type``), at most LEGAL_MAX of them; that type; and who plays it when the rules say
    (``THEN``: a battle's defender answering a skill), else None."""
    board = rep.board(rep.steps)
    try:
        moves = [dict(m) for m in rep.ruleset.legal_moves(board)]
    except Exception:  # enumeration is a convenience; the form still records anything
        return [], None, None
    try:
        first, last = rep.ruleset.suggestions(board) if hasattr(rep.ruleset, "suggestions") else ([], [])
    except Exception:
        first, last = [], []
    hands = rep.board_json(rep.steps).get("players")  # the replay keeps the head's board JSON: asked again below

    def unseen(by: Any) -> bool:  # a hand the board lists with cards not seen, or no hand listed
        hand = hands.get(by, {}).get("hand") if isinstance(hands, Mapping) and isinstance(hands.get(by), Mapping) else None
        return not isinstance(hand, list) or any(c is None for c in hand)
    board_json = rep.board_json(rep.steps)
    likely = first[0].get("type") if first else likely_type(rep.ruleset, rep.entries, moves or last, unseen, rep.header,
                                                             board_json)
    ordered = [m for m in moves + last if m.get("type") == likely] + [m for m in moves + last if m.get("type") != likely]
    rank = getattr(rep.ruleset, "rank", None)
    if callable(rank):  # within a type, the moves the rules favour first (RANK of the moves module)
        types = list(dict.fromkeys(m.get("type") for m in ordered))
        ordered = [m for t in types for m in sorted((x for x in ordered if x.get("type") == t),
                                                    key=lambda x: rank(board_json, x))]
    games = [e for e in rep.entries if e.get("type") not in META_TYPES]
    by = next((b for t, b in rules_then(rep.ruleset, rep.header, games[-1], board_json) if t == likely and b),
              None) if games and not first else None
    return (first + [m for m in ordered if m not in first])[:LEGAL_MAX], likely, by


def rules_then(ruleset: Any, header: Mapping[str, Any] | None, line: Mapping[str, Any],
               board_json: Any = None) -> list[tuple[str, Any]]:
    """What the rules make follow ``line`` (``THEN`` of the moves module): (type, player or
    None) pairs, first the likeliest; nothing without a THEN or a header."""
    then = getattr(ruleset, "then", None)
    if not callable(then) or header is None:
        return []
    out = []
    for t in then(header, line, board_json):
        kind, by = (t[0], t[1]) if isinstance(t, tuple) else (t, None)
        if kind in ruleset.move_types:
            out.append((kind, by))
    return out


def likely_type(ruleset: Any, entries: Sequence[Mapping[str, Any]], legal: Sequence[Mapping[str, Any]],
                unseen: Callable[[Any], bool] = lambda by: True, header: Mapping[str, Any] | None = None,
                board_json: Any = None) -> Any:
    """The move type the table most likely plays next, from the last line: what the ruleset
    says usually follows its type (``FOLLOWS`` of its moves module: after an attack the defence,
    after a draw the set), else the turn goes on in the order the ruleset declares
    (``TURN_ORDER``, the usual order of a turn's moves), from the last move's type while the
    same player acts, from the start for a new turn. The first such type that may be played
    now: one with a legal move, or one the enumeration cannot list for the cards it does not
    see (``UNLISTED``: a card from a hand drawn unseen), while the acting player's hand holds
    cards not seen (``unseen(by)``: a hand all seen lists every move it allows). Before all
    that, what the rules make follow the last line (``THEN`` of the moves module, with the
    match's ``header``: a card's text resolving once the card is played). The match's
    first move: ``FOLLOWS[""]``.
    Without an order, the first legal move's."""
    types = list(dict.fromkeys(m.get("type") for m in legal))
    if not types:
        return None
    order = tuple(getattr(ruleset, "turn_order", ()) or ())
    moves = [e for e in entries if e.get("type") not in META_TYPES]
    unlisted = set(getattr(ruleset, "unlisted", ()) or ())
    if not moves:  # the match's first move: FOLLOWS[""] (the opening hand revealed)
        start = (getattr(ruleset, "follows", {}) or {}).get("", ())
        return next((t for t in start if t in set(types) | unlisted), types[0])
    if not order:
        return types[0]
    last, who = moves[-1], legal[0].get("by")
    same = last.get("by") == who
    for t, _ in rules_then(ruleset, header, last, board_json):
        return t
    may = set(types) | (unlisted if same and unseen(who) else set())
    follows = (getattr(ruleset, "follows", {}) or {}).get(last.get("type"), ())
    for t in follows:
        if t in may:
            return t
    start = order.index(last["type"]) if last.get("type") in order and same else 0
    return next((t for t in order[start:] if t in types), types[0])


def line_label(rep: Replay, entry: Mapping[str, Any], lang: str) -> str:
    """A recent line as the table reads it: a game move in its notation, a shared line
    (annotation, dispute, ruling, …) in words, as the replay page shows them."""
    if entry.get("type") in META_TYPES:
        names = {p["id"]: p.get("name") or p["id"] for p in rep.header["players"]}
        return notation.meta_text(entry, lang, names)
    return describe(rep.ruleset, rep.board(entry["seq"] - 1), entry, lang)


def state(rep: Replay, lang: str, render_board: Callable[[Mapping[str, Any]], str],
          labels: dict[tuple[int, str], str] | None = None) -> dict[str, Any]:
    """Everything the recording page shows and offers for the current board (JSON-ready).

    ``labels``: the last lines' labels of an earlier head of this replay, by (seq, language),
    kept by the caller as long as the boards before them stand (no ruling or correction since):
    a label needs the board before its line, a fold from a checkpoint up to 50 lines back."""
    t = text_for(lang)
    header = rep.header
    # The last lines' labels first: the boards before them are behind the head, and the replay
    # folds forward from where it stands (the previous head's) but backward only from a checkpoint.
    labels = {} if labels is None else labels
    for e in rep.entries[-LAST_LINES:]:
        if (e["seq"], lang) not in labels:
            labels[(e["seq"], lang)] = line_label(rep, e, lang)
    board_json = rep.board_json(rep.steps)
    legal, likely, likely_by = legal_now(rep)
    board = rep.board(rep.steps)
    try:
        names = [str(n) for n in rep.ruleset.vocabulary(header)]
    except Exception:
        names = []
    players = [{"id": p["id"], "name": p.get("name") or p["id"]} for p in header["players"]]
    if legal:
        nxt = {"type": likely or legal[0]["type"], "by": likely_by or legal[0].get("by") or board_json.get("active")}
    else:
        nxt = {"type": next(iter(rep.ruleset.move_types)), "by": board_json.get("active") or players[0]["id"]}
    found = rep.violations()
    shown = {e["seq"] for e in rep.entries[-LAST_LINES:]}  # a match's violations grow with it: only the last lines'
    violations: dict[int, list[dict[str, Any]]] = {}
    for v in found:
        if v.seq in shown:
            violations.setdefault(v.seq, []).append(i18n.violation_json(lang, v))  # said in the reader's language
    last = []
    for e in rep.entries[-LAST_LINES:]:
        last.append({"seq": e["seq"], "type": e["type"], "by": e.get("by"), "meta": e["type"] in META_TYPES,
                     "label": labels[(e["seq"], lang)], "violations": violations.get(e["seq"], []),
                     "token": e.get("token")})
    open_disputes = []
    for d in dispute_states(rep.entries).values():
        if not d.is_open:
            continue
        item = d.to_json()
        try:
            v, moves = suggested_replacement(header, rep.entries, d.seq)
            item["suggest"] = moves
            item["suggest_rule"] = v.rule
            before = rep.board(int(d.dispute["on"]) - 1)
            item["suggest_label"] = " / ".join(describe(rep.ruleset, before, m, lang) for m in moves) or t["none"]
        except Exception:
            item["suggest"] = None
        open_disputes.append(item)
    result = board_json.get("result")
    notes = [e for e in rep.entries if e.get("type") == "annotate"]
    keeper = "scorekeeper" if lang == "en" else "記録係"
    roles = _uniq([str(e.get("by")) for e in reversed(notes) if e.get("by")] + [keeper, "解説"])
    form_of = forms(rep.ruleset, legal, names, lang, board, str(nxt["by"] or ""), lambda: squares_of(board_json),
                    players=[p["id"] for p in players], board_json=board_json)
    if rep.ruleset.name in OUTCOME_GAMES:
        offered = outcome_free(legal, form_of, {p["id"]: p["name"] for p in players})
    else:
        who = {p["id"]: p["name"] for p in players}
        offered = [{"move": m, "label": describe(rep.ruleset, board, m, lang, lambda x: short_label(x, form_of, who))}
                   for m in legal]
    form_of["annotate"] = note_form(rep.entries, lang)
    return {
        "steps": rep.steps,
        "board_html": str(render_board(board_json)),
        "roles": [{"id": r, "name": r} for r in roles],
        "note_by": roles[0],
        "active": board_json.get("active"), "turn": board_json.get("turn"), "result": result,
        "players": players,
        "decks": decks_of(header),
        "legal": offered,
        "forms": form_of,
        "next": nxt,
        "last": last,
        "disputes": open_disputes,
        "violations": [i18n.violation_json(lang, v) for v in found[-5:]],
    }


SYMBOLS = ("!", "?", "!!", "??", "!?", "?!")


def decks_of(header: Mapping[str, Any]) -> dict[str, list[str]]:
    """Each player's own card names (the header's deck list, its stock): a field with more names
    than buttons shows the acting player's own as buttons."""
    out: dict[str, list[str]] = {}
    for p in header.get("players") or []:
        deck = p.get("deck") if isinstance(p, Mapping) else None
        if isinstance(deck, Mapping):
            names = [n for key in ("cards", "stock") for n in (deck.get(key) or []) if isinstance(n, str)]
            out[str(p["id"])] = sorted(set(names))
    return out


def note_form(entries: Sequence[Mapping[str, Any]], lang: str) -> dict[str, Any]:
    """The form of a note (``annotate``): the line it is on (the last line, unless another is
    tapped), its words (typed) and its symbol; written by a person of the table (``roles``)."""
    t = text_for(lang)
    seqs = [e["seq"] for e in entries[-LAST_LINES:]][::-1]

    def base(name: str) -> dict[str, Any]:
        return {"name": name, "help": t[name], "note": t[name] if lang == "en" else "", "legal": False, "null": "",
                "label": name if lang == "en" else t[name]}
    return {"type": "annotate", "label": t["note_type"], "summary": "", "legal": 0, "meta": True, "fields": [
        dict(base("on"), required=True, kind="choice", options=[_option(q, f"#{q}") for q in seqs], names={}),
        dict(base("text"), required=True, kind="text"),
        dict(base("symbol"), required=False, kind="faces", options=[_option(x) for x in SYMBOLS], legal=True),
    ]}


def outcome_free(legal: Sequence[Mapping[str, Any]], form_of: Mapping[str, Any],
                 names: Mapping[str, str]) -> list[dict[str, Any]]:
    """The legal choices without the dice outcomes an enumeration had to invent: each choice
    once, labelled by who, the move type and what was chosen."""
    out: list[dict[str, Any]] = []
    for m in legal:
        f = form_of.get(str(m.get("type")), {})
        outcome = {fd["name"] for fd in f.get("fields", []) if fd["kind"] in OUTCOME_KINDS}
        move = {k: v for k, v in m.items() if k not in outcome}
        if any(o["move"] == move for o in out):
            continue
        chosen = [str(v) for k, v in move.items() if k not in ("type", "by") and not isinstance(v, (dict, list))]
        who = names.get(str(move.get("by")), str(move.get("by") or ""))
        label = f"{who} {f.get('label', move.get('type'))}" + (f": {' '.join(chosen)}" if chosen else "")
        out.append({"move": move, "label": label.strip()})
    return out


def initial_move(st: Mapping[str, Any]) -> dict[str, Any]:
    """The move the page starts from (the script's resetForm): the next move's type and player,
    no field filled."""
    nxt = st.get("next") or {}
    return {"type": nxt.get("type") or next(iter(st["forms"])),
            "by": nxt.get("by") or (st["players"][0]["id"] if st["players"] else None), "f": {}}


def options_for(fd: Mapping[str, Any], by: Any, deck: Sequence[str] = ()) -> dict[str, Any]:
    """The buttons and the picker of a field for player ``by``, with nothing chosen: its own
    options, the player's names (all as buttons up to NAME_BUTTONS; beyond, those of the
    player's own deck ``deck`` as buttons when they fit, the rest in a picker), its null (the
    script's optionsOf)."""
    names = (fd.get("names") or {})
    mine = names.get(by) or names.get("") or []
    own = list(fd.get("options") or [])
    values = [o["value"] for o in own]
    extra = [n for n in mine if n not in values]
    rest: list[str] = []
    if len(own) + len(extra) <= NAME_BUTTONS:
        own += [{"value": n, "label": n} for n in extra]
    else:
        in_deck = [n for n in extra if n in deck]
        if in_deck and len(own) + len(in_deck) <= NAME_BUTTONS:
            own += [{"value": n, "label": n} for n in in_deck]
            rest = [n for n in extra if n not in deck]
        else:
            rest = extra
    if fd.get("null"):
        own.append({"value": None, "label": fd["null"]})
    return {"buttons": own, "rest": rest}


def _drawn(fd: Mapping[str, Any], by: Any, deck: Sequence[str] = ()) -> dict[str, Any]:
    """``fd`` with what the server draws of it for ``by`` (``drawn``), its sub-fields too."""
    out = dict(fd, drawn=options_for(fd, by, deck))
    if fd.get("fields"):
        out["fields"] = [_drawn(f, by, deck) for f in fd["fields"]]
    if fd.get("key"):
        out["key"] = _drawn(fd["key"], by, deck)
    return out


def first_view(st: Mapping[str, Any], cur: Mapping[str, Any]) -> dict[str, Any]:
    """What _record_parts.html draws of the form for ``cur`` (its fields empty): the type and
    player buttons, the rows shown and the rows folded under "more" (the script's drawForm)."""
    form = st["forms"].get(cur["type"]) or {"fields": []}
    faces = any(f["kind"] == "faces" for f in form["fields"])
    main: list[Any] = []
    more: list[Any] = []
    need = [f["name"] for f in form["fields"] if f["required"]]
    for fd in form["fields"]:
        primary = fd["required"] or fd["legal"] or (fd["kind"] == "number" and faces)
        drawn = _drawn(fd, cur["by"], (st.get("decks") or {}).get(cur["by"]) or ())
        # a list one item short of its most (the script's completes): its item records the move
        drawn["records"] = fd["kind"] == "list" and (fd.get("most") or {}).get(cur["by"]) == 1 and need in ([], [fd["name"]])
        (main if primary else more).append(drawn)
    return {
        "type": cur["type"], "by": cur["by"], "main": main, "more": more,
        "types": [(f["type"], f["label"], "legal-type" if f["legal"] else "") for f in st["forms"].values()],
        "players": [(p["id"], f"{p['name']} ({p['id']})", "") for p in st["players"]],
    }


def board_picks(view: Mapping[str, Any]) -> dict[str, str]:
    """The board as the input, in the first paint (the script's boardPicks): for each value a
    piece of the board may stand for, the field that wants it, the first row of the form (in
    the page's order, nested rows after their own) with an unpressed button of that value."""
    out: dict[str, str] = {}

    def walk(fd: Mapping[str, Any], name: str) -> None:
        buttons = (fd.get("drawn") or {}).get("buttons") or [] if fd.get("kind") in ("faces", "choice", "number", "list") else []
        for o in buttons:
            if isinstance(o["value"], str):
                out.setdefault(o["value"], name)
        for sub in fd.get("fields") or [] if fd.get("kind") == "object" else []:
            walk(sub, f"{name}.{sub['name']}")
        if fd.get("kind") == "objlist":
            for sub in [fd["key"]] if fd.get("key") else fd.get("fields") or []:
                walk(sub, f"{name}.0.{sub['name']}")
    for fd in [*view["main"], *view["more"]]:
        walk(fd, fd["name"])
    return out


PICK_RE = re.compile(r'data-pick="([^"]*)"')


def mark_board(html: str, picks: Mapping[str, str]) -> str:
    """``html`` (a board) with each piece the form wants marked as its control (board_picks)."""
    def mark(m: re.Match[str]) -> str:
        field = picks.get(unescape(m.group(1)))
        return m.group(0) if field is None else f'{m.group(0)} data-field="{escape(field)}" data-value="{m.group(1)}"'
    return PICK_RE.sub(mark, html)


def page_context(rep: Replay, lang: str, writable: bool) -> dict[str, Any]:
    mid = rep.header["match"]["id"]
    base = f"/matches/{_q(mid)}"
    t = text_for(lang)
    return {
        "t": t, "lang": lang, "match_id": mid, "title": rep.ruleset.title,
        "m": rep.header["match"], "players": rep.header["players"],
        "match_url": base, "writable": writable,
        "config": {
            "match": mid, "state_url": f"{base}/record/state?lang={lang}", "post_url": f"/api/matches/{_q(mid)}/events",
            "writable": writable, "t": t, "types": [*rep.ruleset.move_types, "annotate"], "lang": lang,
        },
    }


__all__ = ["board_picks", "enum_options", "field_widget", "first_view", "forms", "initial_move", "mark_board",
           "page_context", "state"]
