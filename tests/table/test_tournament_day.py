"""The day at the desk (issue 32 items 3 and 7) through the ``kifu`` command: check-in and
no-shows, a late entrant's missed rounds (a match loss each, against nobody: worked out in exact
fractions), a no-show reinstated, a judge's no-show game loss, readings and the by-name lists in
reading order (五十音順); every refusal one line; the lines export and import."""

from __future__ import annotations

import json
from fractions import Fraction as F
from pathlib import Path

import pytest

from projections import reading
from projections import tournament as T
from projections import tournament_rows
from recorder import tournament_service
from recorder.store import Store

E = "夏季大会"
READ = {"中村": "なかむら", "伊藤": "いとう", "佐藤": "サトウ", "小林": "こばやし", "山田": "やまだ"}
GOJUON = ["伊藤", "小林", "佐藤", "中村", "山田"]  # い, こ, さ, な, や


def ok(kifu, *args: str) -> str:
    code, out, err = kifu(*args)
    assert code == 0, err
    return out


def refused(kifu, *args: str) -> str:
    code, out, err = kifu(*args)
    assert code != 0, out
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("kifu: ") and "Traceback" not in err, err
    return err


def opened(kifu, *extra: str, players=("中村", "伊藤", "佐藤", "小林", "山田")) -> None:
    ok(kifu, "event", "new", E, "--game", "mushijingi", "--rounds", "3", "--seed", "3", *extra)
    for p in players:
        ok(kifu, "event", "register", E, "--player", p, *(["--reading", READ[p]] if p in READ else []))


def csv_file(tmp_path: Path, text: str, name: str = "pairing.csv") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def concede(kifu, match: str, seat: str) -> None:
    ok(kifu, "record", match, json.dumps({"type": "setup", "by": "A"}, ensure_ascii=False))
    ok(kifu, "record", match, json.dumps({"type": "concede", "by": seat}))


# -- check-in -----------------------------------------------------------------------------------


def test_round_one_pairs_only_the_players_checked_in_the_others_are_no_shows(kifu, db, monkeypatch):
    monkeypatch.delenv("KIFU_LANG")
    opened(kifu, "--checkin")
    for p in ("中村", "伊藤", "佐藤", "小林"):
        ok(kifu, "event", "checkin", E, "--player", p)
    desk = ok(kifu, "event", E)
    assert "やまだ" in desk and "未チェックイン" in desk and "チェックイン: 4 / 5" in desk
    data = json.loads(ok(kifu, "round", "pair", E, "--json"))
    seated = sorted(p for t in data["tables"] for p in t["players"])
    assert seated == sorted(["中村", "伊藤", "佐藤", "小林"]) and data["byes"] == []
    line = json.loads(ok(kifu, "event", "export", E).splitlines()[-1])
    assert line["type"] == "pair" and line["no_shows"] == ["山田"]
    shown = json.loads(ok(kifu, "event", "show", E, "--json"))
    yamada = next(p for p in shown["players"] if p["name"] == "山田")
    assert yamada["no_show"] is True and yamada["dropped_after"] == 0
    assert shown["rounds"][0]["no_shows"] == ["山田"] and shown["rounds"][0]["dropped"] == []
    assert "欠席" in ok(kifu, "event", E)
    rows = json.loads(ok(kifu, "standings", E, "--json"))["standings"]
    row = next(r for r in rows if r["player"] == "山田")
    assert row["no_show"] is True and row["points"] == 0 and row["record"] == "0-0-0"
    assert "欠席" in ok(kifu, "standings", E)


def test_check_in_refusals_are_one_line(kifu, tmp_path):
    opened(kifu)
    assert "--checkin" in refused(kifu, "event", "checkin", E, "--player", "山田")
    ok(kifu, "event", "new", "秋", "--game", "mushijingi", "--rounds", "2", "--checkin")
    for p in ("甲", "乙", "丙"):
        ok(kifu, "event", "register", "秋", "--player", p)
    assert "'丁' is not registered" in refused(kifu, "event", "checkin", "秋", "--player", "丁")
    ok(kifu, "event", "checkin", "秋", "--player", "甲")
    assert "checked in already" in refused(kifu, "event", "checkin", "秋", "--player", "甲")
    before = ok(kifu, "event", "export", "秋")
    assert "1 player(s) checked in; round 1 needs 2" in refused(kifu, "round", "pair", "秋")
    assert ok(kifu, "event", "export", "秋") == before  # nothing written
    ok(kifu, "event", "checkin", "秋", "--player", "乙")
    ok(kifu, "round", "pair", "秋")
    said = refused(kifu, "event", "checkin", "秋", "--player", "丙")
    assert "no-show" in said and "kifu event reinstate" in said


def test_a_player_dropped_before_round_one_is_no_no_show_and_check_in_is_over_after_it(kifu):
    opened(kifu, "--checkin", players=("中村", "伊藤", "佐藤"))
    ok(kifu, "event", "drop", E, "--player", "佐藤", "--after", "0")
    for p in ("中村", "伊藤"):
        ok(kifu, "event", "checkin", E, "--player", p)
    ok(kifu, "round", "pair", E)
    line = json.loads(ok(kifu, "event", "export", E).splitlines()[-1])
    assert "no_shows" not in line  # 佐藤 dropped: not a no-show
    assert "check-in is over" in refused(kifu, "event", "checkin", E, "--player", "佐藤")


def test_an_imported_round_one_leaves_the_no_shows_out_too(kifu, tmp_path):
    opened(kifu, "--checkin")
    for p in ("中村", "伊藤", "佐藤", "小林"):
        ok(kifu, "event", "checkin", E, "--player", p)
    assert "山田" in refused(kifu, "round", "pair", E, "--import",
                           csv_file(tmp_path, "1,中村,伊藤\n2,佐藤,小林\n3,山田,\n"))
    said = refused(kifu, "round", "pair", E, "--import", csv_file(tmp_path, "1,中村,山田\n2,佐藤,小林\nBYE,伊藤,\n"))
    assert "table 1: '山田' is a no-show (not checked in)" in said
    ok(kifu, "round", "pair", E, "--import", csv_file(tmp_path, "1,中村,伊藤\n2,佐藤,小林\n"))
    assert json.loads(ok(kifu, "event", "export", E).splitlines()[-1])["no_shows"] == ["山田"]


def test_a_no_show_reinstated_by_a_judge_has_lost_the_rounds_missed(kifu, tmp_path, db):
    opened(kifu, "--checkin")
    for p in ("中村", "伊藤", "佐藤", "小林"):
        ok(kifu, "event", "checkin", E, "--player", p)
    ok(kifu, "round", "pair", E)
    line = json.loads(ok(kifu, "event", "reinstate", E, "--player", "山田", "--reason", "到着", "--json"))
    assert line["missed"] == [1]
    ok(kifu, "round", "close", E, "--unreported", "draw")
    data = json.loads(ok(kifu, "round", "pair", E, "--json"))
    assert "山田" in [p for t in data["tables"] for p in t["players"]] + data["byes"]
    row = next(r for r in json.loads(ok(kifu, "standings", E, "--round", "1", "--json"))["standings"]
               if r["player"] == "山田")
    assert row["missed"] == 1 and row["record"] == "0-1-0" and row["no_show"] is False


# -- late entry ---------------------------------------------------------------------------------


def test_registration_after_round_one_needs_late_and_late_needs_a_round(kifu, tmp_path):
    opened(kifu, players=("中村", "伊藤", "佐藤", "小林"))
    assert "register without --late" in refused(kifu, "event", "register", E, "--player", "田中", "--late")
    ok(kifu, "round", "pair", E, "--import", csv_file(tmp_path, "1,中村,伊藤\n2,佐藤,小林\n"))
    said = refused(kifu, "event", "register", E, "--player", "田中")
    assert "--late" in said and "round 1" in said
    ok(kifu, "event", "new", "一回", "--game", "mushijingi", "--rounds", "1")
    ok(kifu, "event", "register", "一回", "--player", "甲")
    ok(kifu, "event", "register", "一回", "--player", "乙")
    ok(kifu, "round", "pair", "一回")
    assert "no round is left" in refused(kifu, "event", "register", "一回", "--player", "丙", "--late")


def test_a_late_entrant_loses_each_round_missed_against_nobody(kifu, tmp_path, db, monkeypatch):
    """Round 1: 中村 beats 伊藤, 佐藤 beats 小林 (each by a concession). 田中 enters late, during
    round 1: a loss for round 1 (0 points, 0-2), nobody's opponent. Round 2 (imported): 田中 beats
    中村, 伊藤 beats 佐藤, 小林 has the bye.

    田中: 1-1-0, 3 points, MW 3/6 = 1/2, games 1-2: GW 3/9 = 1/3; opponents: 中村 only, so
    OMW = MW(中村) = 3/6 = 1/2 (the missed round is no opponent: not (1/2 + x)/2).
    中村: beat 伊藤, lost to 田中: OMW = (MW(伊藤) + MW(田中)) / 2 = (1/2 + 1/2) / 2 = 1/2; 田中's
    missed loss is in 田中's own MW%, which is what 中村's OMW% reads.
    """
    monkeypatch.delenv("KIFU_LANG")
    opened(kifu, players=("中村", "伊藤", "佐藤", "小林"))
    ok(kifu, "round", "pair", E, "--import", csv_file(tmp_path, "1,中村,伊藤\n2,佐藤,小林\n"))
    line = json.loads(ok(kifu, "event", "register", E, "--player", "田中", "--reading", "たなか", "--late", "--json"))
    assert line["late"] is True and line["missed"] == [1]
    concede(kifu, f"{E}-r1-t1", "B")
    concede(kifu, f"{E}-r1-t2", "B")
    ok(kifu, "round", "close", E, "--unreported", "draw")
    st = tournament_service.state(Store(db), E)
    assert st.active(2) == ["中村", "伊藤", "佐藤", "小林", "田中"] and st.active(1) == ["中村", "伊藤", "佐藤", "小林"]
    after1 = {r["player"]: r for r in json.loads(ok(kifu, "standings", E, "--json"))["standings"]}
    assert after1["田中"]["record"] == "0-1-0" and after1["田中"]["points"] == 0 and after1["田中"]["missed"] == 1
    assert after1["田中"]["games"] == {"won": 0, "lost": 2, "drawn": 0} and after1["田中"]["opponents"] == []
    assert after1["中村"]["omw"] == 33.0  # 伊藤 0/3 floored: 田中 is nobody's opponent
    ok(kifu, "round", "pair", E, "--import", csv_file(tmp_path, "1,田中,中村\n2,伊藤,佐藤\nBYE,小林,\n", "r2.csv"))
    concede(kifu, f"{E}-r2-t1", "B")
    concede(kifu, f"{E}-r2-t2", "B")
    store = Store(db)
    st = tournament_service.state(store, E)
    rows = {s.player: s for s in T.event_standings(st, tournament_rows.event_games(store, E)).rows}
    t, n = rows["田中"], rows["中村"]
    assert (t.points, t.record, t.missed) == (3, "1-1-0", 1)
    assert (t.mwp, t.gwp, t.omw, t.opponents) == (F(1, 2), F(1, 3), F(1, 2), ["中村"])
    assert n.omw == (F(1, 2) + F(1, 2)) / 2 and n.opponents == ["伊藤", "田中"]
    text = ok(kifu, "standings", E)
    assert "途中参加" in text


def test_a_judge_records_a_no_show_at_the_table_as_a_game_loss(kifu, tmp_path):
    """A player absent at the table: ``kifu penalty`` with a game loss (as any penalty) decides
    the game, and the standings count it."""
    opened(kifu, players=("中村", "伊藤", "佐藤", "小林"))
    ok(kifu, "round", "pair", E, "--import", csv_file(tmp_path, "1,中村,伊藤\n2,佐藤,小林\n"))
    ok(kifu, "penalty", f"{E}-r1-t1", "--player", "伊藤", "--infraction", "遅刻 (不在)", "--penalty", "game-loss",
       "--by", "主審")
    rows = {r["player"]: r for r in json.loads(ok(kifu, "standings", E, "--json"))["standings"]}
    assert rows["中村"]["record"] == "1-0-0" and rows["伊藤"]["record"] == "0-1-0"
    rows = json.loads(ok(kifu, "penalties", "--event", E, "--player", "伊藤", "--json"))
    assert [(r["penalty"], r["infraction"]) for r in rows] == [("game-loss", "遅刻 (不在)")]


# -- readings -----------------------------------------------------------------------------------


def test_by_name_lists_follow_the_reading(kifu, tmp_path, monkeypatch):
    monkeypatch.delenv("KIFU_LANG")
    opened(kifu, players=("中村", "伊藤", "佐藤", "小林", "山田", "Bob"))
    roster = [line.split()[0] for line in ok(kifu, "event", E).splitlines()[1:-1]]
    assert roster == [*GOJUON, "Bob"]
    ok(kifu, "round", "pair", E)
    data = json.loads(ok(kifu, "round", "show", E, "1", "--json"))
    assert [r["player"] for r in data["by_name"]] == [*GOJUON, "Bob"]  # a name with no reading last
    assert data["by_name"][2]["reading"] == "サトウ" and data["by_name"][-1]["reading"] is None
    text = ok(kifu, "round", "show", E, "1")
    names = text[text.index("[名前順]"):].splitlines()[1:]
    assert [x.split()[0] for x in names] == [*GOJUON, "Bob"]


def test_a_reading_is_kana_or_refused(kifu):
    opened(kifu, players=())
    for bad in ("山田", "yamada", "ー", "やま田"):
        assert "--reading" in refused(kifu, "event", "register", E, "--player", "山田", "--reading", bad)
    ok(kifu, "event", "register", E, "--player", "山田", "--reading", "ﾔﾏﾀﾞ")  # half-width katakana is kana


def test_the_reading_order_is_the_dictionary_s():
    key = reading.sort_key
    assert sorted(["がき", "かさ", "かき"], key=key) == ["かき", "がき", "かさ"]  # voicing only breaks ties
    assert key("佐藤", "サトウ")[1:3] == key("佐藤", "さとう")[1:3]  # katakana folded to hiragana
    assert key("きっと") < key("きつね")  # small っ as つ, then ties broken
    assert key("Alice") > key("山田", "やまだ") and key("さとう") < key("Alice")  # kana names read as written


def test_the_day_s_lines_export_and_import(kifu, tmp_path, db):
    opened(kifu, "--checkin", players=("中村", "伊藤", "佐藤"))
    for p in ("中村", "伊藤"):
        ok(kifu, "event", "checkin", E, "--player", p)
    ok(kifu, "round", "pair", E)
    ok(kifu, "event", "register", E, "--player", "田中", "--reading", "たなか", "--late")
    out_file = tmp_path / "e.jsonl"
    ok(kifu, "event", "export", E, "-o", str(out_file))
    other = str(tmp_path / "other.db")
    ok(kifu, "--db", other, "event", "import", str(out_file))
    assert ok(kifu, "--db", other, "event", "export", E) == out_file.read_text(encoding="utf-8")
    assert json.loads(ok(kifu, "--db", other, "event", "show", E, "--json"))["players"] == \
        json.loads(ok(kifu, "event", "show", E, "--json"))["players"]


@pytest.mark.parametrize("line", [{"seq": 1, "type": "checkin", "player": "誰"},
                                  {"seq": 1, "type": "pair", "round": 1, "tables": [], "byes": [], "no_shows": ["誰"]},
                                  {"seq": 1, "type": "reinstate", "player": "誰", "reason": "x", "missed": [1]}])
def test_the_fold_passes_over_a_day_s_line_it_cannot_place(line):
    header = {"kifu": 1, "kind": "event", "event": {"name": "E", "game": "gandice", "rounds": 2, "checkin": True}}
    st = T.fold(header, [line])
    assert st.players == {} and st.checkin and st.steps == 1


def test_the_reading_order_holds_for_any_kana():
    """Property: katakana and hiragana readings sort as one; voicing marks and small kana only
    break ties between readings equal without them; every read name precedes every unread one."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    hira = st.text(alphabet=st.characters(min_codepoint=0x3041, max_codepoint=0x3093), min_size=1, max_size=6)

    @settings(max_examples=200, deadline=None)
    @given(hira, hira)
    def check(a: str, b: str) -> None:
        kata = "".join(chr(ord(c) + 0x60) for c in a)
        assert reading.sort_key("x", a) == reading.sort_key("x", kata)
        ka, kb = reading.sort_key("x", a), reading.sort_key("x", b)
        if ka[1] != kb[1]:  # the letters without voicing marks decide first
            assert (ka < kb) == (ka[1] < kb[1])
        assert ka < reading.sort_key("Zed") and kb < reading.sort_key("山田")

    check()
