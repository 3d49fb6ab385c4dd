"""The fold: ``apply(board, move) -> board``, one function per move type, and the effect
actions an ``effect`` or ``magic`` line records (VW-9).

Pure: never validates, never raises on a structurally valid line. Card texts are not
simulated; the scorekeeper records what happened and the actions fold it into the board. Coin
tosses and dice are recorded facts and change nothing by themselves.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from projections.base import Move
from projections.package import evolve, pure
from projections.variants_war import catalog
from projections.variants_war.board import (
    CENTRE,
    LOCKON,
    Arctos,
    Board,
    HandCard,
    Mod,
    Monster,
    Pile,
    col,
    home_row,
    is_field,
    master_kind,
    per_turn,
    pile,
    row,
    square,
    stat,
)
from projections.variants_war.moves import ORDER

def advance(board: Board, phase: str) -> Board:
    if board.phase in ORDER and ORDER.index(phase) > ORDER.index(board.phase):
        return evolve(board, phase=phase)
    return board


def until_turn(board: Board, m: Monster | None, until: str | None) -> int:
    if until == "next_turn_end":
        return board.turn + 1
    if until == "owner_next_turn_end":
        owner_active = m is not None and m.owner == board.active
        return board.turn + (2 if owner_active else 1)
    return board.turn


# --- cards leaving and entering ------------------------------------------------------------
def _set_pile(board: Board, pid: str, name: str, new: Pile) -> Board:
    if name == "rescue":
        return evolve(board, rescue=new)
    if name == "magic":
        return evolve(board, magic=new)
    return board.with_player(evolve(board.player(pid), deck=new))


def to_bottom(board: Board, pid: str, card: str | None, source: str) -> Board:
    if source == "ex":
        p = board.player(pid)
        return board.with_player(evolve(p, gone=p.gone + ((card or "?"),)))
    name = "rescue" if source == "rescue" else ("magic" if source == "magic" else "deck")
    return _set_pile(board, pid, name, pile(board, pid, name).bottom(card))


def leave(board: Board, sq: str, where: str = "deck") -> Board:
    """A monster leaves the field: destroyed / returned to deck (bottom), or bounced to hand.
    An ace that leaves goes out of the game for good (VW-8.3)."""
    m = board.at(sq)
    if m is None:
        return board
    board = board.put(sq, None)
    if where == "hand" and m.source != "ex":
        p = board.player(m.owner)
        return board.with_player(evolve(p, hand=p.hand + (HandCard(m.card, m.source),)))
    return to_bottom(board, m.owner, m.card, m.source)


def enter(board: Board, sq: str, m: Monster) -> Board:
    """Place a monster; battlefield squares keep/give a position, back-row zones have none."""
    position = (m.position or "attack") if is_field(sq) else None
    return board.put(sq, evolve(m, position=position))


def relocate(board: Board, src: str, dst: str) -> Board:
    m = board.at(src)
    if m is None:
        return board
    if row(src) == row(dst) and col(src) != col(dst) and m.owner == board.active:
        m = evolve(m, lateral=m.lateral + 1)  # 横移動効果 trigger (VW-5.5)
    return enter(board.put(src, None), dst, m)


def take_from_hand(board: Board, pid: str, card: str | None) -> tuple[Board, HandCard | None]:
    """Remove ``card`` from the hand; an unseen card stands in for it (and is thereby revealed)."""
    p = board.player(pid)
    hand = list(p.hand)
    for i, hc in enumerate(hand):
        if hc.card == card:
            del hand[i]
            return board.with_player(evolve(p, hand=tuple(hand))), hc
    for i, hc in enumerate(hand):
        if hc.card is None and card is not None and card in pile(board, pid, hc.source).pool:
            del hand[i]
            board = board.with_player(evolve(p, hand=tuple(hand)))
            return _set_pile(board, pid, hc.source, pile(board, pid, hc.source).forget(card)), HandCard(card, hc.source)
    return board, None


def draw(board: Board, pid: str, pile_name: str, card: str | None) -> Board:
    """The top card of a pile to the hand; an empty pile gives nothing (VW-3.3, VW-9.2)."""
    if not pile(board, pid, pile_name).cards:
        return board
    rest, got = pile(board, pid, pile_name).take(card)
    board = _set_pile(board, pid, pile_name, rest)
    p = board.player(pid)
    return board.with_player(evolve(p, hand=p.hand + (HandCard(got, pile_name),)))


def lose_life(board: Board, pid: str, amount: int) -> Board:
    p = board.player(pid)
    return board.with_player(evolve(p, life=p.life - amount))


def check_result(board: Board) -> Board:
    dead = [p for p in board.players if p.life <= 0]
    if dead and board.winner is None and board.reason is None:
        alive = [p.id for p in board.players if p.life > 0]
        winner = alive[0] if len(alive) == 1 else None
        return evolve(board, winner=winner, reason="life" if winner else "double_life", phase="over")
    return board


# --- move types -------------------------------------------------------------------------------
def apply_draft(board: Board, move: Move) -> Board:
    card, pid = str(move.get("card")), move["by"]
    p = board.player(pid)
    pool = list(board.draft_pool)
    if card in pool:
        pool.remove(card)
    deck = Pile(p.deck.cards + (None,), tuple(sorted(p.deck.pool + (card,))))
    board = evolve(board.with_player(evolve(p, deck=deck, picks=p.picks + (card,))), draft_pool=tuple(pool),
                   draft_first=board.draft_first or pid)
    if not pool or all(len(q.picks) >= 4 for q in board.players):
        board = evolve(board, phase="setup")
    return board


def apply_draw(board: Board, move: Move) -> Board:
    pid = move["by"]
    if board.phase == "draft":
        board = evolve(board, phase="setup")
    board = draw(board, pid, "deck", move.get("card"))
    if board.phase == "setup":
        if sum(len(p.hand) for p in board.players) >= 2 * len(board.players):
            board = evolve(board, phase="draw", turn=1, active=board.first)
        return board
    return evolve(advance(board, "draw"), drawn=True)


def apply_reveal(board: Board, move: Move) -> Board:
    pid, card = move["by"], move["card"]
    p = board.player(pid)
    for i, hc in enumerate(p.hand):
        if hc.card is None and (move.get("pile") in (None, hc.source)) and card in pile(board, pid, hc.source).pool:
            hand = p.hand[:i] + (HandCard(card, hc.source),) + p.hand[i + 1:]
            board = board.with_player(evolve(p, hand=hand))
            return _set_pile(board, pid, hc.source, pile(board, pid, hc.source).forget(card))
    return board


def apply_set(board: Board, move: Move) -> Board:
    board, hc = take_from_hand(board, move["by"], move["card"])
    m = Monster(move["card"], move["by"], hc.source if hc else "deck", arrived=board.turn)
    return evolve(advance(enter(board, move["to"], m), "standby"), sortied=True)


def apply_magic(board: Board, move: Move) -> Board:
    board, _ = take_from_hand(board, move["by"], move["card"])
    board = advance(board, "standby")
    board = run_actions(board, move)
    return check_result(evolve(board, magic=board.magic.bottom(move["card"])))


def apply_move(board: Board, move: Move) -> Board:
    src, dst = move["from"], move["to"]
    m = board.at(src)
    if m is None:
        return advance(board, "main")
    if m.extra_moves > 0 and (per_turn(board) or m.moves >= 1):
        m = evolve(m, extra_moves=m.extra_moves - 1)  # a granted move uses no 行動権
    else:
        m = evolve(m, moves=m.moves + 1)
        board = evolve(board, used=board.used | {"move"})
    return advance(relocate(board.put(src, m), src, dst), "main")


def apply_position(board: Board, move: Move) -> Board:
    m = board.at(move["square"])
    if m is None:
        return advance(board, "main")
    flipped = "defence" if m.position == "attack" else "attack"
    board = evolve(board, used=board.used | {"position"})
    return advance(board.put(move["square"], evolve(m, position=flipped, turned=True)), "main")


def apply_effect(board: Board, move: Move) -> Board:
    sq, kind = str(move.get("square")), move.get("kind")
    if kind == "normal":
        board = evolve(board, used=board.used | {"effect"})
    elif kind == "special":  # 「このカードが呼び出された時」: once
        board = evolve(board, specials=board.specials | {sq})
    m = board.at(sq)
    if m is not None and m.card == move.get("card"):
        if kind == "normal":
            board = advance(board.put(sq, evolve(m, acted=True)), "main")
        elif kind == "lateral":
            board = board.put(sq, evolve(m, lateral=max(0, m.lateral - 1)))
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
    return evolve(board, fought=board.fought | {"-".join(sorted((a, b)))})


def apply_breakthrough(board: Board, move: Move) -> Board:
    board = advance(board, "battle")
    for sq in move.get("squares") or ():
        m = board.at(sq)
        if m is None:
            continue
        board = lose_life(leave(board, sq), board.other(m.owner), 1)
    return check_result(evolve(board, resolved=True))


def apply_master(board: Board, move: Move) -> Board:
    kind = master_kind(board)
    board = evolve(advance(board, "master"), mastered=True)
    dice = list(move["dice"])
    if kind == "summon" and sum(dice) == 12:
        board = leave(board, CENTRE)
        return evolve(board, arctos=Arctos(facing=move["by"], since=board.turn))
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
        return evolve(board, arctos=None, arctos_destroyed=True)
    return evolve(board, arctos=evolve(arctos, damage=damage))


def _arctos_damage(board: Board, m: Monster) -> int:
    if board.opt("arctos_damage") == "current":
        return stat(board, m, "atk")
    return catalog.base_stat(m.card, "atk", dict(board.options))


def _new_turn(m: Monster, turn: int) -> Monster:
    """A monster at the start of ``turn``: this turn's counters reset, expired effects dropped.
    Unchanged monsters are kept as they are (most of them, most turns)."""
    mods = tuple(x for x in m.mods if x.until >= turn) if m.mods else m.mods
    statuses = tuple(s for s in m.statuses if s[1] >= turn) if m.statuses else m.statuses
    if not (m.moves or m.extra_moves or m.acted or m.turned or m.lateral) and mods == m.mods \
            and statuses == m.statuses:
        return m
    return evolve(m, moves=0, extra_moves=0, acted=False, turned=False, lateral=0, mods=mods, statuses=statuses)


def apply_end_turn(board: Board, move: Move) -> Board:
    turn = board.turn + 1
    squares = tuple((sq, _new_turn(m, turn)) for sq, m in board.squares)
    return evolve(board, squares=squares, turn=turn, active=board.other(board.active), phase="draw",
                   drawn=False, sortied=False, fought=frozenset(), used=frozenset(), specials=frozenset(),
                   resolved=False, mastered=False, sealed=tuple(s for s in board.sealed if s[1] >= turn))


# --- effect actions (VW-9) ---------------------------------------------------------------------
Action = dict[str, Any]


def _move(board: Board, act: Action, by: str) -> Board:
    return relocate(board, act["from"], act["to"]) if board.at(act["from"]) else board


def _swap(board: Board, act: Action, by: str) -> Board:
    a, b = board.at(act["a"]), board.at(act["b"])
    if a is None or b is None:
        return board
    if row(act["a"]) == row(act["b"]) and col(act["a"]) != col(act["b"]):
        a = evolve(a, lateral=a.lateral + (a.owner == board.active))
        b = evolve(b, lateral=b.lateral + (b.owner == board.active))
    return enter(enter(board, act["a"], b), act["b"], a)


def _destroy(board: Board, act: Action, by: str) -> Board:
    return leave(board, act["square"])


def _bounce(board: Board, act: Action, by: str) -> Board:
    return leave(board, act["square"], "hand")


def _draw(board: Board, act: Action, by: str) -> Board:
    return draw(board, act.get("player") or by, act["pile"], act.get("card"))


def _return(board: Board, act: Action, by: str) -> Board:
    """A hand card goes to the bottom of a pile (バンドラ, ライズベルト)."""
    pid = act.get("player") or by
    board, hc = take_from_hand(board, pid, act.get("card"))
    source = hc.source if hc else act["pile"]
    return to_bottom(board, pid, act.get("card"), source)


def _place(board: Board, act: Action, by: str) -> Board:
    """Put a monster from hand (default) or deck into a zone (ヴァイカント)."""
    pid = act.get("player") or by
    if act.get("from") == "deck":
        p = board.player(pid)
        cards = list(p.deck.cards)
        pool = p.deck.pool
        if act["card"] in cards:
            cards.remove(act["card"])
        elif None in cards and act["card"] in pool:
            cards.remove(None)
            pool = board.player(pid).deck.forget(act["card"]).pool
        board = board.with_player(evolve(p, deck=evolve(p.deck, cards=tuple(cards), pool=pool)))
        source = "deck"
    else:
        board, hc = take_from_hand(board, pid, act["card"])
        source = hc.source if hc else "deck"
    return enter(board, act["to"], Monster(act["card"], pid, source, arrived=board.turn))


def _summon(board: Board, act: Action, by: str) -> Board:
    """An ace (切り札) comes from the EX deck; it cannot move this turn (VW-8.2)."""
    pid = act.get("player") or by
    p = board.player(pid)
    ex = list(p.ex)
    if act["card"] in ex:
        ex.remove(act["card"])
    board = board.with_player(evolve(p, ex=tuple(ex)))
    m = Monster(act["card"], pid, "ex", position=act.get("position") or "attack", arrived=board.turn)
    return enter(board, act["to"], m)


def _position(board: Board, act: Action, by: str) -> Board:
    m = board.at(act["square"])
    if m is None or m.position is None:
        return board
    flipped = "defence" if m.position == "attack" else "attack"
    return board.put(act["square"], evolve(m, position=flipped))


def _modify(board: Board, act: Action, by: str) -> Board:
    m = board.at(act["square"])
    if m is None:
        return board
    stats = ("atk", "def") if act["stat"] == "both" else (act["stat"],)
    amount = int(act.get("amount") or 0)
    if act.get("until") == "permanent" and act["op"] == "add":
        if "atk" in stats:
            m = evolve(m, atk_bonus=m.atk_bonus + amount)
        return board.put(act["square"], m)
    until = until_turn(board, m, act.get("until"))
    mods = tuple(Mod(s, act["op"], amount, until) for s in stats)
    return board.put(act["square"], evolve(m, mods=m.mods + mods))


def _status(board: Board, act: Action, by: str) -> Board:
    m = board.at(act["square"])
    if m is None:
        return board
    until = until_turn(board, m, act.get("until"))
    if act["status"] == "extra_move":
        return board.put(act["square"], evolve(m, extra_moves=m.extra_moves + 1))
    return board.put(act["square"], evolve(m, statuses=m.statuses + ((act["status"], until),)))


def _lose_life(board: Board, act: Action, by: str) -> Board:
    return lose_life(board, act["player"], int(act.get("amount", 1)))


def _fact(board: Board, act: Action, by: str) -> Board:
    return board


def _seal_zone(board: Board, act: Action, by: str) -> Board:
    # until the start of the sealer's next turn = through the opponent's coming turn
    return evolve(board, sealed=board.sealed + ((act["square"], board.turn + 1),))


ACTION_APPLY: dict[str, Callable[[Board, Action, str], Board]] = {
    "move": _move, "swap": _swap, "destroy": _destroy, "bounce": _bounce, "to_deck": _destroy,
    "draw": _draw, "return": _return, "place": _place, "summon": _summon, "position": _position,
    "modify": _modify, "status": _status, "lose_life": _lose_life, "coin": _fact, "die": _fact,
    "seal_zone": _seal_zone,
}


def text_kind(move: Move) -> str:
    """Which text of the card a line carries out: a magic card's ``effect``, else the line's kind."""
    return "effect" if move.get("type") == "magic" else str(move.get("kind"))


def complete(board: Board, move: Move, act: Action, gone: list[int]) -> Action:
    """``act`` with what the card's text fixes and the line left out (VW-11.7): a ``modify``'s
    amount and a ``modify`` or ``status``'s ``until``. ``gone``: the ATK of the monsters the line
    destroyed so far (グランデューク gains half of it)."""
    t = catalog.term(move.get("card"), text_kind(move), act)
    if t is None or (t.do == "modify" and (act.get("stat"), act.get("op")) != (t.what, t.op)):
        return act  # not what the text makes (VW-11.1, VW-11.7 say so): folded as recorded
    fill: dict[str, Any] = {}
    if "until" not in act:
        fill["until"] = t.until
    if t.do == "modify" and "amount" not in act:
        amount = t.amount if t.amount is not None else computed_amount(board, move, gone)
        if amount is not None:
            fill["amount"] = amount
    return {**act, **fill} if fill else act


def computed_amount(board: Board, move: Move, gone: list[int]) -> int | None:
    """The amount a card's text takes from the line itself: グランデューク gains half the ATK of
    the monster its effect destroyed; ライズベルト gains the ATK of the monster it shows (the one
    its line returns to the deck)."""
    if move.get("card") == "ヴァリアンツＧ－グランデューク":
        return gone[0] // 2 if gone else None
    if move.get("card") == "召喚師ライズベルト":
        shown = [a.get("card") for a in move.get("actions") or () if isinstance(a, dict) and a.get("do") == "return"]
        return catalog.base_stat(str(shown[0]), "atk", dict(board.options)) if shown and catalog.card(shown[0]) else None
    return None


def destroyed_atk(board: Board, act: Action, gone: list[int]) -> None:
    """Note the ATK of the monster a ``destroy`` action is about to take (for ``computed_amount``)."""
    m = board.at(act.get("square")) if act.get("do") == "destroy" else None
    if m is not None:
        gone.append(stat(board, m, "atk"))


def run_actions(board: Board, move: Move) -> Board:
    ids = {p.id for p in board.players}
    texts = board.opt("card_texts") == "checked"
    gone: list[int] = []
    for act in move.get("actions") or ():
        fn = ACTION_APPLY.get(str(act.get("do"))) if isinstance(act, dict) else None
        if fn is not None and act.get("player", move["by"]) in ids:
            if texts:
                act = complete(board, move, act, gone)
                destroyed_atk(board, act, gone)
            board = fn(board, act, move["by"])
    return board


APPLY: dict[str, Callable[[Board, Move], Board]] = {
    "draft": apply_draft, "draw": apply_draw, "reveal": apply_reveal, "set": apply_set,
    "magic": apply_magic, "move": apply_move, "position": apply_position, "effect": apply_effect,
    "battle": apply_battle, "breakthrough": apply_breakthrough, "master": apply_master,
    "end_turn": apply_end_turn,
}


def apply_working(board: Board, move: Move) -> Board:
    fn = APPLY.get(str(move.get("type")))
    if fn is None or board.phase == "over" or move.get("by") not in {p.id for p in board.players}:
        return board
    return fn(board, move)


# What everyone else calls: pure (kept boards never change). Folds use apply_working.
apply = pure(apply_working)
