"""The recording page's state against the POST it follows (issue 25: "the recording page's
state costs no more than a POST"), through a real ``kifu serve --workers 1`` on 127.0.0.1.

For each game, moves of a generated match are POSTed one at a time the way the phone sends
them (idempotency key and ``expect``); after each one the phone's requests follow: the state of
the new head (``/matches/ID/record/state``, worked out for the first time), the same state
again (another device, a reload: the head's state is kept) and the page itself. One keep-alive
connection, as a phone's. Each run's figure is the median over its moves; the figure is the
median of the runs, beside the keyed POST of the same runs as its baseline.
"""

from __future__ import annotations

import http.client
import json
import statistics
import time
from typing import Any
from urllib.parse import quote

from recorder.tools.bench.context import Bench, line_of, with_id
from recorder.tools.bench.measure import BenchError, Goal, Runs, figure

HOST = "127.0.0.1"
TOKEN = "bench-rec0rd-token"
GAMES = ("gandice", "mushijingi", "gurren-lagann", "variants-war")


def _timed(conn: http.client.HTTPConnection, method: str, path: str, body: bytes | None = None,
           headers: dict[str, str] | None = None) -> float:
    start = time.perf_counter()
    conn.request(method, path, body=body, headers=headers or {})
    resp = conn.getresponse()
    data = resp.read()
    took = time.perf_counter() - start
    if resp.status not in (200, 201):
        raise BenchError(f"{method} {path}: HTTP {resp.status}: {data[:200]!r}")
    return took * 1000


def bench_record_page(b: Bench) -> None:
    from projections import registry
    from recorder.store import Store
    from recorder.tools.bench.pages import free_port, server
    from recorder.tools.synth import generate

    per_run = b.size(8, 3)
    db = b.path("record-page.db")
    store = Store(db)
    plans: dict[str, tuple[str, list[dict[str, Any]], int]] = {}
    for game in GAMES:
        header, entries = generate(registry.get(game), 7, 0)
        start = max(1, len(entries) - b.runs * per_run)
        if len(entries) - start < b.runs * per_run:
            raise BenchError(f"{game}: a generated match of {len(entries)} lines is too short for {b.runs} runs")
        mid = store.create(with_id(header, f"rec-{game}"), entries[:start])
        plans[game] = (mid, [line_of(e) for e in entries[start:]], start)
    store.close()
    port = free_port()
    argv = [*b.kifu, "--db", db, "serve", "--host", HOST, "--port", str(port), "--token", TOKEN, "--workers", "1"]
    with b.step("recording page state beside the keyed POST (kifu serve)", len(GAMES) * b.runs) as advance, \
            server(argv, port, str(b.tmp)):
        conn = http.client.HTTPConnection(HOST, port, timeout=60)
        try:
            for game, (mid, lines, start) in plans.items():
                q = quote(mid, safe="")
                post_path, state_path, page_path = f"/api/matches/{q}/events", f"/matches/{q}/record/state?lang=ja", \
                    f"/matches/{q}/record?lang=ja"
                _timed(conn, "GET", page_path)  # warm: the server's first request of a match folds it
                post, fresh, again, page = (Runs("ms"), Runs("ms"), Runs("ms"), Runs("ms"))
                seq = start
                for r in range(b.runs):
                    p, f, a, g = [], [], [], []
                    for line in lines[r * per_run:(r + 1) * per_run]:
                        headers = {"Authorization": f"Bearer {TOKEN}", "Content-Type": "application/json",
                                   "Idempotency-Key": f"{mid}:{seq + 1:06d}"}
                        body = json.dumps(line, ensure_ascii=False).encode("utf-8")
                        p.append(_timed(conn, "POST", f"{post_path}?expect={seq + 1}", body, headers))
                        seq += 1
                        f.append(_timed(conn, "GET", state_path))
                        a.append(_timed(conn, "GET", state_path))
                        g.append(_timed(conn, "GET", page_path))
                    for runs, values in ((post, p), (fresh, f), (again, a), (page, g)):
                        runs.add(statistics.median(values))
                    advance()
                base = ("POST of one move with Idempotency-Key and expect (the phone's write), same runs", post)
                notes = (f"{per_run} moves a run, each POSTed then followed by the phone's requests; one keep-alive "
                         "connection; kifu serve --workers 1 on SQLite; lang=ja")
                figure(b.results, f"record_page.sqlite.{game}.state", section="record_page", backend="sqlite",
                       what=f"recording page state of a new head ({game}), first request after the move",
                       runs=fresh, baseline=base, notes=notes,
                       goal=Goal("the recording page's state costs no more than a POST (issue 25)", "<=", 1.0))
                figure(b.results, f"record_page.sqlite.{game}.state_again", section="record_page", backend="sqlite",
                       what=f"the same state asked again ({game}): a reload, a second device",
                       runs=again, baseline=base, notes=notes)
                figure(b.results, f"record_page.sqlite.{game}.page", section="record_page", backend="sqlite",
                       what=f"the recording page's HTML after the move ({game}), board and form drawn",
                       runs=page, baseline=base, notes=notes)
        finally:
            conn.close()


__all__ = ["bench_record_page"]
