"""Board JSON (with the whole 5×6 field), the terminal board, the names a scorekeeper types,
and the notation of a move."""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from typing import Any

from projections.base import ENGLISH, Move, Words, players_of
from projections.gurren_lagann.board import (
    COLUMNS,
    ROWS,
    SQUARES,
    LIFE,
    GLBoard,
    SkillCard,
    Side,
    Unit,
    battle_outcome,
    deploy_zone,
    find_unit,
    headquarters,
    invasion,
    is_square,
    name_of,
    power_of,
    skill_of,
    units_at,
    zone_of,
)
from projections.gurren_lagann.catalog import load
from projections.gurren_lagann.moves import MOVE_TYPES


def unit_json(board: GLBoard, u: Unit) -> dict[str, Any]:
    return {
        "figure": u.figure,
        "owner": u.owner,
        "card": u.card,
        "square": u.square,
        "acted": u.acted,
        "moved": u.steps,
        "supports": list(u.supports),
        "item": u.item,
        "item_figure": u.item_figure,
        "power": power_of(board, u),
        "skill": skill_of(board, u),
    }


def side_json(board: GLBoard, s: Side) -> dict[str, Any]:
    other = next((x for x in board.sides if x.id != s.id), s)
    return {
        "name": s.name or s.id,
        "damage": s.damage,
        "dealt": other.damage,
        "life": max(LIFE - s.damage, 0),
        "deck": s.deck,
        "hand": list(s.hand),
        "hand_count": len(s.hand),
        "discard": list(s.discard),
        "stock": list(s.stock),
        "skill_zone": [{"card": k.card, "set": k.set} for k in s.skill_zone],
        "skills_used": s.skills_used,
        "deployed_this_turn": s.deployed,
        "headquarters": headquarters(s),
        "deploy_zone": list(deploy_zone(s)),
        "figures": [u.figure for u in board.units if u.owner == s.id],
    }


def field_json(board: GLBoard) -> dict[str, Any]:
    squares = []
    for sq in SQUARES:
        here = units_at(board, sq)
        zone_owner, zone = zone_of(board, sq)
        squares.append(
            {
                "square": sq,
                "column": COLUMNS.index(sq[0]),
                "row": int(sq[1:]),
                "zone": zone or None,
                "zone_owner": zone_owner,
                "owner": here[0].owner if here else None,
                "leader": here[0].figure if here else None,
                "figures": [unit_json(board, u) for u in here],
            }
        )
    return {
        "columns": len(COLUMNS),
        "rows": ROWS,
        "column_names": list(COLUMNS),
        "bottom": board.sides[0].id if board.sides else None,
        "squares": squares,
    }


def public_board_json(board: Mapping[str, Any], seen: frozenset[str] = frozenset()) -> dict[str, Any]:
    """``board_json`` while the event's deck lists are closed (projections/secrecy.py): a
    player's gunmen stock shows only what the lines have named (deployed, combined, searched);
    the rest of it is the list, withheld, its count kept (``stock_hidden``)."""
    out = dict(board)
    players = {}
    for pid, p in (board.get("players") or {}).items():
        stock = list(p.get("stock") or [])
        shown = [c for c in stock if c in seen]
        players[pid] = dict(p, stock=shown, stock_hidden=len(stock) - len(shown))
    out["players"] = players
    return out


def board_json(board: GLBoard) -> dict[str, Any]:
    b = board.battle
    return {
        "turn": board.turn,
        "active": board.active,
        "phase": board.phase,
        "first": board.first,
        "players": {s.id: side_json(board, s) for s in board.sides},
        "field": field_json(board),
        "battle": None
        if b is None
        else {
            "attacker": b.attacker,
            "defender": b.defender,
            "figures": list(b.figures),
            "from": b.origin,
            "square": b.square,
            "defenders": list(b.defenders),
            "attack_bonus": b.attack_bonus,
            "defend_bonus": b.defend_bonus,
        },
        "house_rules": dict(board.options),
    }


def width(text: str) -> int:
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def pad(text: str, w: int) -> str:
    return text + " " * (w - width(text))


# --- the terminal board ------------------------------------------------------------------

def phases(t: Words) -> dict[str, str]:
    """The phases as the players say them (the HTML board's words too: exports/boards/common.py)."""
    return {"draw": t.pgettext("gurren-lagann phase", "draw phase"), "main": t.pgettext("gurren-lagann phase", "main phase")}


def _cell_lines(board: GLBoard, sq: str, t: Words) -> list[str]:
    lines = [f"{u.owner}:{u.figure}{'*' if u.acted else ''}" for u in units_at(board, sq)]
    if not lines:
        owner, zone = zone_of(board, sq)
        if zone == "hq":
            lines = [t.pgettext("text board", "({player} HQ)").format(player=owner)]
        elif zone == "deploy":
            lines = [t.pgettext("text board", "({player} deploy)").format(player=owner)]
        else:
            lines = [""]
    return lines


def skill_label(k: SkillCard, t: Words = ENGLISH) -> str:
    """One card of a skill zone: 「伏せ: 待ち伏せ」, 「伏せ札」 (set, unseen) or the used card."""
    if k.set:
        return t.pgettext("board", "set: {card}").format(card=k.card) if k.card else t.pgettext("text board", "a set card")
    return k.card or "?"


def render_text(board: GLBoard, t: Words = ENGLISH) -> str:
    """The board for the terminal, its words through ``t`` (English without one)."""
    cells = {sq: _cell_lines(board, sq, t) for sq in SQUARES}
    w = max(8, *(width(line) for lines in cells.values() for line in lines))
    sep = "   +" + "+".join("-" * (w + 2) for _ in COLUMNS) + "+"
    active = _seat(name_of(board, board.active), board.active)
    phase = phases(t).get(board.phase, board.phase)
    out = [t.pgettext("text board", "turn {n}  to play {player}  {phase}").format(n=board.turn, player=active, phase=phase), ""]
    for s in reversed(board.sides):
        out += _side_lines(s, t)
    out.append("    " + " ".join(pad(f" {c}", w + 2) for c in COLUMNS))
    for row in range(ROWS, 0, -1):
        out.append(sep)
        rows = [cells[f"{c}{row}"] for c in COLUMNS]
        for i in range(max(len(r) for r in rows)):
            label = f" {row} " if i == 0 else "   "
            out.append(label + "|" + "|".join(" " + pad(r[i] if i < len(r) else "", w) + " " for r in rows) + "|")
    out.append(sep)
    seats = ", ".join(f"{s.id} = {s.name or s.id}" for s in board.sides)
    out.append(t.pgettext(
        "text board", "key: {seats} · A:name = A's figures (the leader first) · * = has acted · (A HQ) (A deploy) = "
        "A's HQ and deploy zone · ? = a card not seen · set = a trap set face down").format(seats=seats))
    if board.battle:
        b = board.battle
        comma = t.pgettext("board", ", ")
        out.append(t.pgettext(
            "text board", "in battle {square}: {attacker} {figures} (attacking, from {origin}) vs {defender} {defenders} "
            "(defending)").format(square=b.square, attacker=name_of(board, b.attacker), figures=comma.join(b.figures),
                                  origin=b.origin, defender=name_of(board, b.defender), defenders=comma.join(b.defenders))
            + ("  " + t.pgettext("board", "modifiers: attack {attack} / defence {defence}").format(
                attack=f"{b.attack_bonus:+d}", defence=f"{b.defend_bonus:+d}") if b.attack_bonus or b.defend_bonus else "")
        )
    for u in board.units:
        extra = [*(t.pgettext("text board", "support {card}").format(card=c) for c in u.supports),
                 *([t.pgettext("text board", "item {card}").format(card=u.item)] if u.item else [])]
        if extra:
            card = "" if u.card == u.figure else " " + t.pgettext("text board", "(GBS card {card})").format(card=u.card)
            out.append(f"  {u.owner}:{u.figure}{card} ← {' · '.join(extra)}")
    return "\n".join(out)


def _seat(name: str, pid: str) -> str:
    return name if name == pid else f"{name} ({pid})"


def _side_lines(s: Side, t: Words) -> list[str]:
    hand = ", ".join(c or "?" for c in s.hand)
    zone = ", ".join(skill_label(k, t) for k in s.skill_zone) or t.pgettext("board", "none")
    return [
        t.pgettext("text board", "{player}: damage {damage}/{life}  deck {deck}  hand {n} [{cards}]").format(
            player=_seat(s.name or s.id, s.id), damage=s.damage, life=LIFE, deck=s.deck, n=len(s.hand), cards=hand),
        "    " + t.pgettext("text board", "stock [{stock}]  discard {n}  skill zone [{zone}]").format(
            stock=", ".join(s.stock), n=len(s.discard), zone=zone),
    ]


# --- what a scorekeeper types ------------------------------------------------------------


def vocabulary(header: Mapping[str, Any]) -> list[str]:
    names: dict[str, None] = {}
    for p in header.get("players") or []:
        deck = p.get("deck") or {}
        for n in [*deck.get("cards", []), *deck.get("stock", [])]:
            if isinstance(n, str):
                names[n] = None
    if not names:
        names = dict.fromkeys(load().cards)
    return [*names, *SQUARES, *players_of(header), *MOVE_TYPES]


# --- notation: a move as its players say it ----------------------------------------------
#
# Read from the board *before* the move. Pure and total: a structurally valid move, legal or
# not, naming known cards or not, always gets a line of text, never a raw dict or list.

OUTCOMES = {"attacker": ("攻撃側の勝利", "the attacker wins"), "defender": ("防御側の勝利", "the defender wins"),
            "both": ("相打ち (双方敗北)", "both lose")}


def _t(lang: str, ja: str, en: str) -> str:
    return en if lang == "en" else ja


def _name(value: Any) -> str:
    """A card, figure or square name as text (anything else, e.g. an unseen card, as ?)."""
    if isinstance(value, str) and value:
        return value
    if isinstance(value, bool) or value is None:
        return "?"
    if isinstance(value, int):
        return str(value)
    return "?"


def _names(values: Any, lang: str) -> str:
    if not isinstance(values, (list, tuple)):
        return _name(values)
    known = [_name(v) for v in values if v is not None]
    unseen = sum(1 for v in values if v is None)
    parts = list(known)
    if unseen:
        parts.append(_t(lang, f"非公開 {unseen}枚", f"{unseen} unseen card{'s' if unseen != 1 else ''}"))
    return _t(lang, "、", ", ").join(parts) if parts else _t(lang, "なし", "none")


def _ref(board: GLBoard, ref: Any, by: Any, lang: str) -> str:
    """A figure reference; ``B:エンキ`` (or a figure of the other player) names its owner."""
    if not isinstance(ref, str):
        return _name(ref)
    owner, _, figure = ref.rpartition(":")
    if not owner:
        unit = find_unit(board, ref, by)
        owner = unit.owner if unit is not None and unit.owner != by else ""
    if not owner or owner == by:
        return figure
    return _t(lang, f"{name_of(board, owner)}の{figure}", f"{name_of(board, owner)}'s {figure}")


def _refs(board: GLBoard, refs: Any, by: Any, lang: str) -> str:
    if not isinstance(refs, (list, tuple)):
        return _ref(board, refs, by, lang)
    return _t(lang, "、", ", ").join(_ref(board, r, by, lang) for r in refs) or _t(lang, "なし", "none")


def _power(n: Any, lang: str) -> str:
    return _t(lang, f"パワー{n:+d}", f"power {n:+d}") if isinstance(n, int) and not isinstance(n, bool) else ""


def outcome_phrases(board: GLBoard, move: Move, lang: str) -> list[str]:
    """What a card text did (effect, skill and trap lines), as short phrases."""
    by, out = move.get("by"), []
    destroyed = move.get("destroyed")
    if destroyed:
        refs = [r if not isinstance(r, str) or ":" in r else _bare_destroyed(board, r, by) for r in destroyed]
        out.append(_t(lang, f"破壊: {_refs(board, refs, by, lang)}", f"destroys {_refs(board, refs, by, lang)}"))
    dep = move.get("deployed")
    if isinstance(dep, Mapping):
        card, sq = _name(dep.get("card")), _name(dep.get("square"))
        out.append(_t(lang, f"出陣: {card} → {sq}", f"deploys {card} to {sq}"))
    moved = move.get("moved")
    if isinstance(moved, Mapping) and moved:
        where = [(_ref(board, f, by, lang), _name(sq)) for f, sq in moved.items()]
        out.append(_t(lang, "移動: " + "、".join(f"{f}→{s}" for f, s in where),
                      "moves " + ", ".join(f"{f} to {s}" for f, s in where)))
    damage = move.get("damage")
    if isinstance(damage, Mapping) and damage:
        hits = [(name_of(board, p), n if isinstance(n, int) else "?") for p, n in damage.items()]
        out.append(_t(lang, "ダメージ: " + "、".join(f"{p}に{n}" for p, n in hits),
                      "deals " + ", ".join(f"{n} damage to {p}" for p, n in hits)))
    drew = move.get("drew")
    if isinstance(drew, int) and not isinstance(drew, bool):
        out.append(_t(lang, f"{drew}枚ドロー", f"draws {drew} card{'s' if drew != 1 else ''}"))
    elif isinstance(drew, list):
        out.append(_t(lang, f"ドロー: {_names(drew, lang)}", f"draws {_names(drew, lang)}"))
    for key, ja, en in (("discarded", "捨て札", "discards"), ("readied", "未行動に", "readies"),
                        ("exhausted", "行動完了に", "exhausts")):
        value = move.get(key)
        if value:
            text = _names(value, lang) if key == "discarded" else _refs(board, value, by, lang)
            out.append(_t(lang, f"{ja}: {text}", f"{en} {text}"))
    power = _power(move.get("power"), lang)
    if power:
        out.append(power)
    return out


def _bare_destroyed(board: GLBoard, ref: str, by: Any) -> str:
    """In ``destroyed`` a bare name is the opponent's figure (docs: mirror matches)."""
    other = next((s.id for s in board.sides if s.id != by), by)
    return f"{other}:{ref}" if find_unit(board, f"{other}:{ref}", other) else ref


def _with(head: str, phrases: list[str], lang: str) -> str:
    if not phrases:
        return head
    return head + " — " + _t(lang, " / ", "; ").join(phrases)


def _draw(board: GLBoard, move: Move, who: str, lang: str) -> str:
    cards = move.get("cards")
    if isinstance(cards, list) and any(c is not None for c in cards):
        return _t(lang, f"{who} ドロー: {_names(cards, lang)}", f"{who} draws {_names(cards, lang)}")
    n = len(cards) if isinstance(cards, list) else move.get("count")
    if not isinstance(n, int) or isinstance(n, bool):
        n = board.opt("draw_per_turn") if board.rules else 1
    return _t(lang, f"{who} ドロー {n}枚 (非公開)", f"{who} draws {n} card{'s' if n != 1 else ''} (unseen)")


def _reveal(board: GLBoard, move: Move, who: str, lang: str) -> str:
    cards = _names(move.get("cards"), lang)
    return _t(lang, f"{who} 手札公開: {cards}", f"{who} reveals from hand: {cards}")


def _deploy(board: GLBoard, move: Move, who: str, lang: str) -> str:
    card, sq = _name(move.get("card")), _name(move.get("square"))
    figure = move.get("figure")
    fig = f" ({_name(figure)})" if isinstance(figure, str) and figure != card else ""
    owner, zone = zone_of(board, sq) if is_square(sq) else (None, "")
    hq = _t(lang, " (本陣)", " (headquarters)") if zone == "hq" and owner == move.get("by") else ""
    return _t(lang, f"{who} 出陣: {card}{fig} → {sq}{hq}", f"{who} deploys {card}{fig} to {sq}{hq}")


def _support(board: GLBoard, move: Move, who: str, lang: str) -> str:
    card, target = _name(move.get("card")), _ref(board, move.get("target"), move.get("by"), lang)
    return _t(lang, f"{who} 援護: {card} → {target}", f"{who} supports {target} with {card}")


def _equip(board: GLBoard, move: Move, who: str, lang: str) -> str:
    card, target = _name(move.get("card")), _ref(board, move.get("target"), move.get("by"), lang)
    return _t(lang, f"{who} 装備: {card} → {target}", f"{who} equips {target} with {card}")


def _skill(board: GLBoard, move: Move, who: str, lang: str) -> str:
    card = move.get("card")
    user = move.get("user")
    by_user = (_t(lang, f" ({_name(user)})", f" (by {_name(user)})")) if user is not None else ""
    if move.get("set"):
        head = (
            _t(lang, f"{who} 罠をセット: {_name(card)}", f"{who} sets a trap: {_name(card)}")
            if isinstance(card, str)
            else _t(lang, f"{who} 罠をセット (伏せ札)", f"{who} sets a trap face down")
        )
    elif isinstance(card, str):
        head = _t(lang, f"{who} スキル: {card}{by_user}", f"{who} uses the skill {card}{by_user}")
    else:
        head = _t(lang, f"{who} スキル (非公開のカード)", f"{who} uses an unseen skill card")
    return _with(head, outcome_phrases(board, move, lang), lang)


def _trap(board: GLBoard, move: Move, who: str, lang: str) -> str:
    card = _name(move.get("card"))
    return _with(_t(lang, f"{who} 罠発動: {card}", f"{who} springs the trap {card}"),
                 outcome_phrases(board, move, lang), lang)


def _move(board: GLBoard, move: Move, who: str, lang: str) -> str:
    by = str(move.get("by"))
    raw_figures, raw_path = move.get("figures"), move.get("path")
    figures: list[Any] = raw_figures if isinstance(raw_figures, list) else []
    path = [p for p in raw_path if isinstance(p, str)] if isinstance(raw_path, list) else []
    names = _t(lang, "・", " + ").join(_ref(board, f, by, lang) for f in figures) or "?"
    route = "→".join(path) or "?"
    dest = path[-1] if path else ""
    enemies = [u for u in units_at(board, dest) if u.owner != by]
    if enemies:
        foes = _t(lang, "・", " + ").join(u.figure for u in enemies)
        return f"{names} {route}" + _t(lang, f" ({foes}に攻撃)", f" (attacks {foes})")
    movers = [u for u in (find_unit(board, f, by) for f in figures) if u is not None and u.owner == by]
    squares = [movers[0].square if movers else path[0], *path[1:]] if path else []
    owner, damage = invasion(board, by, squares) if all(is_square(s) for s in squares) else (None, 0)
    return f"{names} {route}" + (_invaded(damage, lang) if owner is not None else "")


def _battle(board: GLBoard, move: Move, who: str, lang: str) -> str:
    attack, defend = move.get("attack"), move.get("defend")
    outcome = move.get("outcome")
    if outcome not in OUTCOMES and isinstance(attack, int) and isinstance(defend, int):
        outcome = battle_outcome(attack, defend)
    result = OUTCOMES[outcome][lang == "en"] if outcome in OUTCOMES else "?"
    b = board.battle
    if b is None:
        return _t(lang, f"バトル解決: 攻撃 {_name(attack)} 対 防御 {_name(defend)} → {result}",
                  f"battle: attack {_name(attack)} vs defence {_name(defend)} → {result}")
    att, dfn = "・".join(b.figures), "・".join(b.defenders)
    text = _t(lang, f"バトル解決 {b.square}: {att} {_name(attack)} 対 {dfn} {_name(defend)} → {result}",
              f"battle at {b.square}: {att} {_name(attack)} vs {dfn} {_name(defend)} → {result}")
    owner, damage = invasion(board, b.attacker, b.path or (b.origin, b.square))
    if outcome == "attacker" and owner is not None:
        text += _invaded(damage, lang)
    return text


def _invaded(damage: int, lang: str) -> str:
    if damage == 2:
        return _t(lang, " (本陣侵入)", " (into the headquarters)")
    return _t(lang, " (出陣ゾーン侵入)", " (into the deploy zone)")


def _effect(board: GLBoard, move: Move, who: str, lang: str) -> str:
    card = _name(move.get("card"))
    text = move.get("text")
    said = (f"「{text}」" if lang == "ja" else f' "{text}"') if isinstance(text, str) and text else ""
    head = _t(lang, f"{who} 効果: {card}{said}", f"{who} effect of {card}{said}")
    return _with(head, outcome_phrases(board, move, lang), lang)


def _end_turn(board: GLBoard, move: Move, who: str, lang: str) -> str:
    discarded = move.get("discarded")
    head = _t(lang, f"{who} ターン終了", f"{who} ends the turn")
    if isinstance(discarded, list) and discarded:
        cards = _names(discarded, lang)
        return head + _t(lang, f" (手札調整で捨て札: {cards})", f" (discards {cards} down to the hand limit)")
    return head


NOTATION = {
    "draw": _draw,
    "reveal": _reveal,
    "deploy": _deploy,
    "support": _support,
    "equip": _equip,
    "skill": _skill,
    "trap": _trap,
    "move": _move,
    "battle": _battle,
    "effect": _effect,
    "end_turn": _end_turn,
}


# A move's kind in words, for a move too malformed to read (the English is its type).
KIND_JA = {"draw": "ドロー", "deploy": "出陣", "support": "援護", "equip": "装備", "skill": "スキル", "trap": "罠",
           "move": "移動", "battle": "バトル解決", "effect": "効果", "end_turn": "ターン終了"}


def describe(board: GLBoard, move: Move, lang: str = "ja") -> str:
    """The move as its players say it, e.g. 「グレンラガン b6→c6 (本陣侵入)」 (``lang`` "ja" or "en")."""
    lang = "en" if lang == "en" else "ja"
    who = name_of(board, move.get("by"))
    fn = NOTATION.get(str(move.get("type")))
    if fn is None:
        return f"{who} {_name(move.get('type'))}"
    try:
        return fn(board, move, who, lang)
    except Exception:  # a move too malformed to read: say what kind of move it was, never raise
        kind = str(move.get("type"))
        return f"{who} {_t(lang, KIND_JA.get(kind, kind), kind.replace('_', ' '))}"
