"""The server's caches are bounded (issue 25 item 2): browsing more match pages than a cache
keeps lets the least recently used go (counted, not timed), a page let go is folded again
and shows what it showed, and the desk's rows are kept apart from the replays."""

from __future__ import annotations

import re

import pytest
from starlette.testclient import TestClient

from recorder.web.server import Kept, MatchCache, create_app
from recorder.web.viewer import ViewCache
from tests.web.matches import toy_match

MATCHES = 7


def _page(client, path: str) -> str:
    return re.sub(r'nonce="[^"]*"', "", client.get(path).text)  # a new nonce per response


@pytest.fixture
def many(store):
    for i in range(MATCHES):
        header, entries = toy_match(f"toy-{i}")
        store.create(header, entries)
    return store


def test_kept_lets_the_least_recently_used_go():
    kept = Kept(2)
    kept.put("a", 1)
    kept.put("b", 2)
    assert kept.get("a") == 1  # a use: "b" is now the oldest
    kept.put("c", 3)
    assert list(kept) == ["a", "c"] and kept.evicted == 1
    assert kept.get("b") is None


def test_match_pages_past_the_bound_are_let_go_and_come_back_the_same(many, monkeypatch):
    monkeypatch.setenv("KIFU_SERVER_REPLAYS", "3")
    monkeypatch.setenv("KIFU_SERVER_VIEWS", "2")
    app = create_app(many)
    cache: MatchCache = app.state.cache
    assert cache.replays.keep == 3
    client = TestClient(app)
    first = _page(client, "/matches/toy-0?step=3")
    for i in range(MATCHES):
        assert client.get(f"/matches/toy-{i}").status_code == 200
        assert len(cache.replays) <= 3
    assert cache.replays.evicted == MATCHES - 3
    assert ("toy-0", "ruled") not in cache.replays
    loads: list[str] = []
    real = many.load
    monkeypatch.setattr(many, "load", lambda m: loads.append(m) or real(m))
    assert _page(client, "/matches/toy-0?step=3") == first  # folded again, the same page
    assert loads == ["toy-0"]
    assert _page(client, "/matches/toy-0?step=3") == first
    assert loads == ["toy-0"]  # kept again


def test_the_view_cache_keeps_at_most_its_bound(many):
    cache = MatchCache(many, keep=MATCHES)
    views = ViewCache(keep=2)
    for i in range(MATCHES):
        views.get(cache.replay(f"toy-{i}", "ruled"), "ja")
    assert len(views.views) == 2 and views.evicted == MATCHES - 2
    assert [k[0] for k in views.views] == [f"toy-{MATCHES - 2}", f"toy-{MATCHES - 1}"]


def test_the_defaults_are_bounded(many, monkeypatch):
    monkeypatch.delenv("KIFU_SERVER_REPLAYS", raising=False)
    monkeypatch.delenv("KIFU_SERVER_VIEWS", raising=False)
    from recorder.web import server, viewer

    assert MatchCache(many).replays.keep == server.REPLAYS_KEPT > 0
    assert ViewCache().keep == viewer.KEEP > 0
