"""A small finished event for ``kifu event publish`` (tests/table/test_publish.py): 4 players of
蟲神器 with 20-card lists, two rounds of best of one, a warning at round 1 table 2; round 1
closed but round 2 table 2 is still playing; ``one_more`` finishes it (上田 concedes): then 青木,
who won both rounds, is the winner."""

from __future__ import annotations

from pathlib import Path

from tests.table.event_site import SETUP, csv_file

EVENT = "夏季大会"
GREEN = ["ヘラクレスオオカブト", "ヘラクレスオオカブト", "カブトムシ", "カブトムシ", "オオカマキリ", "オオカマキリ",
         "ナナホシテントウ", "ナナホシテントウ", "ノコギリクワガタ", "ノコギリクワガタ", "ミヤマクワガタ", "ミヤマクワガタ",
         "鋼の大顎", "鋼の大顎", "硬い外骨格", "硬い外骨格", "闘志", "闘志", "羽化", "羽化"]
PURPLE = ["オオスズメバチ", "オオスズメバチ", "アシダカグモ", "アシダカグモ", "タガメ", "タガメ", "ゲンジボタル", "ゲンジボタル",
          "ノコギリクワガタ", "ノコギリクワガタ", "ミヤマクワガタ", "カブトムシ", "紅の紋様", "紅の紋様", "紫の紋様", "紫の紋様",
          "樹液の罠", "樹液の罠", "大嵐", "大嵐"]
DECKS = {"青木": ("緑カブト組", "緑", GREEN), "井上": ("紫タガメ組", "紫", PURPLE),
         "上田": ("緑カブト組", "緑", GREEN), "江口": ("紫タガメ組", "紫", PURPLE)}
ROUND1 = [("1", "青木", "井上", "B"), ("2", "上田", "江口", "A")]  # the seat that concedes
ROUND2 = [("1", "青木", "江口", "B"), ("2", "井上", "上田", "B")]


def build(db: str, folder: Path, lists: str = "open") -> None:
    """The event; ``lists="closed"`` keeps its deck lists closed (where kifu has closed lists)."""
    import inspect

    from recorder import service, tournament_service
    from recorder.store import Store

    store = Store(db)
    closed_lists = "lists" in inspect.signature(tournament_service.open_event).parameters
    tournament_service.open_event(store, EVENT, "mushijingi", 2, round_minutes=50, seed=7,
                                  **({"lists": lists} if closed_lists else {}))
    for name, (deck, arch, cards) in DECKS.items():
        tournament_service.register(store, EVENT, name, {"name": deck, "archetype": arch, "cards": list(cards)})
    for n, tables in ((1, ROUND1), (2, ROUND2)):
        tournament_service.import_pairing(store, EVENT, csv_file(folder, f"r{n}.csv", [tuple(t[:3]) for t in tables]))
        for table, _, _, loser in tables:
            mid = f"{EVENT}-r{n}-t{table}"
            service.record(store, mid, SETUP)
            if (n, table) == (1, "2"):
                service.record(store, mid, {"type": "penalty", "player": "A", "by": "主審", "infraction": "遅刻",
                                            "penalty": "warning", "text": "5分遅刻"})
            if (n, table) != (2, "2"):
                service.record(store, mid, {"type": "concede", "by": loser})
        if n == 1:
            tournament_service.close(store, EVENT)
    store.close()


def one_more(db: str) -> None:
    """The last match of round 2 ends: 上田 (seat B) concedes."""
    from recorder import service
    from recorder.store import Store

    store = Store(db)
    service.record(store, f"{EVENT}-r2-t2", {"type": "concede", "by": "B"})
    store.close()


# -- an event with a top 4 (``build_cut``) ------------------------------------------------------
#
# Six players, two Swiss rounds of best of one, then a top 4 (best of three) played out:
#   round 1: 青木 beats 江口, 上田 beats 加藤, 井上 beats 大野
#   round 2: 青木 beats 井上, 上田 beats 江口, 大野 beats 加藤
# Swiss: 青木 and 上田 2-0 (青木 first on OMW: 5/12 against 1/3), 井上 and 大野 1-1 (井上 first:
# 3/4 against 5/12), 江口 and 加藤 0-2. The cut: 1 青木 v 4 大野 (大野 wins 2-0), 2 上田 v 3 井上
# (上田 wins 2-0); the final 上田 v 大野 (上田 wins 2-1): 上田 is the champion.
# Conversion into the cut, counted by hand: 緑 3 entries (青木, 上田, 加藤), 2 in the cut;
# 紫 2 (井上, 江口), 1; 赤 1 (大野), 1.

CUT_EVENT = "決勝大会"
RED = GREEN  # another archetype's name over the same (legal) cards
CUT_DECKS = {"青木": ("緑カブト組", "緑", GREEN), "井上": ("紫タガメ組", "紫", PURPLE), "上田": ("緑カブト組", "緑", GREEN),
             "江口": ("紫タガメ組", "紫", PURPLE), "大野": ("赤カブト組", "赤", RED), "加藤": ("緑カブト組", "緑", GREEN)}
CUT_ROUNDS = {1: [("1", "青木", "江口", "B"), ("2", "上田", "加藤", "B"), ("3", "井上", "大野", "B")],
              2: [("1", "青木", "井上", "B"), ("2", "上田", "江口", "B"), ("3", "大野", "加藤", "B")]}
CUT_SEEDS = ["青木", "上田", "井上", "大野"]
CONVERSION = {"緑": (3, 2), "紫": (2, 1), "赤": (1, 1)}  # archetype: (entries, in the cut)
CHAMPION = "上田"


def build_cut(db: str, folder: Path) -> None:
    """The event with a top 4 above, every match played and every round closed."""
    from projections import tournament_rows
    from recorder import service, topcut, tournament_service
    from recorder.store import Store

    store = Store(db)
    try:
        tournament_service.open_event(store, CUT_EVENT, "mushijingi", 2, round_minutes=50, seed=7, lists="open")
        for name, (deck, arch, cards) in CUT_DECKS.items():
            tournament_service.register(store, CUT_EVENT, name, {"name": deck, "archetype": arch, "cards": list(cards)})
        for n, tables in CUT_ROUNDS.items():
            tournament_service.import_pairing(store, CUT_EVENT,
                                              csv_file(folder, f"cut-r{n}.csv", [tuple(t[:3]) for t in tables]))
            for table, _, _, loser in tables:
                mid = f"{CUT_EVENT}-r{n}-t{table}"
                service.record(store, mid, SETUP)
                service.record(store, mid, {"type": "concede", "by": loser})
            tournament_service.close(store, CUT_EVENT)
        cut = topcut.cut(store, CUT_EVENT, 4, tournament_rows.event_games(store, CUT_EVENT))
        assert list(cut["seeds"]) == CUT_SEEDS, cut["seeds"]
        for g in (1, 2):
            service.record(store, f"{CUT_EVENT}-r3-t1-g{g}", {"type": "concede", "by": "A"})  # 大野 beats 青木
            service.record(store, f"{CUT_EVENT}-r3-t2-g{g}", {"type": "concede", "by": "B"})  # 上田 beats 井上
        tournament_service.close(store, CUT_EVENT)
        final = tournament_service.pair(store, CUT_EVENT, tournament_rows.event_games(store, CUT_EVENT))
        assert [t["players"] for t in final["tables"]] == [["上田", "大野"]], final
        for g, loser in ((1, "B"), (2, "A"), (3, "B")):  # each game two steps: the set-up, a concession
            service.record(store, f"{CUT_EVENT}-r4-t1-g{g}", SETUP)
            service.record(store, f"{CUT_EVENT}-r4-t1-g{g}", {"type": "concede", "by": loser})
        tournament_service.close(store, CUT_EVENT)
    finally:
        store.close()
