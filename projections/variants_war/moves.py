"""Move types of ヴァリアンツ＝ウォー: their specs (for docs/log-format.md) and structural checks."""

from __future__ import annotations

from projections.base import N_, said

from typing import Any

from projections.base import FieldError, Move, MoveSpec, require
from projections.names import ANY_NAME, NameFilter, closest, did_you_mean, per_board
from projections.variants_war import catalog
from projections.variants_war.board import Board, is_square

UNTIL = ("turn_end", "next_turn_end", "owner_next_turn_end", "permanent")
ACTIONS: dict[str, tuple[str, ...]] = {
    "move": ("from", "to"),
    "swap": ("a", "b"),
    "destroy": ("square",),
    "bounce": ("square",),
    "to_deck": ("square",),
    "draw": ("pile",),
    "return": ("pile",),
    "place": ("card", "to"),
    "summon": ("card", "to"),
    "position": ("square",),
    "modify": ("square", "stat", "op"),
    "status": ("square", "status"),
    "lose_life": ("player",),
    "coin": ("result",),
    "die": ("result",),
    "seal_zone": ("square",),
}
SQUARE_FIELDS = ("from", "to", "a", "b", "square")
# The phases of a turn in order (VW-3), and the phase each move type belongs to (VW-3.1).
ORDER = ("draw", "standby", "main", "battle", "master")
PHASE_OF = {"draw": "draw", "set": "standby", "magic": "standby", "move": "main", "position": "main",
            "battle": "battle", "breakthrough": "battle", "master": "master"}

_S = MoveSpec
MOVE_TYPES: dict[str, MoveSpec] = {
    "draft": _S(
        "draft",
        N_("Pick one of the 8 starting-deck enhancement cards into your deck; 4 each, "
           "alternating."),
        {"card": N_("enhancement card name")},
        ("by", "card"),
        {"seq": 1, "type": "draft", "by": "A", "card": "銅鑼ドラゴン"},
    ),
    "draw": _S(
        "draw",
        N_("Draw the top card of your deck: 2 for the opening hand, then 1 in the draw phase."),
        {"card": N_("card drawn, or null when the scorekeeper did not see it")},
        ("by",),
        {"seq": 9, "type": "draw", "by": "A", "card": "ヴァリアンツの忍者－南月"},
    ),
    "reveal": _S(
        "reveal",
        N_("Reveal: name a card that was drawn unseen; counts never change."),
        {"card": N_("card name"), "pile": N_("deck / rescue / magic it came from (optional)")},
        ("by", "card"),
        {"seq": 20, "type": "reveal", "by": "B", "card": "ヴァリアンツＭ－マーキス"},
    ),
    "set": _S(
        "set",
        N_("Standby phase: set one monster from hand into your empty sortie zone."),
        {"card": N_("monster name"), "to": N_("your sortie zone square (b0/d0 or b4/d4)")},
        ("by", "card", "to"),
        {"seq": 10, "type": "set", "by": "A", "card": "ヴァリアンツの忍者－南月", "to": "b0"},
    ),
    "magic": _S(
        "magic",
        N_("Standby phase: use a magic card from hand; it goes to the bottom of the magic "
           "deck."),
        {"card": N_("magic card name"), "actions": N_("list of effect actions it did (see effect)")},
        ("by", "card"),
        {"seq": 11, "type": "magic", "by": "A", "card": "破天荒な風",
         "actions": [{"do": "modify", "square": "b1", "stat": "both", "op": "add", "amount": 1000}]},
    ),
    "move": _S(
        "move",
        N_("Main phase: move one monster one zone (attack position up/down, defence "
           "left/right)."),
        {"from": N_("square"), "to": N_("square")},
        ("by", "from", "to"),
        {"seq": 12, "type": "move", "by": "A", "from": "b0", "to": "b1"},
    ),
    "position": _S(
        "position",
        N_("Main phase: change one battlefield monster's position, attack <-> defence."),
        {"square": N_("square of the monster")},
        ("by", "square"),
        {"seq": 13, "type": "position", "by": "A", "square": "b1"},
    ),
    "effect": _S(
        "effect",
        N_("A monster's effect: normal (main phase, once), lateral (after a sideways move on "
           "your turn) or special (an ace's, when summoned); actions say what it did."),
        {"card": N_("the monster"), "square": N_("where it stands"), "kind": N_("normal / lateral / special"),
         "actions": "list of {do: move|swap|destroy|bounce|to_deck|draw|return|place|summon|position|"
                    "modify|status|lose_life|coin|die|seal_zone, ...}"},
        ("by", "card", "kind"),
        {"seq": 14, "type": "effect", "by": "A", "card": "ヴァリアンツの忍者－南月", "square": "c1",
         "kind": "normal", "actions": [{"do": "move", "from": "c2", "to": "d2"}]},
    ),
    "battle": _S(
        "battle",
        N_("Battle phase: two adjacent enemy monsters fight; the lower value is destroyed."),
        {"squares": N_("the two squares"), "destroyed": N_("squares whose monster was destroyed"),
         "retreat": N_("destroyed squares whose monster went to the retreat zone behind instead")},
        ("by", "squares", "destroyed"),
        {"seq": 15, "type": "battle", "by": "A", "squares": ["b2", "b3"], "destroyed": ["b3"]},
    ),
    "breakthrough": _S(
        "breakthrough",
        N_("After all battles: your monsters in the opponent's battlefield zone are "
           "destroyed, 1 damage each (a direct attack)."),
        {"squares": N_("your monsters standing in the opponent's battlefield zone")},
        ("by", "squares"),
        {"seq": 16, "type": "breakthrough", "by": "A", "squares": ["b3"]},
    ),
    "master": _S(
        "master",
        N_("Master phase after every 2 turns: two 8-sided dice rolled at the table."),
        {"dice": N_("[d8, d8]")},
        ("by", "dice"),
        {"seq": 17, "type": "master", "by": "B", "dice": [4, 8]},
    ),
    "end_turn": _S(
        "end_turn",
        N_("End of turn: the other player's turn begins."),
        {},
        ("by",),
        {"seq": 18, "type": "end_turn", "by": "B"},
    ),
}

_SQUARE: dict[str, Any] = {"kind": "choice", "of": "squares"}
_ACTION_FIELDS: dict[str, dict[str, Any]] = {
    "from": _SQUARE, "to": _SQUARE, "a": _SQUARE, "b": _SQUARE, "square": _SQUARE,
    "card": {"kind": "choice"}, "pile": {"kind": "faces", "values": ["deck", "rescue", "magic"]},
    "stat": {"kind": "faces", "values": ["atk", "def", "both"]},
    "op": {"kind": "faces", "values": ["add", "halve", "set"]},
    "amount": {"kind": "choice", "values": [1, 2, 3, 500, 1000, -500, -1000]}, "until": {"kind": "faces", "values": list(UNTIL)},
    "player": {"kind": "choice", "of": "players"}, "status": {"kind": "choice"},
    "result": {"kind": "json"},
}
# What the page offers after an action's ``do``: its required fields, then those it may carry.
_ACTION_MORE = {"modify": ("amount", "until"), "status": ("until",), "lose_life": ("amount",),
                "draw": ("card",), "return": ("card",)}
_ACTIONS_KIND: dict[str, Any] = {"kind": "objlist", "key": "do", "variants": {
    do: {k: _ACTION_FIELDS[k] for k in (*need, *_ACTION_MORE.get(do, ()))} for do, need in ACTIONS.items()}}
# What usually follows a move (exports/recording.py likely_type): after the set, a step.
FOLLOWS: dict[str, tuple[str, ...]] = {"set": ("move",), "magic": ("set", "move")}
# The usual order of a turn's moves, the main phase's three in the seed's order (移動, 通常効果, 表示形式): the
# recording page guesses the next move type from it (exports/recording.py likely_type).
TURN_ORDER = ("draft", "draw", "reveal", "set", "magic", "move", "effect", "position", "battle", "breakthrough",
              "master", "end_turn")
# How the recording page draws the fields the help text alone does not say (exports/recording.py).
FIELD_KINDS: dict[str, dict[str, Any]] = {
    "draw.card": {"kind": "choice", "null": "unseen"},
    "master.dice": {"kind": "list", "values": list(range(1, 9))},
    "effect.actions": _ACTIONS_KIND, "magic.actions": _ACTIONS_KIND,
    "effect.square": _SQUARE, "position.square": _SQUARE, "move.from": _SQUARE, "move.to": _SQUARE,
    "set.to": _SQUARE,
    "battle.squares": {"kind": "list", "of": "squares"}, "battle.destroyed": {"kind": "list", "of": "squares"},
    "battle.retreat": {"kind": "list", "of": "squares"}, "breakthrough.squares": {"kind": "list", "of": "squares"},
}


def move_phase(move: Move) -> str | None:
    """The phase ``move`` belongs to; lateral and special effects have none of their own."""
    if move.get("type") == "effect":
        return "main" if move.get("kind") == "normal" else None
    return PHASE_OF.get(str(move.get("type")))


def validate_move(move: Move) -> list[FieldError]:
    """Structural checks of one line: fields present and of the right shape, not the rules."""
    kind = move.get("type")
    spec = MOVE_TYPES.get(kind) if isinstance(kind, str) else None
    if spec is None:
        return [FieldError("type", said(N_("unknown move type {kind!r}"), kind=kind))]
    errors = require(move, spec)
    if "by" in move and not isinstance(move["by"], str):
        errors.append(FieldError("by", N_("must be a player id string")))
    for name in ("card",):
        if name in move and not (move[name] is None or isinstance(move[name], str)):
            errors.append(FieldError(name, N_("must be a card name or null")))
    for name in ("from", "to", "square"):
        if name in move and not is_square(move[name]):
            errors.append(FieldError(name, said(N_("not a square: {move!r}"), move=move[name])))
    for name in ("squares", "destroyed", "retreat"):
        if name in move and not (isinstance(move[name], list) and all(is_square(s) for s in move[name])):
            errors.append(FieldError(name, N_("must be a list of squares")))
    if kind == "battle" and isinstance(move.get("squares"), list) and len(move["squares"]) != 2:
        errors.append(FieldError("squares", N_("a battle is between exactly 2 squares")))
    if kind == "master":
        dice = move.get("dice")
        if not (isinstance(dice, list) and len(dice) == 2 and all(type(d) is int and 1 <= d <= 8 for d in dice)):
            errors.append(FieldError("dice", N_("must be two d8 results 1..8")))
    if kind == "effect" and move.get("kind") not in ("normal", "lateral", "special"):
        errors.append(FieldError("kind", N_("must be normal, lateral or special")))
    if "actions" in move:
        errors += _validate_actions(move["actions"])
    return errors


def _validate_actions(actions: Any) -> list[FieldError]:
    if not isinstance(actions, list):
        return [FieldError("actions", N_("must be a list"))]
    errors = []
    for i, act in enumerate(actions):
        path = f"actions[{i}]"
        if not isinstance(act, dict) or act.get("do") not in ACTIONS:
            errors.append(FieldError(path, said(N_("unknown action (known: {ACTIONS})"), ACTIONS=', '.join(ACTIONS))))
            continue
        for name in ACTIONS[act["do"]]:
            if name not in act:
                errors.append(FieldError(f"{path}.{name}", N_("missing")))
        for name in SQUARE_FIELDS:
            if name in act and not is_square(act[name]):
                errors.append(FieldError(f"{path}.{name}", said(N_("not a square: {act!r}"), act=act[name])))
        if "until" in act and act["until"] not in UNTIL:
            errors.append(FieldError(f"{path}.until", said(N_("one of {UNTIL}"), UNTIL=', '.join(UNTIL))))
        if act["do"] in ("draw", "return") and act.get("pile") not in ("deck", "rescue", "magic"):
            errors.append(FieldError(f"{path}.pile", N_("deck, rescue or magic")))
    return errors


# --- names the match does not have ---------------------------------------------------------------
def match_cards(board: Board) -> tuple[str, ...]:
    """Every card that can appear in this match: both dedicated decks (the players' factions),
    the 8 enhancement cards, the rescue and magic decks."""
    names: list[str] = []
    for p in board.players:
        names += list(catalog.starter(p.faction)) if p.faction in catalog.FACTIONS else []
        names += list(p.picks) + list(p.ex)
    names += list(catalog.enhancements()) + list(catalog.rescue_cards()) + list(catalog.magic_cards())
    return tuple(dict.fromkeys(names))


def _suggest(name: str, candidates: list[str]) -> str:
    # the card names share long prefixes (ヴァリアンツの…): offer only the near-best; a short
    # form (南月 for ヴァリアンツの忍者－南月) is offered the names that contain it
    return did_you_mean(closest(name, candidates, near=0.05, within=True))


def _card_error(field: str, name: Any, cards: tuple[str, ...]) -> list[FieldError]:
    if not isinstance(name, str) or name in cards:
        return []
    return [FieldError(field, said(N_("'{name}' is not a card of this match{name2}"), name=name, name2=_suggest(name, list(cards))))]


def _player_error(field: str, pid: Any, board: Board) -> list[FieldError]:
    ids = [p.id for p in board.players]
    if not isinstance(pid, str) or pid in ids:
        return []
    named = [p.id for p in board.players if p.name == pid]
    hint = f"; did you mean '{named[0]}' ({pid})?" if named else _suggest(pid, ids)
    return [FieldError(field, said(N_("'{pid}' is not a player of this match{hint}"), pid=pid, hint=hint))]


def name_errors(board: Board, move: Move) -> list[FieldError]:
    """Card and player names in ``move`` that cannot be right in this match (not in its header,
    board or catalog), each with the closest names: ``'ヴァリアンツの忍者－南日' is not a card of
    this match; did you mean 'ヴァリアンツの忍者－南月'?``. A name of this match in the wrong place
    is not an error here: ``check`` flags it with its rule id. Squares are checked by
    ``validate_move`` (there are only the 25 of VW-1)."""
    cards = match_cards(board)
    errors = _player_error("by", move.get("by"), board) + _card_error("card", move.get("card"), cards)
    actions = move.get("actions")
    for i, act in enumerate(actions if isinstance(actions, list) else []):
        if isinstance(act, dict):
            errors += _card_error(f"actions[{i}].card", act.get("card"), cards)
            errors += _player_error(f"actions[{i}].player", act.get("player"), board)
    return errors


def name_filter(board: Board, kind: str, by: str, field: str, shape: str) -> NameFilter | None:
    """The names ``field`` of a ``kind`` line may hold (vocabulary.names_for): the names
    ``name_errors`` above does not refuse in ``{"type": kind, "by": by, field: <name>}`` with
    the name as ``shape`` says (only a line's player and its card are names; an action is a
    map, never a bare name), worked out from the board's sets once, not per name. It must say
    what ``name_errors`` says (tests/table/test_name_filters.py)."""
    if shape == "one" and field == "by":
        return _players(board).__contains__
    if shape == "one" and field == "card":
        return _match_cards(board).__contains__
    return ANY_NAME


# made once per board within one sifting(): the same set for every card field
@per_board
def _players(board: Board) -> frozenset[str]:
    return frozenset(p.id for p in board.players)


@per_board
def _match_cards(board: Board) -> frozenset[str]:
    return frozenset(match_cards(board))
