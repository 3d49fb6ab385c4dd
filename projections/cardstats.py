"""Card-level statistics (``kifu stats --cards``): for each card, die or insect of the deck
lists registered in the matches' headers, the decks that list it and their match win rate,
and, where the game's log names the card as it is played, the win rate of the matches in
which it was played. Pure functions, plus the SQL over the read model's ``cards`` table.

Counting rules (docs/stats.md says why):

* A card counts per **side**: one player of one decided match. A side "includes" a card when
  the card is in that player's list in the header (``deck.cards``, and for gandice also
  ``deck.evolution`` and ``deck.kofuda``); copies count once (``武具・羅#2`` is a second copy of
  ``武具・羅``). A side "played" it when a move of that player in the ruled view names it in
  one of the fields of ``PLAYED`` (a ruling or correction that replaced the move counts as
  the judges decided).
* The side's outcome is its match result: a win, a loss or a draw (half a win). In a
  three-player gandice match the winner wins and the two others lose.
* A card played but not in the list (a list the scorekeeper never had) counts as played,
  not as included.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from projections import stats
from projections.names import normalise_name

# Which list fields of a header's deck name cards, and what kind of thing each holds.
LISTS: dict[str, tuple[tuple[str, str], ...]] = {
    "gandice": (("cards", "die"), ("evolution", "die"), ("kofuda", "card")),
    "mushijingi": (("cards", "card"),),
    "gurren-lagann": (("cards", "card"),),
    "variants-war": (("cards", "card"),),
}
DEFAULT_LISTS = (("cards", "card"),)

# For each game, the move types whose fields name a card (die) as its owner plays it:
# {move type: (field, ...)}; a field "a.b" is field b of the object in field a, and "a[].b"
# field b of each object of the list in field a (with ``a[].do`` one of ``ACTIONS``).
PLAYED: dict[str, dict[str, tuple[str, ...]]] = {
    # the dice all roll at the summon: a die is played when it attacks, fuses, comes in by
    # evolution, or is rolled as an item; a kofuda card when it is used; an ability when cited
    "gandice": {"attack": ("die",), "fuse": ("die",), "evolve": ("into",), "item": ("item", "card"),
                "effect": ("source",)},
    # an insect or any other card played from hand (a card set into the feed is a cost)
    "mushijingi": {"play": ("card",)},
    "gurren-lagann": {"deploy": ("card",), "support": ("card",), "equip": ("card",), "skill": ("card",),
                      "trap": ("card",), "effect": ("deployed.card",)},
    # a monster sent out, a magic card used, a monster an effect summoned
    "variants-war": {"set": ("card",), "magic": ("card",), "effect": ("actions[].card",)},
}
ACTIONS = frozenset({"summon"})  # the effect actions of variants-war that play a card


def card_name(label: Any) -> str | None:
    """The card a label names: NFKC-normalised, without a copy mark (``武具・羅#2`` -> ``武具・羅``)."""
    if not isinstance(label, str):
        return None
    try:
        return _NAMES[label]
    except KeyError:
        pass
    name, sep, tail = label.rpartition("#")
    text = normalise_name(name if sep and name and tail.isdigit() else label) or None
    if len(_NAMES) >= NAMES_KEPT:
        _NAMES.clear()
    _NAMES[label] = text
    return text


# What each label names (card_name), per process: a season's matches name the same few
# hundred cards again and again (a rebuild asks about a hundred thousand labels).
_NAMES: dict[str, str | None] = {}
NAMES_KEPT = 50_000


def listed(game: str | None, deck: Any) -> dict[str, str]:
    """{card: kind} of one player's deck list in the header."""
    out: dict[str, str] = {}
    if not isinstance(deck, Mapping):
        return out
    for field, kind in LISTS.get(str(game), DEFAULT_LISTS):
        items = deck.get(field)
        if not isinstance(items, list):
            continue
        for item in items:
            name = card_name(item)
            if name is not None:
                out.setdefault(name, kind)
    return out


def played_names(game: str | None, move: Mapping[str, Any]) -> list[str]:
    """The cards one move names as played by its ``by`` player."""
    paths = _PATHS.get(str(game), {}).get(str(move.get("type")))
    return _played(paths, move) if paths else []


def _paths(fields: tuple[str, ...]) -> tuple[tuple[str, str | None, bool], ...]:
    """The fields of ``PLAYED`` as (outer, inner or None, a list of actions), worked out once."""
    out: list[tuple[str, str | None, bool]] = []
    for path in fields:
        if "[]." in path:
            outer, inner = path.split("[].", 1)
            out.append((outer, inner, True))
        elif "." in path:
            outer, inner = path.split(".", 1)
            out.append((outer, inner, False))
        else:
            out.append((path, None, False))
    return tuple(out)


_PATHS = {game: {kind: _paths(fields) for kind, fields in by_type.items()} for game, by_type in PLAYED.items()}


def _played(paths: tuple[tuple[str, str | None, bool], ...], move: Mapping[str, Any]) -> list[str]:
    out: list[Any] = []
    for outer, inner, many in paths:
        if many:
            for item in move.get(outer) or []:
                if isinstance(item, Mapping) and item.get("do", "summon") in ACTIONS:
                    out.append(item.get(inner))
        elif inner is not None:
            value = move.get(outer)
            out.append(value.get(inner) if isinstance(value, Mapping) else None)
        else:
            out.append(move.get(outer))
    return [n for n in map(card_name, out) if n is not None]


def kind_finder(board: Any) -> Callable[[str, str], str]:
    """``kind(card, listed kind)``: the kind the game's catalog gives a card where its board
    can say (a board with ``card(name)`` returning something with a ``kind``: mushijingi's
    insect / enhance / spell), else the list's kind (a die, a card)."""
    look = getattr(board, "card", None)
    if not callable(look):
        return lambda name, kind: kind

    def kind(name: str, fallback: str) -> str:
        try:
            found = getattr(look(name), "kind", None)
        except Exception:
            found = None
        return found if isinstance(found, str) and found else fallback

    return kind


def match_cards(
    header: Mapping[str, Any], moves_by_step: Iterable[Sequence[Mapping[str, Any]]], board: Any = None,
) -> list[tuple[str, str, str, int, int]]:
    """(player id, card, kind, listed 0/1, times played) for each card of each player of a
    match: what the read model's ``cards`` table holds of it (``moves_by_step``: the ruled
    view's moves, ``Replay.moves_by_step``; ``board``: its opening board, for the kinds,
    ``kind_finder``)."""
    kind_of = kind_finder(board)
    game = header.get("game")
    players = [p for p in header.get("players") or [] if isinstance(p, Mapping)]
    ids = {str(p.get("id")) for p in players}
    plays: dict[tuple[str, str], int] = {}
    by_type = _PATHS.get(str(game))
    if by_type:
        for moves in moves_by_step:
            for move in moves:
                try:
                    paths = by_type.get(move["type"])
                except (KeyError, TypeError):  # no type, or one no move type is spelled as
                    continue
                if not paths:  # most moves play no card: nothing else is looked at
                    continue
                by = move.get("by")
                if by is None or str(by) not in ids:
                    continue
                for name in set(_played(paths, move)):
                    plays[(str(by), name)] = plays.get((str(by), name), 0) + 1
    out = []
    for p in players:
        pid = str(p.get("id"))
        cards = listed(game, p.get("deck"))
        for name, kind in cards.items():
            out.append((pid, name, kind_of(name, kind), 1, plays.pop((pid, name), 0)))
        for (who, name), n in sorted(plays.items()):
            if who == pid:
                out.append((pid, name, kind_of(name, "card"), 0, n))
    return out


def card_rows(row: Mapping[str, Any], results: Sequence[Mapping[str, Any]]) -> list[tuple[Any, ...]]:
    """The ``cards`` rows of a decided match: (match_id, game, player, outcome, deck,
    archetype, card, kind, listed, played); none for a match that does not count."""
    if not row.get("finished") or row.get("error") or not row.get("cards"):
        return []
    by_player = {r["player"]: r for r in results}
    out = []
    for pid, card, kind, is_listed, played in row["cards"]:
        r = by_player.get(pid)
        if r is None:
            continue
        deck, archetype = stats._names(r)
        out.append((row["id"], row.get("game"), pid, r["outcome"], deck, archetype, card, kind, is_listed, played))
    return out


CARDS_DDL = (
    "create table if not exists cards (match_id text, game text, player text, outcome text, deck text, "
    "archetype text, card text, kind text, listed integer, played integer)"
)
CARDS_INDEXES = (
    "create index if not exists cards_by_match_id on cards (match_id)",
    "create index if not exists cards_by_game_card on cards (game, card, listed, played, outcome)",
)


# -- the report ------------------------------------------------------------------------------------


def make_report(
    game: str | None, filters: Any, grouped: Iterable[tuple[str, str, int, int, str | None, int, int]],
    decks: Iterable[tuple[str, str, int]], min_sample: int = 0,
) -> dict[str, Any]:
    """The card report from counts: ``grouped`` rows (card, kind, listed 0/1, played 0/1,
    outcome, sides, plays); ``decks`` rows (card, deck, sides listing it)."""
    cards: dict[str, dict[str, Any]] = {}

    def entry(card: str, kind: str) -> dict[str, Any]:
        return cards.setdefault(card, {"card": card, "kind": kind, "included": stats.Record(),
                                       "played": stats.Record(), "not_played": stats.Record(),
                                       "plays": 0, "decks": {}})

    for card, kind, is_listed, was_played, outcome, n, plays in grouped:
        e = entry(card, kind)
        if is_listed:
            e["kind"] = kind
            e["included"].add(outcome or "draw", n)
            if not was_played:
                e["not_played"].add(outcome or "draw", n)
        if was_played:
            e["played"].add(outcome or "draw", n)
            e["plays"] += plays or 0
    for card, deck, n in decks:
        entry(card, "card")["decks"][deck] = n
    shown = []
    hidden = []
    for e in cards.values():
        if max(e["included"].games, e["played"].games) < min_sample:
            hidden.append(e["card"])
            continue
        shown.append({
            "card": e["card"], "kind": e["kind"],
            "included": e["included"].to_json(),
            "decks": [{"name": d, "lists": n} for d, n in sorted(e["decks"].items(), key=lambda dn: (-dn[1], dn[0]))],
            "played": dict(e["played"].to_json(), plays=e["plays"]),
            "not_played": e["not_played"].to_json(),
        })
    shown.sort(key=lambda c: (-c["included"]["games"], -c["played"]["games"], c["card"]))
    return {
        "game": game,
        "filters": filters.to_json() if hasattr(filters, "to_json") else dict(filters or {}),
        "min_sample": min_sample,
        "draws": "half a win",
        "cards": shown,
        "hidden_cards": sorted(hidden),
    }


def report_sql(con: Any, filters: Any, min_sample: int = 0) -> dict[str, Any]:
    """The card report of one game (``filters.game``) from the read model's ``cards`` rows."""
    where, args = stats._where(filters)
    narrow = bool(filters.event or filters.since or filters.until or filters.player)
    if narrow or not filters.game:
        facts, fargs = f"match_id in (select m.id from matches m where {where})", list(args)
        if filters.game:
            facts, fargs = f"game = ? and {facts}", [filters.game, *fargs]
    else:
        facts, fargs = "game = ?", [filters.game]
    grouped = con.execute(
        f"select card, max(kind), listed, played > 0, outcome, count(*), sum(played) from cards where {facts} "
        f"group by card, listed, played > 0, outcome", fargs).fetchall()
    decks = con.execute(
        f"select card, deck, count(*) from cards where {facts} and listed = 1 group by card, deck", fargs).fetchall()
    return make_report(filters.game, filters, grouped, decks, min_sample)


def report(matches: Iterable[Mapping[str, Any]], filters: Any, min_sample: int = 0) -> dict[str, Any]:
    """The same report from match rows that carry ``cards`` (``match_cards``) and ``results``:
    the read model's counts done in Python (tests hold the two equal)."""
    grouped: dict[tuple[str, str, int, int, str | None], list[int]] = {}
    decks: dict[tuple[str, str], int] = {}
    kinds: dict[str, str] = {}
    for m in stats.select(matches, filters):
        for row in card_rows(m, m["results"]):
            _mid, _game, _pid, outcome, deck, _arch, card, kind, is_listed, played = row
            if is_listed:
                kinds[card] = kind
            key = (card, kind, is_listed, int(played > 0), outcome)
            g = grouped.setdefault(key, [0, 0])
            g[0] += 1
            g[1] += played
            if is_listed:
                decks[(card, deck)] = decks.get((card, deck), 0) + 1
    rows = [(c, kinds.get(c, k), li, pl, o, n, p) for (c, k, li, pl, o), (n, p) in grouped.items()]
    return make_report(filters.game, filters, rows, [(c, d, n) for (c, d), n in decks.items()], min_sample)
