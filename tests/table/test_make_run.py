"""``make run`` (recorder.tools.demo --serve, as the Makefile runs it) prints an admin token and
the URL of a recording page, and that URL records a move with that token."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from urllib.parse import unquote

import httpx

from tests.web.conftest import ROOT, free_port


def test_make_run_prints_a_token_and_a_recording_url_that_works(tmp_path):
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("KIFU_TOKEN", "KIFU_DB")}
    proc = subprocess.Popen(
        [sys.executable, "-m", "recorder.tools.demo", "--db", str(tmp_path / "kifu.db"), "--serve", "--port", str(port)],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )
    try:
        seen: list[str] = []
        assert proc.stdout is not None
        for line in proc.stdout:  # until the server announces itself (or the process ends)
            seen.append(line)
            if "kifu replay server:" in line:
                break
        text = "".join(seen)
        token = re.search(r"token:\s+(kifu_\S+)", text)
        url = re.search(r"recording:\s+(http://127\.0\.0\.1:\d+/matches/(\S+)/record)#token=(\S+)", text)
        assert token and url, text
        assert url.group(3) == token.group(1)
        page = None
        deadline = time.monotonic() + 60  # the URL is printed just before uvicorn binds the port: a bound, not a speed
        while page is None and time.monotonic() < deadline:
            try:
                page = httpx.get(url.group(1), timeout=10)
            except httpx.ConnectError:
                time.sleep(0.1)
        assert page is not None, "the server never answered"
        assert page.status_code == 200 and "kifu" in page.text
        match_id = unquote(url.group(2))
        from recorder.store import Store
        from recorder.tools.demo import opening_move

        reader = Store(str(tmp_path / "kifu.db"))
        try:  # the table make run points at is a game of the demo event's semifinals not started yet
            header, lines = reader.load(match_id)
        finally:
            reader.close()
        assert header["match"]["event"] == "デモ大会" and header["match"]["round"] == 4 and lines == []
        move = opening_move(header)
        posted = httpx.post(f"http://127.0.0.1:{port}/api/matches/{url.group(2)}/events", json=move,
                            headers={"Authorization": f"Bearer {token.group(1)}"}, timeout=10)
        assert posted.status_code == 201, posted.text
        assert posted.json()["seq"] == 1 and posted.json()["violations"] == []
        assert match_id == "デモ大会-r4-t2-g1"
    finally:
        proc.terminate()
        proc.wait(10)


def _start_lines(tmp_path, env: dict[str, str], *extra: str, command: tuple[str, ...] | None = None) -> str:
    """What make run (or ``command``, given the port) prints up to the server's start line (then
    the server is stopped)."""
    port = free_port()
    args = [sys.executable, "-m", "recorder.tools.demo", "--db", str(tmp_path / "kifu.db"), "--serve", "--port", str(port),
            *extra] if command is None else [*command, "--port", str(port)]
    proc = subprocess.Popen(args, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        seen: list[str] = []
        assert proc.stdout is not None
        for line in proc.stdout:
            seen.append(line)
            if f"http://127.0.0.1:{port}/matches" in line and "Ctrl-C" in line:  # the start line, in either language
                break
        return "".join(seen)
    finally:
        proc.terminate()
        proc.wait(10)


def test_make_run_speaks_japanese_by_default_and_english_on_request(tmp_path):
    """Every line make run and the server print follows the reader's language: Japanese by
    default (no KIFU_LANG, LANG=C), English with --lang en, as the CLI."""
    base = {k: v for k, v in os.environ.items() if k not in ("KIFU_TOKEN", "KIFU_DB", "KIFU_LANG", "LC_ALL",
                                                             "LC_MESSAGES", "LANG")}
    ja = _start_lines(tmp_path, {**base, "LANG": "C"})
    assert "kifu リプレイサーバー: http://127.0.0.1:" in ja and "Ctrl-C で停止" in ja
    assert "== 開催中の大会: デモ大会" in ja and "順位表：" in ja and "組み合わせ：" in ja
    assert "replay server" not in ja and "importing" not in ja and "in progress" not in ja
    en = _start_lines(tmp_path, {**base, "LANG": "ja_JP.UTF-8"}, "--lang", "en")
    assert "kifu replay server: http://127.0.0.1:" in en and "(writes need the token; Ctrl-C to stop)" in en
    assert "== a tournament in progress: デモ大会" in en and "standings:" in en
    assert "リプレイサーバー" not in en


def test_kifu_serve_s_start_line_follows_the_reader_s_language(tmp_path):
    base = {k: v for k, v in os.environ.items() if k not in ("KIFU_TOKEN", "KIFU_DB", "KIFU_LANG", "LC_ALL",
                                                             "LC_MESSAGES", "LANG")}
    kifu = (sys.executable, "-m", "recorder.cli", "--db", str(tmp_path / "s.db"))
    ja = _start_lines(tmp_path, {**base, "LANG": "C"}, command=(*kifu, "serve", "--workers", "1"))
    assert "kifu リプレイサーバー:" in ja and "読み取り専用（--token なし）" in ja
    en = _start_lines(tmp_path, {**base, "LANG": "en_US.UTF-8"}, command=(*kifu, "serve", "--workers", "1"))
    assert "kifu replay server:" in en and "(read-only (no --token); Ctrl-C to stop)" in en
    two = _start_lines(tmp_path, {**base, "LANG": "C"}, command=(*kifu, "--lang", "en", "serve", "--workers", "2"))
    assert "2 workers; Ctrl-C to stop" in two
