"""The statistics computed in SQL (``ReadModel.report``) equal the reference computation in
Python (``projections.stats.report``) on any read model and any filters."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from projections import stats
from projections.readmodel import ReadModel, name_key, normalise_name

DECKS = [None, "", "闇ダイス組", "イスルギ組", "ｲｽﾙｷﾞ組", "Aggro", "aggro "]
EVENTS = [None, "冬季大会", "冬季大会 ", "ＷＩＮＴＥＲ", "winter"]
NAMES = [None, "山田", "佐藤", "ﾔﾏﾀﾞ", "Kim"]


@st.composite
def matches(draw, index):
    n = draw(st.integers(2, 4))
    ids = ["A", "B", "C", "D"][:n]
    finished = draw(st.booleans())
    winner = draw(st.sampled_from([None, *ids, "Z"])) if finished else None
    first = draw(st.sampled_from(ids))
    game = draw(st.sampled_from(["gandice", "mushijingi"]))
    event = draw(st.sampled_from(EVENTS))
    row = {
        "id": f"m{index}", "stream": f"s{index}", "game": game, "rules": f"{game}/1", "title": None,
        "event": event, "round": 1, "table": "1",
        "date": draw(st.sampled_from([None, "2026-11-01", "2026-11-15T10:00", "2026-12-01"])),
        "players": "[]", "decks": "[]", "archetypes": "[]", "player_count": n, "first": first,
        "finished": int(finished), "winner": winner,
        "reason": draw(st.sampled_from([None, "alive", "concession"])) if finished else None,
        "steps": 10, "turns": draw(st.one_of(st.none(), st.integers(1, 30))),
        "error": draw(st.sampled_from([None, None, None, "boom"])), "event_key": name_key(event), "created": index,
        "desk": None,
    }
    results = []
    fi = ids.index(first)
    for i, pid in enumerate(ids):
        deck = draw(st.sampled_from(DECKS))
        arch = draw(st.sampled_from(DECKS))
        name = draw(st.sampled_from(NAMES))
        outcome = None if not finished else ("draw" if winner is None else ("win" if pid == winner else "loss"))
        results.append({
            "match_id": row["id"], "player": pid, "name": name, "deck": deck, "archetype": arch,
            "deck_key": normalise_name(deck), "archetype_key": normalise_name(arch),
            "seat": (i - fi) % n + 1, "is_first": int(pid == first), "outcome": outcome,
            "player_key": name_key(name or pid),
        })
    return row, results


filters = st.builds(
    stats.Filters,
    game=st.sampled_from([None, "gandice", "mushijingi"]),
    event=st.sampled_from([None, "冬季大会", "WINTER"]),
    since=st.sampled_from([None, "2026-11-10"]),
    until=st.sampled_from([None, "2026-11-20"]),
    player=st.sampled_from([None, "山田", "ﾔﾏﾀﾞ", "b"]),
    by=st.sampled_from(["deck", "archetype"]),
    min_games=st.integers(0, 3),
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data(), f=filters)
def test_sql_report_equals_the_python_report(tmp_path_factory, data, f):
    rm = ReadModel(str(tmp_path_factory.mktemp("rm") / "rm.db"))
    try:
        count = data.draw(st.integers(0, 25))
        rows, results = [], []
        for i in range(count):
            row, res = data.draw(matches(i))
            rows.append(row)
            results += res
        with rm.db.conn:
            rm._write(rows, results)
        expected = stats.report(rm.matches(), f)
        got = rm.report(f)
        assert json.dumps(got, ensure_ascii=False, sort_keys=True) == json.dumps(expected, ensure_ascii=False, sort_keys=True)
        assert rm.games() == sorted({r["game"] for r in rows})
    finally:
        rm.close()
