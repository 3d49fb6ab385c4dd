"""Builds examples/variants-war-example.jsonl and variants-war-disputed.jsonl from one scripted
match, checking every move against the ruleset's defaults as it goes.

    .venv/bin/python -m tests.variants_war.build_examples          # check only
    .venv/bin/python -m tests.variants_war.build_examples --write  # and write both files

The match: a draft, アルクトスXII appears on turn 2 and is destroyed on turn 15, グランデューク
comes through デューク's normal effect, a lateral-move effect, a magic card that wins a battle,
and a breakthrough that ends the match. Each turn uses at most one move, one normal effect and
one position change (VW-5.1, 5.4, 5.6). ``--write`` then ``python -m tests.golden_tool --write``.
"""

from __future__ import annotations

import json
import sys
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from projections.variants_war import RULESET as RS

ROOT = Path(__file__).resolve().parents[2]
SHI, SAI, NAN, HOJ, GEN = ("ヴァリアンツの巫女－東雲", "ヴァリアンツの弓引－西園", "ヴァリアンツの忍者－南月",
                           "ヴァリアンツの武者－北条", "ヴァリアンツの聚－幻中")
BAR, VAI, MAR, DUK, GD = ("ヴァリアンツＢ－バロン", "ヴァリアンツＶ－ヴァイカント", "ヴァリアンツＭ－マーキス",
                          "ヴァリアンツＤ－デューク", "ヴァリアンツＧ－グランデューク")
DORA, GOLD, RAIS, EEL = "銅鑼ドラゴン", "メタルフォーゼ・ゴルドライバー", "召喚師ライズベルト", "EMシール・イール"
REP, SHUL, GIGA, BAND = "レプティアの武者騎兵", "シュルブの魔導騎兵", "ダイカミナリ・ジャイクロプス", "バンドラの宝具箱"
WIND = "破天荒な風"


def header(match_id: str, title: str) -> dict[str, Any]:
    return {
        "kifu": 1, "game": "variants-war",
        "match": {"id": match_id, "title": title, "event": "ヴァリアンツ＝ウォー 始まりの地カップ", "round": 1,
                  "table": "1", "date": "2026-11-29", "house_rules": {}},
        "rules": "variants-war/2",
        "players": [
            {"id": "A", "name": "山田", "deck": {"name": "森羅万象 専用デッキ", "archetype": "森羅万象",
                                                "cards": [SHI, SAI, NAN, HOJ, GEN]}},
            {"id": "B", "name": "佐藤", "deck": {"name": "百識公国 専用デッキ", "archetype": "百識公国",
                                                "cards": [BAR, VAI, MAR, DUK, GD]}},
        ],
        "first": "A",
    }


def mv(type_: str, by: str, **fields: Any) -> dict[str, Any]:
    return {"type": type_, "by": by, **{k.rstrip("_"): v for k, v in fields.items()}}


def note(text: str, symbol: str | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "annotate", "by": "解説", "text": text}
    if symbol:
        out["symbol"] = symbol
    return out


def draw(by: str, card: str | None) -> dict[str, Any]:
    return mv("draw", by, card=card)


def step(by: str, src: str, dst: str) -> dict[str, Any]:
    return mv("move", by, from_=src, to=dst)


def end(by: str) -> dict[str, Any]:
    return mv("end_turn", by)


SCRIPT: list[dict[str, Any]] = [
    mv("draft", "B", card=DORA),
    note("ジャンケンに勝った佐藤が先に指名。守備2100の銅鑼ドラゴンは横向きで壁になる。"),
    mv("draft", "A", card=REP), mv("draft", "B", card=GOLD), mv("draft", "A", card=SHUL),
    mv("draft", "B", card=RAIS), mv("draft", "A", card=GIGA), mv("draft", "B", card=EEL), mv("draft", "A", card=BAND),
    note("ドラフト終了: 山田は レプティア/シュルブ/ジャイクロプス/バンドラ、佐藤は 銅鑼/ゴルドライバー/ライズベルト/シール・イール。"),
    draw("A", NAN), draw("A", None),
    note("記録係からは山田の2枚目の初期手札が見えない（card: null）。枚数は正確に2枚。"),
    draw("B", DUK), draw("B", BAR),
    # turn 1 (A)
    draw("A", SAI), mv("set", "A", card=NAN, to="b0"), step("A", "b0", "b1"), end("A"),
    # turn 2 (B)
    draw("B", VAI), mv("set", "B", card=DUK, to="d4"), step("B", "d4", "d3"),
    mv("master", "B", dice=[4, 8]),
    note("マスターフェイズで合計12！ 盤面中央 c2 に針淵のヴァリアンツ－アルクトスXIIが佐藤の方を向いて出現、周囲8マスがロックオン。", "!!"),
    end("B"),
    # turn 3 (A)
    draw("A", HOJ), mv("reveal", "A", card=REP),
    note("伏せていた初期手札はレプティアの武者騎兵と判明。"),
    mv("set", "A", card=SAI, to="d0"), mv("position", "A", square="b1"), step("A", "b1", "a1"),
    note("南月を横向き（守備表示）にしてから左へ。表示形式の変更と移動は、同じモンスターに一回ずつ使える。"),
    mv("master", "A", dice=[2, 6]),
    note("アルクトスが出現したターンから数えて2ターン（2・3ターン目）が終了: ロックオンマス2(c1)と6(c3)は空で被害なし。"),
    end("A"),
    # turn 4 (B)
    draw("B", None), mv("set", "B", card=BAR, to="b4"), step("B", "b4", "b3"),
    mv("effect", "B", card=DUK, square="d3", kind="normal",
       actions=[{"do": "to_deck", "square": "d3"}, {"do": "to_deck", "square": "b3"},
                {"do": "summon", "card": GD, "to": "d3"}]),
    note("デュークの通常効果: デューク自身とバロン（どちらも「ヴァリアンツ」）を戦場ゾーンからデッキに戻し、"
         "デュークのいた d3 に切り札《ヴァリアンツＧ－グランデューク》を呼び出す。", "!"),
    mv("effect", "B", card=GD, square="d3", kind="special",
       actions=[{"do": "destroy", "square": "d0"},
                {"do": "modify", "square": "d3", "stat": "atk", "op": "add", "amount": 550, "until": "permanent"},
                {"do": "lose_life", "player": "A", "amount": 1}]),
    note("特殊効果: 山田の出撃ゾーンの西園(攻1100)を破壊し、その半分550だけ攻撃力アップ(3050)。山田のライフ3→2。"),
    end("B"),
    # turn 5 (A)
    draw("A", SHI), mv("set", "A", card=HOJ, to="d0"), step("A", "a1", "b1"),
    mv("effect", "A", card=NAN, square="b1", kind="lateral", actions=[{"do": "move", "from": "d0", "to": "d1"}]),
    note("守備表示の南月が横移動 → 横移動効果で出撃ゾーンの北条を正面の d1 に出撃させる（効果による出撃は行動権を使わない）。"),
    mv("master", "A", dice=[1, 1]),
    note("ロックオンマス1(b1)の南月が破壊され、その攻撃力1800がアルクトスに蓄積。ゾロ目は1体だけ。"),
    end("A"),
    # turn 6 (B)
    draw("B", DORA), mv("reveal", "B", card=MAR), mv("set", "B", card=VAI, to="b4"), step("B", "d3", "d2"),
    mv("battle", "B", squares=["d1", "d2"], destroyed=["d1"]),
    note("縦の接触: グランデューク攻3050 対 北条攻1900。北条は破壊され山田のデッキの一番下へ（真下 d0 は出撃ゾーンなので撤退不可）。"),
    end("B"),
    # turn 7 (A)
    draw("A", None), mv("set", "A", card=SHI, to="b0"), step("A", "b0", "b1"),
    mv("effect", "A", card=SHI, square="b1", kind="normal", actions=[{"do": "draw", "pile": "magic", "card": WIND}]),
    note("東雲の通常効果で魔法デッキから1枚: 破天荒な風。"),
    mv("master", "A", dice=[3, 6]),
    note("ロックオンマス3(d1)と6(c3)は空。グランデュークの d2 はロックオンマス4で、難を逃れた。"),
    end("A"),
    # turn 8 (B)
    draw("B", None), mv("set", "B", card=MAR, to="d4"), step("B", "d2", "d1"),
    mv("breakthrough", "B", squares=["d1"]),
    note("グランデュークが山田の自陣戦場 d1 に到達: 破壊と引き換えに1点。山田ライフ2→1。切り札は二度と戻らない。", "!"),
    end("B"),
    # turn 9 (A)
    draw("A", GIGA), mv("set", "A", card=REP, to="b0"), step("A", "b1", "b2"),
    note("移動の行動権は1ターンに1回。東雲を前に出したので、レプティアは出撃ゾーンで待機。"),
    mv("master", "A", dice=[7, 3]),
    note("ロックオンマス7(b3)と3(d1)は空で被害なし。"),
    end("A"),
    # turn 10 (B)
    draw("B", GOLD), step("B", "b4", "b3"),
    mv("battle", "B", squares=["b2", "b3"], destroyed=["b2"]),
    note("出撃ゾーンが2つとも埋まっているので佐藤はセットできない。ヴァイカント攻1400 対 東雲攻500: 東雲が破壊される。"),
    end("B"),
    # turn 11 (A)
    draw("A", SHUL), mv("reveal", "A", card=BAND),
    note("山田の伏せ札（7ターン目のドロー）はバンドラの宝具箱と判明。"),
    mv("set", "A", card=SHUL, to="d0"), step("A", "b0", "b1"),
    mv("master", "A", dice=[7, 6]),
    note("ロックオンマス7(b3)のヴァイカント(攻1400)が破壊され、アルクトスのダメージ3200。"),
    end("A"),
    # turn 12 (B)
    draw("B", None), mv("set", "B", card=DORA, to="b4"), step("B", "b4", "b3"), mv("position", "B", square="b3"),
    note("銅鑼ドラゴンを横向き（守備表示）に。縦に接する相手には長辺＝守備力2100で戦う。"),
    end("B"),
    # turn 13 (A)
    draw("A", None),
    mv("magic", "A", card=WIND,
       actions=[{"do": "modify", "square": "b1", "stat": "both", "op": "add", "amount": 1000, "until": "turn_end"}]),
    note("スタンバイフェイズに魔法カード: レプティアの攻撃力・守備力をこのターンだけ1000アップ（攻2800）。使った魔法は魔法デッキの一番下へ。"),
    mv("set", "A", card=BAND, to="b0"), step("A", "b1", "b2"),
    mv("battle", "A", squares=["b2", "b3"], destroyed=["b3"]),
    note("攻2800 対 守2100。破天荒な風がなければ1800で負けていた。", "!"),
    mv("master", "A", dice=[2, 4]),
    note("ロックオンマス2(c1)と4(d2)は空。8(b2)のレプティアは助かった。"),
    end("A"),
    # turn 14 (B)
    draw("B", DUK),
    note("山札の上は破壊・デッキ戻しで一番下に送られた既知のカード: デューク。"),
    mv("set", "B", card=GOLD, to="b4"), step("B", "d4", "d3"), end("B"),
    # turn 15 (A)
    draw("A", None), step("A", "d0", "d1"),
    mv("master", "A", dice=[8, 5]),
    note("ロックオン8(b2)のレプティア1800と5(d3)のマーキス1700が破壊され、ダメージ6700。6000を超えてアルクトスXIIは破壊、"
         "以後マスターフェイズはスキップ。", "!!"),
    end("A"),
    # turn 16 (B)
    draw("B", BAR), mv("set", "B", card=DUK, to="d4"), step("B", "b4", "b3"), end("B"),
    # turn 17 (A)
    draw("A", None), step("A", "d1", "d2"), end("A"),
    # turn 18 (B)
    draw("B", VAI), step("B", "d4", "d3"),
    mv("battle", "B", squares=["d2", "d3"], destroyed=["d2"]),
    note("デューク攻2000 対 シュルブ攻1500: シュルブが破壊される。"),
    end("B"),
    # turn 19 (A)
    draw("A", None), step("A", "b0", "b1"), end("A"),
    # turn 20 (B)
    draw("B", DORA), step("B", "b3", "b2"),
    mv("battle", "B", squares=["b1", "b2"], destroyed=["b1"]),
    note("ゴルドライバー攻1900 対 バンドラ攻300: バンドラが破壊される。"),
    end("B"),
    # turn 21 (A)
    draw("A", None), end("A"),
    # turn 22 (B)
    draw("B", MAR), step("B", "b2", "b1"),
    mv("breakthrough", "B", squares=["b1"]),
    note("ゴルドライバーが山田の自陣戦場 b1 に到達。山田のライフ1→0で佐藤の勝利（reason: life）。", "!"),
]


def lines(script: list[dict[str, Any]], timed: bool) -> list[dict[str, Any]]:
    """The script with seq, ``on`` for each note (the line before it) and, if ``timed``, the
    recorded time: 15 seconds a line from 16:44:45 JST."""
    start = datetime.fromisoformat("2026-11-29T16:44:45+09:00")
    out: list[dict[str, Any]] = []
    last = 0
    for seq, item in enumerate(script, 1):
        if item["type"] == "annotate":
            line = {"seq": seq, "type": "annotate", "on": last, **{k: v for k, v in item.items() if k != "type"}}
        else:
            line = {"seq": seq, **item}
            last = seq
        if timed:
            line["at"] = (start + timedelta(seconds=15 * seq)).isoformat()
        out.append(line)
    return out


def checked(head: dict[str, Any], events: list[dict[str, Any]]) -> list[str]:
    """Every problem the ruleset finds with the match (none, for a shipped example)."""
    problems = [str(e) for e in RS.validate_header(head)]
    board = RS.initial_board(head)
    for e in events:
        if e["type"] == "annotate":
            continue
        problems += [f"{e['seq']}: {e['type']}: {err}" for err in RS.validate_move(e)]
        problems += [f"{v.seq}: {v.rule}: {v.message}" for v in RS.check(board, e)]
        board = RS.apply(board, e)
    result = RS.result(board)
    if result is None or result.winner != "B":
        problems.append(f"the match should end with B winning, not {result}")
    return problems


def build() -> dict[str, list[dict[str, Any]]]:
    plain = lines(SCRIPT, timed=False)
    timed = lines(SCRIPT, timed=True)
    final = timed[-2]["seq"]  # the last breakthrough
    at = datetime.fromisoformat(timed[-1]["at"])
    dispute = {"seq": len(timed) + 1, "type": "dispute", "by": "A", "on": final,
               "claim": "ゴルドライバーは守備表示で、突破できない", "rule": "VW-6.5",
               "at": (at + timedelta(minutes=2)).isoformat()}
    ruling = {"seq": len(timed) + 2, "type": "ruling", "by": "フロアジャッジ 田中", "dispute": len(timed) + 1,
              "decision": "upheld", "level": "floor", "rule": "VW-6.5",
              "text": "ゴルドライバーは攻撃表示のまま b1 に到達しており、突破は有効。",
              "at": (at + timedelta(minutes=6)).isoformat()}
    return {
        "variants-war-example.jsonl": [header("vw-example-1", "森羅万象 vs 百識公国 — 解説付き"), *plain],
        "variants-war-disputed.jsonl": [header("vw-example-1-disputed", "ヴァリアンツ・ウォー 例: 突破への異議 (棄却)"),
                                        *timed, dispute, ruling],
    }


def main(argv: list[str]) -> int:
    files = build()
    events = files["variants-war-example.jsonl"]
    problems = checked(events[0], events[1:])
    for p in problems:
        print(p)
    if problems:
        return 1
    if "--write" in argv:
        for name, rows in files.items():
            text = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows)
            (ROOT / "examples" / name).write_text(text, encoding="utf-8")
            print(f"wrote examples/{name}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
