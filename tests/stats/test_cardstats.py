"""Card statistics (``projections.cardstats``, ``kifu stats --cards``): a small season counted
by hand, a seeded season of generated matches against the tests' own count from the logs,
and a hypothesis property of the SQL against a direct count."""

from __future__ import annotations

import json
from collections import defaultdict

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from projections import cardstats, readmodel, registry, stats
from projections.readmodel import ReadModel
from recorder.tools import synth
from tests.stats.test_stats_sql import matches as any_match

YAMADA = {"id": "A", "name": "山田", "deck": {"name": "緑組", "archetype": "緑",
                                              "cards": ["ノコギリクワガタ", "ノコギリクワガタ", "大嵐", "羽化"]}}
SATO = {"name": "佐藤", "deck": {"name": "紫組", "archetype": "紫", "cards": ["ノコギリクワガタ", "タガメ"]}}
TAKAHASHI = {"name": "高橋", "deck": {"name": "赤組", "archetype": "赤", "cards": ["タガメ", "大嵐"]}}


def _header(mid, a, b):
    return {"kifu": 1, "game": "mushijingi", "match": {"id": mid, "event": "例会", "date": "2026-11-02", "house_rules": {}},
            "players": [dict(a, id="A"), dict(b, id="B")], "first": "A"}


def _lines(*moves):
    return [dict(m, seq=i + 1) for i, m in enumerate(moves)]


def _play(by, card):
    return {"type": "play", "by": by, "card": card}


def _result(winner):
    return {"type": "result", "by": "judge", "winner": winner, "reason": "time"}


HAND_SEASON = [
    # c1: 山田 plays ノコギリクワガタ twice and wins; 佐藤 plays タガメ; 羽化 set into the feed is not played
    (_header("c1", YAMADA, SATO), _lines(
        {"type": "setup", "by": "A"}, {"type": "setup", "by": "B"}, _play("A", "ノコギリクワガタ"), _play("B", "タガメ"),
        _play("A", "ノコギリクワガタ"), {"type": "set", "by": "A", "card": "羽化"}, _result("A"))),
    # c2: 高橋 was recorded playing 大嵐, corrected to タガメ; 山田 plays a card not in his list; 高橋 wins
    (_header("c2", YAMADA, TAKAHASHI), _lines(
        {"type": "setup", "by": "A"}, {"type": "setup", "by": "B"}, _play("B", "大嵐"), _play("A", "オオスズメバチ"),
        {"type": "correct", "on": 3, "by": "記録係", "text": "記録ミス", "replace": [_play("B", "タガメ")]},
        _result("B"))),
    # c3: a draw; 佐藤 plays ノコギリクワガタ
    (_header("c3", SATO, TAKAHASHI), _lines(
        {"type": "setup", "by": "A"}, {"type": "setup", "by": "B"}, _play("A", "ノコギリクワガタ"), _result(None))),
    # c4: still playing: not counted
    (_header("c4", YAMADA, SATO), _lines({"type": "setup", "by": "A"}, _play("A", "大嵐"))),
]


def _model(store, tmp_path, season):
    for header, entries in season:
        store.create(header, entries)
    return readmodel.catch_up_store(store, str(tmp_path / "rm.db"))


def test_the_hand_season_counted_by_hand(store, tmp_path):
    rm = _model(store, tmp_path, HAND_SEASON)
    try:
        r = rm.card_report(stats.Filters(game="mushijingi"))
    finally:
        rm.close()
    cards = {c["card"]: c for c in r["cards"]}

    def rec(c):
        return c["games"], c["wins"], c["losses"], c["draws"], c["win_rate"]

    # ノコギリクワガタ: listed by c1 山田 (win), c1 佐藤 (loss), c2 山田 (loss), c3 佐藤 (draw); two copies count once
    k = cards["ノコギリクワガタ"]
    assert rec(k["included"]) == (4, 1, 2, 1, 0.375)
    assert k["decks"] == [{"name": "紫組", "lists": 2}, {"name": "緑組", "lists": 2}]
    # played in c1 by 山田 (twice, a win) and in c3 by 佐藤 (a draw)
    assert rec(k["played"]) == (2, 1, 0, 1, 0.75) and k["played"]["plays"] == 3
    assert rec(k["not_played"]) == (2, 0, 2, 0, 0.0)
    # タガメ: listed c1 佐藤 loss, c2 高橋 win, c3 佐藤 draw, c3 高橋 draw; played c1 (loss) and c2 (the correction)
    assert rec(cards["タガメ"]["included"]) == (4, 1, 1, 2, 0.5)
    assert rec(cards["タガメ"]["played"]) == (2, 1, 1, 0, 0.5)
    # 大嵐: listed c1 山田 win, c2 山田 loss, c2 高橋 win, c3 高橋 draw; never played once corrected (c4 unfinished)
    assert rec(cards["大嵐"]["included"]) == (4, 2, 1, 1, 0.625) and cards["大嵐"]["played"]["games"] == 0
    # 羽化 only set into the feed
    assert rec(cards["羽化"]["included"]) == (2, 1, 1, 0, 0.5) and cards["羽化"]["played"]["games"] == 0
    # オオスズメバチ: played without being in a list
    assert cards["オオスズメバチ"]["included"]["games"] == 0 and rec(cards["オオスズメバチ"]["played"]) == (1, 0, 1, 0, 0.0)
    low, high = stats.wilson(1.5, 4)
    assert (k["included"]["low"], k["included"]["high"]) == (round(low, 4), round(high, 4))
    assert [c["card"] for c in r["cards"]][:3] == ["タガメ", "ノコギリクワガタ", "大嵐"]  # most lists, most played, name
    # the kind as mushijingi's catalog gives it (through the opening board), a card off the list too
    assert {c["card"]: c["kind"] for c in r["cards"]} == {
        "タガメ": "insect", "ノコギリクワガタ": "insect", "大嵐": "spell", "羽化": "spell", "オオスズメバチ": "insect"}


def test_kinds_come_from_a_board_that_knows_them():
    class Board:
        def card(self, name):
            if name == "broken":
                raise KeyError(name)
            return type("Card", (), {"kind": "insect" if name == "タガメ" else ""})()

    header = {"game": "mushijingi", "players": [{"id": "A", "deck": {"cards": ["タガメ", "謎", "broken"]}}]}
    assert cardstats.match_cards(header, [], Board()) == [
        ("A", "タガメ", "insect", 1, 0), ("A", "謎", "card", 1, 0), ("A", "broken", "card", 1, 0)]
    assert cardstats.match_cards(header, [], object()) == [
        ("A", "タガメ", "card", 1, 0), ("A", "謎", "card", 1, 0), ("A", "broken", "card", 1, 0)]


def test_min_sample_hides_small_cards(store, tmp_path):
    rm = _model(store, tmp_path, HAND_SEASON)
    try:
        r = rm.card_report(stats.Filters(game="mushijingi"), min_sample=3)
        takahashi = rm.card_report(stats.Filters(game="mushijingi", player="高橋"))
    finally:
        rm.close()
    assert [c["card"] for c in r["cards"]] == ["タガメ", "ノコギリクワガタ", "大嵐"]
    assert r["hidden_cards"] == ["オオスズメバチ", "羽化"]
    # the player filter keeps 高橋's matches (c2, c3): both sides of them count
    assert {c["card"]: c["included"]["games"] for c in takahashi["cards"]} == {
        "タガメ": 3, "大嵐": 3, "ノコギリクワガタ": 2, "羽化": 1, "オオスズメバチ": 0}


@pytest.fixture(autouse=True)
def _no_remembered_names():
    """Each test reads card names afresh: what an earlier test named is not remembered."""
    cardstats._NAMES.clear()
    yield
    cardstats._NAMES.clear()


def test_card_names_are_remembered_per_label_and_the_memory_is_bounded(monkeypatch):
    monkeypatch.setattr(cardstats, "NAMES_KEPT", 3)
    assert [cardstats.card_name(x) for x in ("武具・羅#2", "ｲｽﾙｷﾞ", " ")] == ["武具・羅", "イスルギ", None]
    assert cardstats._NAMES == {"武具・羅#2": "武具・羅", "ｲｽﾙｷﾞ": "イスルギ", " ": None}
    assert cardstats.card_name("ｲｽﾙｷﾞ") == "イスルギ" and len(cardstats._NAMES) == 3  # asked again: the same
    assert cardstats.card_name("タガメ#1") == "タガメ"  # a fourth: the memory starts over
    assert cardstats._NAMES == {"タガメ#1": "タガメ"}


def test_every_move_of_a_step_counts_and_a_stranger_plays_nothing():
    header = {"game": "mushijingi", "players": [{"id": "A", "deck": {"cards": ["タガメ"]}},
                                                {"id": "B", "deck": {"cards": []}}]}
    steps = [
        [{"type": "draw", "by": "A"}, {"type": "play", "by": "A", "card": "タガメ"}],  # a replaced step: two moves
        [{"type": "play", "by": "Z", "card": "タガメ"}, {"type": "play", "by": "B", "card": "大嵐"}],
        [{"by": "A"}, {"type": ["play"], "by": "A", "card": "タガメ"}, {"type": "play", "card": "タガメ"},
         {"type": "play", "by": "A", "card": "タガメ#2"}],
    ]
    assert cardstats.match_cards(header, steps) == [("A", "タガメ", "card", 1, 2), ("B", "大嵐", "card", 0, 1)]


def test_an_effects_action_plays_a_card_only_when_it_summons():
    move = {"type": "effect", "by": "A", "card": "南月", "actions": [
        {"card": "マーキス"}, {"do": "move", "card": "ナイト"}, "マーキス", {"do": "summon", "card": "ルーク"}]}
    assert cardstats.played_names("variants-war", move) == ["マーキス", "ルーク"]  # no "do": a summon
    assert cardstats.played_names("gurren-lagann", {"type": "effect", "deployed": "グレンラガン"}) == []


def test_card_names_and_copies():
    assert cardstats.card_name("武具・羅#2") == "武具・羅"
    assert cardstats.card_name("ｲｽﾙｷﾞ") == "イスルギ"
    assert cardstats.card_name("#5") == "#5" and cardstats.card_name("A#b") == "A#b"
    assert cardstats.card_name(None) is None
    deck = {"cards": ["ギダン", "武具・羅", "武具・羅#2"], "evolution": ["ギダン・進化"], "kofuda": ["眼魔小札絵"]}
    assert cardstats.listed("gandice", deck) == {"ギダン": "die", "武具・羅": "die", "ギダン・進化": "die", "眼魔小札絵": "card"}
    assert cardstats.listed("mushijingi", deck) == {"ギダン": "card", "武具・羅": "card"}


@pytest.mark.parametrize("game, move, names", [
    ("gandice", {"type": "attack", "by": "A", "die": "ギダン", "target": "イスルギ"}, ["ギダン"]),
    ("gandice", {"type": "item", "by": "A", "item": "武具・羅#2"}, ["武具・羅"]),
    ("gandice", {"type": "item", "by": "A", "card": "眼魔小札絵"}, ["眼魔小札絵"]),
    ("gandice", {"type": "evolve", "by": "B", "die": "イスルギ", "into": "イスルギ・進化"}, ["イスルギ・進化"]),
    ("gandice", {"type": "fuse", "by": "A", "die": "武王", "partners": ["鰐蛇"]}, ["武王"]),
    ("gandice", {"type": "effect", "by": "B", "source": "呪術・笑童児", "effect": "裏切り"}, ["呪術・笑童児"]),
    ("gandice", {"type": "defend", "by": "B", "die": "イスルギ"}, []),
    ("mushijingi", {"type": "play", "by": "A", "card": "タガメ"}, ["タガメ"]),
    ("mushijingi", {"type": "set", "by": "A", "card": "羽化"}, []),
    ("mushijingi", {"type": "draw", "by": "A", "card": "タガメ"}, []),
    ("gurren-lagann", {"type": "deploy", "by": "A", "card": "ラガン", "square": "b1"}, ["ラガン"]),
    ("gurren-lagann", {"type": "skill", "by": "A", "card": None}, []),
    ("gurren-lagann", {"type": "effect", "by": "A", "card": "グレンラガン", "deployed": {"card": "グレンラガン"}},
     ["グレンラガン"]),
    ("variants-war", {"type": "magic", "by": "A", "card": "破天荒な風", "actions": []}, ["破天荒な風"]),
    ("variants-war", {"type": "effect", "by": "A", "card": "南月", "actions": [
        {"do": "summon", "card": "マーキス"}, {"do": "move", "from": "b1", "to": "b2"}]}, ["マーキス"]),
    ("variants-war", {"type": "draw", "by": "A", "card": "南月"}, []),
])
def test_which_moves_play_a_card(game, move, names):
    assert cardstats.played_names(game, move) == names


# -- a seeded season of generated matches, counted by the test's own reading of the logs ----------

# Which move fields name a card as played (docs/stats.md, restated here rather than imported).
PLAYS = {
    "gandice": [("attack", "die"), ("fuse", "die"), ("evolve", "into"), ("item", "item"), ("item", "card"),
                ("effect", "source")],
    "mushijingi": [("play", "card")],
}


def _plain(label):
    return label.split("#")[0] if isinstance(label, str) and label.split("#")[-1].isdigit() and "#" in label else label


def _own_count(store, rm, game):
    """{card: [included (W, L, D), played (W, L, D), plays]} from the stored logs."""
    rows = {m["id"]: m for m in rm.matches()}
    out: dict[str, list] = defaultdict(lambda: [[0, 0, 0], [0, 0, 0], 0])
    slot = {"win": 0, "loss": 1, "draw": 2}
    for mid, m in rows.items():
        if m["game"] != game or not m["finished"] or m["error"]:
            continue
        header, entries = store.load(mid)
        for p in header["players"]:
            outcome = next(r["outcome"] for r in m["results"] if r["player"] == p["id"])
            deck = p.get("deck") or {}
            names = set()
            for field in ("cards", "evolution", "kofuda") if game == "gandice" else ("cards",):
                names |= {_plain(c) for c in deck.get(field) or []}
            played: dict[str, int] = defaultdict(int)
            for e in entries:
                if e.get("by") != p["id"]:
                    continue
                for kind, field in PLAYS[game]:
                    if e["type"] == kind and isinstance(e.get(field), str):
                        played[_plain(e[field])] += 1
            for name in names:
                out[name][0][slot[outcome]] += 1
            for name, n in played.items():
                out[name][1][slot[outcome]] += 1
                out[name][2] += n
    return out


@pytest.mark.parametrize("game", ["gandice", "mushijingi"])
def test_a_seeded_season_equals_the_count_from_the_logs(store, tmp_path, game):
    ruleset = registry.get(game)
    for i in range(12):
        header, moves = synth.generate(ruleset, 34, i)
        header["match"]["date"] = f"2026-11-{1 + i:02d}"
        store.create(header, moves)
    rm = readmodel.catch_up_store(store, str(tmp_path / "rm.db"))
    try:
        report = rm.card_report(stats.Filters(game=game))
        expected = _own_count(store, rm, game)
    finally:
        rm.close()
    got = {c["card"]: [[c["included"][k] for k in ("wins", "losses", "draws")],
                       [c["played"][k] for k in ("wins", "losses", "draws")], c["played"]["plays"]]
           for c in report["cards"]}
    assert got == dict(expected)
    assert any(v[2] for v in got.values())  # the season has cards played, not only lists


# -- hypothesis: the SQL against a direct count ------------------------------------------------------

CARDS = ["タガメ", "大嵐", "ｶﾌﾞﾄﾑｼ", "カブトムシ", "Storm"]


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data(), game=st.sampled_from(["gandice", "mushijingi"]),
       event=st.sampled_from([None, "冬季大会"]), min_sample=st.integers(0, 3))
def test_card_report_equals_a_direct_count(tmp_path_factory, data, game, event, min_sample):
    rows, results = [], []
    for i in range(data.draw(st.integers(0, 15))):
        row, res = data.draw(any_match(i))
        row["cards"] = [(r["player"], cardstats.card_name(c), "card", listed, played)
                        for r in res
                        for c in data.draw(st.lists(st.sampled_from(CARDS), max_size=3, unique_by=cardstats.card_name))
                        for listed, played in [(data.draw(st.integers(0, 1)), data.draw(st.integers(0, 2)))]
                        if listed or played]
        rows.append(row)
        results += res
    f = stats.Filters(game=game, event=event)
    rm = ReadModel(str(tmp_path_factory.mktemp("rm") / "rm.db"))
    try:
        with rm.db.conn:
            rm._write(rows, results)
        got = rm.card_report(f, min_sample)
    finally:
        rm.close()
    by_id = {r["id"]: r for r in rows}
    kept = {m["id"] for m in stats.select([dict(r, results=[x for x in results if x["match_id"] == r["id"]])
                                           for r in rows], f)}
    direct: dict[str, dict[str, list[float]]] = defaultdict(lambda: {"in": [0, 0.0], "pl": [0, 0.0], "plays": [0, 0]})
    for mid in kept:
        row = by_id[mid]
        if not row["finished"] or row["error"]:
            continue
        outcome = {r["player"]: r["outcome"] for r in results if r["match_id"] == mid}
        for pid, card, _kind, listed, played in row["cards"]:
            point = {"win": 1.0, "draw": 0.5, "loss": 0.0}[outcome[pid]]
            if listed:
                direct[card]["in"][0] += 1
                direct[card]["in"][1] += point
            if played:
                direct[card]["pl"][0] += 1
                direct[card]["pl"][1] += point
                direct[card]["plays"][0] += played
    shown = {c: d for c, d in direct.items() if max(d["in"][0], d["pl"][0]) >= min_sample}
    assert {c["card"]: {"in": [c["included"]["games"], c["included"]["wins"] + c["included"]["draws"] / 2],
                        "pl": [c["played"]["games"], c["played"]["wins"] + c["played"]["draws"] / 2],
                        "plays": [c["played"]["plays"], 0]} for c in got["cards"]} == shown
    assert sorted(got["hidden_cards"]) == sorted(set(direct) - set(shown))
    assert json.loads(json.dumps(got, ensure_ascii=False)) == got


# -- a read model caught up line by line holds the cards a rebuild holds ------------------------------


def test_cards_caught_up_line_by_line_equal_a_rebuild(store, tmp_path):
    """Seeded mushijingi and gandice matches written a few lines at a time, with a catch-up
    after each few, and a correction that turns an early play into another card: the ``cards``
    rows and the report equal a rebuild's."""
    rm = ReadModel(str(tmp_path / "inc.db"))
    try:
        logs = [synth.generate(registry.get(g), 11, i) for g in ("mushijingi", "gandice") for i in range(3)]
        for header, _ in logs:
            store.create(header, [])
        rm.catch_up(store)
        for k, (header, moves) in enumerate(logs):
            mid = header["match"]["id"]
            plays = [m for m in moves if m["type"] in ("play", "attack")]
            for i, move in enumerate(moves):
                store.append(mid, {key: v for key, v in move.items() if key != "seq"})
                if i % (3 + k) == 0:
                    rm.catch_up(store, page=2 + k)
                if plays and move is plays[0] and k % 3 == 0:
                    # corrected right away into another card of that player, then a judge ends the match
                    other = ({"type": "play", "by": move["by"], "card": "大嵐"} if move["type"] == "play"
                             else dict(move, die="美雅羅"))
                    store.append(mid, {"type": "correct", "by": "記録係", "on": move["seq"], "text": "記録ミス",
                                       "replace": [{key: v for key, v in other.items() if key != "seq"}]})
                    store.append(mid, {"type": "result", "by": "judge", "winner": move["by"], "reason": "time"})
                    break
        rm.catch_up(store, page=3)
        with readmodel.rebuild(store, str(tmp_path / "fresh.db")) as fresh:
            query = "select * from cards order by 1, 2, 3, 4, 5, 6, 7, 8, 9, 10"
            rows = rm.db.execute(query).fetchall()
            assert rows and rows == fresh.db.execute(query).fetchall()
            for game in ("mushijingi", "gandice"):
                f = stats.Filters(game=game)
                assert rm.card_report(f) == fresh.card_report(f)
            assert rm.db.execute("select count(*) from cards where played > 0").fetchone()[0] > 0
            # the correction counts: the first mushijingi match played 大嵐, not the card first recorded
            corrected = logs[0][0]["match"]["id"]
            first = next(m for m in logs[0][1] if m["type"] == "play")
            played = dict(rm.db.execute("select card, played from cards where match_id = ? and player = ?",
                                        [corrected, first["by"]]).fetchall())
            assert played["大嵐"] == 1 and played.get(first["card"], 0) == 0
    finally:
        rm.close()
