"""The top cut (projections/bracket.py, recorder/topcut.py) through the ``kifu`` command: the
seeding order, byes to the top seeds, the cut's own format, a playoff match without draws (a
game added until a player wins), the next round from the winners, the places, the bracket;
export and import, ``--as-of`` and the round sheet of a cut round; every refusal."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from projections import bracket

E = "夏季大会"
EIGHT = ["青木", "井上", "上田", "江口", "大野", "加藤", "木村", "工藤"]


def ok(kifu, *args: str) -> str:
    code, out, err = kifu(*args)
    assert code == 0, err
    return out


def refused(kifu, *args: str) -> str:
    code, out, err = kifu(*args)
    assert code != 0, out
    lines = err.strip().splitlines()
    assert lines and all(line.startswith("kifu: ") for line in lines) and "Traceback" not in err, err
    return err


def concede(kifu, match: str, loser_seat: str) -> None:
    ok(kifu, "record", match, json.dumps({"type": "concede", "by": loser_seat}))


def round_json(kifu, n: int | None = None) -> dict:
    return json.loads(ok(kifu, "round", "show", E, *([str(n)] if n else []), "--json"))


def win(kifu, n: int, winner: str, games: int = 1) -> None:
    """``winner`` wins their table of round ``n`` (``games`` games, each by the other's concession)."""
    for t in round_json(kifu, n)["tables"]:
        if winner in t["players"]:
            loser = "B" if t["players"][0] == winner else "A"
            base = t["match"][:-3] if t["match"].endswith("-g1") else t["match"]
            for g in range(1, games + 1):
                concede(kifu, f"{base}-g{g}" if t["match"].endswith("-g1") else t["match"], loser)
            return
    raise AssertionError(f"{winner} is not seated in round {n}")


def swiss(kifu, players=EIGHT, rounds: int = 3, *extra: str) -> list[str]:
    """An event of ``players`` (best of one), every Swiss round played (seat A wins) and closed;
    returns the final Swiss order."""
    ok(kifu, "event", "new", E, "--game", "mushijingi", "--rounds", str(rounds), "--seed", "3", *extra)
    for p in players:
        ok(kifu, "event", "register", E, "--player", p)
    for _ in range(rounds):
        ok(kifu, "round", "pair", E)
        for t in round_json(kifu)["tables"]:
            concede(kifu, t["match"], "B")
        ok(kifu, "round", "close", E)
    return [s["player"] for s in json.loads(ok(kifu, "standings", E, "--json"))["standings"]]


def test_bracket_order_keeps_the_two_best_seeds_apart_until_the_final():
    assert bracket.bracket_order(2) == [1, 2]
    assert bracket.bracket_order(4) == [1, 4, 2, 3]
    assert bracket.bracket_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    order = bracket.bracket_order(16)
    assert sorted(order) == list(range(1, 17)) and order.index(2) >= 8 > order.index(1)
    tables, byes = bracket.first_round(list("ABCDEFGH"), 8)
    assert [(t["players"], t["seeds"]) for t in tables] == [
        (["A", "H"], [1, 8]), (["D", "E"], [4, 5]), (["B", "G"], [2, 7]), (["C", "F"], [3, 6])]
    assert byes == []
    tables, byes = bracket.first_round(list("ABCDEF"), 8)  # 6 players for a top 8: seeds 1 and 2 get byes
    assert byes == ["A", "B"] and [t["seeds"] for t in tables] == [[4, 5], [3, 6]]
    assert [t["table"] for t in tables] == ["1", "2"]


def test_a_top_four_from_the_swiss_to_the_champion(kifu):
    order = swiss(kifu)
    # refusals before the cut and of the cut itself
    assert "none is left to pair (a top cut: kifu round cut" in refused(kifu, "round", "pair", E)
    assert "--top: 2, 4, 8 or another power of two up to the 8 players, got 3" in refused(kifu, "round", "cut", E, "--top", "3")
    assert "got 16" in refused(kifu, "round", "cut", E, "--top", "16")
    out = ok(kifu, "round", "cut", E, "--top", "4", "--json")
    r4 = json.loads(out)
    assert r4["round"] == 4 and r4["method"] == "cut" and r4["byes"] == []
    seeds = order[:4]
    assert [(t["players"], t["seeds"], t["chooses_first"]) for t in r4["tables"]] == [
        ([seeds[0], seeds[3]], [1, 4], seeds[0]), ([seeds[1], seeds[2]], [2, 3], seeds[1])]
    # the cut's own format (best of three by default) though the Swiss was best of one
    assert r4["tables"][0]["match"] == f"{E}-r4-t1-g1"
    assert "has its top 4 cut already" in refused(kifu, "round", "cut", E, "--top", "4")
    assert "is still open" in refused(kifu, "round", "pair", E)
    # table 1: seed 1 wins 2-0; table 2: 1-1, a drawn game, then the decider is a 4th game
    win(kifu, 4, seeds[0], 2)
    concede(kifu, f"{E}-r4-t2-g1", "B")
    concede(kifu, f"{E}-r4-t2-g2", "A")
    assert "game '夏季大会-r4-t2-g3' is not finished yet" in refused(kifu, "round", "game", E, "--table", "2")
    ok(kifu, "record", f"{E}-r4-t2-g3", json.dumps({"type": "result", "by": "主審", "winner": None, "reason": "draw"}))
    said = refused(kifu, "round", "close", E, "--unreported", "draw")  # a playoff table has no draw
    assert f"table 2 ({seeds[1]} vs {seeds[2]}): no winner yet; a playoff match has no draw" in said
    assert "table 1" not in said
    assert "is decided already" in refused(kifu, "round", "game", E, "--table", "1")
    header = json.loads(ok(kifu, "round", "game", E, "--table", "2", "--json"))
    assert header["match"]["id"] == f"{E}-r4-t2-g4" and header["match"]["round"] == 4
    concede(kifu, f"{E}-r4-t2-g4", "A")  # seed 3 wins the decider: 2-1-1
    view = json.loads(ok(kifu, "event", "bracket", E, "--json"))
    semis = view["rounds"][0]
    assert semis["stage"] == "semifinal" and [m["winner"] for m in semis["matches"]] == [seeds[0], seeds[2]]
    assert [p["wins"] for p in semis["matches"][1]["players"]] == [1, 2]
    ok(kifu, "round", "close", E)
    # the final from the winners: the higher seed first
    r5 = json.loads(ok(kifu, "round", "pair", E, "--json"))
    assert r5["method"] == "playoff" and [(t["players"], t["seeds"]) for t in r5["tables"]] == [
        ([seeds[0], seeds[2]], [1, 3])]
    # places while the final is played: the finalists 1-2 by seed, the semifinal losers 3-4 by Swiss rank
    rows = json.loads(ok(kifu, "standings", E, "--json"))["standings"]
    assert [(r["place"], r["player"]) for r in rows][:4] == [(1, seeds[0]), (2, seeds[2]), (3, seeds[1]), (4, seeds[3])]
    win(kifu, 5, seeds[2], 2)
    ok(kifu, "round", "close", E)
    assert f"is over: {seeds[2]} won the final" in refused(kifu, "round", "pair", E)
    rows = json.loads(ok(kifu, "standings", E, "--json"))["standings"]
    assert [r["place"] for r in rows] == list(range(1, 9))
    assert [r["player"] for r in rows] == [seeds[2], seeds[0], seeds[1], seeds[3], *order[4:]]
    # the Swiss ranks stand as they were: the cut is no Swiss round
    assert {r["player"]: r["rank"] for r in rows}[seeds[0]] == 1 and all(r["record"].count("-") == 2 for r in rows)
    assert sum(int(r["record"].split("-")[0]) for r in rows) == 12  # 3 rounds × 4 tables, no playoff match
    view = json.loads(ok(kifu, "event", "bracket", E, "--json"))
    assert view["champion"] == seeds[2] and view["rounds"][1]["stage"] == "final" and view["top"] == 4
    text = ok(kifu, "event", "bracket", E)  # the tests read English (KIFU_LANG=en)
    assert f"Champion: {seeds[2]}" in text and "Semifinal" in text


def test_byes_go_to_the_top_seeds_when_fewer_players_remain(kifu):
    order = swiss(kifu, EIGHT, 3)
    for p in order[5:]:
        ok(kifu, "event", "drop", E, "--player", p)
    assert "up to the 8 players, got 16" in refused(kifu, "round", "cut", E, "--top", "16")
    r4 = json.loads(ok(kifu, "round", "cut", E, "--top", "8", "--json"))
    # 5 active players for a top 8: seeds 1, 2 and 3 have byes; 4 v 5 plays
    assert r4["byes"] == order[:3]
    assert [(t["players"], t["seeds"]) for t in r4["tables"]] == [([order[3], order[4]], [4, 5])]
    win(kifu, 4, order[4], 2)
    ok(kifu, "round", "close", E)
    r5 = json.loads(ok(kifu, "round", "pair", E, "--json"))  # the semifinals: 1 v 5 (who beat 4), 2 v 3
    assert [(t["players"], t["seeds"]) for t in r5["tables"]] == [([order[0], order[4]], [1, 5]),
                                                                    ([order[1], order[2]], [2, 3])]


def test_a_cut_needs_more_than_half_of_it_active(kifu):
    order = swiss(kifu, EIGHT, 3)
    for p in order[:2] + order[6:]:
        ok(kifu, "event", "drop", E, "--player", p)
    assert "a top 8 needs more than 4 active players, '夏季大会' has 4" in refused(kifu, "round", "cut", E, "--top", "8")
    r = json.loads(ok(kifu, "round", "cut", E, "--top", "2", "--json"))  # the dropped are passed over
    assert [t["players"] for t in r["tables"]] == [order[2:4]]


def test_the_cut_comes_after_the_last_swiss_round_is_closed(kifu):
    ok(kifu, "event", "new", E, "--game", "mushijingi", "--rounds", "1", "--seed", "3")
    for p in EIGHT[:4]:
        ok(kifu, "event", "register", E, "--player", p)
    assert "after the last Swiss round (1) is closed" in refused(kifu, "round", "cut", E, "--top", "2")
    ok(kifu, "round", "pair", E)
    assert "after the last Swiss round (1) is closed" in refused(kifu, "round", "cut", E, "--top", "2")


def test_cut_rounds_export_import_as_of_and_their_round_sheet(kifu, db, tmp_path: Path):
    order = swiss(kifu, EIGHT[:4], 2, "--cut-format", "bo5")
    before = json.loads(ok(kifu, "event", "export", E).splitlines()[-1])["at"]  # the last close's own time
    r3 = json.loads(ok(kifu, "round", "cut", E, "--top", "4", "--json"))
    assert r3["tables"][0]["match"] == f"{E}-r3-t1-g1"
    # the round sheet: each table's five games, a token scoped to that table and round
    sheet = tmp_path / "r3.html"
    out = json.loads(ok(kifu, "round", "sheet", E, "3", "-o", str(sheet), "--json"))
    assert out["tables"][0]["games"] == [f"{E}-r3-t1-g{g}" for g in range(1, 6)]
    assert f"{E}-r3-t2-g5" in sheet.read_text(encoding="utf-8")
    # as of before the cut: no round 3, no bracket, places in Swiss order
    assert "has no round 3" in refused(kifu, "round", "show", E, "3", "--as-of", before)
    assert json.loads(ok(kifu, "event", "bracket", E, "--json", "--as-of", before))["seeds"] == []
    assert json.loads(ok(kifu, "event", "bracket", E, "--json"))["seeds"] == [
        {"seed": i, "player": p} for i, p in enumerate(order, 1)]
    # export and import into another store: the same log, the same fold
    log = tmp_path / "e.jsonl"
    ok(kifu, "event", "export", E, "-o", str(log))
    lines = [json.loads(x) for x in log.read_text(encoding="utf-8").splitlines()]
    assert lines[0]["event"]["cut_format"] == "bo5" and lines[-1]["type"] == "cut" and lines[-1]["top"] == 4
    other = str(tmp_path / "other.db")
    from recorder import tournament_service
    from recorder.store import Store
    s2 = Store(other)
    try:
        tournament_service.import_log(s2, str(log))
        assert tournament_service.export_lines(s2, E) == log.read_text(encoding="utf-8").splitlines()
        st = tournament_service.state(s2, E)
        assert st.cut == tuple(order) and st.cut_top == 4 and st.best_of_in(3) == 5 and st.playoff_rounds[0].method == "cut"
    finally:
        s2.close()


def test_a_bad_cut_line_is_refused_on_import(kifu, tmp_path: Path):
    swiss(kifu, EIGHT[:4], 1)
    ok(kifu, "round", "cut", E, "--top", "2")
    log = tmp_path / "e.jsonl"
    ok(kifu, "event", "export", E, "-o", str(log))
    text = log.read_text(encoding="utf-8").replace('"top": 2', '"top": "two"').replace(E, "別大会")
    log.write_text(text, encoding="utf-8")
    said = refused(kifu, "event", "import", str(log))
    assert ": top: missing or not an integer" in said


@pytest.mark.parametrize("fmt, games", [("bo5", 5), ("bo3", 3)])
def test_a_swiss_best_of_five_has_five_games_and_is_decided_at_three(kifu, fmt, games):
    ok(kifu, "event", "new", E, "--game", "mushijingi", "--rounds", "1", "--format", fmt, "--seed", "3")
    for p in EIGHT[:2]:
        ok(kifu, "event", "register", E, "--player", p)
    r = json.loads(ok(kifu, "round", "pair", E, "--json"))
    first = r["tables"][0]["players"][0]
    need = games // 2 + 1
    for g in range(1, need):
        concede(kifu, f"{E}-r1-t1-g{g}", "B")
    assert json.loads(ok(kifu, "standings", E, "--json"))["pending"]  # not decided one game short
    concede(kifu, f"{E}-r1-t1-g{need}", "B")
    assert json.loads(ok(kifu, "standings", E, "--json"))["pending"] == []
    rows = json.loads(ok(kifu, "standings", E, "--json"))["standings"]
    assert rows[0]["player"] == first and rows[0]["games"]["won"] == need and rows[0]["points"] == 3
    assert "is decided already" in refused(kifu, "round", "game", E, "--table", "1")


def test_a_playoff_tables_token_writes_to_its_table_and_round_only(kifu, db):
    """The round sheet's token of a playoff table: its games (the extra game too), not the
    other table's, not the Swiss's; revoked when the playoff round closes."""
    from recorder import tokens, tournament_service
    from recorder.store import Store

    swiss(kifu, EIGHT[:4], 1)
    ok(kifu, "round", "cut", E, "--top", "4")
    store = Store(db)
    try:
        secret, _ = tokens.issue_for_round(store, E, 2, "1")
        st = tournament_service.state(store, E)
        concede_line = {"type": "concede", "by": "A"}

        def header(table: str, game: int, rnd: int = 2) -> dict:
            seat = next(s for s in st.round(rnd).tables if s.table == table)
            return tournament_service.match_header(st, rnd, table, seat.players, game)

        grant = tokens.authorize(store, None, f"Bearer {secret}", header("1", 3), concede_line)
        assert grant.role == "scorekeeper"
        with pytest.raises(tokens.AuthError) as other:
            tokens.authorize(store, None, f"Bearer {secret}", header("2", 1), concede_line)
        assert "writes to table 1" in str(other.value)
        swiss_header = {**header("1", 1), "match": {**header("1", 1)["match"], "round": 1}}
        with pytest.raises(tokens.AuthError) as earlier:
            tokens.authorize(store, None, f"Bearer {secret}", swiss_header, concede_line)
        assert "of round 2 only, not round 1" in str(earlier.value)
    finally:
        store.close()
    for table in ("1", "2"):
        for g in (1, 2):
            concede(kifu, f"{E}-r2-t{table}-g{g}", "B")
    ok(kifu, "round", "close", E)
    store = Store(db)
    try:
        with pytest.raises(tokens.AuthError) as revoked:
            tokens.authorize(store, None, f"Bearer {secret}", header("1", 3), concede_line)
        assert "revoked" in str(revoked.value)
    finally:
        store.close()
