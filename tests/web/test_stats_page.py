"""The statistics page of the replay server: the same filters and renderer as `kifu stats`."""

from __future__ import annotations

from urllib.parse import quote


def test_stats_page_shows_the_matchup_table(live):
    with live.client() as client:
        page = client.get("/stats")
        assert page.status_code == 200
        assert "デッキ統計" in page.text and "<table" in page.text
        assert '<select name="game" id="stats-game">' in page.text
        games = page.text.split('id="stats-game">', 1)[1].split("</select>", 1)[0]
        for title in ("眼魔伝ガンダイス", "蟲神器", "グレンラガン"):
            assert title in games
        # one matrix per game: decks of different games never share one
        assert page.text.count('class="stats-game"') >= 4 and page.text.count('class="matrix"') >= 4
        assert "Deck statistics" in client.get("/stats?lang=en").text
        assert 'href="/stats"' in page.text  # linked from the navigation
        gandice = client.get("/stats?game=gandice&by=archetype")
        assert gandice.status_code == 200 and gandice.text.count('class="stats-game"') == 1
        assert '<option value="gandice" selected>' in gandice.text
        bad = client.get("/stats?min_games=" + quote("たくさん"))
        assert bad.status_code == 400 and "min" in bad.text
