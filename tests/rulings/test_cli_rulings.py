"""The rulings commands end to end, in process, on the toy game: annotations and
retractions, disputes, rulings, appeals, corrections, suggested corrections, the two views
and their difference, as-of views, penalties across an event, and the log round trip."""

from __future__ import annotations

import json

from tests.rulings.conftest import HEADER, score, write_log


def start(kifu, tmp_path, lines, header=HEADER, name="m.jsonl"):
    code, _, err = kifu("import", write_log(tmp_path, header, lines, name))
    assert code == 0, err
    return header["match"]["id"]


def ok(result):
    code, out, err = result
    assert code == 0, err
    return out


def refused(result, text):
    code, out, err = result
    assert code != 0 and text in err, (code, out, err)
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_annotate_several_notes_and_retract_keeps_history(kifu, tmp_path):
    m = start(kifu, tmp_path, [score(1, "A", 3), score(2, "B", 2)])
    ok(kifu("annotate", m, "--on", "1", "--text", "好手", "--symbol", "!", "--tag", "序盤", "--tag", "攻め", "--by", "解説"))
    ok(kifu("annotate", m, "--on", "1", "--text", "疑問手かも", "--symbol", "?!"))
    ok(kifu("annotate", m, "--on", "3", "--text", "note on a note"))
    assert "recorded m1 seq 6 (retract)" in ok(kifu("retract", m, "4", "--by", "解説", "--text", "読み違い"))
    log = ok(kifu("log", m, "--raw"))
    assert "💬 #3 ! 好手 — 解説 [序盤, 攻め]" in log
    assert "💬 #4 ?! 疑問手かも — scorekeeper (retracted)" in log
    assert "⌫ #6 retracts note #4: 読み違い" in log and "note on a note" in log
    refused(kifu("retract", m, "4"), "annotation 4 is already retracted")
    refused(kifu("retract", m, "1"), "seq 1 is a score, not an annotation")
    refused(kifu("annotate", m, "--on", "1", "--text", "x", "--symbol", "!!!"), "--symbol")
    refused(kifu("annotate", m, "--on", "99", "--text", "x"), "on: must be the seq of an earlier event")


def test_dispute_overturn_with_replacement_then_appeal_reverses_it(kifu, tmp_path, board):
    m = start(kifu, tmp_path, [score(1, "A", 3), score(2, "B", 3), score(3, "A", 3), score(4, "B", 1)])
    assert "seq 5 (dispute)" in ok(kifu("dispute", "open", m, "--on", "3", "--by", "B", "--claim", "2点だった"))
    ok(kifu("dispute", "rule", m, "5", "--by", "フロア", "--decision", "overturned",
            "--replace", '{"type": "score", "by": "A", "points": 2}', "--text", "記録誤り"))
    assert board(m)["players"]["A"] == {"score": 5}
    assert board(m, "--view", "recorded")["players"]["A"] == {"score": 6}
    assert "ruled" in ok(kifu("dispute", "list", m)) and ok(kifu("dispute", "list", m, "--open")).strip() == "no open disputes"
    ok(kifu("dispute", "appeal", m, "6", "--by", "A", "--grounds", "3点で正しい"))
    listed = json.loads(ok(kifu("dispute", "list", m, "--open", "--json")))
    assert listed == [{"dispute": 5, "on": 3, "by": "B", "claim": "2点だった", "rule": None, "status": "appealed",
                       "decision": "overturned", "rulings": [6], "appeals": [7]}]
    refused(kifu("dispute", "rule", m, "5", "--by", "x", "--decision", "upheld", "--level", "floor", "--text", "t"),
            "under appeal")
    out = ok(kifu("dispute", "rule", m, "5", "--by", "ヘッド", "--decision", "upheld", "--text", "記録通り"))
    assert "seq 8 (ruling)" in out
    assert board(m)["players"]["A"] == {"score": 6}  # the head judge's word: the move stands
    refused(kifu("dispute", "rule", m, "5", "--by", "x", "--decision", "upheld", "--text", "t"), "final")
    refused(kifu("dispute", "appeal", m, "8", "--by", "B", "--grounds", "g"), "final")
    refused(kifu("dispute", "appeal", m, "6", "--by", "B", "--grounds", "g"), "already decided by the head judge")
    assert "final — upheld (seq 8)" in ok(kifu("dispute", "list", m))


def test_refused_dispute_commands(kifu, tmp_path):
    m = start(kifu, tmp_path, [score(1, "A", 3), {"seq": 2, "type": "annotate", "by": "x", "on": 1, "text": "t"}])
    refused(kifu("dispute", "open", m, "--on", "2", "--by", "B", "--claim", "c"), "not a move")
    refused(kifu("dispute", "open", m, "--on", "9", "--by", "B", "--claim", "c"), "earlier event")
    refused(kifu("dispute", "open", m, "--by", "B"), "--from-violation")
    refused(kifu("dispute", "rule", m, "1", "--by", "J", "--decision", "upheld", "--text", "t"), "no dispute at seq 1")
    ok(kifu("dispute", "open", m, "--on", "1", "--by", "B", "--claim", "c"))
    refused(kifu("dispute", "rule", m, "3", "--by", "J", "--decision", "upheld", "--text", "t",
                 "--replace", '{"type": "pass", "by": "A"}'), "only an overturned ruling")
    refused(kifu("dispute", "rule", m, "3", "--by", "J", "--text", "t"), "--decision: missing")
    refused(kifu("dispute", "rule", m, "3", "--by", "J", "--decision", "maybe", "--text", "t"), "--decision")
    refused(kifu("dispute", "rule", m, "3", "--by", "J", "--decision", "overturned", "--text", "t",
                 "--replace", "{nope"), "--replace[0]: not JSON")
    refused(kifu("dispute", "rule", m, "3", "--by", "J", "--decision", "overturned", "--text", "t",
                 "--replace", '{"type": "warp", "by": "A"}'), "replace[0].type")
    refused(kifu("dispute", "appeal", m, "3", "--by", "A", "--grounds", "g"), "is a dispute, not a ruling")
    ok(kifu("dispute", "rule", m, "3", "--by", "J", "--decision", "upheld", "--text", "t"))
    refused(kifu("dispute", "rule", m, "3", "--by", "J", "--decision", "upheld", "--text", "t"), "already ruled")
    ok(kifu("dispute", "appeal", m, "4", "--by", "B", "--grounds", "g"))
    refused(kifu("dispute", "appeal", m, "4", "--by", "B", "--grounds", "g"), "already appealed")
    refused(kifu("correct", m, "--on", "2", "--by", "記録係", "--text", "t"), "not a move")


def test_overturn_without_replacement_voids_and_ruled_result_differs(kifu, tmp_path, board):
    # A reaches 10 at seq 7 only by counting seq 5; voiding it leaves the match in progress.
    lines = [score(1, "A", 3), score(2, "B", 1), score(3, "A", 3), score(4, "B", 1), score(5, "A", 3),
             score(6, "B", 1), score(7, "A", 1)]
    m = start(kifu, tmp_path, lines)
    assert "target" in ok(kifu("result", m, "--lang", "en"))
    ok(kifu("dispute", "open", m, "--on", "5", "--by", "B", "--claim", "数え間違い"))
    ok(kifu("dispute", "rule", m, "8", "--by", "J", "--decision", "overturned", "--text", "無効"))
    assert board(m)["players"]["A"] == {"score": 7}
    assert "in progress" in ok(kifu("result", m, "--lang", "en"))
    assert "山田 (A) wins — target" in ok(kifu("result", m, "--view", "recorded", "--lang", "en"))
    log = ok(kifu("log", m, "--raw"))
    assert "[void in the ruled view]" in log and "→ ruled" not in log
    diff = json.loads(ok(kifu("diff", m, "--json")))
    assert diff["parted_at"] == 5 and diff["moves_differ"] == [5]
    assert [d["step"] for d in diff["boards_differ"]] == [5, 6, 7, 8, 9]
    assert {"path": "players.A.score", "recorded": 9, "ruled": 6} in diff["boards_differ"][0]["changes"]
    assert diff["result"] == {"recorded": {"winner": "A", "reason": "target"}, "ruled": None, "changes": True}
    text = ok(kifu("diff", m))
    assert "the views part at step 5" in text and "boards differ at 5 step(s): 5-9" in text
    assert "result changes: recorded A (target) → ruled in progress" in text


def test_rewind_voids_later_moves_and_ruled_view_continues_from_replacement(kifu, tmp_path, board):
    m = start(kifu, tmp_path, [score(1, "A", 3), score(2, "B", 3), score(3, "A", 3), score(4, "B", 3)])
    ok(kifu("dispute", "open", m, "--on", "2", "--by", "A", "--claim", "Bは1点"))
    ok(kifu("dispute", "rule", m, "5", "--by", "J", "--decision", "overturned", "--rewind", "--text", "巻き戻し",
            "--replace", '{"type": "score", "by": "B", "points": 1}'))
    ok(kifu("record", m, "--type", "score", "--by", "A", "-f", "points=2"))  # play resumes from the ruled board
    assert board(m)["players"] == {"A": {"score": 5}, "B": {"score": 1}}
    assert board(m)["violations"] == []  # A moves after the replacement: it is A's turn there
    assert board(m, "--view", "recorded")["players"] == {"A": {"score": 8}, "B": {"score": 6}}
    ok(kifu("annotate", m, "--on", "3", "--text", "巻き戻された手"))  # a note on a voided move
    log = ok(kifu("log", m, "--raw"))
    after = log.split("    3 ")[1]
    assert "score by A  points=3  [void in the ruled view]" in after.splitlines()[0]
    assert "💬 #8 巻き戻された手" in after
    assert "→ ruled: score by B  points=1" in log
    assert json.loads(ok(kifu("diff", m, "--json")))["moves_differ"] == [2, 3, 4]


def test_replacement_that_breaks_a_rule_is_flagged_or_refused_with_strict(kifu, tmp_path, board):
    m = start(kifu, tmp_path, [score(1, "A", 3), score(2, "B", 3)])
    ok(kifu("dispute", "open", m, "--on", "2", "--by", "A", "--claim", "c"))
    bad = '{"type": "score", "by": "B", "points": 7}'
    refused(kifu("dispute", "rule", m, "3", "--by", "J", "--decision", "overturned", "--replace", bad, "--text", "t",
                 "--strict"), "TOY-2")
    assert "seq 4" not in ok(kifu("dispute", "list", m)) and board(m)["step"] == 3  # nothing recorded
    out = ok(kifu("dispute", "rule", m, "3", "--by", "J", "--decision", "overturned", "--replace", bad, "--text", "t"))
    assert "✗ TOY-2" in out and "flagged" in out
    refused(kifu("correct", m, "--on", "1", "--by", "記録係", "--text", "t", "--strict",
                 "--replace", '{"type": "score", "by": "B", "points": 1}'), "TOY-1")


def test_correct_replaces_or_voids_a_mislogged_move(kifu, tmp_path, board):
    m = start(kifu, tmp_path, [score(1, "A", 3), score(2, "B", 3)])
    ok(kifu("correct", m, "--on", "2", "--by", "記録係", "--text", "打ち間違い",
            "--replace", '[{"type": "score", "by": "B", "points": 2}]'))
    assert board(m)["players"]["B"] == {"score": 2}
    ok(kifu("correct", m, "--on", "1", "--by", "記録係", "--text", "記録なし"))
    assert board(m)["players"]["A"] == {"score": 0}
    assert "✎ correction #4: voided — 記録なし (記録係)" in ok(kifu("log", m, "--raw"))


def test_check_suggestion_opens_and_rules_a_dispute(kifu, tmp_path, board):
    m = start(kifu, tmp_path, [score(1, "A", 3), score(2, "A", 2), score(3, "B", 9)])
    code, out, _ = kifu("check", m, "--json")
    found = json.loads(out)
    assert code == 1 and {(v["seq"], v["rule"]) for v in found} == {(2, "TOY-1"), (3, "TOY-1"), (3, "TOY-2")}
    assert found[0]["suggest"] == [{"type": "pass", "by": "B"}]
    refused(kifu("dispute", "open", m, "--from-violation", "1", "--by", "J"), "no violation at seq 1")
    refused(kifu("dispute", "open", m, "--from-violation", "x", "--by", "J"), "SEQ or SEQ:RULE")
    assert "seq 4 (dispute)" in ok(kifu("dispute", "open", m, "--from-violation", "2:TOY-1", "--by", "B"))
    assert json.loads(ok(kifu("dispute", "list", m, "--json")))[0]["claim"] == "TOY-1: not A's turn"
    refused(kifu("dispute", "open", m, "--from-violation", "3", "--by", "A"), "several rules (TOY-1, TOY-2)")
    ok(kifu("dispute", "open", m, "--from-violation", "3:TOY-2", "--by", "A"))
    refused(kifu("dispute", "rule", m, "5", "--suggested", "--by", "J", "--text", "t"), "suggests no correction of rule TOY-2")
    out = ok(kifu("dispute", "rule", m, "4", "--suggested", "--by", "J", "--text", "手番違い"))
    assert "seq 6 (ruling)" in out
    _, exported, _ = kifu("export", m)
    ruling = json.loads(exported.splitlines()[6])
    assert ruling["decision"] == "overturned" and ruling["replace"] == [{"type": "pass", "by": "B"}]
    assert ruling["rule"] == "TOY-1" and ruling["level"] == "floor"
    assert board(m)["players"]["A"] == {"score": 3}


def test_as_of_shows_the_record_as_it_stood(kifu, tmp_path, board):
    t = "2026-11-29T10:{:02d}:00Z".format
    lines = [score(1, "A", 3, at=t(1)), score(2, "B", 3, at=t(2)),
             {"seq": 3, "type": "dispute", "by": "B", "on": 1, "claim": "c", "at": t(3)},
             {"seq": 4, "type": "ruling", "by": "J", "dispute": 3, "decision": "overturned", "text": "t", "at": t(5),
              "replace": [{"type": "score", "by": "A", "points": 1}]},
             {"seq": 5, "type": "penalty", "by": "J", "player": "B", "infraction": "遅延", "penalty": "game-loss", "at": t(7)}]
    m = start(kifu, tmp_path, lines)
    assert board(m, "--as-of", "2026-11-29T10:04:00Z")["players"]["A"] == {"score": 3}  # before the ruling
    assert board(m, "--as-of", "2026-11-29T10:06:00Z")["players"]["A"] == {"score": 1}
    assert board(m, "--as-of", "2026-11-29T10:01:30Z")["step"] == 1
    assert "in progress" in ok(kifu("result", m, "--lang", "en", "--as-of", "2026-11-29T19:06:00+09:00"))
    assert "penalty: game loss" in ok(kifu("result", m, "--lang", "en"))  # the reason in words (its code: --json)
    assert "#4" not in ok(kifu("log", m, "--raw", "--as-of", "2026-11-29T10:04:00Z"))
    refused(kifu("board", m, "--as-of", "yesterday"), "--as-of")


def test_live_lines_carry_their_recording_time(kifu, tmp_path):
    m = start(kifu, tmp_path, [score(1, "A", 3)])
    ok(kifu("annotate", m, "--on", "1", "--text", "t"))
    _, exported, _ = kifu("export", m)
    assert "at" not in json.loads(exported.splitlines()[1]) and json.loads(exported.splitlines()[2])["at"].endswith("Z")


def test_penalties_across_an_event_in_time_order(kifu, tmp_path, monkeypatch):
    h2 = dict(HEADER, match=dict(HEADER["match"], id="m2", round=2),
              players=[{"id": "A", "name": "佐藤"}, {"id": "B", "name": "鈴木"}])
    h3 = dict(HEADER, match=dict(HEADER["match"], id="m3", event="冬の大会"))
    start(kifu, tmp_path, [score(1, "A", 3)], h2, "m2.jsonl")  # created first, played later
    start(kifu, tmp_path, [score(1, "A", 3)])
    start(kifu, tmp_path, [score(1, "A", 3)], h3, "m3.jsonl")
    ok(kifu("penalty", "m1", "--player", "佐藤", "--infraction", "遅延行為", "--penalty", "warning", "--by", "ヘッド",
            "--on", "1", "--text", "一回目"))
    ok(kifu("penalty", "m2", "--player", "佐藤", "--infraction", "遅延行為", "--penalty", "game-loss", "--by", "ヘッド"))
    ok(kifu("penalty", "m2", "--player", "B", "--infraction", "私語", "--penalty", "warning", "--by", "フロア"))
    ok(kifu("penalty", "m3", "--player", "佐藤", "--infraction", "x", "--penalty", "warning", "--by", "J"))
    refused(kifu("penalty", "m1", "--player", "田中", "--infraction", "x", "--penalty", "warning", "--by", "J"),
            "not a player of m1")
    refused(kifu("penalty", "m1", "--player", "A", "--infraction", "x", "--penalty", "jail", "--by", "J"), "--penalty")
    rows = json.loads(ok(kifu("penalties", "--event", "秋の大会", "--player", "佐藤", "--json")))
    assert [(r["match"], r["player"], r["penalty"]) for r in rows] == [("m1", "B", "warning"), ("m2", "A", "game-loss")]
    assert rows[0]["at"] < rows[1]["at"]
    assert len(json.loads(ok(kifu("penalties", "--event", "秋の大会", "--json")))) == 3
    text = ok(kifu("penalties", "--event", "秋の大会", "--player", "佐藤"))
    assert "佐藤 (A): game loss for 遅延行為 by ヘッド" in text and text.strip().endswith("2 penalties")
    monkeypatch.setenv("KIFU_LANG", "ja")  # the penalty in words in the reader's language, never its code
    ja = ok(kifu("penalties", "--event", "秋の大会", "--player", "佐藤"))
    assert "佐藤 (A): ゲームロス：遅延行為（ヘッド）" in ja and "game" not in ja
    monkeypatch.setenv("KIFU_LANG", "en")
    # the game loss decides m2's result, with its own reason code; the warning decides nothing
    assert json.loads(ok(kifu("result", "m2", "--json"))) == {"winner": "B", "reason": "penalty-game-loss"}
    assert json.loads(ok(kifu("result", "m1", "--json"))) is None
    assert "no penalties" in ok(kifu("penalties", "--event", "春の大会"))


def test_every_workflow_line_round_trips_through_export_and_import(kifu, tmp_path, db):
    m = start(kifu, tmp_path, [score(1, "A", 3), score(2, "B", 3), score(3, "A", 3)])
    for args in (["annotate", m, "--on", "1", "--text", "「好手」\n改行も", "--symbol", "!!", "--tag", "序盤"],
                 ["annotate", m, "--on", "2", "--text", "取り消す"],
                 ["retract", m, "5", "--text", "誤り"],
                 ["dispute", "open", m, "--on", "2", "--by", "A", "--claim", "1点", "--rule", "TOY-2"],
                 ["dispute", "rule", m, "7", "--by", "フロア", "--decision", "overturned", "--rewind", "--text", "t",
                  "--replace", '{"type": "score", "by": "B", "points": 1}'],
                 ["dispute", "appeal", m, "8", "--by", "B", "--grounds", "根拠"],
                 ["dispute", "rule", m, "7", "--by", "ヘッド", "--decision", "upheld", "--text", "維持"],
                 ["correct", m, "--on", "3", "--by", "記録係", "--text", "t", "--replace", '{"type": "pass", "by": "A"}'],
                 ["penalty", m, "--player", "A", "--infraction", "遅延", "--penalty", "warning", "--by", "J"]):
        ok(kifu(*args))
    first = ok(kifu("export", m))
    assert "「好手」\\n改行も" in first and "\\u" not in first
    path = tmp_path / "again.jsonl"
    path.write_text(first.replace('"id": "m1"', '"id": "m1-again"'), encoding="utf-8")
    ok(kifu("import", str(path)))
    again = ok(kifu("export", "m1-again"))
    assert again == first.replace('"id": "m1"', '"id": "m1-again"')
    for view in ("ruled", "recorded"):
        assert [json.loads(ok(kifu("board", mid, "--at", str(s), "--json", "--view", view)))["players"]
                for mid in ("m1",) for s in range(13)] == \
               [json.loads(ok(kifu("board", "m1-again", "--at", str(s), "--json", "--view", view)))["players"]
                for s in range(13)]
