"""The HTML report (self-contained, escaped, printable), the md/json exports and the CLI."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from exports import formats, pages
from exports.report import report_html
from exports.timeline import build
from projections.replay import Replay
from recorder.logformat import export_lines
from tests.web.matches import GAMES, generated, toy_match

ROOT = Path(__file__).resolve().parents[2]


def embedded_config(html: str) -> dict:
    raw = html.split('<script type="application/json" id="kifu-data">', 1)[1].split("</script>", 1)[0]
    return json.loads(raw)


def test_report_is_self_contained_and_holds_the_header():
    header, entries = toy_match()
    html = report_html(header, entries)
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", html), "no network resources"
    assert not re.search(r"<link(?![^>]*href=\"data:)", html) and "@import" not in html
    for text in ("秋の大会 決勝", "秋の大会", "第 3 回戦", "12 卓", "2026-11-29", "闇ダイス組", "イスルギ組", "佐藤"):
        assert text in html
    assert "山田 &lt;b&gt;太郎&lt;/b&gt;" in html  # a name is text, not markup
    assert "<b>太郎</b>" not in html


def test_report_escapes_annotations_and_the_embedded_json():
    header, entries = toy_match()
    html = report_html(header, entries)
    assert html.count("<script") == 3 and html.count("</script>") == 3  # ours only (the js class in <head>, the data, the stepper)
    assert "&lt;script&gt;window.__pwned" in html  # the annotation, as text
    raw = html.split('id="kifu-data">', 1)[1].split("</script>", 1)[0]
    assert "<" not in raw and ">" not in raw and "&" not in raw


def test_report_boards_decode_to_every_step_in_both_views():
    header, entries = toy_match()
    cfg = embedded_config(report_html(header, entries))
    assert cfg["mode"] == "report" and cfg["steps"] == 7 and set(cfg["views"]) == {"ruled", "recorded"}
    for view in ("ruled", "recorded"):
        t = build(Replay(header, entries, view))
        table = cfg["boards"][view]
        decoded = pages.delta_decode(table["delta"])
        assert [decoded[i] for i in table["index"]] == [str(pages.board_html(t, s)) for s in range(8)]


def test_report_timeline_marks_violations_notes_rulings_and_both_views():
    header, entries = toy_match()
    html = report_html(header, entries)
    li = {int(n): body for n, body in re.findall(r'<li id="step-(\d+)"(.*?)</li>', html, re.DOTALL)}
    assert "violation" in li[7].split(">", 1)[0] and "TOY-2" in li[7]
    assert "voided" in li[4].split(">", 1)[0] and "裁定後: 山田 &lt;b&gt;太郎&lt;/b&gt;: 1点 (計3点)" in li[4]
    assert 'class="sym">!?<' in li[2]  # the annotation's symbol on the move it is about
    assert "dispute" in li[5] and "TOY-1" in li[5] and "B played twice" in li[5]
    assert "覆す" in li[6] and "A&#39;s turn" in li[6] and "記録どおり:" in li[6]
    # the print stylesheet shows boards under annotated moves only
    assert 'class="print-board"' in li[2] and 'class="print-board"' not in li[1]
    assert "@media print" in html


@pytest.mark.parametrize("game", GAMES)
def test_reports_of_each_game_stay_reasonable(game):
    header, entries = generated(game)
    html = report_html(header, entries)
    per_step = len(html.encode()) / (len(entries) + 1)
    assert per_step < 6000, f"{per_step:.0f} bytes per step"
    assert embedded_config(html)["steps"] == len(entries)


def test_markdown_export():
    header, entries = toy_match()
    text = formats.render("md", header, entries)
    assert text.startswith("# 秋の大会 決勝")
    assert "| 山田 \\<b\\>太郎\\</b\\> (A) (先手) | 闇ダイス組 | 闇 |" in text
    assert "<script>" not in text and "\\<script\\>" in text
    assert "~~**佐藤** 1点 (計4点)~~ → 裁定後: 山田 \\<b\\>太郎\\</b\\>: 1点 (計3点)" in text
    assert "    - ✗ `TOY-2`" in text
    assert "⚖ judge (フロアジャッジ) の裁定、異議 \\#5: 覆す" in text and "\\[TOY-1\\]" in text
    english = formats.render("md", header, entries, "en")
    assert "⚖ ruling by judge (floor judge) on dispute \\#5: overturned" in english


def test_json_export_has_every_board_in_both_views():
    header, entries = toy_match()
    data = json.loads(formats.render("json", header, entries))
    assert data["header"]["match"]["id"] == "toy-1" and len(data["entries"]) == 7
    assert len(data["texts"]) == 7 and data["texts"][2].startswith("※ #2 への注釈")
    assert [b["step"] for b in data["boards"]["ruled"]] == list(range(8))
    assert data["boards"]["ruled"][7]["players"]["A"]["score"] == 3
    assert data["boards"]["recorded"][7]["players"]["A"]["score"] == 2
    assert {v["rule"] for v in data["violations"]["recorded"]} == {"TOY-1", "TOY-2"}


def test_cli_report_export_md_json(kifu, tmp_path):
    header, entries = toy_match()
    log = tmp_path / "toy.jsonl"
    log.write_text("\n".join(export_lines(header, entries)) + "\n", encoding="utf-8")
    assert kifu("import", str(log))[0] == 0
    out = tmp_path / "r.html"
    code, stdout, err = kifu("report", "toy-1", "-o", str(out), "--at", "3")
    assert code == 0, err
    assert "wrote" in stdout and embedded_config(out.read_text(encoding="utf-8"))["step"] == 3
    code, stdout, err = kifu("export", "toy-1", "--format", "md")
    assert code == 0 and stdout.startswith("# 秋の大会")
    code, stdout, err = kifu("export", "toy-1", "--format", "json")
    assert code == 0 and json.loads(stdout)["summary"]["steps"] == 7
    code, stdout, err = kifu("export", "toy-1", "--format", "pdf")
    assert code != 0 and err.count("\n") == 1 and "--format" in err
    code, stdout, err = kifu("report", "toy-1", "--at", "99", "-o", str(out))
    assert code != 0 and "out of range" in err and "Traceback" not in err
    code, stdout, err = kifu("report", "nope", "-o", str(out))
    assert code != 0 and "nope" in err


def test_shipped_examples_report(tmp_path):
    from recorder.logformat import read_file

    for path in sorted((ROOT / "examples").glob("*.jsonl")):
        header, entries = read_file(str(path))
        html = report_html(header, entries)
        assert embedded_config(html)["steps"] == len(entries), path.name
