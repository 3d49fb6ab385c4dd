"""Closed deck lists (issue 32): what a reader who may not see an event's lists is shown.

An event opened with ``lists: closed`` keeps its deck lists secret until the organiser
publishes them (projections/tournament.py, ``publish-lists``). The secret is the *list*: the
cards a player registered. What was played is public (the table saw it), so a match of such an
event is shown to the anonymous reader with

* its header's decks reduced to their name and archetype (``public_header``), and a
  registration's deck likewise (``public_deck``, ``public_tournament``);
* its board as played: a game whose board holds the deck itself (Gandice: every die and
  小札 is on the board from the first step) withholds what has not been played yet, through the
  ruleset's optional ``public_board_json`` hook (``public_board``); other games' boards hold
  only what the log recorded (a deck is a count) and pass unchanged.

Who may see a closed list, and which events are closed, is the server's question
(recorder/lists.py); this module is pure.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from projections.replay import Replay

PUBLIC_DECK_KEYS = ("name", "archetype")  # what the public sees of a closed list


def public_deck(deck: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """A deck as the public sees it while its list is closed: its name and archetype only."""
    if deck is None:
        return None
    if not isinstance(deck, Mapping):
        return {}
    return {k: deck[k] for k in PUBLIC_DECK_KEYS if k in deck}


def public_header(header: Mapping[str, Any]) -> dict[str, Any]:
    """A match header with every player's deck reduced to ``public_deck`` (a copy)."""
    out = copy.deepcopy(dict(header))
    for p in out.get("players") or []:
        if isinstance(p, dict) and "deck" in p:
            p["deck"] = public_deck(p["deck"]) or {}
    return out


def public_board(ruleset: Any, board_json: dict[str, Any], seen: Any = frozenset()) -> dict[str, Any]:
    """The board JSON without the unplayed part of a closed list (the ruleset's hook, told the
    names the lines so far have named: ``seen``; boards that hold only what was recorded pass
    unchanged)."""
    hook = getattr(ruleset, "public_board_json", None)
    return dict(hook(board_json, frozenset(seen))) if hook is not None else board_json


def public_tournament(st: Any) -> Any:
    """A tournament's state with its registrations' decks reduced to ``public_deck``."""
    players = {k: replace(r, deck=public_deck(r.deck)) for k, r in st.players.items()}
    return replace(st, players=players)


class PublicReplay(Replay):
    """A match's replay as an anonymous reader sees it while its event's lists are closed: it
    folds with the whole header (the boards need every die), and hands out ``header`` and
    ``board_json`` through ``public_header`` and ``public_board``. ``full_header`` is the one
    to fold another view of the same record with."""

    def __init__(self, header: Mapping[str, Any], entries: Any, view: str = "ruled", ruleset: Any = None,
                 checks: bool = True):
        super().__init__(header, entries, view, ruleset, checks)
        self.full_header = header
        self.header = public_header(header)

    @classmethod
    def of(cls, rep: Replay) -> PublicReplay:
        """The public twin of ``rep``, sharing the boards ``rep`` has folded so far."""
        twin = rep.fork()
        out = object.__new__(cls)
        out.__dict__.update(twin.__dict__)
        out.full_header = getattr(rep, "full_header", rep.header)
        out.header = public_header(out.full_header)
        return out

    def board_json(self, step: int | None = None) -> dict[str, Any]:
        out = super().board_json(step)
        return public_board(self.ruleset, out, shown_names(self.entries[: out["step"]]))


LIST_KEYS_SKIPPED = ("name", "archetype")


def list_names(header: Mapping[str, Any]) -> set[str]:
    """Every name a header's decks list (cards, dice, 小札, evolution, stock …): what a closed
    list keeps secret, before what was played is taken out."""
    out: set[str] = set()

    def walk(value: Any) -> None:
        if isinstance(value, str):
            if value.strip():
                out.add(value)
        elif isinstance(value, Mapping):
            for k, v in value.items():
                if k in ("name",) and isinstance(v, str):
                    out.add(v)
                elif k not in ("kin", "kind", "evolution", "archetype"):
                    walk(v)
        elif isinstance(value, (list, tuple)):
            for v in value:
                walk(v)

    for p in header.get("players") or []:
        deck = p.get("deck") if isinstance(p, Mapping) else None
        if isinstance(deck, Mapping):
            for k, v in deck.items():
                if k not in LIST_KEYS_SKIPPED:
                    walk(v)
    return out


def shown_names(value: Any) -> set[str]:
    """Every string a JSON value holds (the public board: what was played)."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, Mapping):
        return set().union(*(shown_names(v) for v in value.values()), {str(k) for k in value})
    if isinstance(value, (list, tuple)):
        return set().union(set(), *(shown_names(v) for v in value))
    return set()


def secret_names(rep: Any, more: Any = ()) -> set[str]:
    """The names of a public replay's closed lists (and ``more``: the other lists of its event)
    that its public board and its lines do not show."""
    return (list_names(full_header(rep)) | set(more)) - shown_names(rep.board_json(rep.steps)) - shown_names(rep.entries)


def scrub(value: Any, secret: set[str]) -> Any:
    """A JSON value without any string that holds a secret name: such list items and dict keys
    are dropped, such strings emptied (the recording page's choices while the lists are closed)."""
    if not secret:
        return value

    def holds(text: str) -> bool:
        return any(s in text for s in secret)

    if isinstance(value, str):
        return "" if holds(value) else value
    if isinstance(value, Mapping):
        return {k: scrub(v, secret) for k, v in value.items() if not (isinstance(k, str) and holds(k))}
    if isinstance(value, (list, tuple)):
        return [scrub(v, secret) for v in value if not (isinstance(v, str) and holds(v))]
    return value


def full_header(rep: Any) -> Mapping[str, Any]:
    """The header another view of ``rep``'s record is folded from (the whole one)."""
    return getattr(rep, "full_header", rep.header)  # type: ignore[no-any-return]


__all__ = [
    "PUBLIC_DECK_KEYS",
    "PublicReplay",
    "full_header",
    "list_names",
    "public_board",
    "public_deck",
    "public_header",
    "public_tournament",
    "scrub",
    "secret_names",
    "shown_names",
]
