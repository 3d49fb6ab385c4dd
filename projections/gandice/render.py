"""Board JSON, the terminal board, and the names a scorekeeper types."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from projections.base import ENGLISH, Move, Words
from projections.gandice.board import Battle, Board, Die, Player, Side
from projections.gandice.apply import is_zenkai, stand_triggers
from projections.gandice.catalog import (
    FACE_EN,
    FACE_JA,
    STATE_EN,
    STATE_JA,
    base_name,
    catalog,
    custom_specs,
    face_of,
    roll_value,
)


def die_json(d: Die) -> dict[str, Any]:
    out: dict[str, Any] = {"name": d.label, "kind": d.kind, "kin": d.kin, "zone": d.zone}
    if d.kind == "character":
        out["state"] = d.state
    if d.unit:
        out["fusion"] = d.unit
    if d.evolved_from:
        out["evolved_from"] = d.evolved_from
    if d.origin:
        out["origin"] = d.origin
    return out


def player_json(p: Player) -> dict[str, Any]:
    return {
        "name": p.name,
        "deck": p.deck_name,
        "alive": p.alive,
        "dice": [die_json(d) for d in p.dice],
        "summoned": [d.label for d in p.characters if d.state == "summoned"],
        "half_summoned": [d.label for d in p.characters if d.state == "half"],
        "unsummoned": [d.label for d in p.characters if d.state == "unsummoned"],
        "items": [d.label for d in p.dice if d.kind != "character" and d.in_play],
        "graveyard": [d.label for d in p.graveyard],
        "used_items": [d.label for d in p.graveyard if d.kind != "character"],
        "evolution": [e.label for e in p.evolution],
        "kofuda": list(p.kofuda),
        "kofuda_used": list(p.kofuda_used),
    }


def public_player_json(p: Mapping[str, Any], seen: frozenset[str] = frozenset()) -> dict[str, Any]:
    """A player's board while the event's deck lists are closed (projections/secrecy.py): the
    dice that were played (summoned, half-summoned, in the graveyard, evolved, fused) and the
    小札 used stay; the rest of the list is withheld, its count kept (``hidden``)."""
    shown = [d for d in p.get("dice") or []
             if d.get("name") in seen or d.get("state") in ("summoned", "half") or d.get("zone") == "graveyard"
             or d.get("evolved_from") or d.get("fusion")]
    out = dict(p)
    out.update(dice=shown, hidden=len(p.get("dice") or []) - len(shown), unsummoned=[],
               items=[n for n in p.get("items") or [] if any(d["name"] == n for d in shown)],
               evolution=[], kofuda=[n for n in p.get("kofuda") or [] if n in (p.get("kofuda_used") or []) or n in seen])
    return out


def public_board_json(board: Mapping[str, Any], seen: frozenset[str] = frozenset()) -> dict[str, Any]:
    """``board_json`` as the public sees it while the deck lists are closed (``seen``: the names
    the lines so far have named, public too)."""
    out = dict(board)
    out["players"] = {pid: public_player_json(p, seen) for pid, p in (board.get("players") or {}).items()}
    return out


def side_json(s: Side) -> dict[str, Any]:
    return {
        "player": s.player,
        "die": s.die,
        "face": s.face or None,
        "value": s.value,
        "items": s.items,
        "total": s.value + s.items,
        "fused": s.fused,
    }


def battle_json(b: Battle | None) -> dict[str, Any] | None:
    if b is None:
        return None
    return {"step": b.step, "attack": side_json(b.attack), "defence": side_json(b.defence)}


def board_json(board: Board) -> dict[str, Any]:
    return {
        "turn": board.turn,
        "active": board.active,
        "phase": board.phase,
        "order": list(board.order),
        "players": {p.id: player_json(p) for p in board.players},
        "battle": battle_json(board.battle),
        "last_battle": board.last.to_json() if board.last else None,
        "evolution_challenge": list(board.evolve_ok) if board.evolve_ok else None,
        "pending_split": list(board.pending_split) if board.pending_split else None,
        "house_rules": dict(board.house),
    }


# The game's own vocabulary by the board's codes, in the reader's language (``t``: the catalog,
# exports/locale). The HTML board (exports/boards/gandice.py) says them with these same tables.
def faces(t: Words) -> dict[str, str]:
    return {"stand": t.pgettext("die face", "stand"), "handstand": t.pgettext("die face", "handstand"),
            "side": t.pgettext("die face", "side"), "special": t.pgettext("die face", "special"),
            "normal": t.pgettext("die face", "normal")}


def states(t: Words) -> dict[str, str]:
    return {"summoned": t.pgettext("die state", "summoned"), "half": t.pgettext("die state", "half-summoned"),
            "unsummoned": t.pgettext("die state", "unsummoned")}


def kinds(t: Words) -> dict[str, str]:
    return {"character": t.pgettext("die kind", "character"), "curse": t.pgettext("die kind", "curse"),
            "weapon": t.pgettext("die kind", "weapon")}


def steps(t: Words) -> dict[str, str]:
    return {"defend": t.pgettext("battle step", "waiting for the defender's roll"),
            "attacker_item": t.pgettext("battle step", "waiting for the attacker's item"),
            "defender_item": t.pgettext("battle step", "waiting for the defender's item"),
            "judge": t.pgettext("battle step", "judging")}


def winners(t: Words) -> dict[str, str]:
    return {"attacker": t.pgettext("battle winner", "the attacker wins"),
            "defender": t.pgettext("battle winner", "the defender wins"),
            "tie": t.pgettext("battle winner", "a tie"), "failed": t.pgettext("battle winner", "the attack failed")}


def reasons(t: Words) -> dict[str, str]:
    return {"attack_side": t.pgettext("battle reason", "the attacker lay on its side"),
            "attack_upright": t.pgettext("battle reason", "the attacker stood upright (stand or handstand)"),
            "undefended": t.pgettext("battle reason", "unsummoned, so no defence"),
            "defence_side": t.pgettext("battle reason", "the defender lay on its side"),
            "counter": t.pgettext("battle reason", "counter-attack"),
            "higher_total": t.pgettext("battle reason", "decided on the totals"),
            "tie": t.pgettext("battle reason", "equal totals"),
            "all_graveyard": t.pgettext("battle reason", "every opposing character die in the graveyard"),
            "zenkai_summon": t.pgettext("battle reason", "full summon")}


def _die_text(board: Board, p: Player, d: Die, t: Words) -> str:
    notes = [states(t).get(d.state, d.state) if d.kind == "character" else kinds(t).get(d.kind, d.kind)]
    if d.unit:
        notes.append(t.pgettext("board", "fused with {die}").format(die=d.unit) if d.unit != d.label
                     else t.pgettext("board", "fused"))
    if d.origin and d.origin != p.id:
        notes.append(t.pgettext("text board", "from {player}").format(player=_who(board, d.origin)))
    return t.pgettext("text board", "{die} [{notes}]").format(die=d.label, notes=t.pgettext("board", ", ").join(notes))


def _side_text(board: Board, s: Side, t: Words) -> str:
    roll = faces(t).get(s.face, s.face) if s.face else t.pgettext("board", "not rolled")
    return t.pgettext("text board", "{player}'s {die} ({face}) {value}+{items}={total}").format(
        player=_who(board, s.player), die=s.die, face=roll, value=s.value, items=s.items, total=s.value + s.items)


def render_text(board: Board, t: Words = ENGLISH) -> str:
    """The board for the terminal, its words through ``t`` (English without one)."""
    who = _who(board, board.active)
    head = {
        "summon": lambda: t.pgettext("text board", "summoning  next: {player}").format(player=who),
        "battle": lambda: t.pgettext("text board", "turn {n}  attacking: {player}").format(n=board.turn, player=who),
        "over": lambda: t.pgettext("gandice phase", "match over"),
    }[board.phase]()
    game = t.pgettext("text board", "Gandice")
    lines = [f"{game}  {head}"]
    for p in board.players:
        mark = "▶" if p.id == board.active and board.phase != "over" else " "
        lines.append(f"{mark} " + t.pgettext("text board", '{name} ({id}) "{deck}" {n} characters left').format(
            name=p.name or p.id, id=p.id, deck=p.deck_name, n=p.alive))
        dice = " ".join(_die_text(board, p, d, t) for d in p.dice if d.in_play) or "-"
        lines.append("    " + t.pgettext("text board", "deck: {dice}").format(dice=dice))
        gone = " ".join(d.label for d in p.graveyard) or "-"
        lines.append("    " + t.pgettext("text board", "graveyard: {dice}").format(dice=gone))
        if p.evolution:
            evo = " ".join(e.label for e in p.evolution)
            lines.append("    " + t.pgettext("text board", "evolution dice: {dice}").format(dice=evo))
        if p.kofuda:
            left = " ".join(c for c in p.kofuda if c not in p.kofuda_used) or "-"
            if p.kofuda_used:
                left = t.pgettext("text board", "{cards} (used: {used})").format(cards=left, used=" ".join(p.kofuda_used))
            lines.append("    " + t.pgettext("text board", "kofuda: {cards}").format(cards=left))
    if board.battle:
        b = board.battle
        step = t.pgettext("board", "in battle [{step}]").format(step=steps(t).get(b.step, b.step))
        lines.append(f"  {step}: {_side_text(board, b.attack, t)} vs {_side_text(board, b.defence, t)}")
    elif board.last:
        o = board.last
        said = t.pgettext("text board", "{player}'s {die} → {player2}'s {die2}  {winner} ({reason}) {total} vs {total2}")
        last = t.pgettext("board", "last battle")
        lines.append(f"  {last}: " + said.format(
            player=_who(board, o.attacker), die=o.attack_die, player2=_who(board, o.defender), die2=o.defence_die,
            winner=winners(t).get(o.winner, o.winner), reason=reasons(t).get(o.reason, o.reason),
            total=o.attack_total, total2=o.defence_total))
    whose = t.pgettext("board", "{player}'s {die}")
    if board.evolve_ok and board.phase != "over":
        open_ = whose.format(player=_who(board, board.evolve_ok[0]), die=board.evolve_ok[1])
        lines.append("  " + t.pgettext("board", "evolution challenge open") + f": {open_}")
    if board.pending_split:
        split = whose.format(player=_who(board, board.pending_split[0]), die=board.pending_split[1])
        lines.append("  " + t.pgettext("board", "waiting for a split") + f": {split}")
    if board.phase == "over":
        winner = _who(board, board.winner) if board.winner else t.pgettext("board", "none")
        reason = reasons(t).get(board.reason, board.reason)
        lines.append("  " + t.pgettext("text board", "winner: {player} ({reason})").format(player=winner, reason=reason))
    if board.phase != "over":
        lines.append("  ▶ = " + t.pgettext("text board", "the player to play"))
    return "\n".join(lines)


def vocabulary(header: Mapping[str, Any]) -> list[str]:
    words: set[str] = set(catalog())
    for p in header.get("players", []):
        deck = p.get("deck") or {} if isinstance(p, Mapping) else {}
        words.update(str(x) for x in deck.get("cards") or [])
        words.update(str(x) for x in deck.get("evolution") or [])
        words.update(str(x) for x in deck.get("kofuda") or [])
        words.update(custom_specs(deck))
        words.update(base_name(str(x)) for x in deck.get("cards") or [])
    words.update(["立ち", "逆立ち", "横倒し", "特殊目", "通常目", "裏切り"])
    return sorted(words)


# ---------------------------------------------------------------- notation (棋譜の読み)


def _t(value: Any) -> str:
    """Any field as plain text: a name as written, anything else briefly (never raw JSON)."""
    if isinstance(value, str):
        return value
    if value is None:
        return "-"
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return str(value)
    return "?"


def _who(board: Board, pid: Any) -> str:
    """A player's name where the board knows it, else the seat id."""
    p = board.player(pid)
    return p.name if p is not None and p.name else _t(pid)


def _face(face: Any, value: Any, lang: str) -> str:
    canon = face_of(face)
    if canon == "normal" and isinstance(value, int) and not isinstance(value, bool):
        return f"{value}の目" if lang == "ja" else str(value)
    if canon is None:
        return _t(face)
    return FACE_JA[canon] if lang == "ja" else FACE_EN[canon]


def _roll(move: Mapping[str, Any], lang: str) -> str:
    """The roll of a move: one face, or a 核 unit's two dice and their sum."""
    rolls = move.get("rolls")
    if move.get("type") in ("attack", "defend") and isinstance(rolls, list) and rolls:
        parts = [_face(r.get("face"), r.get("value"), lang) if isinstance(r, Mapping) else "?" for r in rolls]
        total = sum(roll_value(face_of(r.get("face")) or "", r.get("value")) for r in rolls if isinstance(r, Mapping))
        return "+".join(parts) + f"={total}"
    return _face(move.get("face"), move.get("value"), lang)


def _list(names: list[str], lang: str) -> str:
    return ("・" if lang == "ja" else ", ").join(names) if names else "-"


def _summon_rolls(rolls: Any, lang: str) -> str:
    if not isinstance(rolls, Mapping) or not rolls:
        return "-"
    gap = "" if lang == "ja" else " "
    return _list([f"{_t(die)}{gap}({_face(f, None, lang)})" for die, f in rolls.items()], lang)


def _summon(board: Board, move: Move, lang: str) -> str:
    name = _who(board, move.get("by"))
    rolls = move.get("rolls")
    every = isinstance(rolls, Mapping) and any(face_of(f) in stand_triggers(board) for f in rolls.values())
    player = board.player(move.get("by"))
    zenkai = player is not None and isinstance(rolls, Mapping) and is_zenkai(player, rolls)
    if lang == "ja":
        what = "眼魔召喚" if move.get("type") == "summon" else "再召喚チャレンジ"
        tail = " → 全開召喚！" if zenkai else (" → 全召喚" if every else "")
        return f"{name} {what}: {_summon_rolls(rolls, lang)}{tail}"
    what = "summons" if move.get("type") == "summon" else "re-summon challenge"
    tail = " → full summon wins" if zenkai else (" → all summoned" if every else "")
    return f"{name} {what}: {_summon_rolls(rolls, lang)}{tail}"


def _target_owner(board: Board, move: Move) -> str | None:
    """The target's owner, when it is worth saying (more than one opponent)."""
    if len(board.players) <= 2:
        return None
    named = move.get("defender")
    if isinstance(named, str):
        return named
    by = move.get("by")
    for p in board.players:
        d = p.die(move.get("target")) if p.id != by else None
        if d is not None and d.in_play:
            return p.id
    return None


def _attack(board: Board, move: Move, lang: str) -> str:
    name = _who(board, move.get("by"))
    die, target, roll = _t(move.get("die")), _t(move.get("target")), _roll(move, lang)
    owner = _target_owner(board, move)
    if lang == "ja":
        whose = f"{_who(board, owner)}の" if owner else ""
        return f"{name}: {die}({roll})→{whose}{target} 攻撃"
    whose = f" of {_who(board, owner)}" if owner else ""
    return f"{name}: {die} ({roll}) attacks {target}{whose}"


def _defend(board: Board, move: Move, lang: str) -> str:
    name = _who(board, move.get("by"))
    die, roll = _t(move.get("die")), _roll(move, lang)
    return f"{name}: {die}({roll}) 防御" if lang == "ja" else f"{name}: {die} ({roll}) defends"


def _bonus(move: Move) -> str:
    bonus = move.get("bonus")
    return f" +{bonus}" if isinstance(bonus, int) and not isinstance(bonus, bool) and bonus else ""


def _item(board: Board, move: Move, lang: str) -> str:
    name = _who(board, move.get("by"))
    item, card = move.get("item"), move.get("card")
    player = board.player(move.get("by"))
    if isinstance(item, str):
        die = player.die(item) if player else None
        kind = die.kind if die else ""
        roll = _face(move.get("face"), move.get("value"), lang)
        if lang == "ja":
            call = {"weapon": "武具・召喚", "curse": "呪術・召喚"}.get(kind, "アイテム")
            return f"{name}: {call} {item}({roll}){_bonus(move)}"
        kind_en = {"weapon": "weapon die ", "curse": "curse die "}.get(kind, "item ")
        return f"{name}: uses {kind_en}{item} ({roll}){_bonus(move)}"
    if isinstance(card, str):
        if lang == "ja":
            return f"{name}: 小札絵「{card}」 特殊能力発動{_bonus(move)}"
        return f"{name}: plays kofuda card {card}{_bonus(move)}"
    return f"{name}: 何も使わない" if lang == "ja" else f"{name}: uses no item"


def _fuse(board: Board, move: Move, lang: str) -> str:
    name = _who(board, move.get("by"))
    player = board.player(move.get("by"))
    label = move.get("die")
    die = player.die(label) if player else None
    partners = move.get("partners")
    mates = _list([_t(x) for x in partners] if isinstance(partners, list) else [], lang)
    roll = _face(move.get("face"), move.get("value"), lang)
    core = die is not None and die.fusion_kind == "core"
    rolls = move.get("rolls")
    extra = ""
    if core and isinstance(rolls, list) and rolls:
        extra = " " + _roll({"type": "attack", "rolls": rolls}, lang)
    if lang == "ja":
        call = "心眼・合身" if core else "超眼・合身"
        return f"{name}: {_t(label)} {call}({mates}) {roll}{extra}"
    call = "core fusion" if core else "fusion"
    return f"{name}: {_t(label)} {call} with {mates}, rolls {roll}{extra}"


def _split(board: Board, move: Move, lang: str) -> str:
    name, die = _who(board, move.get("by")), _t(move.get("graveyard"))
    if lang == "ja":
        return f"{name}: 合身解除 {die}を墓場へ"
    return f"{name}: splits the fused unit, {die} to the graveyard"


def _evolve(board: Board, move: Move, lang: str) -> str:
    name = _who(board, move.get("by"))
    die, into, roll = _t(move.get("die")), _t(move.get("into")), _face(move.get("face"), move.get("value"), lang)
    ok = face_of(move.get("face")) == "special"
    if lang == "ja":
        return f"{name}: 開眼！進化チャレンジ {die}→{into}({roll}) {'成功' if ok else '失敗'}"
    return f"{name}: evolution challenge {die} → {into} ({roll}), {'success' if ok else 'no change'}"


def _ref(board: Board, by: Any, ref: Any, lang: str) -> str:
    if not isinstance(ref, Mapping):
        return "?"
    die, owner = _t(ref.get("die")), ref.get("player")
    if owner == by:
        return die
    return f"{_who(board, owner)}の{die}" if lang == "ja" else f"{die} of {_who(board, owner)}"


def _refs(board: Board, by: Any, refs: Any, lang: str) -> list[str]:
    return [_ref(board, by, r, lang) for r in refs] if isinstance(refs, list) else []


def _effect(board: Board, move: Move, lang: str) -> str:
    by = move.get("by")
    name, source, effect = _who(board, by), _t(move.get("source")), _t(move.get("effect"))
    ja = lang == "ja"
    parts = []
    if "take" in move:
        ref = _ref(board, by, move.get("take"), lang)
        parts.append(f"{ref}を奪う" if ja else f"takes {ref}")
    if gone := _refs(board, by, move.get("graveyard"), lang):
        parts.append(f"{_list(gone, lang)}を墓場へ" if ja else f"sends {_list(gone, lang)} to the graveyard")
    states = move.get("state")
    for ref in states if isinstance(states, list) else []:
        st = ref.get("state") if isinstance(ref, Mapping) else None
        label = (STATE_JA if ja else STATE_EN).get(st, _t(st)) if isinstance(st, str) else "?"
        who = _ref(board, by, ref, lang)
        parts.append(f"{who}を{label}に" if ja else f"sets {who} {label}")
    if back := _refs(board, by, move.get("revive"), lang):
        parts.append(
            f"{_list(back, lang)}を墓場から戻す(未召喚)" if ja else f"brings {_list(back, lang)} back (unsummoned)"
        )
    if isinstance(move.get("text"), str) and move["text"]:
        parts.append(f"「{move['text']}」" if ja else f'"{move["text"]}"')
    what = ("、" if ja else "; ").join(parts)
    if ja:
        return f"{name}: {source}「{effect}」" + (f" {what}" if what else "")
    return f"{name}: {source} uses {effect}" + (f": {what}" if what else "")


DESCRIBE = {
    "summon": _summon,
    "resummon": _summon,
    "attack": _attack,
    "defend": _defend,
    "item": _item,
    "fuse": _fuse,
    "split": _split,
    "evolve": _evolve,
    "effect": _effect,
}


def describe(board: Board, move: Move, lang: str = "ja") -> str:
    """The move as its players say it, read from the board before it (``lang`` "ja" or "en")."""
    lang = "en" if lang == "en" else "ja"
    fn = DESCRIBE.get(move.get("type"))  # type: ignore[arg-type]
    if fn is None:
        return f"{_who(board, move.get('by'))}: {_t(move.get('type'))}"
    return fn(board, move, lang)
