"""The list's filters on names find their matches through indexes (issue 25 item 2): the
names that contain the text are found by one index seek per distinct name, then their
matches by the event or player index; no filter walks every match of the store. (That the
rows are what the filters always meant is test_listing_sql.py's property test.)"""

from __future__ import annotations

import pytest

from projections import listing
from tests.stats.test_views_stats import model  # noqa: F401  (the same small read model)


@pytest.mark.parametrize("q", [{"event": "gen"}, {"event": "gen", "round": "1"}, {"player": "a"},
                               {"player": "A", "game": "gandice"}])
def test_name_filters_use_the_indexes(model, q):  # noqa: F811
    found = listing.where(q)
    assert found is not None
    clause, params = found
    for sql in (f"select count(*) from matches m{clause}",
                f"select m.id from matches m{clause} order by m.created, m.id limit 25"):
        plan = [r[3] for r in model.db.conn.execute("explain query plan " + sql, params)]
        assert not any(step.startswith(("SCAN m", "SCAN matches", "SCAN r", "SCAN results")) for step in plan), plan
        assert not any("CORRELATED" in step and "SCALAR SUBQUERY 2" not in step for step in plan), plan
    rows, total = listing.page(model.db.conn, q, 25, 0, order="created")
    assert total >= len(rows) > 0
