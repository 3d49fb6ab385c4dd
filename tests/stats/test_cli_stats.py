"""``kifu stats`` in process: the hand-made autumn event (gandice and mushijingi), goldens of
the CSV and JSON, filters, the catch-up hook, --rebuild, and errors as one line."""

from __future__ import annotations

import json
import os
import shutil

import pytest

from projections.readmodel import default_path
from recorder.store import Store
from tests.stats.conftest import DATA, GOLDEN

REGOLDEN = os.environ.get("KIFU_REGOLDEN") == "1"


def golden(name: str, text: str) -> None:
    path = GOLDEN / name
    if REGOLDEN:
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8"), f"{name} differs (KIFU_REGOLDEN=1 to rewrite)"


@pytest.fixture
def event(kifu):
    code, out, err = kifu("import", str(DATA))
    assert code == 0, err
    assert "imported 9, skipped 0 duplicate(s), failed 0" in out
    return kifu


@pytest.mark.parametrize("args, name", [
    (("--event", "秋の大会", "--csv"), "autumn-deck.csv"),
    (("--event", "秋の大会", "--json"), "autumn-deck.json"),
    (("--event", "秋の大会", "--by", "archetype", "--csv"), "autumn-archetype.csv"),
])
def test_golden_csv_and_json(event, args, name):
    code, out, err = event("stats", *args)
    assert code == 0, err
    golden(name, out)


def test_the_autumn_event_counts_as_documented(event):
    _, out, _ = event("stats", "--event", "秋の大会", "--json")
    r = json.loads(out)
    assert r["matches"] == 7 and r["unfinished"] == 1  # one gandice table still playing
    decks = {d["name"]: d for d in r["decks"]}
    # ｲｽﾙｷﾞﾃﾞｯｷ (half-width, padded) and イスルギデッキ are one deck; 緑カブト組 with an
    # ideographic space too
    assert "イスルギデッキ" in decks and not any("ｲ" in n for n in decks)
    assert decks["緑カブト組"]["matches"] == 2
    cells = {(c["deck"], c["opponent"]): c for c in r["matrix"]}
    assert cells[("闇ダイスデッキ", "闇ダイスデッキ")]["mirror"] is True
    # the three-player table: 核デッキ beat both; 闇 vs イスルギ there is not counted
    assert cells[("核デッキ", "イスルギデッキ")]["wins"] == 1
    assert cells[("闇ダイスデッキ", "イスルギデッキ")]["games"] == 2
    assert cells[("核デッキ", "闇ダイスデッキ")]["draws"] == 1
    assert "\\u" not in out  # ensure_ascii=False


def test_filters_on_the_command_line(event):
    def matches(*args):
        code, out, err = event("stats", "--json", *args)
        assert code == 0, err
        return json.loads(out)["matches"]

    assert matches() == 8
    assert matches("--game", "mushijingi") == 3
    assert matches("--game", "蟲神器", "--event", "秋の大会") == 2
    assert matches("--since", "2026-11-29") == 3  # one of its four is unfinished
    assert matches("--until", "2026-11-28") == 5
    assert matches("--player", "山田") == 5
    assert matches("--player", "山田", "--game", "gd", "--until", "2026-11-28") == 2
    _, out, _ = event("stats", "--json", "--min-games", "3")
    assert [d["name"] for d in json.loads(out)["decks"]] == ["闇ダイスデッキ", "イスルギデッキ", "紫タガメ組", "緑カブト組"]


def test_terminal_table(event, monkeypatch):
    code, out, err = event("stats", "--game", "gandice", "--lang", "en")
    assert code == 0, err
    for text in ("闇ダイスデッキ", "イスルギデッキ", "mirror", "Turn order", "time", "first", "Wilson 95%"):
        assert text in out
    code, out, _ = event("stats", "--game", "gandice", "--since", "2030-01-01", "--lang", "en")
    assert code == 0 and "No finished matches" in out
    monkeypatch.delenv("KIFU_LANG")  # the suite reads English (tests/conftest.py)
    code, out, _ = event("stats", "--game", "gandice")  # Japanese by default
    assert code == 0 and "同型" in out and "先手・後手" in out


def test_html_file_is_self_contained(event, tmp_path):
    path = tmp_path / "stats.html"
    code, out, err = event("stats", "--event", "秋の大会", "--html", str(path))
    assert code == 0 and f"wrote {path}" in out, err
    html = path.read_text(encoding="utf-8")
    assert html.startswith("<!doctype html>") and "</html>" in html
    assert "<script src" not in html and "<link" not in html and "http" not in html
    assert "闇ダイスデッキ" in html and "n=2" in html and "–" in html and "mirror" in html
    assert "background:#" in html


def test_hook_keeps_the_read_model_current_and_rebuild_is_identical(kifu, db, tmp_path):
    first_half = tmp_path / "half"
    first_half.mkdir()
    for f in sorted((DATA / "autumn").glob("gd-*.jsonl")):
        shutil.copy(f, first_half)
    assert kifu("import", str(first_half))[0] == 0
    store = Store(db)
    from projections.readmodel import ReadModel

    with ReadModel(default_path(db)) as rm:
        assert rm.last_id() == store.max_notification_id() and rm.count() == 6
    assert kifu("import", str(DATA / "autumn"), str(DATA / "practice"))[0] == 0
    code, _, err = kifu("record", "au-gd-r3-t2", '{"type": "concede", "by": "B"}')
    assert code == 0 and not err
    with ReadModel(default_path(db)) as rm:
        assert rm.last_id() == store.max_notification_id() and rm.count() == 9
    store.close()
    incremental = kifu("stats", "--json")[1]
    assert json.loads(incremental)["unfinished"] == 0
    rebuilt = kifu("stats", "--json", "--rebuild")[1]
    assert rebuilt == incremental
    elsewhere = kifu("stats", "--json", "--readmodel", str(tmp_path / "other.db"))[1]
    assert elsewhere == incremental
    os.remove(default_path(db))  # the read model can be deleted at any time
    assert kifu("stats", "--json")[1] == incremental


def test_readmodel_env(kifu, db, tmp_path, monkeypatch):
    path = tmp_path / "env-rm.db"
    monkeypatch.setenv("KIFU_READMODEL", str(path))
    monkeypatch.setattr("sys.argv", ["kifu"])
    code, out, _ = kifu("stats", "--json")
    assert code == 0 and json.loads(out)["matches"] == 0
    assert path.exists() and not os.path.exists(default_path(db).replace(str(path), "x"))


@pytest.mark.parametrize("args, message", [
    (("--since", "2026-13-01"), "kifu: --since: '2026-13-01' is not a date (YYYY-MM-DD)"),
    (("--by", "colour"), "kifu: --by: must be deck or archetype, not 'colour'"),
    (("--game", "chess"), "kifu: unknown game 'chess'"),
    (("--csv", "--json"), "kifu: --csv, --json: choose one"),
    (("--html", "/nonexistent/dir/x.html"), "kifu: --html: /nonexistent/dir/x.html:"),
])
def test_errors_are_one_line(kifu, args, message):
    code, _, err = kifu("stats", *args)
    assert code == 2
    assert err.startswith(message) and len(err.strip().splitlines()) == 1


def test_a_corrupt_read_model_is_one_line(kifu, db):
    with open(default_path(db), "wb") as f:
        f.write(b"this is not a database" * 100)
    code, _, err = kifu("stats")
    assert code == 2 and "--rebuild" in err and len(err.strip().splitlines()) == 1
    code, _, err = kifu("stats", "--rebuild", "--json")
    assert code == 0, err
