"""The replay server on a real uvicorn (127.0.0.1, a free port): pages, API, writes, safety."""

from __future__ import annotations

import json

import pytest

from tests.web.conftest import TOKEN, LiveServer, fill
from tests.web.matches import XSS


@pytest.fixture
def api(live):
    with live.client() as c:
        yield c


def test_match_list_filters_and_paging(api):
    r = api.get("/api/matches")
    assert r.status_code == 200
    body = r.json()
    ids = [m["id"] for m in body["matches"]]
    assert body["total"] >= 5 and "toy-1" in ids and "gen-gandice" in ids
    assert [m["id"] for m in api.get("/api/matches", params={"game": "gd"}).json()["matches"]] == ["gen-gandice"]
    assert [m["id"] for m in api.get("/api/matches", params={"event": "秋の"}).json()["matches"]] == ["toy-1"]
    assert [m["id"] for m in api.get("/api/matches", params={"round": "3"}).json()["matches"]] == ["toy-1"]
    by_player = api.get("/api/matches", params={"player": "佐藤"}).json()["matches"]
    assert "toy-1" in [m["id"] for m in by_player]
    assert all(any("佐藤" in p["name"] for p in m["players"]) for m in by_player)
    assert "toy-1" in [m["id"] for m in api.get("/api/matches", params={"deck": "イスルギ"}).json()["matches"]]
    assert "toy-1" in [m["id"] for m in api.get("/api/matches", params={"result": "in-progress"}).json()["matches"]]
    assert "toy-1" not in [m["id"] for m in api.get("/api/matches", params={"result": "decided"}).json()["matches"]]
    page = api.get("/api/matches", params={"per_page": 2, "page": 2}).json()
    assert page["page"] == 2 and len(page["matches"]) == 2 and [m["id"] for m in page["matches"]] == ids[2:4]
    html = api.get("/matches", params={"game": "toy", "player": "山田"}).text
    assert "秋の大会 決勝" in html and "gen-gandice" not in html
    assert "山田 &lt;b&gt;太郎&lt;/b&gt;" in html


def test_match_page_is_the_report_template_with_permalinks(api):
    r = api.get("/matches/toy-1", params={"step": 2, "view": "recorded"})
    assert r.status_code == 200
    html = r.text
    assert 'id="kifu-data"' in html and 'href="/matches/toy-1?step=4&amp;view=recorded"' in html
    cfg = json.loads(html.split('id="kifu-data">', 1)[1].split("</script>", 1)[0])
    assert cfg["mode"] == "server" and cfg["step"] == 2 and cfg["view"] == "recorded" and "boards" not in cfg
    assert "&lt;script&gt;window.__pwned" in html and XSS not in html
    frame = api.get("/matches/toy-1/frame", params={"step": 4, "view": "recorded"}).json()
    assert frame["step"] == 4 and "TOY-1" in frame["html"]


def test_unknown_ids_and_steps_are_404_pages_not_tracebacks(api):
    for url, params in (("/matches/nope", {}), ("/matches/toy-1", {"step": 99}), ("/matches/toy-1", {"step": -1}),
                        ("/matches/nope/record", {})):
        r = api.get(url, params=params)
        assert r.status_code == 404, url
        assert "<h1>404</h1>" in r.text and "Traceback" not in r.text
    r = api.get("/matches/toy-1", params={"step": "x"})  # not a number: a bad request, naming the field
    assert r.status_code == 400 and "step" in r.text and "Traceback" not in r.text
    huge = "9" * 5000  # more digits than Python's int() converts: out of range, never a 500
    for url, params, code in (("/matches/toy-1/frame", {"step": huge}, 400), ("/matches/toy-1", {"step": huge}, 400),
                              ("/matches/toy-1/frame", {"step": "0" * 5000 + "2"}, 400)):
        r = api.get(url, params=params)
        assert r.status_code == code and "Traceback" not in r.text, (url, r.status_code)
    def at(**params):
        return api.get("/matches/toy-1/frame", params={"view": "recorded", **params}).json()["step"]

    # a turn of any length: past the end is the last step, before the start the first turn's
    assert at(turn=huge) == at() == at(turn="999") and at(turn="-" + huge) == at(turn="0")
    r = api.get("/api/matches/toy-1/board", params={"step": 8})
    assert r.status_code == 404 and "out of range" in r.json()["error"]
    assert api.get("/api/matches/nope").status_code == 404
    assert api.get("/api/matches/toy-1/board", params={"view": "sideways"}).status_code == 400


def test_board_json_in_both_views_and_the_log(api):
    ruled = api.get("/api/matches/toy-1/board", params={"step": 4}).json()
    recorded = api.get("/api/matches/toy-1/board", params={"step": 4, "view": "recorded"}).json()
    assert ruled["game"] == "toy" and ruled["step"] == 4 and ruled["view"] == "ruled"
    assert ruled["players"]["A"]["score"] == 3 and recorded["players"]["B"]["score"] == 4
    assert [v["rule"] for v in recorded["violations"]] == ["TOY-1"]
    log = api.get("/api/matches/toy-1/log")
    assert log.headers["content-type"].startswith("application/x-ndjson")
    lines = [json.loads(x) for x in log.text.splitlines()]
    assert lines[0]["match"]["id"] == "toy-1" and [e["seq"] for e in lines[1:8]] == list(range(1, 8))
    assert "山田 <b>太郎</b>" in log.text  # the log keeps the text as recorded (it is JSON, not HTML)
    detail = api.get("/api/matches/toy-1").json()
    assert detail["header"]["match"]["id"] == "toy-1" and detail["steps"] >= 7


def test_writes_need_the_token(live, api):
    move = {"type": "pass", "by": "A"}
    assert api.post("/api/matches/toy-1/events", json=move).status_code == 401
    with live.client("wrong") as c:
        assert c.post("/api/matches/toy-1/events", json=move).status_code == 401


def test_read_only_without_a_token(readonly):
    with readonly.client() as c:
        r = c.post("/api/matches/toy-1/events", json={"type": "pass", "by": "A"})
        assert r.status_code == 403 and "read-only" in r.json()["error"]
        assert c.get("/api/matches/toy-1").status_code == 200
    with readonly.client(TOKEN) as c:  # a secret this server never issued
        assert c.post("/api/matches/toy-1/events", json={"type": "pass", "by": "A"}).status_code == 401


def test_post_event_answers_with_seq_and_violations_and_live_follow_sees_it(live):
    with live.client(TOKEN) as c:
        before = c.get("/matches/toy-1/poll", params={"after": 0}).json()["steps"]
        assert c.get("/matches/toy-1/poll", params={"after": before}).json() == {"steps": before}
        cached = live.app.state.cache.replay("toy-1", "ruled", fresh=False)
        r = c.post("/api/matches/toy-1/events", json={"type": "score", "by": "B", "points": 9})
        assert r.status_code == 201, r.text
        body = r.json()
        assert body["seq"] == before + 1
        assert {v["rule"] for v in body["violations"]} == {"TOY-1", "TOY-2"}
        polled = c.get("/matches/toy-1/poll", params={"after": before}).json()
        assert polled["steps"] == before + 1 and f'id="step-{before + 1}"' in polled["moves"]
        # the cached replay was extended, not rebuilt
        assert live.app.state.cache.replay("toy-1", "ruled") is cached and cached.steps == before + 1
        note = c.post("/api/matches/toy-1/events", json={"type": "annotate", "on": 1, "by": "解説", "text": "良い手", "symbol": "!"})
        assert note.status_code == 201 and note.json()["violations"] == []


def test_post_errors(live):
    with live.client(TOKEN) as c:
        url = "/api/matches/toy-1/events"
        r = c.post(url, json={"type": "annotate", "by": "x"})
        assert r.status_code == 400 and any("on" in p for p in r.json()["problems"])
        assert c.post(url, content=b"{not json").status_code == 400
        assert c.post(url, json=[1, 2]).status_code == 400
        assert c.post(url, json={"seq": 3, "type": "pass", "by": "A"}).status_code == 400
        big = {"type": "annotate", "on": 1, "by": "x", "text": "字" * 40000}
        assert c.post(url, json=big).status_code == 413
        stale = c.post(url, params={"expect": 1}, json={"type": "pass", "by": "A"})
        assert stale.status_code == 409 and "reload" in stale.json()["error"]
        assert c.post("/api/matches/nope/events", json={"type": "pass", "by": "A"}).status_code == 404


def test_server_cli_is_registered():
    from recorder import cli

    cli.load_commands()
    names = {c.name or c.callback.__name__ for c in cli.app.registered_commands}
    assert {"report", "serve"} <= names


def test_a_fresh_server_lists_a_match_created_after_it_started(tmp_path):
    from recorder.store import Store

    db = str(tmp_path / "k.db")
    store = Store(db)
    server = LiveServer(db, TOKEN).start()
    try:
        with server.client() as c:
            assert c.get("/api/matches").json()["total"] == 0
            fill(store)
            assert c.get("/api/matches").json()["total"] == 5
            assert "gen-variants-war" in c.get("/matches").text
    finally:
        server.stop()
        store.close()


def test_parallel_stepping_gives_the_same_boards(live):
    """Requests run in uvicorn's thread pool; boards fold lazily, so this must stay consistent."""
    from concurrent.futures import ThreadPoolExecutor

    with live.client() as c:
        steps = c.get("/api/matches/gen-variants-war").json()["steps"]
        want = {s: c.get("/api/matches/gen-variants-war/board", params={"step": s, "view": "recorded"}).json()
                for s in range(0, steps + 1, 7)}

    def fetch(step: int) -> bool:
        with live.client() as c:
            got = c.get("/api/matches/gen-variants-war/board", params={"step": step, "view": "recorded"}).json()
        return got == want[step]

    order = sorted(want, reverse=True) * 3 + sorted(want) * 3
    with ThreadPoolExecutor(6) as pool:
        assert all(pool.map(fetch, order))
