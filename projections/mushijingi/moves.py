"""Move types of 蟲神器 (one ``MoveSpec`` each) and their structural validation.

Names follow the rules' vocabulary: ``setup`` (ゲームの準備), ``draw`` (ドロー), ``set``
(セットフェイズ: エサをセット), ``play`` (虫を場に出す / 強化・術カードの使用), ``attack``
(虫で攻撃), ``effect`` (a card text, recorded as what it did), ``reveal`` (naming hidden
cards), ``end_turn`` (ターンエンド).
"""

from __future__ import annotations

from projections.base import N_, said

from collections.abc import Mapping
from typing import Any

from projections.base import FieldError, Move, MoveSpec, require
from projections.mushijingi.board import Board
from projections.mushijingi.catalog import header_catalog
from projections.names import ANY_NAME, NameFilter, closest, did_you_mean, per_board, unknown_name

_REF = 'insect on the field: its uid (e.g. "B1") or its card name when unambiguous'

MOVE_TYPES: dict[str, MoveSpec] = {
    "setup": MoveSpec(
        type="setup",
        summary=N_("setup: 6 face-down territory cards and a 4-card opening hand (no "
                   "mulligan). Once per player, before the first turn."),
        fields={"hand": N_("optional list of the 4 opening cards; null for a card not seen")},
        required=("by",),
        example={
            "seq": 1,
            "type": "setup",
            "by": "A",
            "hand": ["カブトムシ", "オオカマキリ", None, None],
        },
    ),
    "draw": MoveSpec(
        type="draw",
        summary=N_("draw: draw one card at the start of the turn (none on the first player's "
                   "first turn). A draw from an empty deck ends the match by territory count."),
        fields={"card": N_("optional card drawn; null or absent when not seen")},
        required=("by",),
        example={"seq": 3, "type": "draw", "by": "B", "card": "ノコギリクワガタ"},
    ),
    "set": MoveSpec(
        type="set",
        summary=N_("set phase: put at most one card from hand face up into the feed. The "
                   "main phase then starts with cost equal to the feed count."),
        fields={"card": N_("card put into the feed")},
        required=("by", "card"),
        example={"seq": 4, "type": "set", "by": "B", "card": "羽化"},
    ),
    "play": MoveSpec(
        type="play",
        summary=N_("main phase: play an insect, an enhancement onto an insect, or a spell, "
                   "paying its cost."),
        fields={
            "card": N_("card played from hand"),
            "target": f"enhancements and targeted spells: the {_REF}",
        },
        required=("by", "card"),
        example={"seq": 5, "type": "play", "by": "B", "card": "ノコギリクワガタ"},
    ),
    "attack": MoveSpec(
        type="attack",
        summary=N_("attack: an insect uses one technique on an opposing insect, or on the "
                   "player (\"player\") when the opponent has no insect. A destroyed insect or "
                   "a direct attack makes the defender take one territory card into hand; a "
                   "direct attack at territory 0 wins."),
        fields={
            "attacker": f"the attacking {_REF}",
            "technique": N_("the technique's name"),
            "target": f'the defending {_REF}, or "player" for a direct attack',
            "territory_card": N_("optional: the territory card the defender took, if seen"),
        },
        required=("by", "attacker", "technique", "target"),
        example={
            "seq": 6,
            "type": "attack",
            "by": "B",
            "attacker": "B1",
            "technique": "はさむ",
            "target": "player",
        },
    ),
    "effect": MoveSpec(
        type="effect",
        summary=N_("A card text's effect, recorded as what it did and citing the card. Touches "
        "only insects on the field when it resolves."),
        fields={
            "card": N_("the card whose text this is"),
            "technique": N_("optional technique name"),
            "text": N_("what happened, in words"),
            "player": N_("player drawing / taking territory / discarding / summoning (default: by)"),
            "damage": "object {insect ref: damage}",
            "boost": "object {insect ref: attack bonus until end of turn}",
            "destroy": N_("list of insect refs destroyed"),
            "bounce": N_("list of insect refs returned to their owner's hand"),
            "flip": N_("list of insect refs flipped face down until end of turn (absent)"),
            "draw": N_("number of cards drawn"),
            "territory": N_("number of territory cards taken into hand"),
            "discard": N_("list of hand cards discarded"),
            "summon": N_("list of insects put onto the field without cost"),
            "from": N_("where summoned insects come from: hand (default), discard or deck"),
        },
        required=("by", "card"),
        example={
            "seq": 7,
            "type": "effect",
            "by": "A",
            "card": "大嵐",
            "text": "場のすべての虫に300ダメージ",
            "damage": {"A1": 300, "B1": 300},
        },
    ),
    "reveal": MoveSpec(
        type="reveal",
        summary=N_("Names cards in a player's hand that were recorded as unknown (null)."),
        fields={"cards": N_("list of card names now known")},
        required=("by", "cards"),
        example={"seq": 8, "type": "reveal", "by": "A", "cards": ["大嵐"]},
    ),
    "end_turn": MoveSpec(
        type="end_turn",
        summary=N_("end of turn: the turn passes; all damage on insects is healed."),
        required=("by",),
        example={"seq": 9, "type": "end_turn", "by": "A"},
    ),
}

_REFS: dict[str, Any] = {"kind": "list", "of": "board", "key": "uid"}
# What usually follows a move (exports/recording.py likely_type): after the draw the set, after
# the set a play, after a play the attack; and the moves the legal list cannot name for a hand
# drawn unseen.
FOLLOWS: dict[str, tuple[str, ...]] = {
    "setup": ("setup", "set"), "draw": ("set",), "reveal": ("set",), "set": ("play", "attack"),
    "play": ("attack", "play"), "effect": ("play", "attack", "end_turn"), "end_turn": ("draw",),
}
UNLISTED = ("set", "play")


def THEN(header: Mapping[str, Any], line: Mapping[str, Any], board_json: Any = None) -> tuple[str, ...]:
    """What the rules make follow ``line``: a card's text resolves once the card is played, so a
    spell played, an insect whose text acts as it enters the field (MJ-6.4) and an attack with a
    technique that has a text (すくいなげ) are followed by their ``effect`` line, what it did."""
    cat = header_catalog(header)
    if line.get("type") == "play":
        card = cat.get(line.get("card"))
        if card is not None and card.text and (card.kind == "spell" or card.on_enter):
            return ("effect",)
    elif line.get("type") == "attack" and line.get("technique") and any(
            t.name == line["technique"] and t.text for c in cat.cards.values() for t in c.techniques):
        return ("effect",)
    return ()
# The usual order of a turn's moves: the recording page
# guesses the next move type from it (exports/recording.py likely_type).
TURN_ORDER = ("setup", "draw", "reveal", "set", "play", "effect", "attack", "end_turn")
# How the recording page draws the fields the help text alone does not say (exports/recording.py).
FIELD_KINDS: dict[str, dict[str, Any]] = {
    "setup.hand": {"kind": "list", "null": "unseen"},
    "draw.card": {"kind": "choice", "null": "unseen"},
    "attack.territory_card": {"kind": "choice"},
    "play.target": {"kind": "choice", "of": "board", "key": "uid"},
    "effect.player": {"kind": "choice", "of": "players"},
    "effect.destroy": _REFS, "effect.bounce": _REFS, "effect.flip": _REFS,
    "effect.discard": {"kind": "list", "null": "unseen"}, "effect.summon": _REFS,
    "effect.draw": {"kind": "number", "min": 0, "max": 6},
    "effect.territory": {"kind": "number", "min": 0, "max": 6},
    "effect.from": {"kind": "faces", "values": ["hand", "discard", "deck"]},
    "effect.text": {"kind": "text"},
    "reveal.cards": {"kind": "list"},
}

_LIST_FIELDS = ("destroy", "bounce", "flip", "discard", "feed_discard", "summon")
_MAP_FIELDS = ("damage", "boost")
_INT_FIELDS = ("draw", "territory")


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _card_list(move: Move, name: str, nullable: bool) -> list[FieldError]:
    value = move[name]
    if not isinstance(value, list):
        return [FieldError(name, N_("expected a list of card names"))]
    return [
        FieldError(f"{name}[{i}]", N_("expected a card name or null") if nullable else N_("expected a card name"))
        for i, c in enumerate(value)
        if not (isinstance(c, str) or (nullable and c is None))
    ]


def _effect_fields(move: Move) -> list[FieldError]:
    errors: list[FieldError] = []
    for name in _LIST_FIELDS:
        if name in move:
            errors += _card_list(move, name, nullable=False)
    for name in _MAP_FIELDS:
        value = move.get(name)
        if name in move and (
            not isinstance(value, Mapping) or not all(_is_int(v) for v in value.values())
        ):
            errors.append(FieldError(name, N_("expected an object {insect ref: integer}")))
    for name in _INT_FIELDS:
        if name in move and not (_is_int(move[name]) and move[name] >= 0):
            errors.append(FieldError(name, N_("expected a non-negative integer")))
    if "from" in move and move["from"] not in ("hand", "discard", "deck"):
        errors.append(FieldError("from", N_("expected hand, discard or deck")))
    return errors


def validate_move(move: Move, players: list[str] | None = None) -> list[FieldError]:
    mtype = move.get("type")
    spec = MOVE_TYPES.get(mtype) if isinstance(mtype, str) else None
    if spec is None:
        return [FieldError("type", said(N_("unknown move type {mtype!r} (known: {MOVE_TYPES})"), mtype=mtype, MOVE_TYPES=', '.join(MOVE_TYPES)))]
    errors = require(move, spec)
    if errors:
        return errors
    if not isinstance(move["by"], str):
        errors.append(FieldError("by", N_("expected a player id")))
    elif players and mtype != "effect" and move["by"] not in players:
        errors.append(FieldError("by", said(N_("unknown player {by!r}"), by=move['by'])))
    for name in ("card", "attacker", "technique", "target", "player", "text"):
        null_draw = name == "card" and mtype == "draw" and move.get(name) is None
        if name in move and not isinstance(move[name], str) and not null_draw:
            errors.append(FieldError(name, N_("expected a string")))
    if "territory_card" in move and not isinstance(move["territory_card"], str | None):
        errors.append(FieldError("territory_card", N_("expected a card name or null")))
    if mtype == "setup" and "hand" in move:
        errors += _card_list(move, "hand", nullable=True)
    if mtype == "reveal":
        errors += _card_list(move, "cards", nullable=False)
    if mtype == "effect":
        errors += _effect_fields(move)
    return errors


# --- names the match does not have (refused, not recorded) -----------------------------------


@per_board
def _card_pool(board: Board) -> set[str]:
    """Card names that can be right in this match: the catalog's, narrowed to the two deck
    lists when the header gives both (a card of neither deck cannot appear)."""
    lists = [s.deck_list for s in board.sides]
    if all(lists):
        return {name for deck in lists for name in deck if name in board.catalog}
    return set(board.catalog.cards)


@per_board
def _techniques(board: Board) -> set[str]:
    """Every technique an insect of the card pool has."""
    return {t.name for c in _card_pool(board) if (k := board.card(c)) for t in k.techniques}


def _insect_ref_ok(board: Board, ref: str, cards: set[str]) -> bool:
    """A uid of a player of this match (``A3``) or the name of an insect card: it may be
    wrong for the board (then ``check`` flags it), but it is a name the match has."""
    if any(ref.startswith(pid) and ref[len(pid) :].isdigit() for pid in board.order):
        return True
    card = board.card(ref)
    return ref in cards and card is not None and card.kind == "insect"


def _insect_errors(board: Board, field: str, ref: Any, cards: set[str]) -> list[FieldError]:
    if not isinstance(ref, str) or _insect_ref_ok(board, ref, cards):
        return []
    on_field = {i.uid for i in board.field} | {i.card for i in board.field}
    insects = {c for c in cards if (k := board.card(c)) is not None and k.kind == "insect"}
    close = closest(ref, sorted(on_field), cutoff=0.5)
    close += [c for c in closest(ref, sorted(insects), cutoff=0.5) if c not in close]
    return [FieldError(field, said(N_("{ref!r} is not an insect of this match{close}"), ref=ref, close=did_you_mean(close[:3])))]


def _list(move: Move, name: str) -> list[tuple[str, Any]]:
    value = move.get(name)
    return [(f"{name}[{i}]", v) for i, v in enumerate(value)] if isinstance(value, list) else []


def name_errors(board: Board, move: Move) -> list[FieldError]:
    """Names in ``move`` that cannot be right in this match: a player who is not in it, a
    card in neither the catalog nor (when the header gives them) the deck lists, an insect
    reference that is no uid of a player of the match nor an insect card's name, a technique
    no insect has. A name of the match used wrongly (a card not in that hand, an insect not
    on the field, a technique of another insect) is left to ``check``, with its MJ- id."""
    players = list(board.order)
    cards = _card_pool(board)
    techniques = _techniques(board)
    kind = move.get("type")
    errors = unknown_name("by", move.get("by"), players, N_("a player"))
    if "player" in move:
        errors += unknown_name("player", move.get("player"), players, N_("a player"))
    card_fields: list[tuple[str, Any]] = []
    if kind in ("set", "play", "effect") or (kind == "draw" and move.get("card") is not None):
        card_fields.append(("card", move.get("card")))
    if move.get("territory_card") is not None:
        card_fields.append(("territory_card", move.get("territory_card")))
    for name in ("hand", "cards", "discard", "feed_discard", "summon"):
        card_fields += [(f, v) for f, v in _list(move, name) if v is not None]
    for field, value in card_fields:
        errors += unknown_name(field, value, cards, N_("a card"))
    refs: list[tuple[str, Any]] = []
    if kind == "attack":
        refs.append(("attacker", move.get("attacker")))
        if move.get("target") != "player":
            refs.append(("target", move.get("target")))
    elif kind == "play" and "target" in move:
        refs.append(("target", move.get("target")))
    for name in ("damage", "boost"):
        value = move.get(name)
        refs += [(f"{name}.{r}", r) for r in value] if isinstance(value, Mapping) else []
    for name in ("flip", "bounce", "destroy"):
        refs += _list(move, name)
    for field, ref in refs:
        errors += _insect_errors(board, field, ref, cards)
    if "technique" in move:
        errors += unknown_name("technique", move.get("technique"), techniques, N_("a technique"))
    return errors


# The filters' sets and functions, made once per board within one sifting() (the same object
# for every field of a kind: vocabulary.names_for then sifts the names once for all of them).
@per_board
def _players(board: Board) -> frozenset[str]:
    return frozenset(board.order)


@per_board
def _insect_filter(board: Board) -> NameFilter:
    """``_insect_ref_ok``'s question: an insect card of the card pool, or a uid ("A3")."""
    cards, pids = _card_pool(board), tuple(board.order)
    insects = frozenset(c for c in cards if (k := board.card(c)) is not None and k.kind == "insect")

    def insect(name: str) -> bool:
        return name in insects or (name.startswith(pids) and _insect_ref_ok(board, name, cards))
    return insect


def name_filter(board: Board, kind: str, by: str, field: str, shape: str) -> NameFilter | None:
    """The names ``field`` of a ``kind`` line may hold (vocabulary.names_for): the names
    ``name_errors`` above does not refuse in ``{"type": kind, "by": by, field: <name>}`` with
    the name as ``shape`` says, worked out from the board's sets once, not per name. It must
    say what ``name_errors`` says (tests/table/test_name_filters.py)."""
    cards, insect = _card_pool(board), _insect_filter(board)
    if shape == "one":
        if field in ("by", "player"):
            return _players(board).__contains__
        if field == "territory_card" or (field == "card" and kind in ("set", "play", "effect", "draw")):
            return cards.__contains__
        if field == "technique":
            return _techniques(board).__contains__
        if (kind == "attack" and field == "attacker") or (kind == "play" and field == "target"):
            return insect
        if kind == "attack" and field == "target":
            return lambda name: name == "player" or insect(name)  # the player attacked, not an insect
    elif shape == "list":
        if field in ("hand", "cards", "discard", "feed_discard", "summon"):
            return cards.__contains__
        if field in ("flip", "bounce", "destroy"):
            return insect
    elif field in ("damage", "boost"):
        return insect
    return ANY_NAME
