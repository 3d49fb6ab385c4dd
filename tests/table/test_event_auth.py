"""Who writes an event's own lines from the server (recorder/tokens.py ``authorize_event``, the
one rule behind the desk's check-in, a judge's time extension and a player's report): each
refusal, in one line, through the routes."""

from __future__ import annotations

from urllib.parse import quote

import httpx
import pytest

from tests.table.conftest import LiveServer

E = "認可大会"


def _open(db: str) -> None:
    from recorder import tournament_service
    from recorder.store import Store

    store = Store(db)
    try:
        tournament_service.open_event(store, E, "mushijingi", 2, seed=1, checkin=True)
        for p in ("甲", "乙"):
            tournament_service.register(store, E, p)
    finally:
        store.close()


def _post(server, route: str, body: dict, secret: str | None = None, lang: str = "en") -> httpx.Response:
    headers = {"Accept-Language": lang, **({"Authorization": f"Bearer {secret}"} if secret else {})}
    return httpx.post(f"{server.url}/api/events/{quote(E)}/{route}", json=body, headers=headers, timeout=30)


DESK = [("checkin", {"player": "甲"}), ("extend", {"table": "1", "minutes": 5, "reason": "裁定"})]


@pytest.mark.parametrize(("route", "body"), DESK)
def test_a_server_nobody_can_write_to_says_it_is_read_only(tmp_path, route, body):
    db = str(tmp_path / "kifu.db")
    _open(db)
    server = LiveServer(db, None).start()  # no admin token, no token issued
    try:
        r = _post(server, route, body)
    finally:
        server.stop()
    assert r.status_code == 403 and "read-only" in r.json()["error"] and "\n" not in r.json()["error"]


@pytest.mark.parametrize(("route", "body"), DESK)
def test_the_desk_s_lines_need_an_admin_or_the_event_s_judge(tmp_path, route, body):
    from recorder import tokens
    from recorder.store import Store

    db = str(tmp_path / "kifu.db")
    _open(db)
    store = Store(db)
    keeper, _ = tokens.issue(store, role="scorekeeper", event=E, table="1")
    other, _ = tokens.issue(store, role="judge", event="別の大会")
    store.close()
    server = LiveServer(db, None).start()
    try:
        assert _post(server, route, body).status_code == 401  # tokens exist: one is needed
        said = _post(server, route, body, keeper).json()["error"]
        assert f"the desk of '{E}' needs an admin's token or a judge's token for '{E}'" in said
        said = _post(server, route, body, keeper, lang="ja").json()["error"]  # Japanese by default
        assert f"'{E}' の大会本部には管理者のトークンか '{E}' のジャッジのトークンが必要です" in said
        r = _post(server, route, body, other)
        assert r.status_code == 403 and f"is not for event '{E}'" in r.json()["error"]
    finally:
        server.stop()
