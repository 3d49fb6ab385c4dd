"""``check``: the rules a recorded move breaks, each citing an MJ- rule id
(docs/rules/mushijingi.md), and ``result``: the result the rules derive from a board.
Deciding lives here; apply.py never validates."""

from __future__ import annotations

from projections.base import N_, said

from collections import Counter
from collections.abc import Callable
from typing import Any

from projections.base import Move, Result, Violation
from projections.mushijingi.apply import apply
from projections.mushijingi.board import (
    MAX_COPIES,
    OPENING_HAND,
    Board,
    Insect,
    attack_value,
    find_insect,
    max_hp,
    present,
    seen_copies,
)
from projections.mushijingi.catalog import Card

Found = list[tuple[str, str, dict[str, Any] | None, list[dict[str, Any]] | None]]


def _in_hand(board: Board, pid: str, card: str | None) -> bool:
    hand = board.side(pid).hand
    return card in hand or None in hand


def _turn_order(board: Board, m: Move) -> Found:
    """Setup first, then only the active player acts, and a turn starts with its draw."""
    if board.phase == "setup":
        return [
            (
                "MJ-2.3",
                N_("both players must finish setup (ゲームの準備) before the first turn"),
                None,
                None,
            )
        ]
    if m["by"] != board.active:
        return [
            (
                "MJ-3.1",
                said(N_("it is {active}'s turn, not {by}'s"), active=board.active, by=m['by']),
                {"active": board.active},
                None,
            )
        ]
    if board.phase == "draw" and m["type"] != "draw":
        return [
            (
                "MJ-3.2",
                N_("the turn's draw (ドロー) was not recorded"),
                None,
                [{"type": "draw", "by": m["by"], "card": None}],
            )
        ]
    return []


def _check_setup(board: Board, m: Move) -> Found:
    found: Found = []
    if board.side(m["by"]).ready:
        found.append(("MJ-2.3", said(N_("{by} has already set up"), by=m['by']), None, None))
    elif board.turn > 0:
        found.append(("MJ-2.3", said(N_("setup comes before the first turn (turn {turn} is recorded)"), turn=board.turn), None, None))
    if len(m.get("hand") or []) > OPENING_HAND:
        found.append(
            (
                "MJ-2.2",
                said(N_("the opening hand is {OPENING_HAND} cards (no mulligan)"), OPENING_HAND=OPENING_HAND),
                {"hand": OPENING_HAND},
                None,
            )
        )
    return found


def _check_draw(board: Board, m: Move) -> Found:
    found = _turn_order(board, m)
    if found:
        return found
    if board.turn == 1 and m["by"] == board.first and not board.drew:
        return [
            (
                "MJ-3.2",
                N_("the first player does not draw on the first turn (先攻1ターン目はドローなし)"),
                None,
                None,
            )
        ]
    if board.phase != "draw":
        return [("MJ-3.2", N_("one draw per turn, at its start"), None, None)]
    return []


def _check_set(board: Board, m: Move) -> Found:
    found = _turn_order(board, m)
    if board.fed:
        found.append(("MJ-3.3", N_("at most one card is set into the エサ場 each turn"), None, None))
    elif board.phase == "main":
        found.append(
            ("MJ-3.3", N_("the set phase is over once the main phase has started"), None, None)
        )
    if not _in_hand(board, m["by"], m["card"]):
        found.append(("MJ-3.7", said(N_("{card} is not in {by}'s hand"), card=m['card'], by=m['by']), None, None))
    return found


def _cost_left(board: Board, by: str) -> tuple[int, int]:
    total = board.cost if board.phase == "main" else len(board.side(by).feed)
    spent = board.spent if board.phase == "main" else 0
    return total, spent


def _check_target(board: Board, m: Move, rule: str, what: str) -> Found:
    target = find_insect(board, m.get("target"))
    if target is None:
        choices = [
            {"type": "play", "by": m["by"], "card": m["card"], "target": i.uid}
            for o in board.order
            for i in present(board, o)
        ]
        return [
            (rule, said(N_("{what} {card} needs a target insect on the field"), what=what, card=m['card']), None, choices or None)
        ]
    if target.flipped:
        return [("MJ-5.10", said(N_("{uid} is flipped (裏返し) and counts as absent"), uid=target.uid), None, None)]
    return []


def _check_play(board: Board, m: Move) -> Found:
    found = _turn_order(board, m)
    card = board.card(m["card"])
    if card is None:
        return found + [("MJ-1.4", said(N_("{card} is not in the card catalog"), card=m['card']), None, None)]
    if not _in_hand(board, m["by"], m["card"]):
        found.append(("MJ-3.7", said(N_("{card} is not in {by}'s hand"), card=m['card'], by=m['by']), None, None))
    total, spent = _cost_left(board, m["by"])
    if spent + card.cost > total:
        found.append(
            (
                "MJ-3.5",
                (said(N_("{card} costs {cost} but only {total} of {total2} cost is left"), card=m['card'], cost=card.cost, total=total - spent, total2=total)),
                {"cost": total, "spent": spent, "left": total - spent, "card_cost": card.cost},
                None,
            )
        )
    if card.kind == "enhance":
        found += _check_target(board, m, "MJ-4.2", N_("enhancement (強化)"))
        target = find_insect(board, m.get("target"))
        if target and board.rule("enhance_target") == "own" and target.owner != m["by"]:
            found.append(
                ("MJ-4.2", N_("house rule enhance_target=own: enhance your own insects"), None, None)
            )
    elif card.kind == "spell" and card.target == "insect":
        found += _check_target(board, m, "MJ-4.4", N_("targeted spell (術)"))
        found += _check_target_side(board, m, card)
    return found


def _check_target_side(board: Board, m: Move, card: Card) -> Found:
    """MJ-4.6: a spell that chooses 「自分の虫」 or 「相手の虫」 (catalog ``target_side``)."""
    target = find_insect(board, m.get("target"))
    if target is None or card.target_side == "any":
        return []
    own = target.owner == m["by"]
    if own == (card.target_side == "own"):
        return []
    whose = N_("自分の虫 (your own insect)") if card.target_side == "own" else N_("相手の虫 (an opposing insect)")
    mine = [i.uid for i in present(board, m["by"])] if card.target_side == "own" else [
        i.uid for i in present(board, board.opponent(m["by"]))
    ]
    return [("MJ-4.6", said(N_("{card} chooses {whose}, not {target}"), card=card.name, whose=whose, target=target.uid), {"targets": mine}, None)]


def _attack_suggestions(m: Move, targets: list[Insect]) -> list[dict[str, Any]]:
    return [
        {
            "type": "attack",
            "by": m["by"],
            "attacker": m["attacker"],
            "technique": m["technique"],
            "target": t.uid,
        }
        for t in targets
    ]


def _check_attacker(board: Board, m: Move) -> tuple[Found, Insect | None]:
    attacker = find_insect(board, m["attacker"], m["by"])
    if attacker is None:
        return [
            ("MJ-5.1", said(N_("{attacker} is not an insect of {by} on the field"), attacker=m['attacker'], by=m['by']), None, None)
        ], None
    if attacker.flipped:
        return [("MJ-5.10", said(N_("{uid} is flipped and counts as absent"), uid=attacker.uid), None, None)], None
    found: Found = []
    if attacker.attacked:
        found.append(("MJ-5.2", said(N_("{uid} has already attacked this turn"), uid=attacker.uid), None, None))
    card = board.card(attacker.card)
    if card and card.technique(m["technique"]) is None:
        names = [t.name for t in card.techniques]
        found.append(
            (
                "MJ-5.3",
                said(N_("{card} has no technique {technique}"), card=attacker.card, technique=m['technique']),
                {"techniques": names},
                None,
            )
        )
    return found, attacker


def _check_direct(board: Board, m: Move, attacker: Insect | None) -> Found:
    defender = board.opponent(m["by"])
    blockers = present(board, defender)
    if blockers:
        return [
            (
                "MJ-5.4",
                (
                    N_("the opponent has an insect on the field: the attack must target "
                    "one of them (蟲がいる場合は強制的に虫を殴る)")
                ),
                {"targets": [i.uid for i in blockers]},
                _attack_suggestions(m, blockers),
            )
        ]
    card = board.card(attacker.card) if attacker else None
    tech = card.technique(m["technique"]) if card else None
    if tech is not None and tech.target:
        return [
            (
                "MJ-5.9",
                said(N_("{name} must choose an insect and cannot attack the player"), name=tech.name),
                None,
                None,
            )
        ]
    flipped = any(i.owner == defender for i in board.field)
    if flipped and board.side(defender).territory == 0 and not board.rule("flip_direct_win"):
        return [
            (
                "MJ-5.10",
                N_("a direct attack opened only by flipping (すくいなげ) cannot win"),
                None,
                None,
            )
        ]
    return []


def _check_attack(board: Board, m: Move) -> Found:
    found = _turn_order(board, m)
    more, attacker = _check_attacker(board, m)
    found += more
    if m["target"] == "player":
        return found + _check_direct(board, m, attacker)
    target = find_insect(board, m["target"], board.opponent(m["by"]))
    if target is None:
        blockers = present(board, board.opponent(m["by"]))
        return found + [
            (
                "MJ-5.4",
                said(N_("{target} is not an opposing insect on the field"), target=m['target']),
                None,
                _attack_suggestions(m, blockers) or None,
            )
        ]
    if target.flipped:
        found.append(("MJ-5.10", said(N_("{uid} is flipped and counts as absent"), uid=target.uid), None, None))
    elif attacker is not None and found:
        amount = attack_value(board, attacker, m["technique"], target)
        found = [
            (
                r,
                msg,
                exp
                or {
                    "attack": amount,
                    "damage": target.damage + amount,
                    "hp": max_hp(board, target),
                },
                s,
            )
            for r, msg, exp, s in found
        ]
    return found


def _sources(board: Board) -> set[str]:
    names = set(board.played)
    for ins in board.field:
        if not ins.flipped:
            names.add(ins.card)
            names.update(n for n, _ in ins.enhancements)
    return names


def _check_source(board: Board, m: Move) -> Found:
    """MJ-6.1 (a card in the feed has no effect) and, by house rule, MJ-6.6 (the source is
    a card in play)."""
    name = m["card"]
    if name in _sources(board):
        return []
    if any(name in board.side(p).feed for p in board.order):
        return [("MJ-6.1", said(N_("{name} is only in the エサ場, where cards have no effect"), name=name), None, None)]
    if board.rule("effect_source_in_play"):
        return [
            (
                "MJ-6.6",
                said(N_("{name} is not on the field nor played this turn (house rule effect_source_in_play)"), name=name),
                None,
                None,
            )
        ]
    return []


# effect fields that act on cards off the field, and the zone each reaches (MJ-6.3)
_OFF_FIELD = {"discard": "hand", "feed_discard": "feed"}
_ZONE_JA = {"hand": "手札", "deck": "山札", "discard": "捨て札", "feed": "エサ場"}


def _check_present(board: Board, m: Move) -> Found:
    """MJ-6.2: an insect an effect touches is on the field (and not flipped) as it resolves."""
    found: Found = []
    refs = list(m.get("damage") or {}) + list(m.get("boost") or {})
    refs += [r for k in ("flip", "bounce", "destroy") for r in m.get(k) or []]
    for ref in refs:
        ins = find_insect(board, ref)
        if ins is None or ins.flipped:
            found.append(
                ("MJ-6.2", said(N_("{ref} is not an insect on the field as the effect resolves"), ref=ref), None, None)
            )
    return found


def _check_targets(board: Board, m: Move, card: Card) -> Found:
    """MJ-6.3: an effect's targets are cards on the field, unless the card's text names the
    zone (catalog ``reaches``)."""
    found: Found = []
    zones = [zone for key, zone in _OFF_FIELD.items() if m.get(key)]
    if board.rule("feed_on_field"):
        zones = [zone for zone in zones if zone != "feed"]
    if m.get("summon"):
        zones.append(m.get("from", "hand"))
    for zone in dict.fromkeys(zones):
        if zone not in card.reaches:
            found.append(
                (
                    "MJ-6.3",
                    said(N_("{name}'s effect targets a card in the {zone} ({ZONE_JA}): effects reach only cards on the field unless the card says so (場に出ているカードにしか使用できません)"), name=card.name, zone=zone, ZONE_JA=_ZONE_JA[zone]),
                    {"reaches": list(card.reaches)},
                    None,
                )
            )
    return found


def _check_enter_effect(board: Board, m: Move, card: Card) -> Found:
    """MJ-6.4: a 場に出たとき effect fires when its insect entered the field this turn, played
    from hand or put there by an effect (house rule ``enter_effect_on_summon``)."""
    if not card.on_enter or m.get("technique"):
        return []
    ways = {how for name, how in board.entered if name == card.name}
    if not board.rule("enter_effect_on_summon"):
        ways.discard("effect")
    if ways:
        return []
    why = (
        N_("was put onto the field by an effect (house rule enter_effect_on_summon=false)")
        if any(name == card.name for name, _ in board.entered)
        else N_("did not enter the field this turn")
    )
    return [("MJ-6.4", said(N_("{name}'s 場に出たとき effect: {name} {why}"), name=card.name, why=why), None, None)]


def _check_technique_effect(board: Board, m: Move, card: Card) -> Found:
    """MJ-6.5: a technique chooses one insect; its effect and damage apply to that one only."""
    tech = card.technique(m["technique"]) if isinstance(m.get("technique"), str) else None
    if tech is None or tech.multi_target:
        return []
    refs: list[str] = list(m.get("damage") or {})
    refs += [r for k in ("flip", "bounce", "destroy") for r in m.get(k) or []]
    touched = {ins.uid if ins else ref for ref in refs for ins in [find_insect(board, ref)]}
    if len(touched) <= 1:
        return []
    return [
        (
            "MJ-6.5",
            said(N_("{name} chooses one insect (技の対象は1つの虫しか選べず) but its effect touches {touched}: {touched2}"), name=tech.name, touched=len(touched), touched2=', '.join(sorted(touched))),
            {"insects": 1},
            None,
        )
    ]


def _check_technique_when(board: Board, m: Move, card: Card) -> Found:
    """MJ-6.7: a technique whose text happens 「直接攻撃したとき」 (catalog ``when: "direct"``)
    needs a direct attack with it this turn."""
    tech = card.technique(m["technique"]) if isinstance(m.get("technique"), str) else None
    if tech is None or tech.when != "direct" or (card.name, tech.name) in board.directs:
        return []
    return [("MJ-6.7", said(N_("{tech}'s text happens 「直接攻撃したとき」: {card} has not attacked the player with it this turn"), tech=tech.name, card=card.name), None, None)]


def _check_effect(board: Board, m: Move) -> Found:
    card = board.card(m["card"])
    if card is None:
        found: Found = [("MJ-1.4", said(N_("{card} is not in the card catalog"), card=m['card']), None, None)]
    else:
        found = _check_source(board, m)
        found += _check_enter_effect(board, m, card)
        found += _check_technique_effect(board, m, card)
        found += _check_technique_when(board, m, card)
        found += _check_targets(board, m, card)
    found += _check_present(board, m)
    pid = m.get("player", m["by"])
    if m.get("from", "hand") == "hand" and pid in board.order:
        hand = list(board.side(pid).hand)
        for name in m.get("summon") or []:
            if name in hand or None in hand:
                hand.remove(name if name in hand else None)
            else:
                found.append(("MJ-3.7", said(N_("{name} is not in {pid}'s hand"), name=name, pid=pid), None, None))
    return found


def _check_reveal(board: Board, m: Move) -> Found:
    unknown = board.side(m["by"]).hand.count(None)
    if len(m["cards"]) > unknown:
        return [
            (
                "MJ-8.1",
                said(N_("{by} has only {unknown} unknown card(s) in hand to reveal"), by=m['by'], unknown=unknown),
                None,
                None,
            )
        ]
    return []


def _check_end(board: Board, m: Move) -> Found:
    return _turn_order(board, m)


CHECKS: dict[str, Callable[[Board, Move], Found]] = {
    "setup": _check_setup,
    "draw": _check_draw,
    "set": _check_set,
    "play": _check_play,
    "attack": _check_attack,
    "effect": _check_effect,
    "reveal": _check_reveal,
    "end_turn": _check_end,
}


def _check_copies(before: Board, after: Board, pid: str) -> Found:
    """A card named by the record must fit the deck: at most 2 copies, and within the list."""
    if pid not in before.order:
        return []
    old, new = seen_copies(before, pid), seen_copies(after, pid)
    listed = Counter(before.side(pid).deck_list)
    found: Found = []
    for name, count in new.items():
        if count <= old.get(name, 0):
            continue
        if before.card(name) is None:
            found.append(("MJ-1.4", said(N_("{name} is not in the card catalog"), name=name), None, None))
        elif count > MAX_COPIES:
            found.append(
                (
                    "MJ-1.2",
                    (
                        said(N_("{count} copies of {name} named: at most {MAX_COPIES} copies of a name (同じ名前のカードは2枚まで)"), count=count, name=name, MAX_COPIES=MAX_COPIES)
                    ),
                    {"max": MAX_COPIES},
                    None,
                )
            )
        elif listed and count > listed[name]:
            found.append(
                (
                    "MJ-1.3",
                    (said(N_("{pid}'s deck list has {listed} {name}, {count} seen"), pid=pid, listed=listed[name], name=name, count=count)),
                    {"listed": listed[name]},
                    None,
                )
            )
    return found


def check(board: Board, m: Move) -> list[Violation]:
    seq = int(m.get("seq", 0))
    if board.result is not None:
        return [Violation(seq, "MJ-7.3", N_("the match is already decided"))]
    fn = CHECKS.get(m.get("type", ""))
    if fn is None or (m.get("by") not in board.order and m.get("type") != "effect"):
        return []
    found = fn(board, m)
    if not any(r == "MJ-1.4" for r, *_ in found):
        after = apply(board, m)
        for pid in board.order:
            found += _check_copies(board, after, pid)
    return [
        Violation(seq, rule, msg, expected=exp, suggest=tuple(s) if s else None)
        for rule, msg, exp, s in found
    ]


def result(board: Board) -> Result | None:
    """Decided on the board by the fold (MJ-7.1, MJ-7.2); None while the match goes on."""
    return board.result
