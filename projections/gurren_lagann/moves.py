"""Move types (MoveSpec) and the structural checks of one log line: the vocabulary of GBS logs."""

from __future__ import annotations

from projections.base import N_, said

from collections.abc import Iterable, Mapping
from typing import Any

from projections.base import FieldError, Move, MoveSpec, require
from projections.gurren_lagann.board import GLBoard, is_square, name_of, side
from projections.gurren_lagann.catalog import load
from projections.names import ANY_NAME, NameFilter, closest, did_you_mean, per_board

# What a card text did, on effect, skill and trap lines (apply.apply_outcomes folds them).
OUTCOME_FIELDS = {
    "destroyed": N_('figures sent to stock with their cards discarded, e.g. ["B:エンキ"]'),
    "moved": "figures moved by the text: {figure: square}",
    "damage": "damage dealt by the text: {player: amount}",
    "drew": N_("cards the acting player drew: a count, or a list of names (null = unseen)"),
    "discarded": N_("cards the acting player discarded from hand (null = unseen)"),
    "readied": N_("figures made ready (not acted)"),
    "exhausted": N_("figures made done (acted)"),
    "deployed": "a GBS card placed from hand by the text (a combination): {card, square, figure?}",
    "power": N_("battle power the text added to the acting player's side (int)"),
}

_S = MoveSpec
MOVE_TYPES: dict[str, MoveSpec] = {
    "draw": _S(
        "draw",
        N_("draw: draw in the draw phase (cards may be unseen)"),
        {
            "cards": N_("names drawn, null for an unseen card"),
            "count": N_("how many, when no cards are named"),
        },
        (),
        {"seq": 9, "type": "draw", "by": "B", "cards": ["エンキ"]},
    ),
    "reveal": _S(
        "reveal",
        N_("names cards of the player's hand that were recorded unseen"),
        {"cards": N_("names, replacing that many unseen cards of the hand")},
        ("cards",),
        {"seq": 1, "type": "reveal", "by": "A", "cards": ["ラガン", "グレン"]},
    ),
    "deploy": _S(
        "deploy",
        N_("deploy: a GBS card from hand to the field, its figure from stock to a "
           "deploy-zone square"),
        {
            "card": N_("GBS character card"),
            "square": N_("a square of the player's own deploy zone (a1..e1 / a6..e6)"),
            "figure": N_("the figure (defaults to the card's)"),
        },
        ("card", "square"),
        {"seq": 3, "type": "deploy", "by": "A", "card": "ラガン", "square": "b1"},
    ),
    "support": _S(
        "support",
        N_("support: a character card from hand under a GBS card on the field"),
        {"card": N_("character card"), "target": N_("figure whose GBS card it joins")},
        ("card", "target"),
        {"seq": 12, "type": "support", "by": "A", "card": "シモン", "target": "ラガン"},
    ),
    "equip": _S(
        "equip",
        N_("equip: an item card from hand and its figure from stock to a character"),
        {
            "card": N_("item card"),
            "target": N_("character figure"),
            "figure": N_("item figure (defaults to the card's)"),
        },
        ("card", "target"),
        {"seq": 13, "type": "equip", "by": "A", "card": "グレンブーメラン", "target": "グレン"},
    ),
    "skill": _S(
        "skill",
        N_("skill: use a [main]/[battle] skill card, or set a [trap] card face down"),
        {
            "card": N_("skill card (null: a face-down card not seen)"),
            "user": N_("character whose skill value allows it"),
            "set": N_("true when a [trap] card is set"),
            **OUTCOME_FIELDS,
        },
        ("card",),
        {"seq": 20, "type": "skill", "by": "A", "card": "ドリル一閃", "user": "グレン"},
    ),
    "trap": _S(
        "trap",
        N_("trap: springs a set [trap] card (named now if it was set unseen)"),
        {"card": N_("the trap card"), **OUTCOME_FIELDS},
        ("card",),
        {"seq": 31, "type": "trap", "by": "B", "card": "待ち伏せ", "power": 2},
    ),
    "move": _S(
        "move",
        N_("move: figures (a squad from one square) move along a path; into enemies starts a "
           "battle"),
        {"figures": N_("figure names, all on path[0]"), "path": N_("squares from the start, 1–2 steps")},
        ("figures", "path"),
        {"seq": 15, "type": "move", "by": "A", "figures": ["グレン"], "path": ["b1", "b2", "b3"]},
    ),
    "battle": _S(
        "battle",
        N_("battle: total power of each side after modifiers; the lower loses, a tie loses "
           "both"),
        {
            "attack": N_("attacker's total power"),
            "defend": N_("defender's total power"),
            "outcome": N_("attacker | defender | both (derived from the powers when absent)"),
        },
        ("attack", "defend"),
        {"seq": 22, "type": "battle", "by": "A", "attack": 6, "defend": 4, "outcome": "attacker"},
    ),
    "effect": _S(
        "effect",
        N_("effect: what a card's text did, citing the card"),
        {"card": N_("the card whose text acted"), "text": N_("what it did, in words"), **OUTCOME_FIELDS},
        ("card",),
        {
            "seq": 40,
            "type": "effect",
            "by": "A",
            "card": "グレンラガン",
            "text": "合体",
            "destroyed": ["A:ラガン", "A:グレン"],
            "deployed": {"card": "グレンラガン", "square": "c3"},
        },
    ),
    "end_turn": _S(
        "end_turn",
        N_("end of turn: discard down to 6; the opponent's turn starts (figures ready, skill "
           "zone cleared)"),
        {"discarded": N_("cards discarded for the hand limit (null = unseen)")},
        (),
        {"seq": 8, "type": "end_turn", "by": "A", "discarded": []},
    ),
}

_TEXT_KINDS: dict[str, dict[str, Any]] = {
    "destroyed": {"kind": "list"},
    "discarded": {"kind": "list", "null": "unseen"},
    "readied": {"kind": "list"}, "exhausted": {"kind": "list"},
    "deployed": {"kind": "object", "fields": {"card": {"kind": "choice"}, "square": {"kind": "choice", "of": "squares"},
                                               "figure": {"kind": "choice"}}},
    "power": {"kind": "number", "min": 0, "max": 12},
    "text": {"kind": "text"},
}
# What usually follows a move (exports/recording.py likely_type): after the draw the moves of
# the figures, a deploy after a reveal; and the moves the legal list cannot name for a hand
# drawn unseen.
FOLLOWS: dict[str, tuple[str, ...]] = {
    "": ("reveal",),  # the match begins with the scorekeeper's side showing its opening hand
    "draw": ("move", "deploy"), "reveal": ("deploy",), "deploy": ("deploy", "move", "end_turn"),
    "equip": ("move", "support"), "support": ("end_turn",), "battle": ("end_turn",), "effect": ("deploy",),
    "move": ("move", "battle", "end_turn"), "end_turn": ("draw",),
}
UNLISTED = ("deploy", "reveal")


def THEN(header: Mapping[str, Any], line: Mapping[str, Any], board_json: Any = None) -> tuple[tuple[str, str], ...]:
    """What the rules make follow ``line``: in a battle's skill step the attacker uses a 【戦闘】
    skill first, then the defender may (「攻撃側から順に、任意で手札から…スキルカードを使用する」),
    so after the attacker's skill comes the defender's; after the defender's, the battle. A move
    that starts a battle while the attacker's hand shows a 【戦闘】 skill card: the attacker's
    skill step first."""
    battle = board_json.get("battle") if isinstance(board_json, Mapping) else None
    if line.get("type") == "move" and isinstance(battle, Mapping) and line.get("by") == battle.get("attacker"):
        hand = ((board_json.get("players") or {}).get(str(line["by"])) or {}).get("hand") or []
        if any((card := load().get(c)) is not None and card.timing == "battle" for c in hand if isinstance(c, str)):
            return (("skill", str(line["by"])),)
    if line.get("type") == "skill" and isinstance(battle, Mapping) and line.get("by") == battle.get("attacker") \
            and battle.get("defender"):
        return (("skill", str(battle["defender"])),)
    return ()


def RANK(board_json: Mapping[str, Any], move: Mapping[str, Any]) -> tuple[int, ...]:
    """The order the recording page offers a type's moves in: a figure's move that ends nearer
    the opponent's side first (the game is won by invading: 出陣ゾーン 1 damage, 本陣 2, GL-6),
    then the one that uses more of its 移動力 (2 squares). Other moves keep their order."""
    path = move.get("path")
    if move.get("type") != "move" or not isinstance(path, list) or not path:
        return (0, 0)
    try:
        home = int(str(board_json["players"][move["by"]]["headquarters"])[1:])
        end = int(str(path[-1])[1:])
    except (KeyError, TypeError, ValueError):
        return (0, 0)
    return (-abs(end - home), -len(path))
# The usual order of a turn's moves: the recording page
# guesses the next move type from it (exports/recording.py likely_type).
TURN_ORDER = ("reveal", "draw", "deploy", "support", "equip", "move", "skill", "battle", "effect", "end_turn")
# How the recording page draws the fields the help text alone does not say (exports/recording.py).
FIELD_KINDS: dict[str, dict[str, Any]] = {
    "draw.cards": {"kind": "list", "null": "unseen"},
    "draw.count": {"kind": "number", "min": 0, "max": 10},
    "reveal.cards": {"kind": "list", "most": "unseen"},  # the last unseen card named records it
    "skill.card": {"kind": "choice", "null": "unseen"},
    "skill.set": {"kind": "flag"},
    "battle.attack": {"kind": "number", "min": 0, "max": 20},
    "battle.defend": {"kind": "number", "min": 0, "max": 20},
    "end_turn.discarded": {"kind": "list", "null": "unseen"},
    **{f"{t}.{k}": v for t in ("skill", "trap", "effect") for k, v in _TEXT_KINDS.items()},
}

_LISTS = ("cards", "figures", "path", "destroyed", "discarded", "readied", "exhausted")
_INTS = ("count", "attack", "defend", "power")


def validate_move(move: Move) -> list[FieldError]:
    """Field presence and types of one line; unknown names are ``name_errors``, rules ``check``."""
    mtype = move.get("type")
    spec = MOVE_TYPES.get(mtype) if isinstance(mtype, str) else None
    if spec is None:
        return [FieldError("type", said(N_("unknown move type {mtype!r} (known: {MOVE_TYPES})"), mtype=mtype, MOVE_TYPES=', '.join(MOVE_TYPES)))]
    errors = require(move, MoveSpec(spec.type, spec.summary, spec.fields, ("by", *spec.required)))
    errors += _types(move)
    if mtype in ("deploy", "support", "equip", "effect") and not isinstance(move.get("card"), str):
        errors.append(FieldError("card", N_("must be a card name")))
    if mtype == "deploy" and "square" in move and not is_square(move["square"]):
        errors.append(FieldError("square", N_("must be a square a1..e6")))
    if mtype == "move" and isinstance(move.get("path"), list):
        bad = [p for p in move["path"] if not is_square(p)]
        if bad:
            errors.append(FieldError("path", said(N_("not squares: {str} (a1..e6)"), str=', '.join(map(str, bad)))))
    if mtype == "battle" and move.get("outcome") not in (None, "attacker", "defender", "both"):
        errors.append(FieldError("outcome", N_("attacker, defender or both")))
    return errors + _outcomes(move)


def _types(move: Move) -> list[FieldError]:
    errors = []
    for name in _LISTS:
        if name in move and not isinstance(move[name], list):
            errors.append(FieldError(name, N_("must be a list")))
    for name in _INTS:
        if name in move and (not isinstance(move[name], int) or isinstance(move[name], bool)):
            errors.append(FieldError(name, N_("must be an integer")))
    for name in ("moved", "damage", "deployed"):
        if name in move and not isinstance(move[name], dict):
            errors.append(FieldError(name, N_("must be an object")))
    if "drew" in move and not isinstance(move["drew"], (int, list)):
        errors.append(FieldError("drew", N_("a count or a list of names")))
    return errors


def _outcomes(move: Move) -> list[FieldError]:
    errors = []
    moved = move.get("moved")
    if isinstance(moved, Mapping) and any(not is_square(s) for s in moved.values()):
        errors.append(FieldError("moved", N_("values must be squares a1..e6")))
    dmg = move.get("damage")
    if isinstance(dmg, Mapping) and any(not isinstance(n, int) for n in dmg.values()):
        errors.append(FieldError("damage", N_("values must be integers")))
    dep: Any = move.get("deployed")
    if isinstance(dep, Mapping) and (
        not isinstance(dep.get("card"), str) or not is_square(dep.get("square"))
    ):
        errors.append(FieldError("deployed", N_("needs card (name) and square (a1..e6)")))
    return errors


# --- names the match does not have -------------------------------------------------------
#
# A card, figure or player name that cannot be right in this match (not in the acting player's
# deck list, not a figure of this match, not a seat) is refused before recording, with the
# closest names offered. A name that exists here but is wrong at this moment (a card of the
# deck that is not in the hand, a figure in stock) stays a rule violation for ``check``.


def _suggest(name: str, known: Iterable[str]) -> str:
    """「; did you mean 'X'?」: the closest names (those nearly as close as the best, at most 3)."""
    return did_you_mean(closest(name, known, near=0.05))


@per_board
def _figures(board: GLBoard, pid: str) -> set[str]:
    """Every figure ``pid`` has in this match: stock, field (with items) and the deck's figures."""
    s = side(board, pid)
    out = set(s.stock)
    for u in board.units:
        if u.owner == pid:
            out.add(u.figure)
            if u.item_figure:
                out.add(u.item_figure)
    cat = board.catalog
    for name in s.decklist:
        card = cat.get(name)
        if card is not None and card.needs_figure:
            out.add(card.figure_name())
    return out


@per_board
def _owned_figures(board: GLBoard, owners: tuple[str, ...]) -> set[str]:
    return set().union(*(_figures(board, p) for p in owners))


class _Names:
    """The names of one match, as the checks of one move ask for them."""

    def __init__(self, board: GLBoard, by: str) -> None:
        self.board, self.by = board, by
        self.players = [s.id for s in board.sides]
        self.errors: list[FieldError] = []

    def player(self, field: str, value: Any) -> bool:
        if value in self.players:
            return True
        names = {name_of(self.board, p): p for p in self.players}
        names.update({p.casefold(): p for p in self.players})
        key = value.casefold() if isinstance(value, str) else value
        hint = f"; did you mean '{names[key]}'?" if key in names else _suggest(str(value), self.players)
        self.errors.append(FieldError(field, said(N_("'{value}' is not a player of this match{hint}"), value=value, hint=hint)))
        return False

    def card(self, field: str, value: Any) -> None:
        if not isinstance(value, str):  # null: a card not seen
            return
        deck = side(self.board, self.by).decklist
        if value not in deck:
            who = name_of(self.board, self.by)
            self.errors.append(FieldError(field, said(N_("'{value}' is not a card of {who}'s deck{value2}"), value=value, who=who, value2=_suggest(value, deck))))

    def cards(self, field: str, values: Any) -> None:
        if isinstance(values, list):
            for i, value in enumerate(values):
                self.card(f"{field}[{i}]", value)

    def figure(self, field: str, ref: Any, owner: str | None) -> None:
        """``owner`` None: a bare name may be either player's figure (a card text's target)."""
        if not isinstance(ref, str):
            return
        seat, colon, name = ref.rpartition(":")
        if colon and not self.player(field, seat):
            return
        owners = [seat] if colon else ([owner] if owner else self.players)
        known = _owned_figures(self.board, tuple(owners))
        if name not in known:
            hint = _suggest(name, known)
            if len(owners) > 1:
                problem = said(N_("'{name}' is not a figure of this match{hint}"), name=name, hint=hint)
            else:
                problem = said(N_("'{name}' is not one of {player}'s figures{hint}"), name=name, player=name_of(self.board, owners[0]), hint=hint)
            self.errors.append(FieldError(field, problem))

    def figures(self, field: str, refs: Any, owner: str | None) -> None:
        if isinstance(refs, list):
            for i, ref in enumerate(refs):
                self.figure(f"{field}[{i}]", ref, owner)


def name_errors(board: GLBoard, move: Move) -> list[FieldError]:
    """The names in ``move`` that are not in this match, each with the closest ones offered.

    Squares are checked by ``validate_move`` (a1..e6 are the same in every match).
    """
    by = move.get("by")
    names = _Names(board, str(by))
    if not names.player("by", by):
        return names.errors
    kind, mine = move.get("type"), str(by)
    if kind in ("draw", "reveal"):
        names.cards("cards", move.get("cards"))
    elif kind in ("deploy", "support", "equip", "skill", "trap", "effect"):
        names.card("card", move.get("card"))
    if kind in ("deploy", "equip"):
        names.figure("figure", move.get("figure"), mine)
    if kind in ("support", "equip"):
        names.figure("target", move.get("target"), mine)
    if kind == "skill":
        names.figure("user", move.get("user"), mine)
    if kind == "move":
        names.figures("figures", move.get("figures"), mine)
    if kind in ("skill", "trap", "effect", "end_turn"):
        _outcome_names(names, move)
    return names.errors


def _outcome_names(names: _Names, move: Move) -> None:
    names.cards("discarded", move.get("discarded"))
    names.cards("drew", move.get("drew"))
    names.figures("destroyed", move.get("destroyed"), None)
    names.figures("readied", move.get("readied"), None)
    names.figures("exhausted", move.get("exhausted"), None)
    moved = move.get("moved")
    if isinstance(moved, Mapping):
        for ref in moved:
            names.figure(f"moved.{ref}", ref, None)
    damage = move.get("damage")
    if isinstance(damage, Mapping):
        for pid in damage:
            names.player(f"damage.{pid}", pid)
    dep = move.get("deployed")
    if isinstance(dep, Mapping):
        names.card("deployed.card", dep.get("card"))
        names.figure("deployed.figure", dep.get("figure"), names.by)


# The fields of each kind of line that ``name_errors`` checks, by what they hold: a card of the
# player's deck, a figure of the player's (or, "either", of any player's), a player.
_CARD_ONE = {"deploy", "support", "equip", "skill", "trap", "effect"}
_FIGURE_ONE = {("deploy", "figure"), ("equip", "figure"), ("support", "target"), ("equip", "target"), ("skill", "user")}
_OUTCOMES = {"skill", "trap", "effect", "end_turn"}


def name_filter(board: GLBoard, kind: str, by: str, field: str, shape: str) -> NameFilter | None:
    """The names ``field`` of a ``kind`` line may hold (vocabulary.names_for): the names
    ``name_errors`` above does not refuse in ``{"type": kind, "by": by, field: <name>}`` with
    the name as ``shape`` says, worked out from the board's sets once, not per name. It must
    say what ``name_errors`` says (tests/table/test_name_filters.py)."""
    players = _players(board)
    if field == "by":  # the name is the line's player: only that is checked
        return players.__contains__ if shape == "one" else ANY_NAME
    if by not in players:  # the line's player is refused, and nothing else is looked at
        return ANY_NAME
    outcome = kind in _OUTCOMES
    if shape == "one":
        if field == "card" and kind in _CARD_ONE:
            return _deck(board, by).__contains__
        if (kind, field) in _FIGURE_ONE:
            return _figure_filter(board, by)
    elif shape == "list":
        if (field == "cards" and kind in ("draw", "reveal")) or (outcome and field in ("discarded", "drew")):
            return _deck(board, by).__contains__
        if kind == "move" and field == "figures":
            return _figure_filter(board, by)
        if outcome and field in ("destroyed", "readied", "exhausted"):
            return _figure_filter(board, None)
    elif outcome and field == "moved":
        return _figure_filter(board, None)
    elif outcome and field == "damage":
        return players.__contains__
    elif outcome and field == "deployed":
        # {name: "normal"} names a card or a figure only by its keys "card" and "figure"
        deck, mine = _deck(board, by), _figure_filter(board, by)
        return lambda name: not ((name == "card" and "normal" not in deck) or (name == "figure" and not mine("normal")))
    return ANY_NAME


# The filters' sets and functions, made once per board within one sifting() (the same object
# for every field of a kind: vocabulary.names_for then sifts the names once for all of them).
@per_board
def _players(board: GLBoard) -> frozenset[str]:
    return frozenset(s.id for s in board.sides)


@per_board
def _deck(board: GLBoard, pid: str) -> frozenset[str]:
    return frozenset(side(board, pid).decklist)


@per_board
def _figure_filter(board: GLBoard, owner: str | None) -> NameFilter:
    """_Names.figure's question: a bare name of the owner's figures (``owner`` None: of any
    player's), or "seat:name" of a seat of this match."""
    players = tuple(s.id for s in board.sides)
    bare = _owned_figures(board, (owner,) if owner else players)

    def ok(ref: str) -> bool:
        if ":" not in ref:
            return ref in bare
        seat, _, name = ref.rpartition(":")
        return seat in players and name in _owned_figures(board, (seat,))
    return ok
