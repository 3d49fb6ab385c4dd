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
        for _ in range(100):  # the URL is printed just before uvicorn binds the port: bounded wait
            try:
                page = httpx.get(url.group(1), timeout=10)
                break
            except httpx.ConnectError:
                time.sleep(0.1)
        assert page is not None, "the server never answered"
        assert page.status_code == 200 and "kifu" in page.text
        match_id = unquote(url.group(2))
        move = {"type": "summon", "by": "A", "rolls": {"ギダン": "special", "美雅羅": "normal", "爪牙": "side"}}
        posted = httpx.post(f"http://127.0.0.1:{port}/api/matches/{url.group(2)}/events", json=move,
                            headers={"Authorization": f"Bearer {token.group(1)}"}, timeout=10)
        assert posted.status_code == 201, posted.text
        assert posted.json()["seq"] == 1 and posted.json()["violations"] == []
        assert match_id == "demo-gandice-table-1"
    finally:
        proc.terminate()
        proc.wait(10)
