"""The fold: one recorded move into the next board, one function per move type. Never
validates, never raises: an illegal move is still the record, ``check.check`` says what was
wrong with it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from projections.base import Move, Result
from projections.mushijingi.board import (
    OPENING_HAND,
    TERRITORY,
    Board,
    Insect,
    Side,
    attack_value,
    find_insect,
    max_hp,
    present,
)
from projections.package import evolve, pure


def take_from_hand(side: Side, card: str | None) -> Side:
    """Remove ``card`` from hand: the named copy if known, else an unknown one (else nothing)."""
    hand = list(side.hand)
    for wanted in (card, None):
        if wanted in hand:
            hand.remove(wanted)
            return evolve(side, hand=tuple(hand))
    return side


def deck_out(board: Board) -> Board:
    a, b = (board.side(p).territory for p in board.order)
    if a == b:
        result = Result(None, "deck-out-tie")
    else:
        result = Result(board.order[0] if a > b else board.order[1], "deck-out")
    return evolve(board, result=result, phase="over")


def enter_main(board: Board, by: str) -> Board:
    if by != board.active or board.phase not in ("draw", "set"):
        return board
    return evolve(board, phase="main", cost=len(board.side(by).feed), spent=0)


def take_territory(board: Board, pid: str, card: str | None = None) -> Board:
    side = board.side(pid)
    if side.territory <= 0:
        return board
    side = evolve(side, territory=side.territory - 1, hand=side.hand + (card,))
    return board.with_side(side)


def remove_insect(board: Board, ins: Insect, to_hand: bool = False) -> Board:
    """An insect leaves the field, to its owner's discard pile (or hand); its enhancements are
    destroyed with it."""
    board = evolve(
        board,
        field=tuple(i for i in board.field if i.uid != ins.uid),
        played=board.played + (ins.card,),
    )
    for name, owner in ins.enhancements:
        s = board.side(owner)
        board = board.with_side(evolve(s, discard=s.discard + (name,)))
    s = board.side(ins.owner)
    if to_hand:
        return board.with_side(evolve(s, hand=s.hand + (ins.card,)))
    return board.with_side(evolve(s, discard=s.discard + (ins.card,)))


def put_insect(board: Board, pid: str, card: str) -> Board:
    side = board.side(pid)
    side = evolve(side, summoned=side.summoned + 1)
    ins = Insect(uid=f"{pid}{side.summoned}", card=card, owner=pid)
    return evolve(board.with_side(side), field=board.field + (ins,))


def update_insect(board: Board, ins: Insect, **changes: Any) -> Board:
    new = evolve(ins, **changes)
    return evolve(board, field=tuple(new if i.uid == ins.uid else i for i in board.field))


def damage_insect(
    board: Board, ins: Insect, amount: int, territory: bool, card: str | None = None
) -> Board:
    ins = evolve(ins, damage=ins.damage + amount)
    board = update_insect(board, ins)
    if ins.damage >= max_hp(board, ins):
        board = remove_insect(board, ins)
        if territory:
            board = take_territory(board, ins.owner, card)
    return board


def _setup(board: Board, m: Move) -> Board:
    side = board.side(m["by"])
    hand = list(m.get("hand") or [])[:OPENING_HAND]
    hand += [None] * (OPENING_HAND - len(hand))
    side = evolve(
        side,
        deck=side.deck - TERRITORY - OPENING_HAND,
        territory=TERRITORY,
        hand=tuple(hand),
        ready=True,
    )
    board = board.with_side(side)
    if all(s.ready for s in board.sides) and board.turn == 0:
        board = evolve(board, turn=1, active=board.first, phase="set")
    return board


def draw_card(board: Board, pid: str, card: str | None) -> Board:
    """One card from ``pid``'s deck into hand; MJ-7.2 when the deck has run out: a draw from
    an empty deck decides by territory (``deck_out`` "empty"), or the draw taking the last
    card does ("last"). Every draw goes through here, the turn's and an effect's."""
    side = board.side(pid)
    if side.deck <= 0:
        return deck_out(board)
    return board.with_side(evolve(side, deck=side.deck - 1, hand=side.hand + (card,)))


def took_last(board: Board, pid: str) -> bool:
    return board.side(pid).deck == 0 and board.rule("deck_out") == "last"


def _draw(board: Board, m: Move) -> Board:
    by = m["by"]
    if board.side(by).deck <= 0:
        return deck_out(board)
    board = evolve(draw_card(board, by, m.get("card")), drew=True)
    if board.phase == "draw" and by == board.active:
        board = evolve(board, phase="set")
    if took_last(board, by):
        board = deck_out(board)
    return board


def _set(board: Board, m: Move) -> Board:
    side = take_from_hand(board.side(m["by"]), m["card"])
    side = evolve(side, feed=side.feed + (m["card"],))
    board = evolve(board.with_side(side), fed=True)
    return enter_main(board, m["by"])


def _play(board: Board, m: Move) -> Board:
    by, name = m["by"], m["card"]
    board = enter_main(board, by)
    side = take_from_hand(board.side(by), name)
    card = board.card(name)
    board = evolve(
        board.with_side(side),
        spent=board.spent + (card.cost if card else 0),
        played=board.played + (name,),
    )
    kind = card.kind if card else "spell"
    if kind == "insect":
        board = evolve(board, entered=board.entered + ((name, "play"),))
        return put_insect(board, by, name)
    target = find_insect(board, m.get("target"))
    if kind == "enhance" and target is not None:
        return update_insect(board, target, enhancements=target.enhancements + ((name, by),))
    side = board.side(by)
    return board.with_side(evolve(side, discard=side.discard + (name,)))


def _attack(board: Board, m: Move) -> Board:
    by = m["by"]
    board = enter_main(board, by)
    attacker = find_insect(board, m["attacker"], by)
    if attacker is not None:
        board = update_insect(board, attacker, attacked=True)
        attacker = find_insect(board, attacker.uid)
    defender = board.opponent(by)
    if m["target"] == "player":
        if attacker is not None:
            board = evolve(board, directs=board.directs + ((attacker.card, str(m["technique"])),))
        card = board.card(attacker.card) if attacker is not None else None
        tech = card.technique(m["technique"]) if card is not None else None
        if tech is not None and tech.target and board.side(defender).territory == 0 and not board.rule("target_direct_win"):
            return board  # MJ-5.9: 「すくいなげで直接攻撃をして勝つことはできません」
        return _direct(board, by, defender, m.get("territory_card"))
    target = find_insect(board, m["target"], defender)
    if target is None or attacker is None:
        return board
    amount = attack_value(board, attacker, m["technique"], target)
    return damage_insect(board, target, amount, True, m.get("territory_card"))


def _direct(board: Board, by: str, defender: str, card: str | None) -> Board:
    if board.side(defender).territory > 0:
        return take_territory(board, defender, card)
    only_flipped = not present(board, defender) and any(i.owner == defender for i in board.field)
    if only_flipped and not board.rule("flip_direct_win"):
        return board
    return evolve(board, result=Result(by, "direct-attack"), phase="over")


def _effect_insects(board: Board, m: Move) -> Board:
    territory = bool(board.rule("effect_destroy_takes_territory"))
    for ref, amount in (m.get("damage") or {}).items():
        ins = find_insect(board, ref)
        if ins is not None:
            board = damage_insect(board, ins, amount, territory)
    for ref, amount in (m.get("boost") or {}).items():
        ins = find_insect(board, ref)
        if ins is not None:
            board = update_insect(board, ins, boost=ins.boost + amount)
    for ref in m.get("flip") or []:
        ins = find_insect(board, ref)
        if ins is not None:
            board = update_insect(board, ins, flipped=True)
    for ref in m.get("bounce") or []:
        ins = find_insect(board, ref)
        if ins is not None:
            board = remove_insect(board, ins, to_hand=True)
    for ref in m.get("destroy") or []:
        ins = find_insect(board, ref)
        if ins is not None:
            board = remove_insect(board, ins)
            if territory:
                board = take_territory(board, ins.owner)
    return board


def _effect_player(board: Board, m: Move) -> Board:
    pid = m.get("player", m["by"])
    if pid not in board.order:
        return board
    decides = bool(board.rule("effect_draw_deck_out"))
    for _ in range(m.get("draw") or 0):
        if board.result is not None:
            break
        if decides:
            board = draw_card(board, pid, None)
            if board.result is None and took_last(board, pid):
                board = deck_out(board)
        elif board.side(pid).deck > 0:
            board = draw_card(board, pid, None)
    if board.result is not None:  # 「その時点で」: the match ends at that draw
        return board
    for _ in range(m.get("territory") or 0):
        board = take_territory(board, pid)
    for name in m.get("discard") or []:
        side = take_from_hand(board.side(pid), name)
        board = board.with_side(evolve(side, discard=side.discard + (name,)))
    for name in m.get("feed_discard") or []:
        side = board.side(pid)
        if name in side.feed:
            feed = list(side.feed)
            feed.remove(name)
            board = board.with_side(evolve(side, feed=tuple(feed), discard=side.discard + (name,)))
    source = m.get("from", "hand")
    for name in m.get("summon") or []:
        side = board.side(pid)
        if source == "hand":
            side = take_from_hand(side, name)
        elif source == "deck":
            side = evolve(side, deck=max(0, side.deck - 1))
        elif name in side.discard:
            rest = list(side.discard)
            rest.remove(name)
            side = evolve(side, discard=tuple(rest))
        board = put_insect(board.with_side(side), pid, name)
        board = evolve(
            board, played=board.played + (name,), entered=board.entered + ((name, "effect"),)
        )
    return board


def _effect(board: Board, m: Move) -> Board:
    return _effect_player(_effect_insects(board, m), m)


def _reveal(board: Board, m: Move) -> Board:
    side = board.side(m["by"])
    hand = list(side.hand)
    for name in m["cards"]:
        if None in hand:
            hand[hand.index(None)] = name
    return board.with_side(evolve(side, hand=tuple(hand)))


def _end_turn(board: Board, m: Move) -> Board:
    field = tuple(
        evolve(i, damage=0, boost=0, flipped=False, attacked=False)
        if i.damage or i.boost or i.flipped or i.attacked
        else i
        for i in board.field
    )
    nxt = board.opponent(board.active or m["by"])
    return evolve(
        board,
        field=field,
        active=nxt,
        turn=board.turn + 1,
        phase="draw",
        cost=0,
        spent=0,
        drew=False,
        fed=False,
        played=(),
        entered=(),
        directs=(),
    )


APPLY: dict[str, Callable[[Board, Move], Board]] = {
    "setup": _setup,
    "draw": _draw,
    "set": _set,
    "play": _play,
    "attack": _attack,
    "effect": _effect,
    "reveal": _reveal,
    "end_turn": _end_turn,
}


def apply_working(board: Board, move: Move) -> Board:
    if move.get("by") not in board.order and move.get("type") != "effect":
        return board
    fn = APPLY.get(move.get("type", ""))
    return fn(board, move) if fn else board


# What everyone else calls: pure (kept boards never change). Folds use apply_working.
apply = pure(apply_working)
