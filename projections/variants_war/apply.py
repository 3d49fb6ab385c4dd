"""Folding recorded moves into boards. Pure: never validates, never raises on a valid line."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from projections.base import Move
from projections.variants_war import catalog
from projections.variants_war.board import (
    CENTRE,
    LOCKON,
    Arctos,
    Board,
    HandCard,
    Monster,
    Pile,
    Player,
    col,
    home_row,
    is_field,
    row,
    square,
    stat,
)

PHASE_OF = {"draw": "draw", "set": "standby", "magic": "standby", "move": "main", "position": "main",
            "battle": "battle", "breakthrough": "battle", "master": "master"}
ORDER = ("draw", "standby", "main", "battle", "master")


def advance(board: Board, phase: str) -> Board:
    if board.phase in ORDER and ORDER.index(phase) > ORDER.index(board.phase):
        return replace(board, phase=phase)
    return board


def until_turn(board: Board, m: Monster | None, until: str | None) -> int:
    if until == "next_turn_end":
        return board.turn + 1
    if until == "owner_next_turn_end":
        owner_active = m is not None and m.owner == board.active
        return board.turn + (2 if owner_active else 1)
    return board.turn


# --- cards leaving and entering ------------------------------------------------------------
def _pile(board: Board, pid: str, name: str) -> Pile:
    if name == "rescue":
        return board.rescue
    if name == "magic":
        return board.magic
    return board.player(pid).deck


def _set_pile(board: Board, pid: str, name: str, pile: Pile) -> Board:
    if name == "rescue":
        return replace(board, rescue=pile)
    if name == "magic":
        return replace(board, magic=pile)
    return board.with_player(replace(board.player(pid), deck=pile))


def to_bottom(board: Board, pid: str, card: str | None, source: str) -> Board:
    if source == "ex":
        p = board.player(pid)
        return board.with_player(replace(p, gone=p.gone + ((card or "?"),)))
    pile = "rescue" if source == "rescue" else ("magic" if source == "magic" else "deck")
    return _set_pile(board, pid, pile, _pile(board, pid, pile).bottom(card))


def leave(board: Board, sq: str, where: str = "deck") -> Board:
    """A monster leaves the field: destroyed / returned to deck (bottom), or bounced to hand.
    An ace that leaves goes out of the game for good (VW-8.3)."""
    m = board.at(sq)
    if m is None:
        return board
    board = board.put(sq, None)
    if where == "hand" and m.source != "ex":
        p = board.player(m.owner)
        return board.with_player(replace(p, hand=p.hand + (HandCard(m.card, m.source),)))
    return to_bottom(board, m.owner, m.card, m.source)


def enter(board: Board, sq: str, m: Monster) -> Board:
    """Place a monster; battlefield squares keep/give a position, back-row zones have none."""
    position = (m.position or "attack") if is_field(sq) else None
    return board.put(sq, replace(m, position=position))


def relocate(board: Board, src: str, dst: str) -> Board:
    m = board.at(src)
    if m is None:
        return board
    if row(src) == row(dst) and col(src) != col(dst) and m.owner == board.active:
        m = replace(m, lateral=m.lateral + 1)  # 横移動効果 trigger (VW-5.5)
    return enter(board.put(src, None), dst, m)


def take_from_hand(board: Board, pid: str, card: str | None) -> tuple[Board, HandCard | None]:
    """Remove ``card`` from the hand; an unseen card stands in for it (and is thereby revealed)."""
    p = board.player(pid)
    hand = list(p.hand)
    for i, hc in enumerate(hand):
        if hc.card == card:
            del hand[i]
            return board.with_player(replace(p, hand=tuple(hand))), hc
    for i, hc in enumerate(hand):
        if hc.card is None and card is not None and card in _pile(board, pid, hc.source).pool:
            del hand[i]
            board = board.with_player(replace(p, hand=tuple(hand)))
            return _set_pile(board, pid, hc.source, _pile(board, pid, hc.source).forget(card)), HandCard(card, hc.source)
    return board, None


def draw(board: Board, pid: str, pile_name: str, card: str | None) -> Board:
    pile, got = _pile(board, pid, pile_name).take(card)
    board = _set_pile(board, pid, pile_name, pile)
    p = board.player(pid)
    return board.with_player(replace(p, hand=p.hand + (HandCard(got, pile_name),)))


def lose_life(board: Board, pid: str, amount: int) -> Board:
    p = board.player(pid)
    return board.with_player(replace(p, life=p.life - amount))


def check_result(board: Board) -> Board:
    dead = [p for p in board.players if p.life <= 0]
    if dead and board.winner is None and board.reason is None:
        alive = [p.id for p in board.players if p.life > 0]
        winner = alive[0] if len(alive) == 1 else None
        return replace(board, winner=winner, reason="life" if winner else "double_life", phase="over")
    return board


# --- move types -------------------------------------------------------------------------------
def apply_draft(board: Board, move: Move) -> Board:
    card, pid = str(move.get("card")), move["by"]
    p = board.player(pid)
    pool = list(board.draft_pool)
    if card in pool:
        pool.remove(card)
    deck = Pile(p.deck.cards + (None,), tuple(sorted(p.deck.pool + (card,))))
    board = replace(board.with_player(replace(p, deck=deck, picks=p.picks + (card,))), draft_pool=tuple(pool))
    if not pool or all(len(q.picks) >= 4 for q in board.players):
        board = replace(board, phase="setup")
    return board


def apply_draw(board: Board, move: Move) -> Board:
    pid = move["by"]
    if board.phase == "draft":
        board = replace(board, phase="setup")
    board = draw(board, pid, "deck", move.get("card"))
    if board.phase == "setup":
        if sum(len(p.hand) for p in board.players) >= 2 * len(board.players):
            board = replace(board, phase="draw", turn=1, active=board.first)
        return board
    return replace(advance(board, "draw"), drawn=True)


def apply_reveal(board: Board, move: Move) -> Board:
    pid, card = move["by"], move["card"]
    p = board.player(pid)
    for i, hc in enumerate(p.hand):
        if hc.card is None and (move.get("pile") in (None, hc.source)) and card in _pile(board, pid, hc.source).pool:
            hand = p.hand[:i] + (HandCard(card, hc.source),) + p.hand[i + 1:]
            board = board.with_player(replace(p, hand=hand))
            return _set_pile(board, pid, hc.source, _pile(board, pid, hc.source).forget(card))
    return board


def apply_set(board: Board, move: Move) -> Board:
    board, hc = take_from_hand(board, move["by"], move["card"])
    m = Monster(move["card"], move["by"], hc.source if hc else "deck", arrived=board.turn)
    return replace(advance(enter(board, move["to"], m), "standby"), sortied=True)


def apply_magic(board: Board, move: Move) -> Board:
    board, _ = take_from_hand(board, move["by"], move["card"])
    board = advance(board, "standby")
    board = run_actions(board, move)
    return check_result(replace(board, magic=board.magic.bottom(move["card"])))


def apply_move(board: Board, move: Move) -> Board:
    src, dst = move["from"], move["to"]
    m = board.at(src)
    if m is None:
        return advance(board, "main")
    if m.extra_moves > 0 and m.moves >= 1:
        m = replace(m, extra_moves=m.extra_moves - 1)
    else:
        m = replace(m, moves=m.moves + 1)
    return advance(relocate(board.put(src, m), src, dst), "main")


def apply_position(board: Board, move: Move) -> Board:
    m = board.at(move["square"])
    if m is None:
        return advance(board, "main")
    flipped = "defence" if m.position == "attack" else "attack"
    return advance(board.put(move["square"], replace(m, position=flipped, turned=True)), "main")


def apply_effect(board: Board, move: Move) -> Board:
    sq, kind = str(move.get("square")), move.get("kind")
    m = board.at(sq)
    if m is not None and m.card == move.get("card"):
        if kind == "normal":
            board = advance(board.put(sq, replace(m, acted=True)), "main")
        elif kind == "lateral":
            board = board.put(sq, replace(m, lateral=max(0, m.lateral - 1)))
    elif kind == "normal":
        board = advance(board, "main")
    return check_result(run_actions(board, move))


def apply_battle(board: Board, move: Move) -> Board:
    a, b = move["squares"]
    retreat = set(move.get("retreat") or ())
    board = advance(board, "battle")
    for sq in move.get("destroyed") or ():
        m = board.at(sq)
        if m is None:
            continue
        if sq in retreat:
            dst = square(col(sq), home_row(board.seat(m.owner)))
            if dst and dst[0] in "ace" and board.at(dst) is None:
                board = enter(board.put(sq, None), dst, m)
                continue
        board = leave(board, sq)
    return replace(board, fought=board.fought | {"-".join(sorted((a, b)))})


def apply_breakthrough(board: Board, move: Move) -> Board:
    board = advance(board, "battle")
    for sq in move.get("squares") or ():
        m = board.at(sq)
        if m is None:
            continue
        board = lose_life(leave(board, sq), board.other(m.owner), 1)
    return check_result(replace(board, resolved=True))


def master_kind(board: Board) -> str | None:
    """What the master phase of this turn does: 'summon' roll, 'lockon' roll, or None (skipped)."""
    if board.arctos_destroyed:
        return None
    if board.arctos is None:
        return "summon" if board.turn % 2 == 0 else None
    gap = board.turn - board.arctos.since
    offset = 1 if board.opt("arctos_count_from") == "same" else 0
    return "lockon" if gap > 0 and (gap - offset) % 2 == 0 else None


def apply_master(board: Board, move: Move) -> Board:
    kind = master_kind(board)
    board = replace(advance(board, "master"), mastered=True)
    dice = list(move["dice"])
    if kind == "summon" and sum(dice) == 12:
        board = leave(board, CENTRE)
        return replace(board, arctos=Arctos(facing=move["by"], since=board.turn))
    arctos = board.arctos
    if kind != "lockon" or arctos is None:
        return board
    damage = arctos.damage
    for n in sorted(set(dice)):
        m = board.at(LOCKON.get(n))
        if m is not None:
            damage += _arctos_damage(board, m)
            board = leave(board, LOCKON[n])
    over = damage >= 6000 if board.opt("arctos_threshold") == "reach" else damage > 6000
    if over:
        return replace(board, arctos=None, arctos_destroyed=True)
    return replace(board, arctos=replace(arctos, damage=damage))


def _arctos_damage(board: Board, m: Monster) -> int:
    if board.opt("arctos_damage") == "current":
        return stat(board, m, "atk")
    return catalog.base_stat(m.card, "atk", dict(board.options))


def _new_turn(m: Monster, turn: int) -> Monster:
    return replace(m, moves=0, extra_moves=0, acted=False, turned=False, lateral=0,
                   mods=tuple(x for x in m.mods if x.until >= turn),
                   statuses=tuple(s for s in m.statuses if s[1] >= turn))


def apply_end_turn(board: Board, move: Move) -> Board:
    turn = board.turn + 1
    squares = tuple((sq, _new_turn(m, turn)) for sq, m in board.squares)
    return replace(board, squares=squares, turn=turn, active=board.other(board.active), phase="draw",
                   drawn=False, sortied=False, fought=frozenset(), resolved=False, mastered=False,
                   sealed=tuple(s for s in board.sealed if s[1] >= turn))


def run_actions(board: Board, move: Move) -> Board:
    from projections.variants_war.effects import (
        run_actions as run,  # effects builds on the helpers above
    )

    return run(board, move)

APPLY: dict[str, Callable[[Board, Move], Board]] = {
    "draft": apply_draft, "draw": apply_draw, "reveal": apply_reveal, "set": apply_set,
    "magic": apply_magic, "move": apply_move, "position": apply_position, "effect": apply_effect,
    "battle": apply_battle, "breakthrough": apply_breakthrough, "master": apply_master,
    "end_turn": apply_end_turn,
}


def apply(board: Board, move: Move) -> Board:
    fn = APPLY.get(str(move.get("type")))
    if fn is None or board.phase == "over" or move.get("by") not in {p.id for p in board.players}:
        return board
    return fn(board, move)


def initial(header: dict[str, Any], options: dict[str, Any]) -> Board:
    players = []
    pool = list(catalog.enhancements())
    for seat, ph in enumerate(header.get("players", [])):
        deck = ph.get("deck") or {}
        faction = deck.get("archetype") if deck.get("archetype") in catalog.FACTIONS else None
        names = list(deck.get("cards") or (catalog.starter(faction) if faction else ()))
        if faction is None and names:
            faction = catalog.faction_of(names[0])
        ex = tuple(n for n in names if catalog.is_ace(n))
        main = [n for n in names if not catalog.is_ace(n)]
        picks = tuple(n for n in main if n in catalog.enhancements())
        for n in picks:
            if n in pool:
                pool.remove(n)
        players.append(Player(ph["id"], seat, faction, deck=Pile.shuffled(main), ex=ex, picks=picks))
    board = Board(players=tuple(players), first=header.get("first") or players[0].id,
                  options=tuple(sorted(options.items())), rescue=Pile.shuffled(catalog.rescue_cards()),
                  magic=Pile.shuffled(catalog.magic_cards()), draft_pool=tuple(pool),
                  active=header.get("first") or players[0].id)
    if all(len(p.picks) >= 4 for p in players):
        board = replace(board, phase="setup")
    return board
