"""Players report their own table's result over HTTP with their own tokens (issue 33), on SQLite
and on PostgreSQL: agreeing reports make the result stand (a ``result`` line of its own in each
game, and the standings count it); disagreeing reports are a dispute on the desk, out of the
standings until a judge records the result; a third player's token is refused; a retried
report (the same idempotency key) is one report; a report after the close is refused."""

from __future__ import annotations

import json

import httpx
import pytest

from projections.readmodel import catch_up_store
from recorder import tokens, tournament_service
from recorder.store import Store
from tests.table.conftest import LiveServer
from tests.web.sse import Follower, quick_keepalive

ADMIN = "adm1n-s3cret"
E = "春季大会"
PLAYERS = ["山田", "佐藤", "鈴木", "田中"]


def open_event(store: Store, format_: str = "bo3") -> dict:
    tournament_service.open_event(store, E, "mushijingi", 3, format=format_, seed=7)
    for p in PLAYERS:
        tournament_service.register(store, E, p)
    return tournament_service.pair(store, E)


def report(server, token, player, result, games=None, key=None):
    headers = {"Authorization": f"Bearer {token}"}
    if key:
        headers["Idempotency-Key"] = key
    body = {"player": player, "result": result, **({"games": games} if games else {})}
    return httpx.post(f"{server.url}/api/events/{E}/report", json=body, headers=headers, timeout=20)


def event_lines(store: Store, kind: str) -> list[dict]:
    _, lines = tournament_service.load(store, E)
    return [x for x in lines if x["type"] == kind]


def standings(server) -> dict[str, dict]:
    data = httpx.get(f"{server.url}/api/events/{E}/standings", timeout=20).json()
    return {s["player"]: s for s in data["standings"]}, data["pending"]


@pytest.fixture
def event_served(backend_url, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # a PostgreSQL store's read model is ./kifu.readmodel.db
    store = Store(backend_url)
    pairing = open_event(store)
    secrets = {p: tokens.issue(store, "player", event=E, player=p)[0] for p in PLAYERS}
    server = LiveServer(backend_url, ADMIN).start()
    yield server, store, pairing["tables"], secrets
    server.stop()
    store.close()


def test_agreeing_reports_stand_and_count(event_served):
    server, store, tables, secrets = event_served
    a, b = tables[0]["players"]
    quick_keepalive(server)
    follower = Follower(f"{server.url}/api/events/{E}/stream")
    try:
        assert follower.next()["event"] == "ready"
        r = report(server, secrets[a], a, "win", "2-1", key="retry-key-0001")
        assert r.status_code == 201, r.text
        assert r.json()["status"] == "waiting" and r.json()["recorded"] == []
        pushed = follower.next()  # each report is an event of the tournament's stream, pushed to its followers
        assert pushed["data"]["line"] == "report"
        # the same key again (a phone retrying): the first report, not a second
        again = report(server, secrets[a], a, "win", "2-1", key="retry-key-0001")
        assert again.status_code == 200 and again.json()["repeated"] is True
        assert again.json()["line"]["seq"] == r.json()["line"]["seq"]
        assert len(event_lines(store, "report")) == 1
        before, _ = standings(server)
        assert before[a]["points"] == 0
        r = report(server, secrets[b], b, "loss", "1-2")
        assert r.status_code == 201, r.text
        done = r.json()
        assert done["status"] == "agreed"
        games = [f"{E}-r1-t{tables[0]['table']}-g{n}" for n in (1, 2, 3)]
        assert done["recorded"] == games
    finally:
        follower.close()
    # the result stands as a line of its own in each game: who reported, when
    seats = {p["name"]: p["id"] for p in store.load(games[0])[0]["players"]}
    winners = []
    for mid in games:
        log = [json.loads(x) for x in httpx.get(f"{server.url}/api/matches/{mid}/log", timeout=20).text.splitlines()[1:]]
        assert [x["type"] for x in log] == ["result"]
        line = log[0]
        assert line["reason"] == "reported"
        assert line["by"] == next(t.name for t in tokens.list_tokens(store) if t.player == b)  # the token that made it stand
        assert [x["player"] for x in line["reported"]] == list(tables[0]["players"])
        assert all(x["at"] for x in line["reported"])
        winners.append(line["winner"])
    assert winners == [seats[b], seats[a], seats[a]]  # the loser's game first: a 2-1 is won in game 3
    after, pending = standings(server)
    assert (after[a]["points"], after[a]["record"], after[a]["games"]) == (3, "1-0-0", {"won": 2, "lost": 1, "drawn": 0})
    assert (after[b]["points"], after[b]["record"]) == (0, "0-1-0")
    assert {p["table"] for p in pending} == {tables[1]["table"]}
    # agreed: a further report of that table is refused
    r = report(server, secrets[a], a, "draw", "1-1-1")
    assert r.status_code == 400 and "agree" in r.json()["error"]


def test_disagreeing_reports_are_a_dispute_until_a_judge_rules(event_served):
    server, store, tables, secrets = event_served
    c, d = tables[1]["players"]
    t = tables[1]["table"]
    assert report(server, secrets[c], c, "win", "2-0").status_code == 201
    r = report(server, secrets[d], d, "win", "2-1")
    assert r.status_code == 201 and r.json()["status"] == "dispute" and r.json()["recorded"] == []
    desk = httpx.get(f"{server.url}/events/{E}?fragment=1&lang=en", timeout=20).text
    assert f'data-table="{t}"' in desk.split('id="round-disputes"')[1].split("</dd>")[0]
    assert f"Table {t}: reports disagree" in desk.split('id="round-reports"')[1].split("</dd>")[0]
    rows, pending = standings(server)
    assert rows[c]["points"] == rows[d]["points"] == 0
    assert {p["table"] for p in pending} >= {t}
    mid = f"{E}-r1-t{t}-g1"
    assert store.last_seq(mid) == 0  # nothing written to the games
    # a judge records the result: it takes precedence, the dispute leaves the desk
    judge = tokens.issue(store, "judge", event=E)[0]
    seats = {p["name"]: p["id"] for p in store.load(mid)[0]["players"]}
    for n in (1, 2):
        r = httpx.post(f"{server.url}/api/matches/{E}-r1-t{t}-g{n}/events", timeout=20,
                       json={"type": "result", "by": "主審", "winner": seats[c], "reason": "judge"},
                       headers={"Authorization": f"Bearer {judge}"})
        assert r.status_code == 201, r.text
    desk = httpx.get(f"{server.url}/events/{E}?fragment=1&lang=en", timeout=20).text
    assert f'data-table="{t}"' not in desk.split('id="round-disputes"')[1].split("</dd>")[0]
    rows, _ = standings(server)
    assert rows[c]["points"] == 3
    r = report(server, secrets[d], d, "loss", "0-2")  # the judge's record stands over reports
    assert r.status_code == 400 and "recorded" in r.json()["error"]


def test_a_third_player_s_token_is_refused(event_served):
    server, store, tables, secrets = event_served
    a = tables[0]["players"][0]
    other = tables[1]["players"][0]
    r = report(server, secrets[other], a, "loss", "0-2")
    assert r.status_code == 403
    assert r.json()["error"] == f"token {tokens.list_tokens(store)[PLAYERS.index(other)].name!r} is {other!r}'s: it does not report for {a!r}"
    assert event_lines(store, "report") == []
    assert report(server, "kifu_not-a-token", a, "win", "2-0").status_code == 401
    assert httpx.post(f"{server.url}/api/events/{E}/report", json={"player": a, "result": "win", "games": "2-0"},
                      timeout=20).status_code == 401
    # a scorekeeper's token is not a player's
    sk = tokens.issue(store, "scorekeeper", event=E, table=tables[0]["table"])[0]
    assert report(server, sk, a, "win", "2-0").status_code == 403
    # a player's token writes no match line
    r = httpx.post(f"{server.url}/api/matches/{tables[0]['match']}/events", timeout=20,
                   json={"type": "concede", "by": "A"}, headers={"Authorization": f"Bearer {secrets[a]}"})
    assert r.status_code == 403 and "player's token" in r.json()["error"]


def test_a_report_after_the_close_is_refused(event_served):
    server, store, tables, secrets = event_served
    a = tables[0]["players"][0]
    tournament_service.close(store, E, unreported="draw")  # the tables never reported: counted as drawn
    steps = len(tournament_service.load(store, E)[1])
    r = report(server, secrets[a], a, "win", "2-0")
    assert r.status_code == 400
    assert r.json()["error"] == f"round: round 1 of {E!r} is closed: a report after the close is refused; a judge records the result"
    assert len(tournament_service.load(store, E)[1]) == steps


def test_a_revoked_player_token_is_refused(event_served):
    server, store, tables, secrets = event_served
    a = tables[0]["players"][0]
    name = next(t.name for t in tokens.list_tokens(store) if t.player == a)
    tokens.revoke(store, name)
    r = report(server, secrets[a], a, "win", "2-0")
    assert r.status_code == 403 and "revoked" in r.json()["error"]


def test_the_read_model_counts_a_reported_result(event_served):
    """The standings read the read model: the reported results are there as any recorded one."""
    server, store, tables, secrets = event_served
    a, b = tables[0]["players"]
    report(server, secrets[a], a, "win", "2-0")
    report(server, secrets[b], b, "loss", "0-2")
    rm = catch_up_store(store)
    try:
        rows = list(rm.db.query("select id, reason from matches where reason = 'reported' order by id"))
    finally:
        rm.close()
    assert [r["id"] for r in rows] == [f"{E}-r1-t{tables[0]['table']}-g{n}" for n in (1, 2)]


def test_a_judge_extends_a_table_from_the_desk(event_served):
    """``POST /api/events/E/extend`` with a judge's token: on the desk, the clock and that
    table's players' pages; a player's token or none is refused."""
    server, store, tables, secrets = event_served
    t = tables[0]["table"]
    a = tables[0]["players"][0]
    other = tables[1]["players"][0]
    url = f"{server.url}/api/events/{E}/extend"
    body = {"table": t, "minutes": 6, "reason": "長い裁定"}
    assert httpx.post(url, json=body, timeout=20).status_code == 401
    r = httpx.post(url, json=body, headers={"Authorization": f"Bearer {secrets[a]}"}, timeout=20)
    assert r.status_code == 403 and "judge" in r.json()["error"]
    assert event_lines(store, "extend") == []
    judge = tokens.issue(store, "judge", event=E, name="主審")[0]
    r = httpx.post(url, json=body, headers={"Authorization": f"Bearer {judge}"}, timeout=20)
    assert r.status_code == 201, r.text
    assert (r.json()["table"], r.json()["minutes"], r.json()["by"]) == (t, 6, "主審")
    r = httpx.post(url, json={**body, "minutes": 500}, headers={"Authorization": f"Bearer {judge}"}, timeout=20)
    assert r.status_code == 400 and r.json()["error"] == "--minutes: 1 to 120, got 500"
    desk = httpx.get(f"{server.url}/events/{E}?fragment=1&lang=en", timeout=20).text
    assert f"Table {t}: +6 min (長い裁定)" in desk.split('id="round-extended"')[1].split("</dd>")[0]
    clock = httpx.get(f"{server.url}/api/events/{E}/clock", timeout=20).json()["round"]
    assert [(e["table"], e["minutes"]) for e in clock["extended"]] == [(t, 6)]
    mine = httpx.get(f"{server.url}/api/events/{E}/me", headers={"Authorization": f"Bearer {secrets[a]}"}, timeout=20).json()
    theirs = httpx.get(f"{server.url}/api/events/{E}/me", headers={"Authorization": f"Bearer {secrets[other]}"},
                       timeout=20).json()
    assert (mine["round"]["extended"], theirs["round"]["extended"]) == (6, 0)
    from datetime import datetime

    gap = datetime.fromisoformat(mine["round"]["ends_at"][:-1]) - datetime.fromisoformat(theirs["round"]["ends_at"][:-1])
    assert gap.total_seconds() == 360
