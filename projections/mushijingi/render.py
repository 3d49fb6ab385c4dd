"""Board JSON (DESIGN.md, Board JSON), a plain-text board for the terminal, the names a
scorekeeper types (vocabulary), and the notation of a move (describe)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from projections.base import ENGLISH, Move, Words
from projections.mushijingi.board import (
    OPENING_HAND,
    TERRITORY,
    Board,
    Insect,
    attack_bonus,
    attack_value,
    beats,
    colour_of,
    find_insect,
    max_hp,
    present,
)
from projections.mushijingi.catalog import CatalogError, header_catalog, load_catalog
from projections.mushijingi.moves import MOVE_TYPES

def phases(t: Words) -> dict[str, str]:
    """The phases as the players say them (the HTML board's words too: exports/boards/common.py)."""
    return {"setup": t.pgettext("mushijingi phase", "setup"), "draw": t.pgettext("mushijingi phase", "draw"),
            "set": t.pgettext("mushijingi phase", "set phase"), "main": t.pgettext("mushijingi phase", "main phase"),
            "over": t.pgettext("mushijingi phase", "over")}


def reasons(t: Words) -> dict[str, str]:
    return {"direct-attack": t.pgettext("text board", "direct attack"),
            "deck-out": t.pgettext("text board", "deck out, more territory"),
            "deck-out-tie": t.pgettext("text board", "deck out, equal territory")}


def insect_json(board: Board, ins: Insect) -> dict[str, Any]:
    return {
        "uid": ins.uid,
        "card": ins.card,
        "colour": colour_of(board, ins),
        "hp": max_hp(board, ins),
        "damage": ins.damage,
        "attack_bonus": attack_bonus(board, ins),
        "enhancements": [name for name, _ in ins.enhancements],
        "flipped": ins.flipped,
        "attacked": ins.attacked,
    }


def board_json(board: Board) -> dict[str, Any]:
    players: dict[str, Any] = {}
    for side in board.sides:
        players[side.id] = {
            "name": side.name or side.id,
            "territory": side.territory,
            "deck": side.deck,
            "hand_count": len(side.hand),
            "hand": list(side.hand),
            "feed": list(side.feed),
            "discard": list(side.discard),
            "insects": [insect_json(board, i) for i in board.field if i.owner == side.id],
        }
    out: dict[str, Any] = {
        "turn": board.turn,
        "active": board.active,
        "phase": board.phase,
        "cost": {"total": board.cost, "spent": board.spent, "left": board.cost - board.spent}
        if board.phase == "main"
        else None,
        "players": players,
        "catalog": board.catalog.name,
    }
    return out


def _insect_line(board: Board, ins: Insect, t: Words) -> str:
    hp = max_hp(board, ins)
    parts = [t.pgettext("text board", "[{uid}] {card} ({colour}) health {left}/{hp}").format(
        uid=ins.uid, card=ins.card, colour=colour_of(board, ins), left=hp - ins.damage, hp=hp)]
    bonus = attack_bonus(board, ins)
    if bonus:
        parts.append(t.pgettext("board", "attack +{n}").format(n=bonus))
    if ins.enhancements:
        parts.append(t.pgettext("board", "enhanced: {cards}").format(cards=", ".join(n for n, _ in ins.enhancements)))
    if ins.flipped:
        parts.append(t.pgettext("text board", "flipped (counts as absent)"))
    if ins.attacked:
        parts.append(t.pgettext("board", "has attacked"))
    return "  ".join(parts)


def _side_lines(board: Board, pid: str, t: Words) -> list[str]:
    side = board.side(pid)
    hand = ", ".join(c if c is not None else "?" for c in side.hand) or "-"
    mark = "▶" if pid == board.active and board.result is None else " "
    counts = t.pgettext("text board", "{name} ({id})  territory {territory}  deck {deck}  hand {hand}  discard {discard}")
    lines = [
        f"{mark} " + counts.format(name=board.name(pid), id=pid, territory=side.territory, deck=side.deck,
                                   hand=len(side.hand), discard=len(side.discard)),
        "    " + t.pgettext("text board", "hand: {cards}").format(cards=hand),
        "    " + t.pgettext("text board", "feed ({n}): {cards}").format(n=len(side.feed), cards=", ".join(side.feed) or "-"),
    ]
    insects = [i for i in board.field if i.owner == pid]
    lines += [f"    {_insect_line(board, i, t)}" for i in insects] or ["    " + t.pgettext("text board", "(no insects)")]
    return lines


def render_text(board: Board, t: Words = ENGLISH) -> str:
    """The board for the terminal, its words through ``t`` (English without one)."""
    phase = phases(t).get(board.phase, board.phase)
    game = t.pgettext("text board", "Mushijingi")
    if board.turn:
        head = f"{game}  " + t.pgettext("text board", "turn {n}  {phase}").format(n=board.turn, phase=phase)
    else:
        head = f"{game}  {phase}"
    if board.phase == "main":
        head += "  " + t.pgettext("text board", "cost left {left}/{cost}").format(left=board.cost - board.spent,
                                                                               cost=board.cost)
    lines = [head]
    for pid in board.order:
        lines += _side_lines(board, pid, t)
    if board.result is not None:
        reason = reasons(t).get(board.result.reason, board.result.reason)
        if board.result.winner is None:
            lines.append(t.pgettext("text board", "result: a draw ({reason})").format(reason=reason))
        else:
            lines.append(t.pgettext("text board", "result: {name} wins ({reason})").format(
                name=board.name(board.result.winner), reason=reason))
    lines.append(t.pgettext("text board", "key: ▶ to play  [A1] an insect's number on the field (its owner and "
                                          "order of arrival)  ? a card not seen"))
    return "\n".join(lines)


def vocabulary(header: Mapping[str, Any]) -> list[str]:
    try:
        catalog = header_catalog(header)
    except CatalogError:
        catalog = load_catalog(None)
    words = set(catalog.cards)
    for card in catalog.cards.values():
        words.update(t.name for t in card.techniques)
    words.update(MOVE_TYPES)
    words.add("player")
    return sorted(words)


# --- notation: a move as its players say it, read from the board before it ---------------

_KINDS_JA = {"insect": "虫を場に出す", "enhance": "強化", "spell": "術"}


def _insect_name(board: Board, ref: Any) -> str:
    """An insect by its card name; the uid beside it only when the name is ambiguous."""
    ins = find_insect(board, ref)
    if ins is None:
        return str(ref)
    if sum(1 for i in board.field if i.card == ins.card) > 1:
        return f"{ins.card}[{ins.uid}]"
    return ins.card


def _names(values: Any) -> list[str]:
    if isinstance(values, list | tuple):
        return [str(v) if v is not None else "?" for v in values]
    return [] if values is None else [str(values)]


def _setup(board: Board, m: Move, ja: bool) -> str:
    who = board.name(m["by"])
    hand = _names(m.get("hand"))
    shown = f" ({', '.join(hand)})" if any(h != "?" for h in hand) else ""
    if ja:
        return f"{who} ゲームの準備: 縄張り{TERRITORY}枚、手札{OPENING_HAND}枚{shown}"
    return f"{who} sets up: {TERRITORY} territory cards, a hand of {OPENING_HAND}{shown}"


def _draw(board: Board, m: Move, ja: bool) -> str:
    who, card = board.name(m["by"]), m.get("card")
    side = next((s for s in board.sides if s.id == m["by"]), None)
    if side is not None and side.deck <= 0:
        return f"{who} ドロー (山札切れ)" if ja else f"{who} draws from an empty deck (deck-out)"
    if ja:
        return f"{who} ドロー: {card}" if card else f"{who} ドロー (非公開)"
    return f"{who} draws {card}" if card else f"{who} draws a card (unseen)"


def _set(board: Board, m: Move, ja: bool) -> str:
    who = board.name(m["by"])
    side = next((s for s in board.sides if s.id == m["by"]), None)
    feed = (len(side.feed) if side else 0) + 1
    if ja:
        return f"{who} エサをセット: {m['card']} (エサ場{feed}枚)"
    return f"{who} sets {m['card']} as food (feed: {feed})"


def _play(board: Board, m: Move, ja: bool) -> str:
    who, name = board.name(m["by"]), m["card"]
    card = board.card(name)
    target = _insect_name(board, m["target"]) if m.get("target") is not None else None
    cost = f" (コスト{card.cost})" if card and ja else f" (cost {card.cost})" if card else ""
    if card is None:
        on = (f" → {target}" if ja else f" on {target}") if target else ""
        return f"{who} カードを使用: {name}{on}" if ja else f"{who} plays {name}{on}"
    if ja:
        on = f" → {target}" if target else ""
        return f"{who} {_KINDS_JA[card.kind]}: {name}{on}{cost}"
    if card.kind == "insect":
        return f"{who} plays the insect {name}{cost}"
    if card.kind == "enhance":
        return f"{who} enhances {target or '(no insect)'} with {name}{cost}"
    on = f" on {target}" if target else ""
    return f"{who} casts the spell {name}{on}{cost}"


def _direct_wins(board: Board, defender: str) -> bool:
    """MJ-7.1 / MJ-5.10: a direct attack at territory 0 wins, unless only flipping opened it."""
    if present(board, defender):
        return False
    flipped = any(i.owner == defender for i in board.field)
    return not flipped or bool(board.rule("flip_direct_win"))


def _attack(board: Board, m: Move, ja: bool) -> str:
    by = m["by"]
    who = board.name(by)
    attacker = find_insect(board, m["attacker"], by)
    att = attacker.card if attacker else str(m["attacker"])
    if attacker and sum(1 for i in board.field if i.card == attacker.card) > 1:
        att = f"{attacker.card}[{attacker.uid}]"
    tech = m["technique"]
    seen = m.get("territory_card")
    if m["target"] == "player":
        defender = board.opponent(by) if by in board.order else ""
        left = board.side(defender).territory if defender else None
        wins = left == 0 and _direct_wins(board, defender)
        if ja:
            after = f" (縄張り{left}→{left - 1})" if left else " (縄張り0)" if left == 0 else ""
            after += " 勝利" if wins else ""
            took = f" 縄張りから: {seen}" if seen else ""
            return f"{who}: {att}({tech})→{board.name(defender)} 直接攻撃{after}{took}"
        after = f" (territory {left}→{left - 1})" if left else " (territory 0)" if left == 0 else ""
        after += ", wins" if wins else ""
        took = f", territory card {seen}" if seen else ""
        return f"{who}: {att} ({tech}) attacks {board.name(defender)} directly{after}{took}"
    target = find_insect(board, m["target"], board.opponent(by) if by in board.order else None)
    tgt = _insect_name(board, m["target"]) if target else str(m["target"])
    detail = ""
    if attacker is not None and target is not None:
        value = attack_value(board, attacker, tech, target)
        double = beats(board, colour_of(board, attacker), colour_of(board, target))
        killed = target.damage + value >= max_hp(board, target)
        if ja:
            detail = f" {value}ダメージ" + (" (3すくみ2倍)" if double else "")
            detail += " 破壊" if killed else ""
        else:
            detail = f", {value} damage" + (" (colour advantage x2)" if double else "")
            detail += ", destroyed" if killed else ""
    if ja:
        took = f" 縄張りから: {seen}" if seen else ""
        return f"{who}: {att}({tech})→{tgt} 攻撃{detail}{took}"
    took = f", territory card {seen}" if seen else ""
    return f"{who}: {att} ({tech}) attacks {tgt}{detail}{took}"


_FROM_JA = {"hand": "手札", "deck": "山札", "discard": "捨て札"}
_FROM_EN = {"hand": "hand", "deck": "deck", "discard": "discard pile"}


def _effect_phrases(board: Board, m: Move, ja: bool) -> list[str]:
    out: list[str] = []
    pid = m.get("player", m["by"])
    whose = board.name(pid)
    damage, boost = m.get("damage"), m.get("boost")
    damage = damage if isinstance(damage, Mapping) else {}
    boost = boost if isinstance(boost, Mapping) else {}
    for ref, amount in damage.items():
        name = _insect_name(board, ref)
        out.append(f"{name}に{amount}ダメージ" if ja else f"{amount} damage to {name}")
    for ref, amount in boost.items():
        name = _insect_name(board, ref)
        out.append(f"{name}の攻撃力+{amount}" if ja else f"{name} attack +{amount}")
    verbs = {
        "destroy": ("{}を破壊", "destroys {}"),
        "bounce": ("{}を手札に戻す", "returns {} to its owner's hand"),
        "flip": ("{}をターン終了時まで裏返す", "flips {} face down until end of turn"),
    }
    for key, (vja, ven) in verbs.items():
        for ref in _names(m.get(key)):
            out.append((vja if ja else ven).format(_insect_name(board, ref)))
    draw, territory = m.get("draw"), m.get("territory")
    if draw:
        out.append(f"{whose}が{draw}枚ドロー" if ja else f"{whose} draws {draw}")
    if territory:
        out.append(
            f"{whose}が縄張りから{territory}枚手札に"
            if ja
            else f"{whose} takes {territory} territory card(s) into hand"
        )
    discard, feed = _names(m.get("discard")), _names(m.get("feed_discard"))
    if discard:
        cards = ", ".join(discard)
        out.append(f"{whose}が手札の{cards}を捨てる" if ja else f"{whose} discards {cards}")
    if feed:
        cards = ", ".join(feed)
        out.append(
            f"{whose}がエサ場の{cards}を捨てる" if ja else f"{whose} discards {cards} from the feed"
        )
    summon = _names(m.get("summon"))
    if summon:
        source = str(m.get("from", "hand"))
        cards = ", ".join(summon)
        if ja:
            out.append(f"{_FROM_JA.get(source, source)}から{cards}を場に出す")
        else:
            out.append(f"puts {cards} onto the field from the {_FROM_EN.get(source, source)}")
    return out


def _effect(board: Board, m: Move, ja: bool) -> str:
    who = board.name(m["by"])
    source = str(m["card"])
    if isinstance(m.get("technique"), str):
        source += f"({m['technique']})" if ja else f" ({m['technique']})"
    phrases = _effect_phrases(board, m, ja)
    text = m.get("text") if isinstance(m.get("text"), str) else ""
    if ja:
        what = "、".join(phrases) or text
        return f"{who}: {source}の効果" + (f": {what}" if what else "")
    what = ", ".join(phrases) or text
    return f"{who}: effect of {source}" + (f": {what}" if what else "")


def _reveal(board: Board, m: Move, ja: bool) -> str:
    who, cards = board.name(m["by"]), ", ".join(_names(m.get("cards")))
    return f"{who} 手札を公開: {cards}" if ja else f"{who} reveals {cards}"


def _end_turn(board: Board, m: Move, ja: bool) -> str:
    who = board.name(m["by"])
    return f"{who} ターンエンド" if ja else f"{who} ends the turn"


_DESCRIBE = {
    "setup": _setup,
    "draw": _draw,
    "set": _set,
    "play": _play,
    "attack": _attack,
    "effect": _effect,
    "reveal": _reveal,
    "end_turn": _end_turn,
}


def describe(board: Board, move: Move, lang: str = "ja") -> str:
    """The move as its players say it, read from ``board`` (the board before the move):
    「山田: カブトムシ(つのでつく)→タガメ 攻撃 600ダメージ」. ``lang`` "ja" (default) or "en".
    Pure; never raises on a structurally valid move, legal or not."""
    fn = _DESCRIBE.get(str(move.get("type")))
    if fn is None:
        return str(move.get("type"))
    return fn(board, move, lang != "en")
