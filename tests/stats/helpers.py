"""Rows shaped like the read model's, built by hand for the pure statistics tests."""

from __future__ import annotations

from typing import Any

from projections.readmodel import normalise_name


def match(mid: str, players: list[tuple[str, str, str]], winner: str | None, *, first: str = "A",
          finished: bool = True, game: str = "gandice", event: str = "秋の大会",
          date: str = "2026-11-28", turns: int | None = 5, reason: str = "time",
          names: dict[str, str] | None = None) -> dict[str, Any]:
    """``players`` is [(id, deck, archetype)]; seat order starts at ``first``."""
    ids = [p[0] for p in players]
    fi = ids.index(first)
    results = []
    for i, (pid, deck, arch) in enumerate(players):
        outcome = None if not finished else "draw" if winner is None else "win" if pid == winner else "loss"
        results.append({"match_id": mid, "player": pid, "name": (names or {}).get(pid, f"player-{pid}"),
                        "deck": deck, "archetype": arch, "deck_key": normalise_name(deck),
                        "archetype_key": normalise_name(arch), "seat": (i - fi) % len(players) + 1,
                        "is_first": int(pid == first), "outcome": outcome})
    return {"id": mid, "game": game, "event": event, "date": date, "first": first,
            "finished": int(finished), "winner": winner if finished else None,
            "reason": reason if finished else None, "turns": turns, "error": None, "results": results}


def cell(report: dict[str, Any], row: str, col: str) -> dict[str, Any] | None:
    for c in report["matrix"]:
        if c["deck"] == row and c["opponent"] == col:
            return c
    return None


def deck(report: dict[str, Any], name: str) -> dict[str, Any]:
    return next(d for d in report["decks"] if d["name"] == name)
