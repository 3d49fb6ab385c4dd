"""A small tournament in a store, built as an organiser builds it (open, register, pair from a
CSV, record, drop, close, pair again), for the round sheet and the event pages' tests.

10 players of 蟲神器 (mushijingi: a deck list is optional there), best of one. Round 1 is
finished and closed (a warning to 上田 at table 2), 加藤 dropped after it; round 2 is open with
one table of each status: 1 finished, 2 in progress, 3 awaiting a ruling, 4 not started, and a
bye for 鈴木.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

EVENT = "春季大会"
NAMES = ["青木", "井上", "上田", "江口", "大野", "加藤", "木村", "工藤", "佐藤", "鈴木"]
ROUND1 = [("1", "青木", "井上", "B"), ("2", "上田", "江口", "A"), ("3", "大野", "加藤", "B"),
          ("4", "木村", "工藤", "A"), ("5", "佐藤", "鈴木", "B")]  # the seat that concedes
ROUND2 = [("1", "青木", "江口"), ("2", "大野", "工藤"), ("3", "佐藤", "井上"), ("4", "上田", "木村")]
BYE2 = "鈴木"
SETUP = {"type": "setup", "by": "A"}


def csv_file(folder: Path, name: str, tables: list[tuple[str, ...]], bye: str | None = None) -> str:
    path = folder / name
    rows = [f"{t[0]},{t[1]},{t[2]}" for t in tables] + ([f"BYE,{bye},"] if bye else [])
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return str(path)


def open_round_one(db: str, folder: Path, rounds: int = 3) -> Any:
    """The event opened, every player registered, round 1 paired; returns the store."""
    from recorder import tournament_service
    from recorder.store import Store

    store = Store(db)
    tournament_service.open_event(store, EVENT, "mushijingi", rounds, round_minutes=50, seed=7)
    for n in NAMES:
        deck = {"name": f"{n}のデッキ", "archetype": "甲虫", "cards": []} if n != "鈴木" else None
        tournament_service.register(store, EVENT, n, deck)
    tournament_service.import_pairing(store, EVENT, csv_file(folder, "r1.csv", ROUND1))
    return store


def build(db: str, folder: Path) -> None:
    """The whole event of the module docstring, in the store at ``db``."""
    from recorder import service, tournament_service

    store = open_round_one(db, folder)
    for table, _, _, loser in ROUND1:
        mid = f"{EVENT}-r1-t{table}"
        service.record(store, mid, SETUP)
        if table == "2":
            service.record(store, mid, {"type": "penalty", "player": "A", "by": "主審", "infraction": "遅刻",
                                        "penalty": "warning", "text": "5分遅刻"})
        service.record(store, mid, {"type": "concede", "by": loser})
    tournament_service.close(store, EVENT)
    tournament_service.drop(store, EVENT, "加藤")
    tournament_service.import_pairing(store, EVENT, csv_file(folder, "r2.csv", ROUND2, BYE2))
    service.record(store, f"{EVENT}-r2-t1", SETUP)
    service.record(store, f"{EVENT}-r2-t1", {"type": "concede", "by": "B"})
    service.record(store, f"{EVENT}-r2-t2", SETUP)
    service.record(store, f"{EVENT}-r2-t3", SETUP)
    service.record(store, f"{EVENT}-r2-t3", {"type": "dispute", "on": 1, "by": "B", "claim": "手札が5枚ある"})
    store.close()
