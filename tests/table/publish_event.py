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
