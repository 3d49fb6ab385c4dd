"""What a person reads: the board JSON, the terminal drawing (VW-1 geometry), the names a
scorekeeper types, and the notation of a move."""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from typing import Any

from projections.base import ENGLISH, Move, Words
from projections.variants_war import catalog

from projections.package import freeze
from projections.variants_war.apply import ACTION_APPLY
from projections.variants_war.board import (
    CENTRE,
    COLS,
    LOCKON,
    Board,
    SQUARES,
    Monster,
    back_kind,
    battle_value,
    facing,
    field_row,
    is_field,
    master_kind,
    row,
    stat,
)

ZONE_JA = {"sortie": "出撃", "retreat": "撤退", "field": "自陣戦場", "common": "共通戦場"}


def monster_json(board: Board, sq: str, m: Monster) -> dict[str, Any]:
    return {
        "square": sq, "card": m.card, "owner": m.owner, "source": m.source,
        "position": m.position, "orientation": "vertical" if m.position != "defence" else "horizontal",
        "facing": facing(board, m), "atk": stat(board, m, "atk"), "def": stat(board, m, "def"),
        "moved": m.moves > 0, "acted": m.acted, "turned": m.turned,
        "statuses": [s for s, until in m.statuses if board.turn <= until],
    }


def zones_json(board: Board) -> list[dict[str, Any]]:
    out = []
    lock = {sq: n for n, sq in LOCKON.items()} if board.arctos else {}
    for r in range(5):
        for c in COLS:
            sq = f"{c}{r}"
            kind = back_kind(sq) or ("common" if r == 2 else "field")
            owner = None if r == 2 else board.players[0 if r < 2 else 1].id
            out.append({"square": sq, "zone": kind, "zone_ja": ZONE_JA[kind], "owner": owner,
                        "lockon": lock.get(sq), "sealed": any(s == sq for s, _ in board.sealed)})
    return out


def player_json(board: Board, pid: str) -> dict[str, Any]:
    p = board.player(pid)
    return {
        "name": p.name or p.id, "life": p.life, "seat": p.seat, "faction": p.faction,
        "hand": len(p.hand), "hand_known": [h.card for h in p.hand if h.card],
        "deck": len(p.deck.cards), "deck_bottom_known": [c for c in p.deck.cards if c],
        "ex": list(p.ex), "aces_gone": list(p.gone), "picks": list(p.picks),
        "monsters": [monster_json(board, sq, m) for sq, m in board.squares if m.owner == pid],
    }


def public_board_json(board: Mapping[str, Any], seen: frozenset[str] = frozenset()) -> dict[str, Any]:
    """``board_json`` while the event's deck lists are closed (projections/secrecy.py): the EX
    deck (the aces not played) shows only what the lines have named; the rest of it is the
    list, withheld, its count kept (``ex_hidden``)."""
    out = dict(board)
    players = {}
    for pid, p in (board.get("players") or {}).items():
        ex = list(p.get("ex") or [])
        shown = [c for c in ex if c in seen]
        players[pid] = dict(p, ex=shown, ex_hidden=len(ex) - len(shown))
    out["players"] = players
    return out


def board_json(board: Board) -> dict[str, Any]:
    arctos = None
    if board.arctos:
        arctos = {"square": CENTRE, "facing": board.arctos.facing, "damage": board.arctos.damage,
                  "since": board.arctos.since, "lockon": {str(n): sq for n, sq in LOCKON.items()}}
    return {
        "turn": board.turn, "active": board.active, "phase": board.phase,
        "players": {p.id: player_json(board, p.id) for p in board.players},
        "zones": zones_json(board),
        "monsters": [monster_json(board, sq, m) for sq, m in board.squares],
        "arctos": arctos, "arctos_destroyed": board.arctos_destroyed,
        "rescue_deck": len(board.rescue.cards), "magic_deck": len(board.magic.cards),
        "actions_used": sorted(board.used),
        "draft_left": list(board.draft_pool),
    }


def phases(t: Words) -> dict[str, str]:
    """The phases as the players say them (the HTML board's words too: exports/boards/common.py)."""
    return {"draft": t.pgettext("variants-war phase", "draft"), "setup": t.pgettext("variants-war phase", "setup"),
            "draw": t.pgettext("variants-war phase", "draw"), "standby": t.pgettext("variants-war phase", "standby"),
            "main": t.pgettext("variants-war phase", "main"), "battle": t.pgettext("variants-war phase", "battle"),
            "master": t.pgettext("variants-war phase", "master"), "over": t.pgettext("variants-war phase", "over")}


def rows(t: Words) -> dict[int, str]:
    back, field, common = (t.pgettext("text board", "back row"), t.pgettext("text board", "own field"),
                           t.pgettext("text board", "common"))
    return {0: back, 1: field, 2: common, 3: field, 4: back}


def actions(t: Words) -> dict[str, str]:
    return {"move": t.pgettext("vw action", "move"), "effect": t.pgettext("vw action", "normal effect"),
            "position": t.pgettext("vw action", "position change")}


def reasons(t: Words) -> dict[str, str]:
    return {"life": t.pgettext("text board", "life 0"), "double_life": t.pgettext("text board", "both at life 0")}


def marks(board: Board) -> dict[str, str]:
    """One character per player for the grid: the first of the name when the players' differ."""
    firsts = {p.id: (p.name or p.id)[:1] for p in board.players}
    if len(set(firsts.values())) == len(firsts):
        return firsts
    return {p.id: p.id[:2] for p in board.players}


def _cell(board: Board, sq: str, mark: dict[str, str], t: Words) -> str:
    if board.arctos and sq == CENTRE:
        arrow = "v" if board.seat(board.arctos.facing) == 0 else "^"
        return t.pgettext("text board", "Arctos{arrow}{damage}").format(arrow=arrow, damage=board.arctos.damage)
    m = board.at(sq)
    if m is None:
        if any(s == sq for s, _ in board.sealed):
            return t.pgettext("text board", "(sealed)")
        if not is_field(sq):
            return t.pgettext("text board", "(sortie)") if back_kind(sq) == "sortie" else t.pgettext("text board", "(retreat)")
        n = {v: k for k, v in LOCKON.items()}.get(sq) if board.arctos else None
        return f"[{n}]" if n else "."
    pos = {"attack": "|", "defence": "-", None: " "}[m.position]
    arrow = "^" if facing(board, m) == "north" else "v"
    return f"{mark.get(m.owner, m.owner)}{arrow}{pos}{short(m.card)}"


def short(name: str) -> str:
    """A short label: the part after the last '－' (東雲, バロン), else the first 5 characters."""
    return name.rsplit("－", 1)[-1][:5]


def render_text(board: Board, t: Words = ENGLISH) -> str:
    """The board for the terminal, its words through ``t`` (English without one): the second
    seat on top, a legend at the foot."""
    top, bottom = board.players[1], board.players[0]
    mark = marks(board)
    if board.phase == "over":
        lines = [t.pgettext("text board", "turn {n}  match over").format(n=board.turn)]
    else:
        lines = [t.pgettext("text board", "turn {n}  to play: {player}  phase: {phase}").format(
            n=board.turn, player=board.name(board.active), phase=phases(t).get(board.phase, board.phase))]
    lines.append(_player_line(board, top.id, t))
    labels = rows(t)
    gap = max(9, *(_width(x) + 1 for x in labels.values()))  # the row names' column
    for r in reversed(range(5)):
        cells = "".join(_pad(_cell(board, f"{c}{r}", mark, t), 16) for c in COLS)
        lines.append(f"{r} {_pad(labels[r], gap)}{cells}".rstrip())
    lines.append(" " * (gap + 2) + "".join(_pad(c, 16) for c in COLS).rstrip())
    lines.append(_player_line(board, bottom.id, t))
    left = [actions(t)[a] for a in ("move", "effect", "position") if a not in board.used]
    lines.append(t.pgettext("text board", "rescue deck {rescue}  magic deck {magic}  actions left: {actions}").format(
        rescue=len(board.rescue.cards), magic=len(board.magic.cards),
        actions=t.pgettext("board", ", ").join(left) or t.pgettext("board", "none")))
    arctos = t.pgettext("board", "Arctos XII")
    if board.arctos:
        lines.append(f"{arctos}: " + t.pgettext("text board", "facing {player}  damage {damage}/6000").format(
            player=board.name(board.arctos.facing), damage=board.arctos.damage))
    elif board.arctos_destroyed:
        lines.append(f"{arctos}: " + t.pgettext("board", "destroyed (no master phase)"))
    if board.winner or board.reason:
        reason = reasons(t).get(str(board.reason), board.reason)
        if board.winner:
            lines.append(t.pgettext("text board", "result: {name} wins ({reason})").format(
                name=board.name(board.winner), reason=reason))
        else:
            lines.append(t.pgettext("text board", "result: a draw ({reason})").format(reason=reason))
    who = " ".join(f"{mark[p.id]}={p.name or p.id}" for p in board.players)
    lines.append(t.pgettext(
        "text board", "key: {players}  ^v=facing  |=attack position -=defence position  [n]=lock-on square  "
        "(sortie)=sortie zone  (retreat)=retreat zone  (sealed)=sealed  ?=not seen").format(players=who))
    return "\n".join(lines)


def _player_line(board: Board, pid: str, t: Words) -> str:
    p = board.player(pid)
    known = f" ({', '.join(h.card or '?' for h in p.hand)})" if p.hand else ""
    ex = f" ({', '.join(p.ex)})" if p.ex else ""
    return t.pgettext("text board", "{name} ({faction})  life {life}  deck {deck}  hand {hand}{cards}  EX deck {ex}{aces}").format(
        name=p.name or p.id, faction=p.faction, life=p.life, deck=len(p.deck.cards), hand=len(p.hand), cards=known,
        ex=len(p.ex), aces=ex)


def _width(text: str) -> int:
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def _pad(text: str, width: int) -> str:
    return text + " " * max(1, width - _width(text))


def vocabulary(header: Mapping[str, Any]) -> list[str]:
    """Names a scorekeeper types: cards, squares, dice values, positions and effect kinds."""
    words = list(catalog.cards()) + list(SQUARES) + [str(n) for n in range(1, 9)]
    return words + ["attack", "defence", "normal", "lateral", "special", "heads", "tails"]


# --- notation ---------------------------------------------------------------------------------
# The move as players say it, read from the board before it: Japanese game terms as the seed
# uses them ("ja"), plain English ("en"). Card names are the catalog's (they are proper names).
WORDS: dict[str, dict[str, str]] = {
    "ja": {
        "draft": "ドラフト", "draw": "ドロー", "unseen": "(非公開)", "reveal": "公開", "set": "出撃ゾーンにセット",
        "magic": "魔法", "position": "表示形式変更", "attack": "攻撃表示", "defence": "守備表示",
        "normal": "通常効果", "lateral": "横移動効果", "special": "特殊効果", "battle": "戦闘",
        "destroyed": "破壊", "none_destroyed": "破壊なし", "retreat": "撤退ゾーンへ", "breakthrough": "敵陣突破",
        "damage": "{name}に1ダメージ", "master": "マスターフェイズ", "arctos": "アルクトスXII出現",
        "lockon": "ロックオン", "no_hit": "ロックオンマスは空", "end_turn": "ターン終了",
        "sortie": "出撃", "withdraw": "自陣の後列へ", "invade": "敵陣侵入", "common": "共通戦場へ",
        "sideways": "横移動", "granted": "行動権を使わない移動", "nothing": "モンスターなし",
        "deck": "デッキ", "rescue": "救援デッキ", "magic_deck": "魔法デッキ", "hand": "手札", "atk": "攻",
        "def": "守", "then": "、", "sum": "合計", "and": "・",
    },
    "en": {
        "draft": "drafts", "draw": "draws", "unseen": "(unseen)", "reveal": "reveals", "set": "sets in the sortie zone",
        "magic": "casts", "position": "changes position", "attack": "attack", "defence": "defence",
        "normal": "normal effect", "lateral": "lateral-move effect", "special": "special effect", "battle": "battle",
        "destroyed": "destroyed", "none_destroyed": "none destroyed", "retreat": "to the retreat zone",
        "breakthrough": "breaks through", "damage": "1 damage to {name}", "master": "master phase",
        "arctos": "Arctos XII appears", "lockon": "lock-on ", "no_hit": "lock-on squares empty",
        "end_turn": "ends the turn", "sortie": "sortie", "withdraw": "back to own back row",
        "invade": "into the enemy zone", "common": "into the common battlefield", "sideways": "sideways",
        "granted": "granted move, no action used", "nothing": "no monster", "deck": "deck",
        "rescue": "rescue deck", "magic_deck": "magic deck", "hand": "hand", "atk": "ATK ", "def": "DEF ",
        "then": "; ", "sum": "total ", "and": ", ",
    },
}
STAT = {"ja": {"atk": "攻撃力", "def": "守備力", "both": "攻撃力・守備力"},
        "en": {"atk": "ATK", "def": "DEF", "both": "ATK/DEF"}}
UNTIL = {"ja": {"turn_end": "ターン終了時まで", "next_turn_end": "次のターン終了時まで",
                "owner_next_turn_end": "持ち主の次のターン終了時まで", "permanent": "永続"},
         "en": {"turn_end": "until end of turn", "next_turn_end": "until the end of next turn",
                "owner_next_turn_end": "until the end of its owner's next turn", "permanent": "permanently"}}
STATUS = {"ja": {"no_action": "メインフェイズの行動不可", "no_effect": "効果の発動不可", "no_position": "表示形式変更不可",
                 "immune": "相手の効果を受けない", "diagonal": "斜めに移動可", "extra_move": "追加で1回移動可",
                 "revenge": "戦闘で破壊した相手も破壊"},
          "en": {"no_action": "cannot act in the main phase", "no_effect": "cannot use effects",
                 "no_position": "cannot change position", "immune": "unaffected by the opponent's effects",
                 "diagonal": "may move diagonally", "extra_move": "may move once more",
                 "revenge": "takes the monster that destroys it in battle along"}}
COIN = {"ja": {"heads": "表", "tails": "裏"}, "en": {"heads": "heads", "tails": "tails"}}


def _card(board: Board, sq: Any) -> str:
    m = board.at(sq) if isinstance(sq, str) else None
    return f"{m.card}({sq})" if m else str(sq)


def _pile_word(w: dict[str, str], name: Any) -> str:
    return {"deck": w["deck"], "rescue": w["rescue"], "magic": w["magic_deck"]}.get(str(name), str(name))


def _list(value: Any) -> list[Any]:
    return list(value) if isinstance(value, (list, tuple)) else []


def _text(value: Any) -> str:
    """A field value as plain text (never a raw list or dict)."""
    if isinstance(value, (list, tuple)):
        return "・".join(_text(v) for v in value)
    if isinstance(value, dict):
        return " ".join(f"{k} {_text(v)}" for k, v in value.items())
    return "?" if value is None else str(value)


def action_text(board: Board, act: Any, by: str, lang: str) -> str:
    """One effect action as a short phrase, its squares named by the monsters standing there."""
    if not isinstance(act, dict):
        return _text(act)
    ja, w, do = lang == "ja", WORDS[lang], act.get("do")
    player = board.name(act.get("player") or by)
    if do == "move":
        return f"{_card(board, act.get('from'))}を{act.get('to')}へ移動" if ja else \
            f"move {_card(board, act.get('from'))} to {act.get('to')}"
    if do == "swap":
        return f"{_card(board, act.get('a'))}と{_card(board, act.get('b'))}を入れ替え" if ja else \
            f"swap {_card(board, act.get('a'))} and {_card(board, act.get('b'))}"
    if do in ("destroy", "bounce", "to_deck"):
        target = _card(board, act.get("square"))
        if ja:
            return target + {"destroy": "を破壊", "bounce": "を手札に戻す", "to_deck": "をデッキに戻す"}[do]
        return {"destroy": "destroy ", "bounce": "return to hand: ", "to_deck": "back to the deck: "}[do] + target
    if do == "draw":
        card = act.get("card")
        got = f": {card}" if card else ""
        return f"{player}が{_pile_word(w, act.get('pile'))}から1枚ドロー{got}" if ja else \
            f"{player} draws from the {_pile_word(w, act.get('pile'))}{got}"
    if do == "return":
        return f"手札の{_text(act.get('card'))}を{_pile_word(w, act.get('pile'))}の一番下へ" if ja else \
            f"{_text(act.get('card'))} from hand to the bottom of the {_pile_word(w, act.get('pile'))}"
    if do in ("place", "summon"):
        src = (w["deck"] if act.get("from") == "deck" else w["hand"]) if do == "place" else "EX"
        if ja:
            return f"{_text(act.get('card'))}を{act.get('to')}に" + ("置く" if do == "place" else "呼び出す") + f"({src}から)"
        return ("place " if do == "place" else "summon ") + f"{_text(act.get('card'))} on {act.get('to')} (from {src})"
    if do == "position":
        return f"{_card(board, act.get('square'))}の表示形式を変更" if ja else f"change the position of {_card(board, act.get('square'))}"
    if do == "modify":
        stat = STAT[lang].get(str(act.get("stat")), _text(act.get("stat")))
        op, amount = act.get("op"), act.get("amount")
        change = {"add": f"{'+' if not str(amount).startswith('-') else ''}{_text(amount)}",
                  "halve": "半減" if ja else "halved", "set": f"={_text(amount)}"}.get(str(op), _text(op))
        until = UNTIL[lang].get(str(act.get("until") or "turn_end"), _text(act.get("until")))
        return f"{_card(board, act.get('square'))} {stat}{change} ({until})"
    if do == "status":
        status = STATUS[lang].get(str(act.get("status")), _text(act.get("status")))
        until = UNTIL[lang].get(str(act.get("until") or "turn_end"), _text(act.get("until")))
        return f"{_card(board, act.get('square'))}: {status} ({until})"
    if do == "lose_life":
        n = _text(act.get("amount", 1))
        return f"{player}のライフ-{n}" if ja else f"{player} loses {n} life"
    if do == "coin":
        face = COIN[lang].get(str(act.get("result")), _text(act.get("result")))
        return f"コイントス: {face}" if ja else f"coin toss: {face}"
    if do == "die":
        return f"サイコロ: {_text(act.get('result'))}" if ja else f"die roll: {_text(act.get('result'))}"
    if do == "seal_zone":
        return f"{act.get('square')}を封印" if ja else f"seal {act.get('square')}"
    return _text(do)


def actions_text(board: Board, move: Move, lang: str) -> str:
    """The actions of a line in order, each read on the board the earlier ones left."""
    freeze()  # the actions are folded on a what-if copy: the board given stays as it is
    phrases = []
    by = str(move.get("by"))
    ids = {p.id for p in board.players}
    acts = move.get("actions")
    for act in acts if isinstance(acts, list) else ():
        phrases.append(action_text(board, act, by, lang))
        fn = ACTION_APPLY.get(str(act.get("do"))) if isinstance(act, dict) else None
        if fn is not None and act.get("player", by) in ids:
            board = fn(board, act, by)
    return WORDS[lang]["then"].join(phrases)


def _move_note(board: Board, move: Move, w: dict[str, str]) -> str:
    src, dst = str(move.get("from")), str(move.get("to"))
    m = board.at(src)
    if m is None or dst not in SQUARES:
        return w["nothing"]
    notes = []
    if m.extra_moves > 0:
        notes.append(w["granted"])
    seat = board.seat(m.owner)
    if not is_field(src) and is_field(dst):
        notes.append(w["sortie"])
    elif is_field(src) and not is_field(dst):
        notes.append(w["withdraw"])
    elif row(dst) == field_row(1 - seat) and row(src) != row(dst):
        notes.append(w["invade"])
    elif row(dst) == 2 and row(src) != 2:
        notes.append(w["common"])
    if row(src) == row(dst) and src != dst:
        notes.append(w["sideways"])
    return w["and"].join(notes)


def _fighter(board: Board, sq: str, other: str, w: dict[str, str]) -> str:
    m = board.at(sq)
    if m is None:
        return f"{sq}: {w['nothing']}"
    which, value = battle_value(board, sq, other)
    return f"{m.card}({sq} {w[which]}{value})"


def describe(board: Board, move: Move, lang: str = "ja") -> str:
    """The move as its players say it, read from the board before it, e.g.
    「山田 ヴァリアンツの忍者－南月 b0→b1 (出撃)」. Pure; never raises on a structurally valid move."""
    lang = lang if lang in WORDS else "ja"
    ja, w = lang == "ja", WORDS[lang]
    kind, by = move.get("type"), move.get("by")
    who = board.name(by)
    card = _text(move.get("card"))
    if kind == "draft":
        return f"{who} {w['draft']}: {card}"
    if kind == "draw":
        got = f": {move['card']}" if move.get("card") else f" {w['unseen']}"
        return f"{who} {w['draw']}{got}"
    if kind == "reveal":
        return f"{who} {w['reveal']}: {card}"
    if kind == "set":
        return f"{who} {w['set']}: {card} ({move.get('to')})" if ja else f"{who} {w['set']} {move.get('to')}: {card}"
    if kind == "magic":
        done = actions_text(board, move, lang)
        return f"{who} {w['magic']}: {card}" + (f" — {done}" if done else "")
    if kind == "move":
        src, dst = move.get("from"), move.get("to")
        m = board.at(src)
        note = _move_note(board, move, w)
        return f"{who} {m.card if m else '?'} {src}→{dst}" + (f" ({note})" if note else "")
    if kind == "position":
        sq = move.get("square")
        m = board.at(sq)
        if m is None or m.position is None:
            return f"{who} {w['position']}: {_card(board, sq)}"
        new = "defence" if m.position == "attack" else "attack"
        return f"{who} {m.card}({sq}) {w['position']}: {w[m.position]}→{w[new]}"
    if kind == "effect":
        effect = w.get(str(move.get("kind")), _text(move.get("kind")))
        done = actions_text(board, move, lang)
        sq = move.get("square")
        where = f"({sq})" if sq else ""
        return f"{who} {card}{where} {effect}" + (f": {done}" if done else "")
    if kind == "battle":
        return _battle_text(board, move, w)
    if kind == "breakthrough":
        squares = _list(move.get("squares"))
        names = w["and"].join(_card(board, sq) for sq in squares) or "—"
        damage = w["damage"].format(name=board.name(board.other(str(by))) if by in {p.id for p in board.players} else "?")
        return f"{who} {w['breakthrough']}: {names} → {damage}" + (f" ×{len(squares)}" if len(squares) > 1 else "")
    if kind == "master":
        return f"{who} {w['master']}: " + _master_text(board, move, w)
    if kind == "end_turn":
        return f"{who} {w['end_turn']}"
    return f"{who} {_text(kind)}"


def _battle_text(board: Board, move: Move, w: dict[str, str]) -> str:
    squares = _list(move.get("squares"))
    if len(squares) != 2:
        return f"{w['battle']}: {_text(squares)}"
    a, b = squares
    destroyed = [sq for sq in _list(move.get("destroyed")) if isinstance(sq, str)]
    retreat = set(_list(move.get("retreat")))
    lost = w["and"].join(_card(board, sq).split("(")[0] + (f"({w['retreat']})" if sq in retreat else "")
                     for sq in destroyed)
    result = f"{lost} {w['destroyed']}" if lost else w["none_destroyed"]
    return f"{w['battle']}: {_fighter(board, a, b, w)} × {_fighter(board, b, a, w)} → {result}"


def _master_text(board: Board, move: Move, w: dict[str, str]) -> str:
    dice = [d for d in _list(move.get("dice")) if isinstance(d, int)]
    rolled = w["and"].join(map(str, dice)) + f" ({w['sum']}{sum(dice)})"
    kind = master_kind(board)
    if kind == "summon" and sum(dice) == 12:
        return f"{rolled} → {w['arctos']}!"
    if kind == "lockon":
        hits = [f"{w['lockon']}{n}({LOCKON[n]}) {_card(board, LOCKON[n]).split('(')[0]}"
                for n in sorted(set(dice)) if n in LOCKON and board.at(LOCKON[n])]
        return f"{rolled} → " + ((w["and"].join(hits) + f" {w['destroyed']}") if hits else w["no_hit"])
    return rolled
