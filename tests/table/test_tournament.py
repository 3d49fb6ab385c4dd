"""The tournament (recorder/tournament_service.py) through the ``kifu`` command, as an
organiser uses it: open, register, pair (imported CSV here; Swiss in test_event_run.py), change,
drop, close; every refusal one clear line; the stream append-only, exported and imported."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from projections import tournament as T
from projections import tournament_rows
from recorder import tournament_service
from recorder.domain import TOURNAMENT_LINE_CLASSES
from recorder.store import Store

E = "冬季大会"
PLAYERS = ["山田", "佐藤", "鈴木", "田中", "高橋"]


def opened(kifu, *extra: str, players=PLAYERS) -> None:
    code, _, err = kifu("event", "new", E, "--game", "mushijingi", "--rounds", "3", "--seed", "7", *extra)
    assert code == 0, err
    for p in players:
        code, _, err = kifu("event", "register", E, "--player", p)
        assert code == 0, err


def csv_file(tmp_path: Path, text: str, name: str = "pairing.csv") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


ROUND1 = "table,player1,player2\n1,山田,佐藤\n2,鈴木,田中\nBYE,高橋,\n"


def refused(kifu, *args: str) -> str:
    code, out, err = kifu(*args)
    assert code != 0, out
    lines = err.strip().splitlines()
    assert lines and all(line.startswith("kifu: ") for line in lines) and "Traceback" not in err, err
    return err


def test_open_register_and_show_the_roster(kifu, monkeypatch):
    monkeypatch.delenv("KIFU_LANG")  # what a person reads: Japanese by default
    opened(kifu)
    code, out, err = kifu("event", "show", E, "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["event"]["game"] == "mushijingi" and data["event"]["rounds"] == 3 and data["event"]["seed"] == 7
    assert [p["name"] for p in data["players"]] == PLAYERS
    code, out, _ = kifu("event", E)  # the old form: the desk
    assert code == 0 and "山田" in out and "参加者: 5" in out


@pytest.mark.parametrize("args, what", [
    (["--game", "chess", "--rounds", "3"], "--game"),
    (["--game", "mushijingi", "--rounds", "0"], "--rounds: 1 to 30"),
    (["--game", "mushijingi", "--rounds", "3", "--format", "bo7"], "--format: one of bo1, bo3, bo5"),
    (["--game", "mushijingi", "--rounds", "3", "--cut-format", "bo4"], "--cut-format: one of bo1, bo3, bo5"),
    (["--game", "mushijingi", "--rounds", "3", "--tiebreaks", "omw,xomw"], "--tiebreaks: an order of omw, gw, ogw, oomw"),
    (["--game", "mushijingi", "--rounds", "3", "--tiebreaks", "omw,omw"], "--tiebreaks"),
    (["--game", "mushijingi", "--rounds", "3", "--unfinished", "coin"], "--unfinished"),
    (["--game", "mushijingi", "--rounds", "3", "--round-minutes", "0"], "--round-minutes"),
])
def test_opening_refusals(kifu, args, what):
    assert what in refused(kifu, "event", "new", E, *args)


def test_an_event_opens_once(kifu):
    opened(kifu, players=[])
    assert "already recorded" in refused(kifu, "event", "new", E, "--game", "gandice", "--rounds", "2")


def test_registration_refusals(kifu, tmp_path):
    opened(kifu, players=["山田"])
    assert "already registered" in refused(kifu, "event", "register", E, "--player", "山田")
    assert "already registered" in refused(kifu, "event", "register", E, "--player", "ｍ".join(["山田"]) + " ")
    assert "no event" in refused(kifu, "event", "register", "ない大会", "--player", "x")


def test_a_deck_is_checked_against_the_game_s_deck_rules(kifu):
    code, _, err = kifu("event", "new", "G杯", "--game", "gandice", "--rounds", "2")
    assert code == 0, err
    err = refused(kifu, "event", "register", "G杯", "--player", "山田", "--cards", "ギダン")
    assert "--deck: 山田:" in err and "GD-" in err
    code, _, err = kifu("event", "register", "G杯", "--player", "佐藤", "--deck", "闇ダイス組",
                        "--cards", "ギダン,美雅羅,爪牙,武具・羅,武具・羅#2")
    assert code == 0, err


def test_a_round_imported_from_csv_creates_its_matches(kifu, tmp_path, db):
    opened(kifu)
    code, out, err = kifu("round", "pair", E, "--import", csv_file(tmp_path, ROUND1), "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["round"] == 1 and data["byes"] == ["高橋"] and data["method"] == "import"
    assert [t["match"] for t in data["tables"]] == [f"{E}-r1-t1", f"{E}-r1-t2"]
    store = Store(db)
    try:
        header, lines = store.load(f"{E}-r1-t1")
        assert [p["name"] for p in header["players"]] == ["山田", "佐藤"] and lines == []
        assert header["match"]["event"] == E and header["match"]["round"] == 1 and header["match"]["table"] == "1"
    finally:
        store.close()
    code, out, _ = kifu("round", "show", E, "1", "--csv")
    assert out.splitlines() == ["round,table,player1,player2,match", f"1,1,山田,佐藤,{E}-r1-t1",
                                f"1,2,鈴木,田中,{E}-r1-t2", "1,BYE,高橋,,"]


@pytest.mark.parametrize("text, what", [
    ("table,player1,player2\n1,山田,佐藤\n2,鈴木,田中\n", "not paired: 高橋"),
    ("table,player1,player2\n1,山田,佐藤\n2,鈴木,山田\nBYE,高橋,\n", "'山田' is already seated at table 1"),
    ("table,player1,player2\n1,山田,佐藤\n2,鈴木,誰か\nBYE,高橋,\n", "'誰か' is not registered"),
    ("table,player1,player2\n1,山田,佐藤\n1,鈴木,田中\nBYE,高橋,\n", "table 1 appears twice"),
    ("round,table,player1,player2\n2,1,山田,佐藤\n", "the next round of"),
    ("table,player1\n1,山田\n", "not paired"),
    ("", "no pairing rows"),
])
def test_an_imported_pairing_is_refused_whole(kifu, tmp_path, db, text, what):
    opened(kifu)
    assert what in refused(kifu, "round", "pair", E, "--import", csv_file(tmp_path, text))
    assert tournament_service.state(Store(db), E).paired == ()  # nothing half-written
    assert not Store(db).exists(f"{E}-r1-t1")


def test_a_round_must_close_before_the_next_and_the_rounds_run_out(kifu, tmp_path):
    opened(kifu, players=["山田", "佐藤"])
    csv1 = csv_file(tmp_path, "1,山田,佐藤\n")
    assert kifu("round", "pair", E, "--import", csv1)[0] == 0
    assert "still open" in refused(kifu, "round", "pair", E, "--import", csv1)
    assert kifu("round", "close", E, "--unreported", "draw")[0] == 0
    assert "no open round" in refused(kifu, "round", "close", E)
    for n in (2, 3):
        assert kifu("round", "pair", E, "--import", csv_file(tmp_path, "1,佐藤,山田\n", f"r{n}.csv"))[0] == 0
        assert kifu("round", "close", E, "--unreported", "draw")[0] == 0
    assert "has its 3 rounds" in refused(kifu, "round", "pair", E, "--import", csv1)


def test_registration_closes_when_the_first_round_is_paired(kifu, tmp_path):
    opened(kifu)
    kifu("round", "pair", E, "--import", csv_file(tmp_path, ROUND1))
    assert "--late" in refused(kifu, "event", "register", E, "--player", "遅刻")


def test_a_match_is_checked_against_its_pairing(kifu, tmp_path):
    opened(kifu)
    kifu("round", "pair", E, "--import", csv_file(tmp_path, ROUND1))
    new = ("new", "--game", "mushijingi", "--event", E, "--round", "1")
    assert "'山田' is already seated at table 1 of round 1" in refused(
        kifu, *new, "--table", "3", "--player", "A=山田", "--player", "B=高橋")
    assert "has the bye in round 1" in refused(kifu, *new, "--table", "3", "--player", "A=高橋", "--player", "B=X")
    assert "table 1 of round 1 is 山田 vs 佐藤, not 山田 vs 代役" in refused(
        kifu, *new, "--table", "1", "--id", "x", "--player", "A=山田", "--player", "B=代役")
    assert "has no table '9'" in refused(kifu, *new, "--table", "9", "--id", "y", "--player", "A=代役",
                                         "--player", "B=代役2")
    assert "has not paired round 2" in refused(kifu, "new", "--game", "mushijingi", "--event", E, "--round", "2",
                                               "--table", "1", "--player", "A=山田", "--player", "B=佐藤")
    # the same pairing again at its own table (a second game written by hand) is accepted
    code, _, err = kifu(*new, "--table", "1", "--id", "again", "--player", "A=佐藤", "--player", "B=山田")
    assert code == 0, err


def test_matches_of_events_without_a_stream_are_not_checked(kifu):
    code, _, err = kifu("new", "--game", "mushijingi", "--event", "古い大会", "--round", "1", "--table", "1",
                        "--player", "A=山田", "--player", "B=佐藤")
    assert code == 0, err


def test_drop_and_reinstate_are_new_lines(kifu, tmp_path, db):
    opened(kifu)
    kifu("round", "pair", E, "--import", csv_file(tmp_path, ROUND1))
    code, out, err = kifu("event", "drop", E, "--player", "田中", "--json")
    assert code == 0 and json.loads(out)["after_round"] == 1, err
    assert "already dropped" in refused(kifu, "event", "drop", E, "--player", "田中")
    assert "not registered" in refused(kifu, "event", "drop", E, "--player", "誰か")
    assert "--after: a round from 0 to 1" in refused(kifu, "event", "drop", E, "--player", "山田", "--after", "2")
    assert "has not dropped" in refused(kifu, "event", "reinstate", E, "--player", "山田", "--reason", "x")
    assert "reason is needed" in refused(kifu, "event", "reinstate", E, "--player", "田中", "--reason", " ")
    st = tournament_service.state(Store(db), E)
    assert st.dropped() == {"田中": 1} and "田中" not in st.active(2) and "田中" in st.active(1)
    assert kifu("event", "reinstate", E, "--player", "田中", "--reason", "誤操作")[0] == 0
    header, lines = tournament_service.load(Store(db), E)
    assert [line["type"] for line in lines] == ["register"] * 5 + ["pair", "drop", "reinstate"]
    assert tournament_service.state(Store(db), E).dropped() == {}


def test_a_player_paired_in_the_next_round_cannot_drop_before_it(kifu, tmp_path):
    opened(kifu, players=["山田", "佐藤"])
    kifu("round", "pair", E, "--import", csv_file(tmp_path, "1,山田,佐藤\n"))
    assert "is paired in round 1" in refused(kifu, "event", "drop", E, "--player", "山田", "--after", "0")


def test_a_judge_changes_a_pairing_with_a_reason(kifu, tmp_path, db):
    opened(kifu)
    kifu("round", "pair", E, "--import", csv_file(tmp_path, ROUND1))
    args = ("round", "change", E, "--table", "1=山田,鈴木", "--table", "2=佐藤,田中", "--bye", "高橋")
    assert "reason is needed" in refused(kifu, *args, "--reason", "")
    assert "not paired: 高橋" in refused(kifu, "round", "change", E, "--table", "1=山田,鈴木", "--table",
                                        "2=佐藤,田中", "--reason", "x")
    code, out, err = kifu(*args, "--reason", "同じ店舗", "--by", "主審", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert [t["match"] for t in data["tables"]] == [f"{E}-r1-t1-c1", f"{E}-r1-t2-c1"]
    assert data["changes"][0]["reason"] == "同じ店舗" and data["changes"][0]["by"] == "主審"
    store = Store(db)
    assert [p["name"] for p in store.load(f"{E}-r1-t1-c1")[0]["players"]] == ["山田", "鈴木"]
    # the old table's match stays (append-only) but no longer counts at that table
    assert store.exists(f"{E}-r1-t1")
    st = tournament_service.state(store, E)
    assert st.round(1).table_of("鈴木").table == "1"


def test_a_table_with_lines_recorded_keeps_its_pairing(kifu, tmp_path):
    opened(kifu)
    kifu("round", "pair", E, "--import", csv_file(tmp_path, ROUND1))
    assert kifu("record", f"{E}-r1-t1", '{"type": "concede", "by": "B"}')[0] == 0
    assert "has lines recorded; its pairing stands" in refused(
        kifu, "round", "change", E, "--table", "1=山田,鈴木", "--table", "2=佐藤,田中", "--bye", "高橋", "--reason", "x")


def test_the_desk_shows_the_round(kifu, tmp_path, monkeypatch):
    monkeypatch.delenv("KIFU_LANG")  # what a person reads: Japanese by default
    opened(kifu)
    kifu("round", "pair", E, "--import", csv_file(tmp_path, ROUND1))
    kifu("record", f"{E}-r1-t1", '{"type": "concede", "by": "B"}')
    kifu("event", "drop", E, "--player", "田中")
    code, out, err = kifu("event", "show", E, "--json")
    assert code == 0, err
    view = json.loads(out)["rounds"][0]
    assert [(t["table"], t["status"]) for t in view["tables"]] == [("1", "finished"), ("2", "not_started")]
    assert view["byes"] == ["高橋"] and view["not_reported"] == ["2"]
    assert view["dropped"] == [{"player": "田中", "after_round": 1}]
    assert view["round_minutes"] == 50 and view["minutes_used"] == 0
    code, text, _ = kifu("event", E)
    assert "卓   1  山田 vs 佐藤  終了" in text and "未報告: 卓 2" in text and "田中 (第1回戦後)" in text
    code, text, _ = kifu("--lang", "en", "event", "show", E)
    assert "finished" in text and "Not reported: Table 2" in text


def test_export_import_round_trips_and_as_of(kifu, tmp_path, db):
    opened(kifu)
    kifu("round", "pair", E, "--import", csv_file(tmp_path, ROUND1))
    out_file = tmp_path / "e.jsonl"
    assert kifu("event", "export", E, "-o", str(out_file))[0] == 0
    lines = out_file.read_text(encoding="utf-8").splitlines()
    assert json.loads(lines[0])["kind"] == "event" and "山田" in lines[1]  # ensure_ascii=False
    other = str(tmp_path / "other.db")
    code, _, err = kifu("--db", other, "event", "import", str(out_file))
    assert code == 0, err
    copy = tmp_path / "copy.jsonl"
    assert kifu("--db", other, "event", "export", E, "-o", str(copy))[0] == 0
    assert copy.read_text(encoding="utf-8") == out_file.read_text(encoding="utf-8")
    assert "already recorded" in refused(kifu, "--db", other, "event", "import", str(out_file))
    first = json.loads(lines[1])["at"]
    code, out, _ = kifu("event", "show", E, "--as-of", first, "--json")
    assert [p["name"] for p in json.loads(out)["players"]] == ["山田"]


@pytest.mark.parametrize("mangle, what", [
    (lambda ls: ['{"kifu": 1, "game": "gandice"}', *ls[1:]], ":1: kind:"),
    (lambda ls: [ls[0], ls[2], *ls[3:]], ":2: seq: expected 1, got 2"),
    (lambda ls: [*ls, '{"seq": 7, "type": "promote", "player": "x"}'], ":8: type:"),
    (lambda ls: [*ls, '{"seq": 7, "type": "drop", "player": "山田"}'], ":8: after_round:"),
    (lambda ls: [*ls, "{not json"], ":8:"),
])
def test_a_bad_event_log_is_refused_whole(kifu, tmp_path, db, mangle, what):
    opened(kifu)
    kifu("round", "pair", E, "--import", csv_file(tmp_path, ROUND1))
    lines = tournament_service.export_lines(Store(db), E)
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(mangle(lines)) + "\n", encoding="utf-8")
    other = str(tmp_path / "other.db")
    err = refused(kifu, "--db", other, "event", "import", str(bad))
    assert f"{bad}{what}" in err or what in err
    assert not tournament_service.exists(Store(other), E)


def test_the_read_model_and_the_match_list_pass_over_the_event_stream(kifu, tmp_path):
    opened(kifu)
    kifu("round", "pair", E, "--import", csv_file(tmp_path, ROUND1))
    code, out, err = kifu("matches", "--json")
    assert code == 0, err
    assert sorted(m["id"] for m in json.loads(out)) == [f"{E}-r1-t1", f"{E}-r1-t2"]
    code, _, err = kifu("stats", "--rebuild")
    assert code == 0, err


def test_fold_passes_over_what_it_cannot_place():
    header = {"kifu": 1, "kind": "event", "event": {"name": "E", "game": "gandice", "rounds": 2}}
    st = T.fold(header, [{"seq": 1, "type": "drop", "player": "nobody", "after_round": 0},
                         {"seq": 2, "type": "change", "round": 5, "tables": [], "byes": []},
                         {"seq": 3, "type": "unknown"}])
    assert st.players == {} and st.paired == () and st.steps == 3
    assert T.match_id("E", 2, "5") == "E-r2-t5" and T.match_id("E", 2, "5", 3, 3) == "E-r2-t5-g3"


def test_every_event_line_type_is_documented():
    text = (Path(__file__).resolve().parents[2] / "docs" / "log-format.md").read_text(encoding="utf-8")
    section = text[text.index("## The event log"):]
    for kind in tournament_service.LINE_FIELDS:
        assert f"| `{kind}` |" in section, kind
    assert set(tournament_service.LINE_FIELDS) == set(T.LINE_TYPES) == set(TOURNAMENT_LINE_CLASSES)


def test_a_round_on_each_backend(kifu, tmp_path, backend_url, monkeypatch):
    """The event stream on SQLite and on PostgreSQL: a round paired with its matches in one
    transaction, a refused pairing leaves nothing, a drop, the close, the export."""
    monkeypatch.chdir(tmp_path)  # a PostgreSQL store's read model is ./kifu.readmodel.db
    db = ("--db", backend_url)
    assert kifu(*db, "event", "new", E, "--game", "mushijingi", "--rounds", "2")[0] == 0
    for p in PLAYERS:
        assert kifu(*db, "event", "register", E, "--player", p)[0] == 0
    assert "not paired: 高橋" in refused(kifu, *db, "round", "pair", E, "--import",
                                        csv_file(tmp_path, "1,山田,佐藤\n2,鈴木,田中\n", "bad.csv"))
    code, out, err = kifu(*db, "round", "pair", E, "--import", csv_file(tmp_path, ROUND1), "--json")
    assert code == 0, err
    assert kifu(*db, "record", f"{E}-r1-t1", '{"type": "concede", "by": "B"}')[0] == 0
    assert kifu(*db, "event", "drop", E, "--player", "田中")[0] == 0
    assert kifu(*db, "round", "close", E, "--unreported", "draw")[0] == 0
    code, out, err = kifu(*db, "event", "export", E)
    assert code == 0, err
    assert [json.loads(x)["type"] for x in out.splitlines()[1:]] == ["register"] * 5 + ["pair", "drop", "close"]
    code, out, err = kifu(*db, "standings", E, "--json")
    assert code == 0, err
    assert {s["player"]: s["points"] for s in json.loads(out)["standings"]}["高橋"] == 3  # the bye


def test_a_table_s_status_from_its_games():
    from exports.tournament import table_status

    def g(steps=0, finished=False, winner=None, disputes=0):
        return {"steps": steps, "finished": finished, "winner_name": winner, "open_disputes": disputes}

    assert table_status([g(), g(), g()], 3) == "not_started"
    assert table_status([g(5), g(), g()], 3) == "in_progress"
    assert table_status([g(5, True, "甲"), g(4, True, "甲"), g()], 3) == "finished"  # 2-0: the third not needed
    assert table_status([g(5, True, "甲"), g(4, True, "乙"), g()], 3) == "in_progress"
    assert table_status([g(5, True, "甲"), g(4, True, None), g(3, True, "乙")], 3) == "finished"  # 1-1-1
    assert table_status([g(5, True, "甲"), g(2, disputes=1), g()], 3) == "awaiting_ruling"
    assert table_status([g(5, True, "甲")], 1) == "finished"
    assert table_status([], 1) == "not_started"


def test_round_one_is_random_from_the_recorded_seed(kifu, tmp_path):
    """The same event seed pairs round 1 the same way in another store; the seed is in the line."""
    tables = []
    for name in ("a.db", "b.db"):
        db = ("--db", str(tmp_path / name))
        assert kifu(*db, "event", "new", E, "--game", "mushijingi", "--rounds", "3", "--seed", "42")[0] == 0
        for p in [*PLAYERS, "伊藤", "渡辺", "中村"]:
            assert kifu(*db, "event", "register", E, "--player", p)[0] == 0
        code, out, err = kifu(*db, "round", "pair", E, "--json")
        assert code == 0, err
        data = json.loads(out)
        assert data["method"] == "random" and data["seed"] == 43 and len(data["byes"]) == 0
        tables.append(data["tables"])
        _, lines = tournament_service.load(Store(str(tmp_path / name)), E)
        assert lines[-1]["type"] == "pair" and lines[-1]["seed"] == 43
    assert tables[0] == tables[1]
    assert sorted(p for t in tables[0] for p in t["players"]) == sorted([*PLAYERS, "伊藤", "渡辺", "中村"])


def test_a_result_pending_a_ruling_puts_its_table_among_the_rulings_to_make(kifu, tmp_path, db):
    """KIFU-3: the deciding line of a match of the round breaks a rule: the table awaits a ruling."""
    root = Path(__file__).resolve().parents[2]
    lines = (root / "examples" / "mushijingi-example.jsonl").read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])
    entries = [json.loads(x) for x in lines[1:67]]
    entries[-1]["technique"] = "どくばり"  # the deciding attack now breaks MJ-5.3
    names = [p["name"] for p in header["players"]]
    opened(kifu, players=names)
    kifu("round", "pair", E, "--import", csv_file(tmp_path, f"1,{names[0]},{names[1]}\n"))
    header.pop("rules", None)
    header["match"].update(id="flagged", event=E, round=1, table="1")
    store = Store(db)
    store.create(header, entries)
    st = tournament_service.state(store, E)
    games = tournament_rows.round_games(store, st, st.round(1))["1"]
    pending = [g for g in games if g.get("pending")]
    assert [g["match"] for g in pending] == ["flagged"] and pending[0]["pending"]["rule"] == "MJ-5.3"
    code, out, err = kifu("event", "show", E, "--json")
    assert code == 0, err
    assert json.loads(out)["rounds"][0]["tables"][0]["status"] == "awaiting_ruling"


def test_migrate_copies_the_tournament_with_its_matches(kifu, tmp_path, db):
    opened(kifu)
    kifu("round", "pair", E, "--import", csv_file(tmp_path, ROUND1))
    other = str(tmp_path / "other.db")
    code, out, err = kifu("migrate", "--from", db, "--to", other)
    assert code == 0, err
    assert "copied 2 match(es)" in out and "1 tournament(s)" in out
    assert tournament_service.export_lines(Store(other), E) == tournament_service.export_lines(Store(db), E)
    assert tournament_service.names(Store(other)) == [E]
    code, out, err = kifu("migrate", "--from", db, "--to", other)  # again: nothing twice
    assert code == 0 and "0 tournament(s)" in out, err
    kifu("event", "drop", E, "--player", "田中")  # the source moves on: the target's differs now
    code, out, err = kifu("migrate", "--from", db, "--to", other)
    assert code != 0 and "event '冬季大会' differs between source and target" in out + err


def test_the_stored_topics_are_the_named_ones(kifu, db):
    """Topics are part of the database format: the event's first event is stored under
    OPENED_TOPICS[0] (tournament_service.names finds events by it), its lines under their class
    paths (recorder/domain.py)."""
    opened(kifu, players=["山田"])
    store = Store(db)
    topics = [r.topic for r in store.app.recorder.select_events(tournament_service.event_uuid(E))]
    assert topics == [tournament_service.OPENED_TOPICS[0], "recorder.domain:Tournament.PlayerRegistered"]
    assert tournament_service.OPENED_TOPICS[0] == "recorder.domain:Tournament.Opened"


def test_a_change_in_a_best_of_three_creates_every_game_of_the_new_tables(kifu, tmp_path, db):
    opened(kifu, "--format", "bo3", players=["山田", "佐藤", "鈴木", "田中"])
    kifu("round", "pair", E, "--import", csv_file(tmp_path, "1,山田,佐藤\n2,鈴木,田中\n"))
    code, out, err = kifu("round", "change", E, "--table", "1=山田,鈴木", "--table", "2=佐藤,田中", "--reason", "x",
                          "--json")
    assert code == 0, err
    assert [t["match"] for t in json.loads(out)["tables"]] == [f"{E}-r1-t1-g1-c1", f"{E}-r1-t2-g1-c1"]
    store = Store(db)
    assert all(store.exists(f"{E}-r1-t{t}-g{g}-c1") for t in (1, 2) for g in (1, 2, 3))
