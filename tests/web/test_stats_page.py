"""The statistics page of the replay server: the same filters and renderer as `kifu stats`."""

from __future__ import annotations

from urllib.parse import quote


def test_stats_page_shows_the_matchup_table(live):
    with live.client() as client:
        page = client.get("/stats")
        assert page.status_code == 200
        assert "Deck statistics" in page.text and "<table" in page.text
        assert 'href="/stats"' in page.text  # linked from the navigation
        gandice = client.get("/stats?game=gandice&by=archetype")
        assert gandice.status_code == 200
        bad = client.get("/stats?min_games=" + quote("たくさん"))
        assert bad.status_code == 400 and "min" in bad.text
