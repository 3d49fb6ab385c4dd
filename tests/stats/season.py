"""A season of seeded weekly events for the metagame tests (the seeded generator's matches,
with players from a pool, dates and event names set)."""

from __future__ import annotations

import random
from datetime import date, timedelta
from typing import Any

from projections import registry
from recorder.tools import synth

PLAYERS = ["山田", "佐藤", "鈴木", "田中", "高橋", "渡辺"]


def weekly_season(store: Any) -> None:
    """Seven weekly gandice events (Saturdays from 2026-10-31, the last one in January), of
    1, 2, 3, 1, 2, 3 and 1 matches between players of a pool; plus two mushijingi matches."""
    rng = random.Random(34)
    gandice = registry.get("gandice")
    days = [date(2026, 10, 31) + timedelta(weeks=w) for w in range(6)] + [date(2027, 1, 9)]
    k = 0
    for week, day in enumerate(days):
        for table in range(1 + week % 3):
            header, moves = synth.generate(gandice, 7, k)
            k += 1
            a, b = rng.sample(PLAYERS, 2)
            header["players"][0]["name"], header["players"][1]["name"] = a, b
            header["match"].update(event=f"週例会{week + 1}", date=day.isoformat(), round=1, table=str(table + 1))
            store.create(header, moves)
    mj = registry.get("mushijingi")
    for i in range(2):
        header, moves = synth.generate(mj, 7, i)
        header["match"].update(event="蟲の会", date="2026-11-03")
        store.create(header, moves)
