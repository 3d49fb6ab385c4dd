"""Legal-move enumeration (where it can) and the seeded random match generator."""

from __future__ import annotations

import random
from typing import Any

from projections.package import generated_header
from projections.variants_war import catalog
from projections.variants_war.apply import apply
from projections.variants_war.board import (
    MAIN_ACTIONS,
    Board,
    Monster,
    field_row,
    can_retreat,
    draw_due,
    home_row,
    invaders,
    is_field,
    master_kind,
    may_move,
    outcome,
    per_turn,
    pending_battles,
    stat,
)
from projections.variants_war.check.moving import legal_steps

MAX_TURNS = 400
WIND, SHINONOME = "破天荒な風", "ヴァリアンツの巫女－東雲"
DUKE, GRAND = "ヴァリアンツＤ－デューク", "ヴァリアンツＧ－グランデューク"


def _picker(board: Board) -> str:
    """Whose pick it is: picks alternate (VW-2.2), from whoever picked first (the table's
    ジャンケン; before any pick, the first player listed)."""
    a, b = board.players
    if len(a.picks) != len(b.picks):
        return a.id if len(a.picks) < len(b.picks) else b.id
    return board.draft_first or a.id


def legal_moves(board: Board) -> list[dict[str, Any]]:
    """Moves of the kinds that can be listed: draft picks, draws, sets, steps, position
    changes, the battles due, the breakthrough and end of turn. Dice and effects are not listed."""
    if board.phase == "over":
        return []
    if board.phase == "draft":
        by = _picker(board)
        return [{"type": "draft", "by": by, "card": c} for c in board.draft_pool]
    if board.phase == "setup":
        return [{"type": "draw", "by": p.id, "card": None} for p in board.players if len(p.hand) < 2]
    by = board.active
    if board.phase == "draw" and draw_due(board):
        return [{"type": "draw", "by": by, "card": None}]
    out: list[dict[str, Any]] = []
    if board.phase in ("draw", "standby"):
        out += _sets(board, by)
    if board.phase in ("draw", "standby", "main"):
        out += _main(board, by)
    pending = pending_battles(board)
    if pending:
        return out + [_battle(board, by, a, b) for a, b in pending]
    if not board.resolved and invaders(board, by) and board.phase != "master":
        return out + [{"type": "breakthrough", "by": by, "squares": invaders(board, by)}]
    if master_kind(board) and not board.mastered:
        return out  # the dice decide
    return out + [{"type": "end_turn", "by": by}]


def _sets(board: Board, by: str) -> list[dict[str, Any]]:
    if board.sortied:
        return []
    p = board.player(by)
    zones = [f"{c}{home_row(p.seat)}" for c in "bd" if not board.occupied(f"{c}{home_row(p.seat)}")]
    names = sorted({h.card for h in p.hand if h.card and not catalog.is_magic(h.card)})
    return [{"type": "set", "by": by, "card": n, "to": z} for n in names for z in zones]


def _main(board: Board, by: str) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for sq, m in board.squares:
        if m.owner != by:
            continue
        if may_move(board, m) and not (m.source == "ex" and m.arrived == board.turn):
            out += [{"type": "move", "by": by, "from": sq, "to": t} for t in legal_steps(board, sq)]
        if is_field(sq) and not m.turned and not (per_turn(board) and "position" in board.used):
            out.append({"type": "position", "by": by, "square": sq})
    return out


def _battle(board: Board, by: str, a: str, b: str) -> dict[str, Any]:
    return {"type": "battle", "by": by, "squares": [a, b], "destroyed": outcome(board, a, b)["destroyed"]}


# --- what the recording page offers beside the legal moves (exports/recording.py ``suggestions``):
# the effects and magic the board allows, their actions prefilled from the card's text in the
# catalog (the card, then its action, then the target). A suggestion is a whole move where the
# card leaves nothing to choose but the target (one per target), otherwise the actions the text
# fixes with the targets left to tap. Nothing here is checked: the checks judge what is recorded.

NANGETSU = "ヴァリアンツの忍者－南月"
FAMILY = "ヴァリアンツ"


def _mine(board: Board, by: str) -> list[tuple[str, Monster]]:
    return [(sq, m) for sq, m in board.squares if m.owner == by]


def _theirs(board: Board, by: str) -> list[tuple[str, Monster]]:
    return [(sq, m) for sq, m in board.squares if m.owner != by]


def _terms(card: str, kind: str, square: str | None = None) -> list[dict[str, Any]]:
    """The modify/status actions the card's text fixes (catalog.TERMS), the target left to tap
    unless ``square`` is given."""
    out = []
    for t in catalog.TERMS.get((card, kind), ()):
        act: dict[str, Any] = {"do": t.do}
        if square:
            act["square"] = square
        if t.do == "modify":
            act.update(stat=t.what, op=str(t.op))
            if t.amount is not None:
                act["amount"] = t.amount
        else:
            act["status"] = t.what
        act["until"] = t.until
        out.append(act)
    return out


def _actions(board: Board, by: str, sq: str, m: Monster, kind: str) -> list[list[dict[str, Any]]]:
    """The action lists ``m`` (on ``sq``) may do with its ``kind`` effect: one per target where
    the text leaves only the target, else one with the targets left out."""
    seat = board.seat(by)
    if m.card == DUKE and kind == "normal":
        return [[{"do": "to_deck", "square": sq}, {"do": "to_deck", "square": o},
                 {"do": "summon", "card": GRAND, "to": sq}]
                for o, x in _mine(board, by) if o != sq and is_field(o) and x.card.startswith(FAMILY)]
    if m.card == GRAND and kind == "special":
        foe = board.other(by)
        return [[{"do": "destroy", "square": o},
                 {"do": "modify", "square": sq, "stat": "atk", "op": "add", "amount": stat(board, x, "atk") // 2,
                  "until": "permanent"},
                 {"do": "lose_life", "player": foe, "amount": 1}]
                for o, x in _theirs(board, by) if not is_field(o)]
    if m.card == NANGETSU and kind == "lateral":  # a monster of the back rows sorties to the zone in front
        return [[{"do": "move", "from": o, "to": f"{o[0]}{field_row(seat)}"}]
                for o, _ in _mine(board, by) if not is_field(o) and o[1:] == str(home_row(seat))
                and not board.occupied(f"{o[0]}{field_row(seat)}")]
    if m.card == NANGETSU and kind == "normal":
        return [[{"do": "move"}]]
    if m.card == SHINONOME:
        return [[{"do": "draw", "pile": "magic" if kind == "normal" else "rescue"}]]
    terms = _terms(m.card, kind)
    return [terms] if terms else []


def _effects(board: Board, by: str) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    if board.phase in ("draft", "setup", "over"):
        return out
    for sq, m in _mine(board, by):
        kinds = []
        if m.lateral:
            kinds.append("lateral")
        if catalog.is_ace(m.card) and m.arrived == board.turn and sq not in board.specials:  # once, as it came
            kinds.append("special")
        if is_field(sq) and not m.acted and board.phase in ("draw", "standby", "main") \
                and not (per_turn(board) and "effect" in board.used):
            kinds.append("normal")
        for kind in kinds:
            if not catalog.has_effect(m.card, kind):
                continue
            for actions in _actions(board, by, sq, m, kind) or [[]]:
                move: dict[str, Any] = {"type": "effect", "by": by, "card": m.card, "square": sq, "kind": kind}
                if actions:
                    move["actions"] = actions
                out.append(move)
    return out


def _magic(board: Board, by: str) -> list[dict[str, Any]]:
    if board.phase not in ("draw", "standby"):
        return []
    out: list[dict[str, Any]] = []
    for name in sorted({h.card for h in board.player(by).hand if h.card and catalog.is_magic(h.card)}):
        terms = _terms(name, "effect")
        if terms and all(a["do"] == "modify" for a in terms) and len(terms) == 1:  # one monster: one per target
            out += [{"type": "magic", "by": by, "card": name, "actions": [dict(terms[0], square=sq)]}
                    for sq, _ in board.squares if is_field(sq)]
        else:
            out.append({"type": "magic", "by": by, "card": name, **({"actions": terms} if terms else {})})
    return out


def _after_main(board: Board, by: str) -> list[dict[str, Any]]:
    """Once a main-phase action is used (行動権: a move, an effect, a position change), the turn
    goes on to its battle phase: the battles due, else the breakthrough, else the master phase's
    dice when due, else the end of the turn (VW-3)."""
    if not (set(board.used) & set(MAIN_ACTIONS)) and board.phase not in ("battle", "master"):
        return []
    legal = legal_moves(board)
    for kind in ("battle", "breakthrough"):
        found = [m for m in legal if m["type"] == kind]
        if found:
            return found
    if master_kind(board) and not board.mastered:
        return [{"type": "master", "by": by}]
    return [m for m in legal if m["type"] == "end_turn"]


def suggestions(board: Board) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """(first, last): the moves the table most likely plays now, before the legal moves (an
    ace's special effect the turn it came, a lateral effect just triggered, the battle phase
    once the main phase's action is used), and the rest of the effects and magic, after them."""
    if board.phase in ("draft", "setup", "over") or not board.active:
        return [], []
    by = board.active
    moves = _effects(board, by) + _magic(board, by)
    # an ace's special effect and a lateral one just triggered come first while the turn is in
    # its phases before the battle (VW-3): after the battle or the master phase they are stale
    early = board.phase in ("draw", "standby", "main")
    first = [m for m in moves if m.get("kind") in ("special", "lateral") and early]
    return first + _after_main(board, by), [m for m in moves if m not in first]


# --- the generator -------------------------------------------------------------------------
def header(ruleset: Any, rng: random.Random, match_id: str, house_rules: dict[str, Any] | None = None) -> dict[str, Any]:
    factions = list(catalog.FACTIONS)
    rng.shuffle(factions)
    players = [{"id": pid, "name": pid, "deck": {"name": f"{f}デッキ", "archetype": f, "cards": list(catalog.starter(f))}}
               for pid, f in zip("AB", factions)]
    return generated_header(ruleset, match_id, players, rng.choice(["A", "B"]), house_rules=house_rules)


def _draw_move(rng: random.Random, board: Board, by: str) -> dict[str, Any]:
    deck = board.player(by).deck
    card = deck.cards[0] if deck.cards[0] is not None else rng.choice(sorted(deck.pool))
    return {"type": "draw", "by": by, "card": card}


class _Game:
    def __init__(self, rng: random.Random, board: Board):
        self.rng, self.board, self.moves = rng, board, []  # type: ignore[var-annotated]

    def play(self, move: dict[str, Any]) -> None:
        if self.board.phase == "over":
            return  # an effect decided the match mid-turn: nothing more is recorded
        move = {"seq": len(self.moves) + 1, **move}
        self.moves.append(move)
        self.board = apply(self.board, move)

    def draft_and_setup(self, first_picker: str) -> None:
        picker = first_picker
        while self.board.phase == "draft":
            self.play({"type": "draft", "by": picker, "card": self.rng.choice(self.board.draft_pool)})
            picker = self.board.other(picker)
        for p in self.board.players:
            for _ in range(2):
                self.play(_draw_move(self.rng, self.board, p.id))

    def turn(self) -> None:
        by = self.board.active
        if draw_due(self.board):
            self.play(_draw_move(self.rng, self.board, by))
        sets = _sets(self.board, by)
        if sets:
            self.play(self.rng.choice(sets))
        self.wind(by)
        self.effects(by)
        self.main(by)
        while pending_battles(self.board) and self.board.phase != "over":
            a, b = pending_battles(self.board)[0]
            move = _battle(self.board, by, a, b)
            retreat = [s for s in move["destroyed"] if can_retreat(self.board, s) and self.rng.random() < 0.5]
            if retreat:
                move["retreat"] = retreat[:1]
            self.play(move)
        if invaders(self.board, by) and self.board.phase != "over":
            self.play({"type": "breakthrough", "by": by, "squares": invaders(self.board, by)})
        if self.board.phase == "over":
            return
        if master_kind(self.board):
            self.play({"type": "master", "by": by, "dice": [self.rng.randint(1, 8), self.rng.randint(1, 8)]})
        self.play({"type": "end_turn", "by": by})

    def wind(self, by: str) -> None:
        """Use 破天荒な風 from hand on one of your battlefield monsters (a temporary +1000)."""
        hand = [h.card for h in self.board.player(by).hand]
        targets = [sq for sq, m in self.board.squares if m.owner == by and is_field(sq)]
        if WIND in hand and targets and self.board.phase in ("draw", "standby"):
            act = {"do": "modify", "square": self.rng.choice(targets), "stat": "both", "op": "add", "amount": 1000}
            self.play({"type": "magic", "by": by, "card": WIND, "actions": [act]})

    def effects(self, by: str) -> None:
        for sq, m in list(self.board.squares):
            if per_turn(self.board) and "effect" in self.board.used:
                return
            if self.board.at(sq) != m or m.acted or m.owner != by:
                continue
            if m.card == SHINONOME and self.board.magic.cards and self.rng.random() < 0.5:
                top = self.board.magic.cards[0] or self.rng.choice(sorted(self.board.magic.pool))
                self.play({"type": "effect", "by": by, "card": m.card, "square": sq, "kind": "normal",
                           "actions": [{"do": "draw", "pile": "magic", "card": top}]})
            elif m.card == DUKE and is_field(sq) and GRAND in self.board.player(by).ex:
                self.grand_duke(by, sq)

    def grand_duke(self, by: str, sq: str) -> None:
        """デューク's normal effect: two Variants back to the deck, グランデューク in its place."""
        partners = [s for s, m in self.board.squares if m.owner == by and s != sq and is_field(s)
                    and m.card.startswith("ヴァリアンツ") and m.source != "ex"]
        if not partners:
            return
        self.play({"type": "effect", "by": by, "card": DUKE, "square": sq, "kind": "normal",
                   "actions": [{"do": "to_deck", "square": sq}, {"do": "to_deck", "square": partners[0]},
                               {"do": "summon", "card": GRAND, "to": sq}]})
        foe = self.board.other(by)
        back = [s for s, m in self.board.squares if m.owner == foe and not is_field(s)]
        if back:
            victim = self.board.at(back[0])
            assert victim is not None
            gain = stat(self.board, victim, "atk") // 2
            self.play({"type": "effect", "by": by, "card": GRAND, "square": sq, "kind": "special",
                       "actions": [{"do": "destroy", "square": back[0]},
                                   {"do": "modify", "square": sq, "stat": "atk", "op": "add", "amount": gain,
                                    "until": "permanent"},
                                   {"do": "lose_life", "player": foe, "amount": 1}]})

    def main(self, by: str) -> None:
        seat = self.board.seat(by)
        ahead = 1 if seat == 0 else -1
        squares = [sq for sq, m in self.board.squares if m.owner == by]
        self.rng.shuffle(squares)
        for sq in squares:
            m = self.board.at(sq)
            if m is None or m.owner != by:
                continue
            if is_field(sq) and self.rng.random() < 0.15 and "position" not in self.board.used:
                self.play({"type": "position", "by": by, "square": sq})
            m = self.board.at(sq)
            steps = legal_steps(self.board, sq)
            if m is None or not may_move(self.board, m) or not steps or (m.source == "ex" and m.arrived == self.board.turn):
                continue
            forward = [t for t in steps if int(t[1]) - int(sq[1]) == ahead]
            choice = forward[0] if forward and self.rng.random() < 0.8 else self.rng.choice(steps)
            self.play({"type": "move", "by": by, "from": sq, "to": choice})


def generate(ruleset: Any, rng: random.Random, match_id: str, **options: Any) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A random legal match: the two dedicated decks, a random draft, turns until a life is 0.
    Option ``house_rules``: the match's house rules (docs/rules/variants-war.md); the moves
    chosen are legal under them."""
    head = header(ruleset, rng, match_id, options.get("house_rules"))
    game = _Game(rng, ruleset.initial_board(head))  # the version's own defaults (variants-war/1, /2 or /3)
    game.draft_and_setup(rng.choice(["A", "B"]))
    while game.board.phase != "over" and game.board.turn < MAX_TURNS:
        game.turn()
    return head, game.moves
