"""The quick benchmark's publish section (an event's static site beside ``kifu report`` of its
matches, and a second publish after one new match), run in this file's own worker
(tests/core/benchgroups.py says why)."""

from __future__ import annotations

import pytest

from tests.core.benchgroups import check_shape, quick_run


@pytest.fixture(scope="module")
def quick(tmp_path_factory):
    return quick_run(tmp_path_factory, "publish")


def test_every_section_writes_figures_of_one_shape(quick):
    check_shape(*quick, "publish")


def test_a_second_publish_after_one_new_match_writes_only_what_shows_it(quick):
    """The second ``kifu event publish`` of the bench's event after one new match rewrites the
    new match's replays (ja and en), the pages that show its result (its round, its two players,
    the standings, the index whose winner it decides, the statistics), other players' pages only
    where their place moved, and no other replay: counted, never timed."""
    from exports.site import MANIFEST, slug
    from projections.standings import player_key
    from recorder.tools.bench import publish

    _, results = quick
    first, again = results["figures"]["publish.sqlite.first"], results["figures"]["publish.sqlite.again"]
    rounds, tables = publish.sizes(True)
    last = publish.match_id(rounds, tables)
    a, b = publish.pairs(rounds, tables)[-1]
    pages = ["index.html", "standings.html", f"round-{rounds}.html", "metagame.html", "cards.html",
             slug("match", last), slug("player", player_key(a)), slug("player", player_key(b))]
    expected = {MANIFEST, "standings.json", *pages, *(f"en/{p}" for p in pages)}
    written = set(again["again_written"])
    assert expected <= written and again["again_files"] == len(written)
    # besides: only other players' pages (their place in the standings moved), never a replay
    assert {w.removeprefix("en/").split("-")[0] for w in written - expected} <= {"player"}
    assert again["again_replays_written"] == 2  # the new match's page in each language, no other replay
    # each page twice (ja, en: index, standings, metagame, cards, each round, each player, each
    # match's replay; the last match not yet recorded), standings.json and the manifest
    assert first["files"] == 2 * (4 + rounds + 2 * tables + rounds * tables - 1) + 2
    assert again["files"] == first["files"] + 2
    mb = results["figures"]["publish.sqlite.mb"]
    assert mb["unit"] == "MB" and mb["median"] > 0 and first["baseline"]["n"] >= 3
