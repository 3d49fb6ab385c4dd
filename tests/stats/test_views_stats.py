"""Statistics filtered by player, date or event read the read model through its indexes, and
unfiltered statistics walk covering indexes in their GROUP BY order (issue 25 item 2): the
query plans say so. (That the numbers are the reference computation's is
test_stats_sql.py's property test.)"""

from __future__ import annotations

from typing import Any

import pytest

from projections import registry, stats
from projections.readmodel import ReadModel, match_rows
from recorder.tools.synth import generate


class Planned:
    """A connection that records the query plan of every statement it runs."""

    def __init__(self, con: Any):
        self.con = con
        self.plans: list[tuple[str, list[str]]] = []

    def execute(self, sql: str, args: Any = ()) -> Any:
        plan = [row[3] for row in self.con.execute("explain query plan " + sql, args)]
        self.plans.append((sql, plan))
        return self.con.execute(sql, args)


@pytest.fixture(scope="module")
def model(tmp_path_factory):
    rm = ReadModel(str(tmp_path_factory.mktemp("rm") / "rm.db"))
    rows, results = [], []
    for i, game in enumerate(["gandice", "mushijingi", "gandice", "variants-war", "gurren-lagann"] * 4):
        header, entries = generate(registry.get(game), 3, i)
        header["match"]["date"] = f"2026-11-{i + 1:02d}"
        row, res = match_rows(header["match"]["id"], f"s{i}", header, entries)
        rows.append(dict(row, created=i + 1))
        results += res
    with rm.db.conn:
        rm._write(rows, results)  # no ANALYZE: kifu never runs one, so its plans are these
    yield rm
    rm.close()


def _plans(rm: ReadModel, filters: stats.Filters) -> list[tuple[str, list[str]]]:
    con = Planned(rm.db.conn)
    got = stats.report_sql(con, filters)
    assert got == stats.report_sql(rm.db.conn, filters)
    return con.plans


def _player(rm: ReadModel) -> str:
    return str(rm.db.conn.execute("select name from results where name is not null limit 1").fetchone()[0])


def test_a_players_statistics_find_the_players_matches_by_the_player_index(model):
    plans = _plans(model, stats.Filters(player=_player(model)))
    assert plans
    for sql, plan in plans:
        assert any("idx_results_player_key" in step for step in plan), (sql, plan)
        assert not any(step.startswith("SCAN m") or step.startswith("SCAN matches") for step in plan), (sql, plan)
        assert not any("CORRELATED" in step for step in plan), (sql, plan)  # not a test of every match


def test_a_date_filter_reads_the_day_index(model):
    for f in (stats.Filters(since="2026-11-10"), stats.Filters(until="2026-11-05"),
              stats.Filters(since="2026-11-03", until="2026-11-04")):
        for sql, plan in _plans(model, f):
            assert any("matches_by_day" in step for step in plan), (sql, plan)
            assert not any(step.startswith("SCAN m") for step in plan), (sql, plan)


def test_an_event_filter_reads_the_event_index(model):
    event = model.db.conn.execute("select event from matches limit 1").fetchone()[0]
    for sql, plan in _plans(model, stats.Filters(event=event)):
        assert any("idx_matches_event_key" in step for step in plan), (sql, plan)
        assert not any(step.startswith("SCAN m") for step in plan), (sql, plan)


@pytest.mark.parametrize("by", ["deck", "archetype"])
def test_unfiltered_statistics_sort_nothing(model, by):
    plans = _plans(model, stats.Filters(by=by))
    for sql, plan in plans:
        assert not any("TEMP B-TREE" in step for step in plan), (sql, plan)
        tables = [step for step in plan if step.split()[:2][-1] in ("m", "matches", "sides", "pairs", "results")]
        assert tables and all("COVERING INDEX" in step for step in tables), (sql, plan)
    assert sum("from pairs where game = ?" in sql for sql, _ in plans) == 4  # game by game, four games
