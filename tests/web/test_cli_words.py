"""What the CLI shows a person: kifu log and kifu board in words (notation), Japanese by
default, English with --lang en or LANG; --raw keeps the fields as recorded."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DISPUTED = ROOT / "examples" / "gurren-lagann-disputed.jsonl"
MID = "gl-sample-2026-disputed"


def ok(result):
    code, out, err = result
    assert code == 0, err
    return out


def test_log_in_words_both_languages_and_raw(kifu, monkeypatch):
    monkeypatch.delenv("LANG", raising=False)
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("KIFU_LANG", raising=False)
    ok(kifu("import", str(DISPUTED)))
    ja = ok(kifu("log", MID))
    assert "表示: 裁定後" in ja and "シモン使い 出陣: ラガン → b1" in ja
    line88 = next(x for x in ja.splitlines() if x.strip().startswith("88 "))
    assert "グレンラガン b6→c6" in line88 and "[裁定で無効]" in line88
    assert "→ 裁定後: シモン使い: グレンラガン b6→b5" in ja
    assert "⚖ フロアジャッジ 田中 (フロアジャッジ) の裁定、異議 #90: 覆す" in ja
    moves = [x for x in ja.splitlines()[3:] if not x.strip().startswith("#")]  # the moves, not the notes' own text
    assert not any(re.search(r"\b[a-z_]+=", x) for x in moves)  # no key=value
    en = ok(kifu("--lang", "en", "log", MID))
    assert "view: as ruled" in en and "シモン使い deploys ラガン to b1" in en and "[void in the ruled view]" in en
    monkeypatch.setenv("LANG", "en_GB.UTF-8")
    assert "view: as ruled" in ok(kifu("log", MID))
    assert "表示: 裁定後" in ok(kifu("log", MID, "--lang", "ja"))
    raw = ok(kifu("log", MID, "--raw"))
    assert "deploy by A" in raw and "card=ラガン" in raw
    code, _out, err = kifu("log", MID, "--lang", "fr")
    assert code != 0 and "--lang" in err and len(err.strip().splitlines()) == 1


def test_board_says_what_the_ruled_view_played(kifu, monkeypatch):
    monkeypatch.delenv("KIFU_LANG", raising=False)  # the suite reads English (tests/conftest.py)
    monkeypatch.setenv("LANG", "ja_JP.UTF-8")
    ok(kifu("import", str(DISPUTED)))
    ruled = ok(kifu("board", MID, "--at", "88")).splitlines()
    assert ruled[0].endswith("88 / 92 行  裁定後") and ruled[1] == "直前: 裁定後: シモン使い: グレンラガン b6→b5"
    recorded = ok(kifu("board", MID, "--at", "88", "--view", "recorded", "--lang", "en")).splitlines()
    assert recorded[1].startswith("last: シモン使い: グレンラガン b6→c6 (")


def test_stats_one_table_per_game_within_the_terminal_width(kifu, monkeypatch):
    monkeypatch.setenv("COLUMNS", "70")
    for path in sorted((ROOT / "examples").glob("*.jsonl")):
        ok(kifu("import", str(path)))
    out = ok(kifu("stats"))
    from rich.cells import cell_len  # a kanji takes two columns of the terminal

    widths = [cell_len(line) for line in out.splitlines()]
    assert max(widths) <= 70, max(widths)
    for title in ("眼魔伝ガンダイス", "蟲神器", "グレンラガン", "ヴァリアンツ"):
        assert sum(title in line for line in out.splitlines()) == 1, title  # one section per game
    one = ok(kifu("stats", "--game", "gandice"))
    assert "眼魔伝ガンダイス" in one and "蟲神器" not in one
