"""Numbers in URLs and headers of any length and of any digits: a round, step, seq or page of
5,000 digits (past Python's 4,300-digit limit of ``int()``), one of ``²`` or ``٣`` (digits to
``str.isdigit``), on every route, in the path and in every numeric query, and as a stream's
``Last-Event-ID``: an answer below 500 and nothing written. Found by the soak of issue 38: the
hostile-request property drew ``?round=`` of 5,000 nines on /api/events/{event}/standings."""

from __future__ import annotations

from urllib.parse import quote

import pytest

from recorder.tournament_service import open_event, register
from recorder.store import Store
from recorder.web.common import BEYOND, count_of
from tests.hardening.conftest import TOKEN, dump
from tests.hardening.test_hostile_property import MATCH, routes

LONG = "9" * 5000
NUMBERS = {"long": LONG, "zeros": "0" * 5000 + "7", "superscript": "²", "arabic-indic": "٣", "fullwidth": "３"}
NUMERIC = ("step", "after", "round", "page", "per_page", "expect", "table", "min_games", "turn")
EVENT = "長い数の大会"


@pytest.fixture(scope="module")
def server(live_server):
    store = Store(live_server.db)
    try:
        open_event(store, EVENT, "mushijingi", 3, seed=1)
        for p in ("山田", "佐藤"):
            register(store, EVENT, p)
    finally:
        store.close()
    return live_server


@pytest.mark.parametrize("kind", NUMBERS)
def test_every_get_route_answers_a_number_of_any_length_or_digit_below_500(server, kind):
    value = NUMBERS[kind]
    before = dump(server.db)
    asked = 0
    with server.client(TOKEN) as client:
        for path, methods in routes(server):
            if "GET" not in methods:
                continue
            url = path
            while "{" in url:  # a number where a number goes (a round), real names elsewhere
                start, end = url.index("{"), url.index("}")
                name = url[start + 1:end].split(":")[0]
                fill = EVENT if name == "event" else MATCH if name in ("id", "match") else value
                url = url[:start] + quote(fill, safe="") + url[end + 1:]
            params = {q: value for q in NUMERIC}
            if url.endswith("/stream"):
                # a header is latin-1 on the wire (the client sends no other): the digits it can carry
                headers = {"Last-Event-ID": value} if value.isascii() else {}
                with client.stream("GET", url, params=params, headers=headers) as r:
                    status = r.status_code
            else:
                r = client.get(url, params=params)
                status = r.status_code
            assert status < 500, (kind, url, status)
            asked += 1
    assert asked >= 30  # every GET route of the server
    assert dump(server.db) == before


def test_count_of_reads_ascii_digits_of_any_length_and_nothing_else():
    assert count_of("12") == 12 and count_of(" 7 ") == 7 and count_of("0") == 0 and count_of("007") == 7
    assert count_of(LONG) == BEYOND and count_of("0" * 5000 + "7") == 7 and count_of("9" * 18) == 10**18 - 1
    assert count_of("9" * 19) == BEYOND
    for bad in (None, "", " ", "²", "٣", "３", "-1", "+1", "1.0", "1e3", "0x10", "1_000"):
        assert count_of(bad) is None, bad
