"""Checks of what each card's text says (VW-11), sentence by sentence: which actions a line of
the card may record and how many, whose monsters and which zones they touch, the position a
target must be in, what a coin or a die decides, which deck is drawn from, and the amounts and
durations the text fixes. One function per card text (``TEXTS``); docs/rules/variants-war.md
lists every sentence with the rule id that checks it. Applied when the house rule
``card_texts`` is ``checked`` (the default of variants-war/3)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from projections.base import N_, Move, said
from projections.names import either
from projections.package import freeze
from projections.variants_war import catalog
from projections.variants_war.apply import ACTION_APPLY, complete, destroyed_atk, text_kind, until_turn
from projections.variants_war.board import (
    CENTRE,
    Board,
    Monster,
    col,
    field_row,
    forward,
    home_row,
    in_hand,
    is_field,
    neighbours8,
    pile,
    row,
    square,
)
from projections.variants_war.check.common import Found

WHAT = "VW-11.1"  # 効果の処理: the actions the text makes, and how many
WHOSE = "VW-11.2"  # 自分・相手: whose monster, this card or another
WHERE = "VW-11.3"  # ゾーン・マス: the zone a target stands in, the square it goes to
POSITION = "VW-11.4"  # 表示形式: 守備表示 conditions
CHANCE = "VW-11.5"  # コイントス・サイコロ: the result decides what follows
DECK = "VW-11.6"  # どのデッキ: which deck is drawn from, which deck a card goes back to
TERM = "VW-11.7"  # 数値・期間: amounts and how long they last
HIDDEN = "VW-3.4"  # 非公開情報: a card played from the hand can be in it
Act = dict[str, Any]
Step = tuple[Act, Board]


@dataclass
class Line:
    """One effect or magic line being checked: the board before it, each action as folded
    (with the text's amounts and durations filled in) beside the board before that action."""

    board: Board
    move: Move
    card: str
    kind: str
    by: str
    opp: str
    src: str | None
    steps: list[Step]
    out: Found

    def text(self, i: int) -> str:
        said = [s for k, s in catalog.sentences(self.card) if k == self.kind]
        return said[i] if i < len(said) else ""

    def flag(self, rule: str, message: str, sentence: int, act: Act | None = None,
             fix: Act | None = None) -> None:
        """Report ``act`` breaking the text's ``sentence``; ``fix``: the action the text makes
        instead, offered as the corrected line."""
        self.out.append((rule, said("{card}: {message} (「{text}」)", card=self.card, message=message, text=self.text(sentence)),
                         {"action": act} if act is not None else None, self.fixed(act, fix)))

    def fixed(self, act: Act | None, fix: Act | None) -> tuple[dict[str, Any], ...] | None:
        if act is None or fix is None:
            return None
        recorded = self.move.get("actions") or []
        at = next((i for i, a in enumerate(recorded) if isinstance(a, dict) and a.get("do") == act.get("do")
                   and all(a.get(k) == v for k, v in a.items() if k in act)), None)
        if at is None:
            return None
        line = {k: v for k, v in self.move.items() if k not in ("seq", "at")}
        line["actions"] = [fix if i == at else a for i, a in enumerate(recorded)]
        return (line,)

    def acts(self, *dos: str) -> list[Step]:
        return [(a, b) for a, b in self.steps if a["do"] in dos]

    def seat(self, pid: str) -> int:
        return self.board.seat(pid)


def _mon(before: Board, act: Act, key: str) -> tuple[str | None, Monster | None]:
    sq = act.get(key)
    return (sq, before.at(sq)) if isinstance(sq, str) else (None, None)


def _adjacent(a: Any, b: Any) -> bool:
    return isinstance(a, str) and isinstance(b, str) and abs(col(a) - col(b)) + abs(row(a) - row(b)) == 1


def _front(sq: str, pid_seat: int) -> str | None:
    return square(col(sq), row(sq) + forward(pid_seat))


def _is_back(sq: str, seat: int | None = None) -> bool:
    return not is_field(sq) and (seat is None or row(sq) == home_row(seat))


def _choosable(L: Line, field: bool | None = None) -> bool:
    """The opponent has a monster the text can choose: not immune to it, on the battlefield
    (``field`` True), in a back-row zone (False) or anywhere (None)."""
    return any(m.owner == L.opp and not m.has("immune", L.board.turn) and (field is None or is_field(sq) == field)
               for sq, m in L.board.squares)


# --- what every text shares --------------------------------------------------------------------
def only(L: Line, sentence: int, **limits: int | None) -> None:
    """VW-11.1: the line records only the actions the text makes, no more of each than it says."""
    counts = Counter(a["do"] for a, _ in L.steps if a["do"] != "summon" or "summon" in limits)  # summons: VW-8.1
    for do, n in counts.items():
        if do not in limits:
            L.flag(WHAT, said(N_("its text makes no {do} action"), do=do), sentence, next(a for a, _ in L.steps if a["do"] == do))
        elif limits[do] is not None and n > (limits[do] or 0):
            L.flag(WHAT, said(N_("at most {value} {do} action(s), not {n}"), value=limits[do], do=do, n=n), sentence)


def whose(L: Line, act: Act, before: Board, key: str, want: str, sentence: int) -> None:
    """VW-11.2: ``want`` is "opp" (相手), "own" (自分), "self" (このカード) or "other_own"
    (このカード以外の自分 / 他の自分) or "other" (このカード以外)."""
    sq, m = _mon(before, act, key)
    if m is None:
        return  # no monster there: VW-9.2
    bad = {"opp": m.owner != L.opp, "own": m.owner != L.by, "self": sq != L.src,
           "other": sq == L.src, "other_own": m.owner != L.by or sq == L.src}[want]
    words = {"opp": N_("one of the opponent's monsters (相手モンスター)"), "own": N_("one of your monsters (自分のモンスター)"),
             "self": N_("this card itself (このカード)"), "other": N_("a monster other than this card (このカード以外)"),
             "other_own": N_("another of your monsters (このカード以外の自分のモンスター)")}
    if bad:
        L.flag(WHOSE, said(N_("{card} on {sq} is not {value}"), card=m.card, sq=sq, value=words[want]), sentence, act)


def field_target(L: Line, act: Act, key: str, sentence: int) -> bool:
    sq = act.get(key)
    if isinstance(sq, str) and not is_field(sq):
        L.flag(WHERE, said(N_("{sq} is not a battlefield square (戦場ゾーン)"), sq=sq), sentence, act)
        return False
    return True


def draws(L: Line, piles: tuple[str, ...], sentence: int) -> None:
    """VW-11.6 / VW-11.2: a draw is from the deck the text names, into the effect's player's hand;
    VW-11.1: the text draws, so the line does unless the deck is empty."""
    names = {"deck": N_("your deck (デッキ)"), "rescue": N_("the rescue deck (救援デッキ)"), "magic": N_("the magic deck (魔法デッキ)")}
    if not L.acts("draw") and any(pile(L.board, L.by, p).cards for p in piles):
        L.flag(WHAT, said(N_("1 card is drawn from {value} (the draw is missing)"), value=either([names[p] for p in piles])), sentence)
    for act, _ in L.acts("draw"):
        if act.get("pile") not in piles:
            L.flag(DECK, said(N_("draws from {value}, not {value2}"), value=either([names[p] for p in piles]), value2=names.get(str(act.get('pile')), '?')),
                   sentence, act, {**act, "pile": piles[0]} if len(piles) == 1 else None)
        if act.get("player", L.by) != L.by:
            L.flag(WHOSE, N_("the card drawn goes to your own hand (手札に加える)"), sentence, act)


def _origin(before: Board, pid: str, card: Any) -> str:
    """The deck a card in ``pid``'s hand came from (元のデッキ): as drawn, else by its group."""
    for hc in before.player(pid).hand:
        if hc.card == card:
            return hc.source
    c = catalog.card(card) or {}
    return {"rescue": "rescue", "magic": "magic"}.get(str(c.get("group")), "deck")


def returns_home(L: Line, sentence: int) -> None:
    """VW-11.6: a hand card goes back to the bottom of the deck it came from (元のデッキ)."""
    for act, before in L.acts("return"):
        if not in_hand(before, str(act.get("player", L.by)), act.get("card")):  # type: ignore[arg-type]  # None: unseen
            L.flag(HIDDEN, said(N_("{value} is not in the hand (手札)"), value=act.get('card')), sentence, act)
            continue
        home = _origin(before, act.get("player", L.by), act.get("card"))
        if act.get("pile") != home:
            L.flag(DECK, said(N_("{value} goes back to the deck it came from ({home}), not {value2}"), value=act.get('card'), home=home, value2=act.get('pile')),
                   sentence, act)


def terms(L: Line, sentence: int) -> None:
    """VW-11.7 (VW-11.1 for a status the text does not give): each modify/status is the text's."""
    for act, before in L.acts("modify", "status"):
        t = catalog.term(L.card, L.kind, act)
        if t is None:
            if act["do"] == "status":
                L.flag(WHAT, said(N_("its text gives no status {value}"), value=act.get('status')), sentence, act)
            continue
        if t.do == "modify":
            if act.get("stat") != t.what or act.get("op") != t.op:
                L.flag(TERM, said(N_("the text makes {what} {op}, not {value} {value2}"), what=t.what, op=t.op, value=act.get('stat'), value2=act.get('op')), sentence, act)
                continue
            if t.amount is not None and act.get("amount") != t.amount:
                L.flag(TERM, said(N_("the amount is {amount}, not {value}"), amount=t.amount, value=act.get('amount')), sentence, act)
        _, m = _mon(before, act, "square")
        given, due = act.get("until"), t.until
        if given != due and ("permanent" in (given, due) or until_turn(before, m, given) != until_turn(before, m, due)):
            L.flag(TERM, said(N_("it lasts {due}, not {given}"), due=due, given=given), sentence, act)


def one_target(L: Line, sentence: int, *dos: str) -> None:
    """VW-11.1: the text chooses one monster (1体): every action of ``dos`` is on the same square."""
    squares = {a.get("square") for a, _ in L.acts(*dos)}
    if len(squares) > 1:
        L.flag(WHAT, said(N_("one monster is chosen (1体), not {squares_count}"), squares_count=len(squares)), sentence)


def coin_or_die(L: Line, do: str, sentence: int) -> Any:
    """VW-11.5: a card that tosses or rolls records the one result (heads/tails; 1–6)."""
    found = L.acts(do)
    if not found:
        L.flag(CHANCE, said(N_("the {value} is recorded"), value=N_("coin toss (コイントス)") if do == "coin" else N_("die roll (サイコロ)")), sentence)
        return None
    result = found[0][0].get("result")
    ok = result in ("heads", "tails") if do == "coin" else type(result) is int and 1 <= result <= 6
    if not ok:
        L.flag(CHANCE, said(N_("{result!r} is not a {value}"), result=result, value=N_("coin face (heads/tails)") if do == "coin" else N_("die result 1–6")),
               sentence, found[0][0])
        return None
    return result


# --- the cards -------------------------------------------------------------------------------------
def shinonome_normal(L: Line) -> None:
    only(L, 0, draw=1)
    draws(L, ("magic",), 0)


def shinonome_lateral(L: Line) -> None:
    only(L, 0, draw=1)
    draws(L, ("rescue",), 0)


def saion(branch: dict[str, str]) -> Callable[[Line], None]:
    """西園: an opponent's monster, one coin toss; heads and tails each do one thing."""
    def check(L: Line) -> None:
        only(L, 0, coin=1, **{do: 1 for do in branch.values()})
        for act, before in L.acts(*branch.values()):
            whose(L, act, before, "square", "opp", 0)
        one_target(L, 0, *branch.values())
        result = coin_or_die(L, "coin", 0)
        if result is not None:
            other = branch["tails" if result == "heads" else "heads"]
            for act, _ in L.acts(other):
                L.flag(CHANCE, said(N_("{do} is what {value} does: the coin was {result}"), do=act['do'], value='tails' if result == 'heads' else 'heads', result=result),
                       1 if result == "heads" else 2, act)
            if not L.acts(*branch.values()) and _choosable(L):
                L.flag(CHANCE, said(N_("{result}: the chosen monster gets the text's {value} (then missing)"), result=result, value=branch[result]),
                       1 if result == "heads" else 2)
        if L.kind == "normal":
            terms(L, 1)
        for act, _ in L.acts("position"):
            field_target(L, act, "square", 2)
    return check


def nangetsu_normal(L: Line) -> None:
    only(L, 0, move=1)
    for act, before in L.acts("move"):
        whose(L, act, before, "from", "other", 0)
        if field_target(L, act, "from", 0) and not (_adjacent(act.get("from"), act.get("to")) and is_field(act["to"])):
            L.flag(WHERE, said(N_("{value} is not a battlefield square next to {value2} (隣の戦場ゾーン)"), value=act.get('to'), value2=act.get('from')), 1, act)


def sortie_to_front(L: Line, act: Act, before: Board, zones: str, s_from: int, s_to: int) -> None:
    """From your own back-row zone (``zones``: "back" or "retreat") to the square in front of it."""
    whose(L, act, before, "from", "own", s_from)
    src = act.get("from")
    if not isinstance(src, str):
        return
    seat = L.seat(L.by)
    if not _is_back(src, seat) or (zones == "retreat" and src[0] not in "ace"):
        where = N_("retreat zone (撤退ゾーン)") if zones == "retreat" else N_("sortie or retreat zone (出撃ゾーン・撤退ゾーン)")
        L.flag(WHERE, said(N_("{src} is not your {where}"), src=src, where=where), s_from, act)
    elif act.get("to") != square(col(src), field_row(seat)):
        L.flag(WHERE, said(N_("{value} is not the battlefield square in front of {src} (正面・前方)"), value=act.get('to'), src=src), s_to, act)


def nangetsu_lateral(L: Line) -> None:
    only(L, 0, move=1)
    for act, before in L.acts("move"):
        sortie_to_front(L, act, before, "back", 0, 1)


def hojo_normal(L: Line) -> None:
    only(L, 1, bounce=1)
    for act, _ in L.acts("bounce"):
        sq = act.get("square")
        if isinstance(sq, str) and is_field(sq):
            L.flag(WHERE, said(N_("{sq} is not a sortie or retreat zone (出撃ゾーン・撤退ゾーン)"), sq=sq), 0, act)


def summoner(L: Line) -> None:
    only(L, 0, to_deck=None, summon=1)  # the condition itself is VW-8.1


def genchu_special(L: Line) -> None:
    only(L, 2, move=1, destroy=1, lose_life=1)
    moves = L.acts("move")
    for act, before in moves:
        whose(L, act, before, "from", "opp", 2)
    if not moves:
        for act, _ in L.acts("destroy", "lose_life"):
            L.flag(WHAT, N_("a monster is destroyed and a life lost only where the chosen one is moved to"), 4, act)
        if _choosable(L, field=True):
            L.flag(WHAT, N_("when it is summoned an opponent's monster is chosen and moved (the move is missing)"), 2)
        return
    act, _ = moves[0]
    src = act.get("from")
    if not isinstance(src, str):
        return
    dst = square(col(src), home_row(L.seat(L.opp)))
    if act.get("to") != dst:
        L.flag(WHERE, said(N_("it goes to the opponent's zone of its column (その列の相手側), {dst}, not {value}"), dst=dst, value=act.get('to')), 3, act)
        return
    start = L.steps[0][1]
    there = start.at(dst)
    destroyed = [a for a, _ in L.acts("destroy")]
    lost = [a for a, _ in L.acts("lose_life")]
    if there is not None:
        if [a.get("square") for a in destroyed] != [dst]:
            L.flag(WHAT, said(N_("{card} already on {dst} is destroyed"), card=there.card, dst=dst), 4)
        if not lost:
            L.flag(WHAT, N_("the opponent loses 1 life (相手は1点のライフを失う)"), 4)
    elif destroyed or lost:
        L.flag(WHAT, said(N_("{dst} was empty: nothing is destroyed, no life is lost"), dst=dst), 4, (destroyed + lost)[0])
    life_lost(L, 4)


def life_lost(L: Line, sentence: int) -> None:
    for act, _ in L.acts("lose_life"):
        if act.get("player") != L.opp:
            L.flag(WHOSE, N_("the opponent (相手) loses the life"), sentence, act)
        elif act.get("amount", 1) != 1:
            L.flag(TERM, said(N_("1 life, not {value}"), value=act.get('amount')), sentence, act)


def baron_normal(L: Line) -> None:
    only(L, 0, move=1)
    for act, before in L.acts("move"):
        whose(L, act, before, "from", "other_own", 0)
        if field_target(L, act, "from", 0) and not (_adjacent(act.get("from"), act.get("to")) and is_field(act["to"])):
            L.flag(WHERE, said(N_("{value} is not a battlefield square next to {value2} (隣の戦場ゾーン)"), value=act.get('to'), value2=act.get('from')), 1, act)


def baron_lateral(L: Line) -> None:
    only(L, 0, move=1)
    for act, _ in L.acts("move"):
        src, dst = act.get("from"), act.get("to")
        if not (isinstance(src, str) and not is_field(src) and src[0] in "bd"):
            L.flag(WHERE, said(N_("{src} is not a sortie zone (出撃ゾーン)"), src=src), 0, act)
        elif not (isinstance(dst, str) and row(dst) == row(src) and abs(col(dst) - col(src)) == 1):
            L.flag(WHERE, said(N_("{dst} is not the retreat zone beside {src} (横の撤退ゾーン)"), dst=dst, src=src), 1, act)


def placed(L: Line, zone: str, from_hand_only: bool, sentence: int) -> None:
    """ヴァイカント: a monster (not an ace) into your own retreat/sortie zone."""
    seat = L.seat(L.by)
    for act, before in L.acts("place"):
        name = act.get("card")
        if catalog.card(name) is None or catalog.is_magic(name) or catalog.is_ace(name):
            L.flag(WHAT, said(N_("{name} is not a monster of the hand or deck"), name=name), sentence, act)
        if act.get("player", L.by) != L.by:
            L.flag(WHOSE, N_("you place one of your own monsters"), sentence, act)
        if from_hand_only and act.get("from", "hand") != "hand":
            L.flag(WHERE, N_("the monster comes from the hand (手札)"), sentence, act)
        elif act.get("from", "hand") == "hand" and isinstance(name, str) and not in_hand(before, L.by, name):
            L.flag(HIDDEN, said(N_("{name} is not in the hand (手札)"), name=name), sentence, act)
        dst = act.get("to")
        cols = "ace" if zone == "retreat" else "bd"
        if not (isinstance(dst, str) and _is_back(dst, seat) and dst[0] in cols):
            label = N_("retreat zone (撤退ゾーン)") if zone == "retreat" else N_("sortie zone (出撃ゾーン)")
            L.flag(WHERE, said(N_("{dst} is not your {label}"), dst=dst, label=label), sentence, act)


def vacant_normal(L: Line) -> None:
    only(L, 0, place=1)
    placed(L, "retreat", True, 0)


def vacant_lateral(L: Line) -> None:
    only(L, 0, place=1)
    placed(L, "sortie", False, 0)


def marquis_normal(L: Line) -> None:
    only(L, 0, die=1, draw=1)
    result = coin_or_die(L, "die", 0)
    if result is not None:
        want, sentence = ("rescue", 0) if result % 2 == 0 else ("magic", 1)
        parity = N_("an even") if result % 2 == 0 else N_("an odd")
        for act, _ in L.acts("draw"):
            if act.get("pile") != want:
                L.flag(CHANCE, said(N_("{parity} roll ({result}) draws from the {want} deck, not the {value} deck"), parity=parity, result=result, want=want, value=act.get('pile')),
                       sentence, act, {**act, "pile": want})
        if not L.acts("draw") and pile(L.board, L.by, want).cards:
            L.flag(CHANCE, said(N_("{parity} roll ({result}) draws 1 card from the {want} deck (the draw is missing)"), parity=parity, result=result, want=want), sentence)
    for act, _ in L.acts("draw"):
        if act.get("player", L.by) != L.by:
            L.flag(WHOSE, N_("the card drawn goes to your own hand"), 0, act)


def marquis_lateral(L: Line) -> None:
    only(L, 0, die=1, move=1)
    result = coin_or_die(L, "die", 0)
    for act, before in L.acts("move"):
        if result is not None and not 2 <= result <= 5:
            L.flag(CHANCE, said(N_("a {result} moves nothing: only 2–5 do (２～５が出た場合)"), result=result), 1, act)
        sortie_to_front(L, act, before, "retreat", 1, 1)


def duke_lateral(L: Line) -> None:
    only(L, 0, status=2)
    for act, before in L.acts("status"):
        whose(L, act, before, "square", "opp", 0)
    one_target(L, 0, "status")
    given = {a.get("status") for a, _ in L.acts("status")}
    if given and not {"no_position", "no_effect"} <= given:
        L.flag(WHAT, N_("both position changes and effects are stopped: no_position and no_effect"), 1)
    terms(L, 1)


def grand_duke_special(L: Line) -> None:
    only(L, 2, destroy=1, modify=1, lose_life=1)
    gains = []
    for act, before in L.acts("destroy"):
        whose(L, act, before, "square", "opp", 2)
        sq = act.get("square")
        if isinstance(sq, str) and is_field(sq):
            L.flag(WHERE, said(N_("{sq} is not a sortie or retreat zone (出撃ゾーン・撤退ゾーン)"), sq=sq), 2, act)
        gone: list[int] = []
        destroyed_atk(before, act, gone)
        gains += [g // 2 for g in gone]
    for act, before in L.acts("modify"):
        whose(L, act, before, "square", "self", 4)
        if gains and act.get("amount") != gains[0]:
            L.flag(TERM, said(N_("half the destroyed monster's ATK is {value}, not {value2}"), value=gains[0], value2=act.get('amount')), 4, act)
    if not L.acts("destroy") and _choosable(L, field=False):
        L.flag(WHAT, N_("when it is summoned a monster in the opponent's sortie or retreat zone is destroyed "
                     "(the destroy is missing)"), 3)
    if L.acts("destroy") and not L.acts("lose_life"):
        L.flag(WHAT, N_("the opponent loses 1 life (相手は1点のライフを失う)"), 4)
    if not L.acts("destroy"):
        for act, _ in L.acts("modify", "lose_life"):
            L.flag(WHAT, N_("nothing destroyed by this effect: no gain, no life lost"), 4, act)
    terms(L, 4)
    life_lost(L, 4)


def this_card_position(L: Line) -> None:
    only(L, 0, position=1)
    for act, before in L.acts("position"):
        whose(L, act, before, "square", "self", 0)
        field_target(L, act, "square", 0)


def risebelt_normal(L: Line) -> None:
    only(L, 0, **{"return": 1, "modify": 1})
    shown = [a for a, _ in L.acts("return")]
    for act in shown:
        name = act.get("card")
        if catalog.card(name) is None or catalog.is_magic(name):
            L.flag(WHAT, said(N_("{name} is not a monster (手札のモンスター)"), name=name), 0, act)
    returns_home(L, 2)
    if bool(shown) != bool(L.acts("modify")):
        L.flag(WHAT, N_("the shown monster raises this card's ATK and DEF and goes back to its deck: both"), 1)
    for act, before in L.acts("modify"):
        whose(L, act, before, "square", "self", 1)
        name = shown[0].get("card") if shown else None
        if catalog.card(name) is not None and not catalog.is_magic(name):
            atk = catalog.base_stat(str(name), "atk", dict(L.board.options))
            if act.get("amount") != atk:
                L.flag(TERM, said(N_("{name}'s ATK is {atk}, not {value}"), name=name, atk=atk, value=act.get('amount')), 1, act)
    terms(L, 1)


def reptia_normal(L: Line) -> None:
    only(L, 0, move=1)
    for act, before in L.acts("move"):
        whose(L, act, before, "from", "self", 0)
        if not (_adjacent(act.get("from"), act.get("to")) and is_field(act["to"])):
            L.flag(WHERE, said(N_("{value} is not the battlefield square next to it (隣の戦場ゾーン)"), value=act.get('to')), 0, act)


def positions(limit: int | None, side: str | None) -> Callable[[Line], None]:
    """ジャイクロプス: position changes of (your) monsters, each at most once."""
    def check(L: Line) -> None:
        only(L, 0, position=limit)
        seen: set[Any] = set()
        for act, before in L.acts("position"):
            if side:
                whose(L, act, before, "square", side, 0)
            field_target(L, act, "square", 0)
            if act.get("square") in seen:
                L.flag(WHAT, said(N_("{value} is chosen once"), value=act.get('square')), 0, act)
            seen.add(act.get("square"))
    return check


def bandora_normal(L: Line) -> None:
    only(L, 0, draw=1)
    draws(L, ("rescue",), 0)


def bandora_lateral(L: Line) -> None:
    only(L, 0, draw=1, **{"return": 1})
    draws(L, ("magic", "rescue"), 0)
    order = [a["do"] for a, _ in L.steps if a["do"] in ("draw", "return")]
    if order == ["return", "draw"]:
        L.flag(WHAT, N_("the card goes back after the draw (その後)"), 0)
    elif order == ["draw"]:
        L.flag(WHAT, N_("after the draw one hand card goes back to the bottom of its deck (the return is missing)"), 0)
    returns_home(L, 0)


def self_status(L: Line) -> None:
    only(L, 0, status=1)
    for act, before in L.acts("status"):
        whose(L, act, before, "square", "self", 0)
    terms(L, 0)


def seal_eel_normal(L: Line) -> None:
    only(L, 0, status=1)
    terms(L, 1)


def seal_eel_lateral(L: Line) -> None:
    only(L, 0, seal_zone=1)
    for act, before in L.acts("seal_zone"):
        if before.occupied(str(act.get("square"))):
            L.flag(WHERE, said(N_("{value} holds a card: choose a zone with none (カードが置かれていないゾーン)"), value=act.get('square')), 0, act)


def gandora_normal(L: Line) -> None:
    only(L, 0, destroy=None)
    around = set(neighbours8(L.src)) if L.src else set()
    for act, _ in L.acts("destroy"):
        if act.get("square") not in around:
            L.flag(WHERE, said(N_("{value} is not one of the 8 squares around it (周囲８マス)"), value=act.get('square')), 0, act)
    start = L.steps[0][1] if L.steps else L.board
    # an immune monster is not required: 騎士道精神 shields it from every other card, シュルブ from
    # the opponent's only, and the status does not say which
    due = sorted(sq for sq in around if (m := start.at(sq)) is not None
                 and not m.has("immune", start.turn) and not (start.arctos and sq == CENTRE))
    missed = sorted(set(due) - {a.get("square") for a, _ in L.acts("destroy")})
    if missed:
        L.flag(WHAT, said(N_("every monster around it is destroyed (全てのモンスター): also {value}"), value=', '.join(missed)), 0,
               {"do": "destroy", "square": missed[0]})


def covington_normal(L: Line) -> None:
    only(L, 0, move=1)
    for act, _ in L.acts("move"):
        src = act.get("from")
        if not _adjacent(src, L.src):
            L.flag(WHERE, said(N_("{src} is not next to it (自分の隣)"), src=src), 0, act)
        elif act.get("to") != _front(str(src), L.seat(L.by)):
            L.flag(WHERE, said(N_("{value} is not one square forward of {src} (前方1マス)"), value=act.get('to'), src=src), 0, act)


def sword_normal(L: Line) -> None:
    only(L, 0, modify=1)
    me = L.board.at(L.src) if L.src else None
    ahead = _front(L.src, L.seat(L.by)) if L.src else None
    for act, before in L.acts("modify"):
        if me is not None and me.position != "defence":
            L.flag(POSITION, N_("only while this card is in defence position (守備表示の時)"), 0, act)
        elif act.get("square") != ahead:
            L.flag(WHERE, said(N_("{value} is not the square in front of it (1マス前), {ahead}"), value=act.get('square'), ahead=ahead), 0, act)
        else:
            whose(L, act, before, "square", "opp", 0)
    terms(L, 0)


def express_normal(L: Line) -> None:
    only(L, 0, move=2)
    for act, before in L.acts("move"):
        sortie_to_front(L, act, before, "back", 0, 0)


def karakuri_normal(L: Line) -> None:
    only(L, 0, position=1)
    ahead = _front(L.src, L.seat(L.by)) if L.src else None
    for act, before in L.acts("position"):
        if act.get("square") != ahead:
            L.flag(WHERE, said(N_("{value} is not the square in front of it (1マス前), {ahead}"), value=act.get('square'), ahead=ahead), 0, act)
        elif field_target(L, act, "square", 0):
            whose(L, act, before, "square", "opp", 0)


def penguin_normal(L: Line) -> None:
    only(L, 0, swap=1)
    for act, before in L.acts("swap"):
        pair = [act.get("a"), act.get("b")]
        if L.src not in pair:
            L.flag(WHOSE, N_("this card is one of the two (このモンスターの位置)"), 0, act)
            continue
        other = pair[1] if pair[0] == L.src else pair[0]
        whose(L, {"square": other}, before, "square", "other_own", 0)


def targets(side: str | None, do: str, sentence: int, term_sentence: int | None) -> Callable[[Line], None]:
    """A text that chooses one monster (of ``side``) and does ``do`` to it."""
    def check(L: Line) -> None:
        only(L, sentence, **{do: 1})
        if side:
            for act, before in L.acts(do):
                whose(L, act, before, "square", side, sentence)
        if term_sentence is not None:
            terms(L, term_sentence)
    return check


def shield_crash(L: Line) -> None:
    only(L, 0, destroy=1)
    for act, before in L.acts("destroy"):
        whose(L, act, before, "square", "opp", 0)
        _, m = _mon(before, act, "square")
        if m is not None and m.position != "defence":
            L.flag(POSITION, said(N_("{card} on {value} is not in defence position (守備表示)"), card=m.card, value=act.get('square')), 0, act)


def position_change(L: Line) -> None:
    only(L, 0, move=1)
    for act, _ in L.acts("move"):
        if field_target(L, act, "from", 0) and not _adjacent(act.get("from"), act.get("to")):
            L.flag(WHERE, said(N_("{value} is not next to {value2} (隣のゾーン)"), value=act.get('to'), value2=act.get('from')), 0, act)


def forced_swap(L: Line) -> None:
    only(L, 0, swap=1)
    for act, before in L.acts("swap"):
        whose(L, act, before, "a", "own", 0)
        whose(L, act, before, "b", "own", 0)


def hero_heart(L: Line) -> None:
    only(L, 0, modify=1, status=1)
    one_target(L, 0, "modify", "status")
    if len(L.acts("modify")) != len(L.acts("status")):
        L.flag(WHAT, N_("its ATK is halved and it gets the move, both (攻撃力が半分になる代わり)"), 0)
    terms(L, 0)


def mine(L: Line) -> None:
    only(L, 0, destroy=3)
    owners: Counter[str] = Counter()
    for act, before in L.acts("destroy"):
        _, m = _mon(before, act, "square")
        if m is not None:
            owners["own" if m.owner == L.by else "opp"] += 1
    if owners["own"] > 2 or owners["opp"] > 1:
        L.flag(WHOSE, said(N_("2 of yours and 1 of the opponent's, not {own} and {opp}"), own=owners['own'], opp=owners['opp']), 0)
    elif len(L.acts("destroy")) < 3:
        L.flag(WHAT, N_("2 of your monsters and 1 of the opponent's are destroyed, all three (2体と1体)"), 0)


# (card, text kind) -> its check. Every text of the catalog has one (tests/variants_war).
TEXTS: dict[tuple[str, str], Callable[[Line], None]] = {
    ("ヴァリアンツの巫女－東雲", "normal"): shinonome_normal,
    ("ヴァリアンツの巫女－東雲", "lateral"): shinonome_lateral,
    ("ヴァリアンツの弓引－西園", "normal"): saion({"heads": "status", "tails": "modify"}),
    ("ヴァリアンツの弓引－西園", "lateral"): saion({"heads": "bounce", "tails": "position"}),
    ("ヴァリアンツの忍者－南月", "normal"): nangetsu_normal,
    ("ヴァリアンツの忍者－南月", "lateral"): nangetsu_lateral,
    ("ヴァリアンツの武者－北条", "normal"): hojo_normal,
    ("ヴァリアンツの武者－北条", "lateral"): summoner,
    ("ヴァリアンツの聚－幻中", "special"): genchu_special,
    ("ヴァリアンツＢ－バロン", "normal"): baron_normal,
    ("ヴァリアンツＢ－バロン", "lateral"): baron_lateral,
    ("ヴァリアンツＶ－ヴァイカント", "normal"): vacant_normal,
    ("ヴァリアンツＶ－ヴァイカント", "lateral"): vacant_lateral,
    ("ヴァリアンツＭ－マーキス", "normal"): marquis_normal,
    ("ヴァリアンツＭ－マーキス", "lateral"): marquis_lateral,
    ("ヴァリアンツＤ－デューク", "normal"): summoner,
    ("ヴァリアンツＤ－デューク", "lateral"): duke_lateral,
    ("ヴァリアンツＧ－グランデューク", "special"): grand_duke_special,
    ("メタルフォーゼ・ゴルドライバー", "lateral"): this_card_position,
    ("召喚師ライズベルト", "normal"): risebelt_normal,
    ("レプティアの武者騎兵", "normal"): reptia_normal,
    ("ダイカミナリ・ジャイクロプス", "normal"): positions(None, "own"),
    ("ダイカミナリ・ジャイクロプス", "lateral"): positions(2, None),
    ("バンドラの宝具箱", "normal"): bandora_normal,
    ("バンドラの宝具箱", "lateral"): bandora_lateral,
    ("シュルブの魔導騎兵", "normal"): self_status,
    ("EMシール・イール", "normal"): seal_eel_normal,
    ("EMシール・イール", "lateral"): seal_eel_lateral,
    ("破壊竜ガンドラ", "normal"): gandora_normal,
    ("督戦官コヴィントン", "normal"): covington_normal,
    ("忍者義賊ゴエゴエ", "normal"): self_status,
    ("超重武者ソード－９９９", "normal"): sword_normal,
    ("瞬着ボマー", "normal"): self_status,
    ("モンスターエクスプレス", "normal"): express_normal,
    ("カラクリ武者六参壱八", "normal"): karakuri_normal,
    ("ペンギン忍者", "normal"): penguin_normal,
    ("アサルト・アルマート", "normal"): targets("opp", "modify", 0, 0),
    ("幻惑の巻物", "effect"): targets("opp", "status", 0, 1),
    ("騎士道精神", "effect"): targets("own", "status", 0, 1),
    ("一点着地", "effect"): targets("own", "status", 0, 1),
    ("士気高揚", "effect"): targets("own", "status", 0, 0),
    ("シールドクラッシュ", "effect"): shield_crash,
    ("ポジションチェンジ", "effect"): position_change,
    ("強制転移", "effect"): forced_swap,
    ("破天荒な風", "effect"): targets(None, "modify", 0, 0),
    ("ヒーローハート", "effect"): hero_heart,
    ("機雷化", "effect"): mine,
}


def walk(board: Board, move: Move) -> list[Step]:
    """Each action of the line as the fold takes it (the text's amounts and durations filled in,
    VW-11.7) with the board before it. Every board is kept (frozen) as it is made."""
    freeze()
    ids = {p.id for p in board.players}
    steps: list[Step] = []
    gone: list[int] = []
    for act in move.get("actions") or ():
        if not isinstance(act, dict) or act.get("do") not in ACTION_APPLY or act.get("player", move["by"]) not in ids:
            continue
        act = complete(board, move, act, gone)
        destroyed_atk(board, act, gone)
        steps.append((act, board))
        board = ACTION_APPLY[act["do"]](board, act, move["by"])
        freeze()
    return steps


def check_card_text(board: Board, move: Move, out: Found) -> None:
    """VW-11: the line does what its card's text says (house rule ``card_texts: checked``)."""
    if board.opt("card_texts") != "checked":
        return
    kind = text_kind(move)
    fn = TEXTS.get((str(move.get("card")), kind))
    if fn is None:
        return  # no such text: VW-4.2, VW-5.4, VW-5.5 say so
    src = move.get("square") if move.get("type") == "effect" else None
    line = Line(board, move, str(move["card"]), kind, move["by"], board.other(move["by"]),
                src if isinstance(src, str) else None, walk(board, move), out)
    fn(line)
