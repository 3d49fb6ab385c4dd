"""The round sheet (`kifu round sheet E N -o FILE`, issue 24 item 4): each table's QR code is
decoded from the sheet's own image (zxing-cpp, as a phone's camera would), and the decoded
address writes through a real server: at its table, not at another table, not after the round
closes. The refusals of the command each have a test."""

from __future__ import annotations

import base64
import io
import os
import re
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import httpx
import pytest

from tests.table.event_site import EVENT, ROUND1, SETUP, open_round_one
from tests.web.conftest import CHROMIUM, LiveServer

ROOT = Path(__file__).resolve().parents[2]


def kifu(*args: str, db: str, ok: bool = True) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "KIFU_DB": db}
    env.pop("KIFU_TOKEN", None)
    out = subprocess.run([sys.executable, "-m", "recorder.cli", *args], capture_output=True, text=True, env=env,
                         timeout=120)
    if ok:
        assert out.returncode == 0, out.stderr
    return out


class Images(HTMLParser):
    """Every <img> of the sheet with its table label."""

    def __init__(self) -> None:
        super().__init__()
        self.found: dict[str, str] = {}

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "img" and a.get("data-table"):
            self.found[str(a["data-table"])] = str(a["src"])


def decode(data_uri: str) -> str:
    """The text of the QR code in a PNG data URI, read by zxing-cpp."""
    import zxingcpp
    from PIL import Image

    head, _, body = data_uri.partition(",")
    assert head == "data:image/png;base64"
    image = Image.open(io.BytesIO(base64.b64decode(body)))
    found = zxingcpp.read_barcodes(image)
    assert len(found) == 1 and found[0].format == zxingcpp.BarcodeFormat.QRCode
    return str(found[0].text)


@pytest.fixture
def event_db(tmp_path):
    db = str(tmp_path / "kifu.db")
    open_round_one(db, tmp_path).close()
    return db


@pytest.fixture
def server(event_db, monkeypatch):
    """A server without an admin token: only the issued tokens write."""
    monkeypatch.delenv("KIFU_TOKEN", raising=False)
    srv = LiveServer(event_db, None)  # started by the test, once the sheet knows its address
    yield srv
    if srv.thread.ident is not None:
        srv.stop()


def qr_urls(html: str) -> dict[str, str]:
    parser = Images()
    parser.feed(html)
    return {table: decode(src) for table, src in parser.found.items()}


def test_a_decoded_qr_code_writes_at_its_table_only_and_not_after_the_round_closes(server, event_db, tmp_path):
    sheet = tmp_path / "第1回戦.html"
    out = kifu("round", "sheet", EVENT, "1", "-o", str(sheet), "--base-url", server.url, db=event_db)
    assert f"{len(ROUND1)} table(s)" in out.stdout and "kifu_" not in out.stdout  # the secret is on the sheet only
    html = sheet.read_text(encoding="utf-8")
    urls = qr_urls(html)
    assert sorted(urls) == sorted(t[0] for t in ROUND1)
    server.start()

    parts = urlsplit(urls["1"])
    assert f"{parts.scheme}://{parts.netloc}" == server.url
    assert unquote(parts.path) == f"/matches/{EVENT}-r1-t1/record"
    token = unquote(re.fullmatch(r"token=(kifu_[A-Za-z0-9_\-]+)", parts.fragment).group(1))  # type: ignore[union-attr]
    assert token in html  # printed under the code too, for a phone without a camera
    assert httpx.get(urls["1"], timeout=10).status_code == 200  # the recording page itself

    def post(match: str) -> httpx.Response:
        return httpx.post(f"{server.url}/api/matches/{match}/events", json=SETUP,
                          headers={"Authorization": f"Bearer {token}"}, timeout=10)

    ok = post(f"{EVENT}-r1-t1")
    assert ok.status_code == 201, ok.text
    line = httpx.get(f"{server.url}/api/matches/{EVENT}-r1-t1/log", timeout=10).text.splitlines()[-1]
    assert f'"token": "{EVENT}-table-1"' in line or f'"token":"{EVENT}-table-1"' in line

    other = post(f"{EVENT}-r1-t2")
    assert other.status_code == 403
    assert "table 1" in other.json()["error"]

    kifu("round", "close", EVENT, "--unreported", "draw", db=event_db)
    closed = post(f"{EVENT}-r1-t1")
    assert closed.status_code == 403
    assert "revoked" in closed.json()["error"]


def test_every_table_has_its_own_token(event_db, tmp_path):
    sheet = tmp_path / "sheet.html"
    kifu("round", "sheet", EVENT, "1", "-o", str(sheet), "--lang", "en", db=event_db)
    html = sheet.read_text(encoding="utf-8")
    urls = qr_urls(html)
    tokens = {u.split("#token=")[1] for u in urls.values()}
    assert len(tokens) == len(ROUND1)
    assert all(u.startswith("http://127.0.0.1:8000/matches/") for u in urls.values())  # the default --base-url
    assert 'lang="en"' in html and "Table sheet" in html and "Table 1" in html


def test_the_sheet_is_japanese_by_default_and_names_each_pairing(event_db, tmp_path, monkeypatch):
    monkeypatch.delenv("KIFU_LANG")  # the suite runs in English; the default is Japanese
    sheet = tmp_path / "sheet.html"
    kifu("round", "sheet", EVENT, "1", "-o", str(sheet), db=event_db)
    html = sheet.read_text(encoding="utf-8")
    assert 'lang="ja"' in html and "卓シート" in html
    for table, a, b, _ in ROUND1:
        assert f"{a} vs {b}" in html and f"{EVENT}-r1-t{table}" in html


@pytest.mark.parametrize(("args", "message"), [
    (["1", "-o", "sheet.txt"], "-o: sheet.txt: a sheet is .html or .pdf, got '.txt'"),
    (["1", "-o", "nowhere/sheet.html"], "-o: nowhere/sheet.html: no such folder"),
    (["2", "-o", "sheet.html"], f"'{EVENT}' has no round 2"),
    (["1", "-o", "sheet.html", "--base-url", "ftp://host"], "--base-url: http://HOST:PORT"),
    (["1", "-o", "sheet.html", "--base-url", "http://host:99999"], "--base-url: http://HOST:PORT"),
    (["1", "-o", "sheet.html", "--base-url", "http://host/#x"], "--base-url: http://HOST:PORT"),
])
def test_refusals_are_one_line_and_issue_no_token(event_db, tmp_path, monkeypatch, args, message):
    from recorder import tokens
    from recorder.store import Store

    monkeypatch.chdir(tmp_path)
    out = kifu("round", "sheet", EVENT, *args, db=event_db, ok=False)
    assert out.returncode != 0
    assert out.stderr.count("\n") == 1 and message in out.stderr and "Traceback" not in out.stderr
    assert tokens.list_tokens(Store(event_db)) == []


def test_a_closed_round_gets_no_sheet(event_db, tmp_path):
    kifu("round", "close", EVENT, "--unreported", "draw", db=event_db)
    out = kifu("round", "sheet", EVENT, "1", "-o", str(tmp_path / "s.html"), db=event_db, ok=False)
    assert out.returncode != 0 and "round 1 of '春季大会' is closed" in out.stderr
    assert not (tmp_path / "s.html").exists()


def test_pdf_is_refused_in_one_line_without_chromium(event_db, tmp_path, monkeypatch):
    from projections.errors import LogFormatError
    from recorder import roundsheet, tokens
    from recorder.store import Store

    monkeypatch.setattr(roundsheet, "chromium", lambda: None)
    store = Store(event_db)
    with pytest.raises(LogFormatError) as err:
        roundsheet.write(store, EVENT, 1, str(tmp_path / "s.pdf"))
    assert err.value.problems == ["-o: a PDF sheet needs chromium (apt-get install chromium, or KIFU_CHROMIUM=PATH); "
                                  "write .html and print it from a browser"]
    assert tokens.list_tokens(store) == []


@pytest.mark.browser
def test_pdf_sheet_through_chromium(event_db, tmp_path, monkeypatch):
    if not os.path.exists(CHROMIUM):
        pytest.fail(f"{CHROMIUM} is missing: run `make browser` (apt-get install chromium) first")
    monkeypatch.setenv("KIFU_CHROMIUM", CHROMIUM)
    out = kifu("round", "sheet", EVENT, "1", "-o", str(tmp_path / "第1回戦.pdf"), db=event_db)
    assert "5 table(s)" in out.stdout
    pdf = (tmp_path / "第1回戦.pdf").read_bytes()
    assert pdf.startswith(b"%PDF-") and len(pdf) > 10_000


@pytest.mark.browser
def test_the_recording_page_opened_from_the_code_keeps_the_token(server, event_db, tmp_path, browser):
    """What a phone does with the code: the page takes the token from the address, keeps it for
    the tab, takes it out of the address bar, and its first send is accepted."""
    sheet = tmp_path / "sheet.html"
    kifu("round", "sheet", EVENT, "1", "-o", str(sheet), "--base-url", server.url, db=event_db)
    url = qr_urls(sheet.read_text(encoding="utf-8"))["2"]
    server.start()
    page = browser.new_page(viewport={"width": 390, "height": 844})
    page.goto(url)
    token = unquote(url.split("#token=")[1])
    assert page.evaluate("sessionStorage.getItem('kifu-token')") == token
    assert "token" not in page.url
    status = page.evaluate("""async ([mid, line]) => {
        const r = await fetch('/api/matches/' + encodeURIComponent(mid) + '/events', {method: 'POST',
            headers: {'Content-Type': 'application/json', 'Authorization': 'Bearer ' + sessionStorage.getItem('kifu-token')},
            body: JSON.stringify(line)});
        return r.status; }""", [f"{EVENT}-r1-t2", SETUP])
    assert status == 201
    page.close()


@pytest.mark.parametrize(("match", "best_of", "want"), [
    ("春季大会-r2-t5", 1, ["春季大会-r2-t5"]),
    ("春季大会-r2-t5-g1", 3, ["春季大会-r2-t5-g1", "春季大会-r2-t5-g2", "春季大会-r2-t5-g3"]),
    ("春季大会-r2-t5-g1-c1", 3, ["春季大会-r2-t5-g1-c1", "春季大会-r2-t5-g2-c1", "春季大会-r2-t5-g3-c1"]),  # a judge's change
    ("cup-g1-r1-t1-g1", 3, ["cup-g1-r1-t1-g1", "cup-g1-r1-t1-g2", "cup-g1-r1-t1-g3"]),  # "-g1" in the event's name
])
def test_a_table_lists_every_game_of_its_match(match, best_of, want):
    from exports.event_pages import game_ids
    from projections import tournament as T

    st = T.opened({"event": {"name": "x", "game": "mushijingi", "rounds": 3, "format": "bo3" if best_of == 3 else "bo1"}})
    assert game_ids(st, T.Seat("5", ("a", "b"), match)) == want


@pytest.mark.parametrize(("given", "want"), [
    ("http://192.168.1.10:8000/", "http://192.168.1.10:8000"),
    ("https://kifu.example.org/taikai", "https://kifu.example.org/taikai"),
])
def test_base_urls_accepted(given, want):
    from recorder.roundsheet import check_base_url

    assert check_base_url(given) == want
