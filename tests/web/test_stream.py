"""Live follow pushed: ``GET /api/matches/ID/stream`` on a real uvicorn on 127.0.0.1 sends
each new line once, in seq order, with its seq as the event id; ``Last-Event-ID`` (before
``?after=``) resumes; the desk's ``/api/events/EVENT/stream`` names the match of each line;
a slow follower is let go and catches up from the store when it reconnects."""

from __future__ import annotations

import httpx
import pytest

from recorder.web import stream
from tests.web.conftest import TOKEN
from tests.web.sse import Follower, quick_keepalive

MID = "toy-1"
URL = "/api/matches/toy-1/stream"


@pytest.fixture(autouse=True)
def _quick(live):
    quick_keepalive(live)


def post(server, line, **kw):
    r = httpx.post(f"{server.url}/api/matches/{MID}/events", json=line, timeout=30,
                   headers={"Authorization": f"Bearer {TOKEN}", **kw.pop("headers", {})}, **kw)
    assert r.status_code in (200, 201), r.text
    return r.json()["seq"]


def note(n: int) -> dict:
    return {"type": "annotate", "on": 1, "by": "解説", "text": f"メモ {n}"}


def steps_of(server) -> int:
    return httpx.get(f"{server.url}/api/matches/{MID}", timeout=10).json()["steps"]


def test_each_new_line_once_in_order_with_its_seq_as_id(live):
    start = steps_of(live)
    f = Follower(live.url + URL, params={"after": start})
    try:
        assert f.status == 200 and f.content_type.startswith("text/event-stream")
        ready = f.next()
        assert ready["event"] == "ready" and ready["data"] == {"match": MID, "steps": start} and "id" not in ready
        seqs = [post(live, note(i)) for i in range(5)]
        assert seqs == list(range(start + 1, start + 6))
        got = [f.next() for _ in seqs]
        assert [int(e["id"]) for e in got] == seqs
        assert [e["data"]["seq"] for e in got] == seqs
        assert [e["data"]["text"] for e in got] == [f"メモ {i}" for i in range(5)]
        assert all("event" not in e for e in got)  # plain messages: EventSource's onmessage
        # nothing twice: the next event is the next line
        last = post(live, note(5))
        assert int(f.next()["id"]) == last == start + 6
        assert f.pending() == []
    finally:
        f.close()


def test_last_event_id_resumes_before_after(live):
    start = steps_of(live)
    post(live, note(0))
    post(live, note(1))
    # a reconnect: the browser sends the last id it saw; ?after= is the page's first view
    f = Follower(live.url + URL, headers={"Last-Event-ID": str(start)}, params={"after": 0})
    try:
        assert f.next()["data"]["steps"] == start + 2
        caught = [f.next(), f.next()]
        assert [int(e["id"]) for e in caught] == [start + 1, start + 2]
        assert caught[1]["data"]["text"] == "メモ 1"
        seq = post(live, note(2))
        assert int(f.next()["id"]) == seq == start + 3
    finally:
        f.close()
    # ?after= alone resumes too; without either, only what comes next
    g = Follower(live.url + URL, params={"after": start + 2})
    h = Follower(live.url + URL)
    try:
        assert g.next()["event"] == "ready" and int(g.next()["id"]) == start + 3
        assert h.next()["data"]["steps"] == start + 3
        seq = post(live, note(3))
        assert int(g.next()["id"]) == int(h.next()["id"]) == seq
    finally:
        g.close()
        h.close()


def test_many_followers_share_one_watcher(live):
    start = steps_of(live)
    fs = [Follower(live.url + URL, params={"after": start}) for _ in range(8)]
    try:
        for f in fs:
            assert f.next()["event"] == "ready"
        hub = live.app.state.hub
        assert sum(len(v) for v in hub.matches.values()) == 8
        seq = post(live, note(0))
        assert {int(f.next()["id"]) for f in fs} == {seq}
    finally:
        for f in fs:
            f.close()


def test_a_followed_event_names_the_match_of_each_line(live):
    f = Follower(live.url + "/api/events/秋の大会/stream")
    try:
        ready = f.next()
        assert ready["event"] == "ready" and ready["data"]["event"] == "秋の大会" and ready["data"]["matches"] >= 1
        seq = post(live, note(0))
        got = f.next()
        assert got["data"] == {"match": MID, "seq": seq} and int(got["id"]) > 0
    finally:
        f.close()


def test_an_unknown_match_is_a_404(live):
    r = httpx.get(live.url + "/api/matches/nope/stream", timeout=10)
    assert r.status_code == 404 and "nope" in r.json()["error"]


def test_a_follower_too_slow_is_let_go_and_catches_up(live, monkeypatch):
    monkeypatch.setattr(stream, "BACKLOG", 2)
    start = steps_of(live)
    hub = live.app.state.hub
    follower = stream.Follower()
    for seq in range(start + 1, start + 5):
        follower.put(seq, stream.encode({"seq": seq}, seq))
    assert follower.dropped and [k for k, _ in follower.items] == [start + 1, start + 2]
    # over HTTP: the stream ends, and a reconnect from the last id gets the rest from the store
    monkeypatch.setattr(stream, "BACKLOG", 1)
    f = Follower(live.url + URL, params={"after": start})
    try:
        assert f.next()["event"] == "ready"
        def flood() -> None:  # three lines land at once, before the follower reads
            for fol in next(iter(hub.matches.values())):
                for i in range(3):
                    fol.put(start + 1 + i, stream.encode({"seq": start + 1 + i}, start + 1 + i))

        hub.loop.call_soon_threadsafe(flood)
        first = f.next()
        assert int(first["id"]) == start + 1
        f.thread.join(20)
        assert not f.thread.is_alive()  # the server closed the stream
    finally:
        f.close()
    for i in range(3):
        post(live, note(i))
    g = Follower(live.url + URL, headers={"Last-Event-ID": str(start + 1)})
    try:
        assert g.next()["event"] == "ready"
        assert [int(g.next()["id"]) for _ in range(2)] == [start + 2, start + 3]
    finally:
        g.close()


@pytest.mark.parametrize("after", ["x", "-1", ""])
def test_a_bad_resume_point_counts_as_none(live, after):
    f = Follower(live.url + URL, headers={"Last-Event-ID": after})
    try:
        assert f.next()["data"]["steps"] == steps_of(live)
    finally:
        f.close()


def test_followers_fetching_the_same_rows_share_one_render(live, monkeypatch):
    """What the pages fetch on each event is rendered once for all of them (they all ask at
    once), and a new line gives a new answer."""
    from exports import pages

    start = steps_of(live)
    seq = post(live, note(0))
    rendered: list[str] = []
    real = pages.render
    monkeypatch.setattr(pages, "render", lambda name, *a, **k: rendered.append(name) or real(name, *a, **k))
    with httpx.Client(base_url=live.url, timeout=10) as c:
        answers = [c.get(f"/matches/{MID}/poll", params={"after": start, "view": "ruled", "lang": "ja"}) for _ in range(5)]
        assert {a.status_code for a in answers} == {200} and len({a.content for a in answers}) == 1
        assert answers[0].json()["steps"] == seq and f'id="step-{seq}"' in answers[0].json()["moves"]
        assert sorted(rendered) == ["_header.html", "_moves.html"]
        newer = post(live, note(1))
        again = c.get(f"/matches/{MID}/poll", params={"after": seq, "view": "ruled", "lang": "ja"}).json()
        assert again["steps"] == newer and f'id="step-{newer}"' in again["moves"]


def test_an_events_stream_finds_its_matches_in_the_read_model_not_the_store(live, monkeypatch):
    """The event's matches come through the read model's event index: the server's list of
    every match (which reads the whole store) is never asked; the name is compared as the
    desk compares it (normalised, case-folded)."""
    cache = live.app.state.cache

    def everything():
        raise AssertionError("the event stream read every match of the store")

    monkeypatch.setattr(cache, "list", everything)
    f = Follower(live.url + "/api/events/秋の大会/stream")
    try:
        ready = f.next()
        assert ready["event"] == "ready" and ready["data"]["matches"] >= 1
        hub = live.app.state.hub
        assert hub.match_of.get(live.app.state.store.stream_of(MID)) == MID
        seq = post(live, note(0))
        assert f.next()["data"] == {"match": MID, "seq": seq}
    finally:
        f.close()
    g = Follower(live.url + "/api/events/no-such-event/stream")
    try:
        assert g.next()["data"] == {"event": "no-such-event", "matches": 0}
    finally:
        g.close()


def test_each_line_is_encoded_once_whatever_the_followers(live):
    start = steps_of(live)
    fs = [Follower(live.url + URL, params={"after": start}) for _ in range(5)]
    try:
        for f in fs:
            assert f.next()["event"] == "ready"
        hub = live.app.state.hub
        before = hub.encoded
        seqs = [post(live, note(i)) for i in range(3)]
        for f in fs:
            assert [int(f.next()["id"]) for _ in seqs] == seqs
        assert hub.encoded - before == 3
    finally:
        for f in fs:
            f.close()


def test_a_write_waits_neither_for_the_pages_lock_nor_for_their_threads(live):
    """A scorekeeper's POST checks its token against the match's header without the replays'
    lock (held here by a page, as a burst of page requests would hold it) and on threads of
    its own; an unknown match is still a 404."""
    import threading

    cache = live.app.state.cache
    cache.replays.clear()  # the match's replay was let go (more tables than replays kept)
    held, release = threading.Event(), threading.Event()

    def page() -> None:
        with cache.lock:
            held.set()
            release.wait(30)

    t = threading.Thread(target=page)
    t.start()
    try:
        assert held.wait(10)
        start = steps_of_store(live)
        r = httpx.post(f"{live.url}/api/matches/{MID}/events", json=note(0), timeout=20,
                       headers={"Authorization": f"Bearer {TOKEN}", "Idempotency-Key": "lockfree:0001"})
        assert r.status_code == 201 and r.json()["seq"] == start + 1
    finally:
        release.set()
        t.join(10)
    r = httpx.post(f"{live.url}/api/matches/nope/events", json=note(0), timeout=20,
                   headers={"Authorization": f"Bearer {TOKEN}"})
    assert r.status_code == 404 and "nope" in r.json()["error"]


def steps_of_store(server) -> int:
    return server.app.state.store.last_seq(MID)
