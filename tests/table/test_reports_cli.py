"""``kifu event report`` and ``kifu round extend`` (issue 33) through the ``kifu`` command: every
refusal is one line and a non-zero exit with nothing written; a player corrects their own report;
a best of one needs no score; the report and extend lines are in ``kifu event export`` and
round-trip through ``kifu event import``; a disputed table has no result when the round closes."""

from __future__ import annotations

import json

import pytest

E = "夏季大会"
FIVE = ["山田", "佐藤", "鈴木", "田中", "高橋"]


def setup_event(kifu, format_="bo3", players=FIVE, pair=True):
    assert kifu("event", "new", E, "--game", "mushijingi", "--rounds", "3", "--format", format_, "--seed", "3")[0] == 0
    for p in players:
        assert kifu("event", "register", E, "--player", p)[0] == 0
    if pair:
        code, out, err = kifu("round", "pair", E, "--json")
        assert code == 0, err
        return json.loads(out)
    return None


def lines(kifu) -> list[dict]:
    code, out, err = kifu("event", "export", E)
    assert code == 0, err
    return [json.loads(x) for x in out.splitlines()[1:]]


def report(kifu, player, result, games=None, *more):
    args = ["event", "report", E, "--player", player, "--result", result, "--json", *more]
    if games:
        args += ["--games", games]
    return kifu(*args)


REFUSALS = [
    (("ゲスト", "win", "2-0"), "player: 'ゲスト' is not registered in '夏季大会'"),
    (("@bye", "win", "2-0"), "has no table in round 1"),
    (("@a", "victory", "2-0"), "result: one of win, loss, draw, got 'victory'"),
    (("@a", "win", None), "games: a best of 3 needs the games, e.g. 2-1"),
    (("@a", "win", "two-one"), "games: wins-losses or wins-losses-draws from your side, e.g. 2-1, got 'two-one'"),
    (("@a", "win", "3-0"), "games: 3-0 is not a score of a best of 3"),
    (("@a", "win", "1-2"), "games: 1-2 is not the score of a win"),
    (("@a", "draw", "2-1"), "games: 2-1 is not the score of a draw"),
    (("@a", "loss", "1-1-1"), "games: 1-1-1 is not the score of a loss"),
]


@pytest.mark.parametrize(("args", "message"), REFUSALS, ids=[m for _, m in REFUSALS])
def test_each_refusal_is_one_line_and_writes_nothing(kifu, args, message):
    pairing = setup_event(kifu)
    a = pairing["tables"][0]["players"][0]
    player, result, games = args
    player = {"@a": a, "@bye": (pairing["byes"] or [""])[0]}.get(player, player)
    before = lines(kifu)
    code, out, err = report(kifu, player, result, games)
    assert code != 0 and out == ""
    assert err.count("\n") == 1 and message in err, err
    assert lines(kifu) == before


def test_no_round_yet_and_a_bad_key_are_refused(kifu):
    setup_event(kifu, pair=False)
    code, _, err = report(kifu, "山田", "win", "2-0")
    assert code != 0 and "round: '夏季大会' has no round paired yet" in err
    kifu("round", "pair", E)
    code, _, err = report(kifu, "山田", "win", "2-0", "--key", "short")
    assert code != 0 and "Idempotency-Key: 8 to 100 letters" in err
    assert [x["type"] for x in lines(kifu)].count("report") == 0


def test_a_player_corrects_their_report_and_the_dispute_ends(kifu):
    pairing = setup_event(kifu)
    a, b = pairing["tables"][0]["players"]
    t = pairing["tables"][0]["table"]
    assert json.loads(report(kifu, a, "win", "2-0")[1])["status"] == "waiting"
    assert json.loads(report(kifu, b, "win", "2-1")[1])["status"] == "dispute"
    code, out, _ = kifu("event", "show", E, "--json")
    view = json.loads(out)["rounds"][-1]
    assert [d["table"] for d in view["disputes"]] == [t]
    code, out, _ = kifu("event", "show", E, "--lang", "en")
    assert f"Disputed reports: Table {t} ({a}: win 2-0; {b}: win 2-1)" in out
    done = json.loads(report(kifu, b, "loss", "0-2")[1])  # the latest report of each player counts
    assert done["status"] == "agreed" and done["recorded"] == [f"{E}-r1-t{t}-g1", f"{E}-r1-t{t}-g2"]
    code, out, _ = kifu("event", "show", E, "--json")
    assert json.loads(out)["rounds"][-1]["disputes"] == []
    code, out, _ = kifu("standings", E, "--json")
    rows = {s["player"]: s for s in json.loads(out)["standings"]}
    assert (rows[a]["points"], rows[b]["points"]) == (3, 0)


def test_a_best_of_one_needs_no_score(kifu):
    pairing = setup_event(kifu, format_="bo1", players=FIVE[:4])
    a, b = pairing["tables"][0]["players"]
    report(kifu, a, "draw")
    done = json.loads(report(kifu, b, "draw")[1])
    assert done["status"] == "agreed" and done["line"]["games"] == "0-0-1"
    code, out, _ = kifu("export", done["recorded"][0])
    assert json.loads(out.splitlines()[-1])["winner"] is None
    # a drawn game does not decide a match (it goes on until a win or time): it stands at the close
    code, out, _ = kifu("standings", E, "--json")
    assert {p["table"] for p in json.loads(out)["pending"]} >= {pairing["tables"][0]["table"]}
    c, d = pairing["tables"][1]["players"]
    report(kifu, c, "win")
    report(kifu, d, "loss")
    assert kifu("round", "close", E, *close_args(kifu))[0] == 0
    code, out, _ = kifu("standings", E, "--json")
    rows = {s["player"]: s for s in json.loads(out)["standings"]}
    assert (rows[a]["points"], rows[a]["record"], rows[b]["record"]) == (1, "0-0-1", "0-0-1")
    assert (rows[c]["points"], rows[d]["record"]) == (3, "0-1-0")


def test_a_disputed_table_has_no_result_when_the_round_closes(kifu):
    """A dispute writes nothing to the games: the close finds the table without a result, as a
    table nobody reported (counted as the event's unfinished games are)."""
    pairing = setup_event(kifu, players=FIVE[:4])
    (a, b), (c, _d) = pairing["tables"][0]["players"], pairing["tables"][1]["players"]
    report(kifu, a, "win", "2-0")
    report(kifu, b, "win", "2-0")
    code, out, _ = kifu("standings", E, "--json")
    pending = {p["table"] for p in json.loads(out)["pending"]}
    assert pending == {pairing["tables"][0]["table"], pairing["tables"][1]["table"]}
    code, _, err = kifu("round", "close", E, *close_args(kifu))
    assert code == 0, err
    code, out, _ = kifu("standings", E, "--json")
    rows = {s["player"]: s for s in json.loads(out)["standings"]}
    assert rows[a]["record"] == rows[c]["record"]  # the disputed table counts as the unreported one
    assert rows[a]["points"] == rows[b]["points"]


def close_args(kifu) -> list[str]:
    """``--unreported draw`` where the close asks how unreported tables count (issue 32)."""
    code, out, _ = kifu("round", "close", "--help")
    return ["--unreported", "draw"] if "--unreported" in out else []


def test_extend_is_recorded_shown_and_exported(kifu, tmp_path):
    pairing = setup_event(kifu)
    t = pairing["tables"][1]["table"]
    code, out, err = kifu("round", "extend", E, "--table", t, "--minutes", "5", "--reason", "デッキチェック", "--by", "主審")
    assert code == 0, err
    assert kifu("round", "extend", E, "--table", t, "--minutes", "3", "--reason", "長い裁定")[0] == 0
    code, out, _ = kifu("event", "show", E, "--json")
    view = json.loads(out)["rounds"][-1]
    assert view["extended"] == [{"table": t, "minutes": 8, "ends_at": view["extended"][0]["ends_at"],
                                 "reasons": ["デッキチェック", "長い裁定"]}]
    from datetime import datetime

    end = datetime.fromisoformat(view["ends_at"].replace("Z", "+00:00"))
    own = datetime.fromisoformat(view["extended"][0]["ends_at"].replace("Z", "+00:00"))
    assert (own - end).total_seconds() == 8 * 60
    code, out, _ = kifu("event", "show", E, "--lang", "en")
    assert f"Extended tables: Table {t}: +8 min (デッキチェック / 長い裁定)" in out
    exported = [x for x in lines(kifu) if x["type"] == "extend"]
    assert [(x["table"], x["minutes"], x["reason"]) for x in exported] == [(t, 5, "デッキチェック"), (t, 3, "長い裁定")]
    assert exported[0]["by"] == "主審"
    # the export round-trips through another store, report lines too
    a = pairing["tables"][0]["players"][0]
    report(kifu, a, "win", "2-1", "--key", "k-0000-0001")
    path = tmp_path / "e.jsonl"
    assert kifu("event", "export", E, "-o", str(path))[0] == 0
    other = str(tmp_path / "other.db")
    assert kifu("--db", other, "event", "import", str(path))[0] == 0
    code, out, _ = kifu("--db", other, "event", "export", E)
    assert out == path.read_text(encoding="utf-8")


EXTEND_REFUSALS = [
    (["--table", "99", "--minutes", "5", "--reason", "x"], "--table: round 1 of '夏季大会' has no table '99'"),
    (["--table", "1", "--minutes", "0", "--reason", "x"], "--minutes: 1 to 120, got 0"),
    (["--table", "1", "--minutes", "121", "--reason", "x"], "--minutes: 1 to 120, got 121"),
    (["--table", "1", "--minutes", "5", "--reason", " "], "--reason: a judge's reason is needed"),
]


@pytest.mark.parametrize(("args", "message"), EXTEND_REFUSALS, ids=[m for _, m in EXTEND_REFUSALS])
def test_each_extend_refusal_is_one_line(kifu, args, message):
    setup_event(kifu)
    before = lines(kifu)
    code, out, err = kifu("round", "extend", E, *args)
    assert code != 0 and err.count("\n") == 1 and message in err, err
    assert lines(kifu) == before


def test_extend_needs_an_open_round(kifu):
    setup_event(kifu, pair=False)
    code, _, err = kifu("round", "extend", E, "--table", "1", "--minutes", "5", "--reason", "x")
    assert code != 0 and "--table: '夏季大会' has no open round to extend" in err


def test_a_player_token_needs_a_registered_player(kifu):
    setup_event(kifu, pair=False)
    code, out, err = kifu("token", "new", "--event", E, "--player", "山田", "--json")
    assert code == 0, err
    info = json.loads(out)
    assert (info["role"], info["player"], info["scope"]) == ("player", "山田", f"event {E} player 山田")
    assert "/events/%E5%A4%8F%E5%AD%A3%E5%A4%A7%E4%BC%9A/me#token=" in kifu("token", "new", "--event", E, "--player", "佐藤")[2]
    code, _, err = kifu("token", "new", "--event", E, "--player", "ゲスト")
    assert code != 0 and "--player: 'ゲスト' is not registered in '夏季大会'" in err
    code, _, err = kifu("token", "new", "--player", "山田")
    assert code != 0 and "--player: a player's token is for one player of one event" in err
    code, _, err = kifu("token", "new", "--event", E, "--player", "山田", "--role", "judge")
    assert code != 0 and "--player: a player's token is --event E --player NAME" in err
    code, out, _ = kifu("token", "list", "--json")
    assert [t["player"] for t in json.loads(out)] == ["山田", "佐藤"]


def test_the_round_sheet_can_print_one_code_per_seat(kifu, db, tmp_path):
    """``--per-seat``: each player's block carries a player's token for their own page."""
    import re
    from urllib.parse import unquote

    from recorder import tokens
    from recorder.store import Store

    pairing = setup_event(kifu, players=FIVE[:4])
    out_file = tmp_path / "sheet.html"
    code, out, err = kifu("round", "sheet", E, "1", "-o", str(out_file), "--per-seat", "--json", "--lang", "ja",
                          "--base-url", "http://192.168.1.10:8000")
    assert code == 0, err
    blocks = json.loads(out)["tables"]
    seated = [(t["table"], p) for t in pairing["tables"] for p in t["players"]]
    assert [(b["table"], b["player"]) for b in blocks] == seated
    html = out_file.read_text(encoding="utf-8")
    secrets = [unquote(s) for s in re.findall(r"/events/%E5%A4%8F%E5%AD%A3%E5%A4%A7%E4%BC%9A/me#token=([^<\"&\s]+)", html)]
    assert len(set(secrets)) == 4
    store = Store(db)
    try:
        listed = {t.name: t for t in tokens.list_tokens(store)}
        found = [listed[tokens.find(store, s).name] for s in secrets]
    finally:
        store.close()
    assert [(t.role, t.player) for t in found] == [("player", p) for _, p in seated]
    assert "このプレイヤー専用、大会の最後まで有効です。" in html
    assert kifu("round", "sheet", E, "1", "-o", str(tmp_path / "en.html"), "--per-seat", "--lang", "en")[0] == 0
    assert "For this player, for the whole event." in (tmp_path / "en.html").read_text(encoding="utf-8")


def test_the_desk_lists_the_tables_over_their_time(kifu, tmp_path):
    """A round paired 55 minutes ago with 50-minute rounds (its log imported with that time):
    both tables are over time; an extension of 10 minutes takes one off the list."""
    from datetime import UTC, datetime, timedelta

    at = (datetime.now(UTC) - timedelta(minutes=55)).isoformat().replace("+00:00", "Z")
    header = {"kifu": 1, "kind": "event", "event": {"name": E, "game": "mushijingi", "rules": "mushijingi/3", "rounds": 3,
              "format": "bo1", "round_minutes": 50, "tiebreaks": ["omw", "gw", "ogw"],
              "house_rules": {"unfinished_game": "draw"}, "seed": 1, "date": None}}
    log = [header, *({"seq": i + 1, "type": "register", "player": p, "at": at} for i, p in enumerate(FIVE[:4])),
           {"seq": 5, "type": "pair", "round": 1, "method": "import", "byes": [], "at": at, "tables": [
               {"table": "1", "players": FIVE[:2], "match": f"{E}-r1-t1"},
               {"table": "2", "players": FIVE[2:4], "match": f"{E}-r1-t2"}]}]
    path = tmp_path / "e.jsonl"
    path.write_text("\n".join(json.dumps(x, ensure_ascii=False) for x in log) + "\n", encoding="utf-8")
    assert kifu("event", "import", str(path))[0] == 0

    def over() -> list[str]:
        code, out, err = kifu("event", "show", E, "--json")
        assert code == 0, err
        return [o["table"] for o in json.loads(out)["rounds"][-1]["over_time"]]

    assert over() == ["1", "2"]
    code, out, _ = kifu("event", "show", E, "--lang", "en")
    assert "Over time: Table 1 (+5:" in out
    assert kifu("round", "extend", E, "--table", "1", "--minutes", "10", "--reason", "デッキチェック")[0] == 0
    assert over() == ["2"]
