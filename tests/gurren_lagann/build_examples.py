"""Regenerates examples/gurren-lagann-*.jsonl (run: .venv/bin/python tests/gurren_lagann/build_examples.py).

Every move is checked on the way: the script stops at the first violation.
"""

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from projections.gurren_lagann import RULESET as R  # noqa: E402 - after the sys.path line
from projections.gurren_lagann.catalog import load  # noqa: E402

decks = load().decks


def header(mid, title, house=None):
    return {
        "kifu": 1,
        "game": "gurren-lagann",
        "match": {
            "id": mid,
            "title": title,
            "event": "kifu サンプル杯",
            "round": 1,
            "table": "1",
            "date": "2026-11-29",
            "house_rules": house or {},
        },
        "rules": "gurren-lagann/2",
        "players": [
            {
                "id": "A",
                "name": "シモン使い",
                "deck": {
                    "name": "大グレン団",
                    "archetype": "大グレン団",
                    "cards": decks["大グレン団"]["cards"],
                    "stock": decks["大グレン団"]["stock"],
                },
            },
            {
                "id": "B",
                "name": "ヴィラル使い",
                "deck": {
                    "name": "獣人軍",
                    "archetype": "獣人",
                    "cards": decks["獣人軍"]["cards"],
                    "stock": decks["獣人軍"]["stock"],
                },
            },
        ],
        "first": "A",
    }


def build(h, items, path, allow=()):
    assert not R.validate_header(h), R.validate_header(h)
    b = R.initial_board(h)
    out = [h]
    seq = 0
    for _idx, it in enumerate(items):
        if isinstance(it, str):  # annotation on the previous move
            seq += 1
            out.append({"seq": seq, "type": "annotate", "on": seq - 1, "by": "解説", "text": it})
            continue
        if R.result(b) is not None:
            break
        if callable(it):
            it = it(b)
        seq += 1
        m = {"seq": seq, **it}
        assert not R.validate_move(m), (m, R.validate_move(m))
        v = R.check(b, m)
        if v and seq not in allow:
            print(R.render_text(b))
            raise SystemExit(f"{m}: {v}")
        out.append(m)
        b = R.apply(b, m)
    print(path, seq, R.result(b))
    with open(path, "w", encoding="utf-8") as f:
        f.writelines(json.dumps(line, ensure_ascii=False) + "\n" for line in out)
    return b


def D(by, cards=None):
    return (
        {"type": "draw", "by": by, "cards": cards}
        if cards
        else {"type": "draw", "by": by, "count": 1}
    )


def E(by, disc=()):
    return {"type": "end_turn", "by": by, "discarded": list(disc)}


def MV(by, figs, *path):
    return {"type": "move", "by": by, "figures": list(figs), "path": list(path)}


def DP(by, card, sq):
    return {"type": "deploy", "by": by, "card": card, "square": sq}


def end_of(p):
    def f(b):
        hand = next(x for x in b.sides if x.id == p).hand
        return E(p, [None] * max(len(hand) - 6, 0))

    return f


A, B = "A", "B"
main = [
    {
        "type": "reveal",
        "by": A,
        "cards": ["グレン", "ラガン", "カミナ", "ドリル一閃", "グレンブーメラン", "ダヤッカイザー"],
    },
    "記録係は A の側に座っている。A の開始手札 6 枚は公開、B の手札は不明 (null) のまま枚数だけ数える。",
    DP(A, "ラガン", "b1"),
    DP(A, "グレン", "d1"),
    "先攻 1 ターン目はドローなし、出陣は 2 体まで (GL-3.4, GL-3.5)。出陣したフィギュアは行動完了 (召喚酔い GL-4.4)。",
    E(A),
    D(B),
    DP(B, "エンキ", "d6"),
    DP(B, "ガンメン", "b6"),
    E(B),
    "B の出陣したカードは手札の不明カードから取り出される: 枚数は正確なまま。",
    D(A, ["グレンラガン"]),
    MV(A, ["ラガン"], "b1", "b2", "c2"),
    MV(A, ["グレン"], "d1", "d2", "c2"),
    "ラガン (1 コマ) とグレン (4 コマ) が c2 に集まる: 6 コマ以内 (GL-6.4)。",
    {"type": "equip", "by": A, "card": "グレンブーメラン", "target": "グレン"},
    {"type": "support", "by": A, "card": "カミナ", "target": "グレン"},
    E(A),
    D(B),
    MV(B, ["エンキ"], "d6", "d5", "d4"),
    MV(B, ["ガンメン"], "b6", "b5", "b4"),
    DP(B, "ビャコウ", "c6"),
    {"type": "support", "by": B, "card": "ヴィラル", "target": "エンキ"},
    E(B),
    D(A, ["ギガドリル"]),
    {
        "type": "effect",
        "by": A,
        "card": "グレンラガン",
        "text": "合体: ラガンとグレンをストックに戻し、c2 にグレンラガンを出陣",
        "destroyed": ["A:ラガン", "A:グレン"],
        "deployed": {"card": "グレンラガン", "square": "c2"},
    },
    "合体はカードテキストなので effect として記録する。グレンに付いていたカミナとグレンブーメランは捨札へ、フィギュアはストックへ。",
    DP(A, "ダヤッカイザー", "b1"),
    E(A),
    D(B),
    MV(B, ["エンキ"], "d4", "d3"),
    MV(B, ["ガンメン"], "b4", "b3", "b2"),
    {"type": "skill", "by": B, "card": None, "set": True},
    "B は伏せたカードを 1 枚セット: 記録係には見えないので card は null。",
    E(B),
    "ターン終了: スキル置き場のスキルカードはセットした【罠】も含めてすべて捨て札 (GL-3.6)。伏せたままなので捨札にも null。",
    D(A),
    {"type": "equip", "by": A, "card": "ギガドリル", "target": "グレンラガン"},
    MV(A, ["グレンラガン"], "c2", "c3", "d3"),
    "グレンラガン (6+3=9) がエンキの部隊 (4+1=5) に突入: バトル開始。",
    {"type": "skill", "by": A, "card": "ドリル一閃", "user": "グレンラガン"},
    {"type": "skill", "by": B, "card": "獣人の誇り", "user": "エンキ"},
    "防御側 B は【戦闘】スキル獣人の誇り (スキル条件 1、エンキ+ヴィラルのスキル 2) で防御側パワー +2。",
    {"type": "battle", "by": A, "attack": 10, "defend": 7, "outcome": "attacker"},
    "攻撃側の勝利: エンキはストックへ、ヴィラルと共に捨札。グレンラガンは d3 に進む (GL-7.6)。",
    MV(A, ["ダヤッカイザー"], "b1", "b2"),
    {"type": "battle", "by": A, "attack": 2, "defend": 1},
    E(A),
    D(B),
    DP(B, "エンキ", "d6"),
    MV(B, ["ビャコウ"], "c6", "c5", "c4"),
    E(B),
    D(A),
    MV(A, ["グレンラガン"], "d3", "d4", "d5"),
    MV(A, ["ダヤッカイザー"], "b2", "b3", "b4"),
    E(A),
    D(B),
    MV(B, ["ビャコウ"], "c4", "b4"),
    {"type": "battle", "by": B, "attack": 3, "defend": 2},
    "ビャコウ 3 対ダヤッカイザー 2: 防御側が敗北。",
    E(B),
    D(A),
    MV(A, ["グレンラガン"], "d5", "d6"),
    {"type": "battle", "by": A, "attack": 9, "defend": 4},
    "勝ったグレンラガンは B の出陣ゾーン d6 に進み、1 ダメージ (GL-6.8)。",
    E(A),
    D(B),
    MV(B, ["ビャコウ"], "b4", "b3", "b2"),
    E(B),
    D(A),
    MV(A, ["グレンラガン"], "d6", "c6"),
    "本陣 c6 への侵入は 2 ダメージ。B のダメージ 3。",
    E(A),
    D(B),
    MV(B, ["ビャコウ"], "b2", "b1"),
    "B のビャコウが A の出陣ゾーンへ: A に 1 ダメージ。",
    end_of(B),
    D(A),
    MV(A, ["グレンラガン"], "c6", "b6"),
    "出陣ゾーンの中での移動は侵入ではない: ダメージなし (GL-6.8)。B のダメージは 3 のまま。",
    E(A),
    D(B),
    MV(B, ["ビャコウ"], "b1", "c1"),
    "ビャコウが A の出陣ゾーンから本陣 c1 へ侵入: A のダメージ 3。",
    end_of(B),
    "B の手札 7 枚: ターン終了時に 1 枚捨てて 6 枚に (GL-3.6)。記録係には見えないカードなので null。",
    D(A),
    MV(A, ["グレンラガン"], "b6", "c6"),
    "グレンラガンが再び本陣へ侵入: B のダメージ 5、5 ダメージ以上で A の勝利 (GL-11.1)。",
]
b = build(
    header("gl-sample-2026", "グレンラガン サンプル対局"),
    main,
    str(ROOT / "examples" / "gurren-lagann-example.jsonl"),
)
print(R.render_text(b))


def disputed(example, path):
    """The main example as recorded live (times on every line), with the last move disputed
    and overturned: the figure went to b5, not into the 本陣."""
    lines = [json.loads(x) for x in Path(example).read_text(encoding="utf-8").splitlines()]
    head, events = lines[0], lines[1:]
    head["match"]["id"] = "gl-sample-2026-disputed"
    head["match"]["title"] = "GBS 例: 本陣到達の記録誤りをめぐる異議"
    start = 15 * 3600 + 14 * 60 + 45  # 15:14:45, a line every 15 seconds

    def at(seconds):
        return f"2026-11-29T{seconds // 3600:02d}:{seconds // 60 % 60:02d}:{seconds % 60:02d}+09:00"

    for e in events:
        e["at"] = at(start + 15 * e["seq"])
    last = max(e["seq"] for e in events if e["type"] == "move")
    assert events[last - 1]["path"] == ["b6", "c6"]
    n = len(events)
    events += [
        {"seq": n + 1, "type": "dispute", "by": "B", "on": last,
         "claim": "グレンラガンは c6 ではなく b5 に動いた。記録係の書き間違い", "rule": "GL-6.2",
         "at": "2026-11-29T15:40:00+09:00"},
        {"seq": n + 2, "type": "ruling", "by": "フロアジャッジ 田中", "dispute": n + 1, "decision": "overturned",
         "level": "floor", "text": "両者と記録係に確認。グレンラガンは b6 → b5 に移動しており、本陣には入っていない。",
         "replace": [{"type": "move", "by": "A", "figures": ["グレンラガン"], "path": ["b6", "b5"]}],
         "at": "2026-11-29T15:46:00+09:00"},
        {"seq": n + 3, "type": "annotate", "by": "解説", "on": last,
         "text": "裁定で本陣到達が取り消され、試合は続行扱い。", "symbol": "?", "at": "2026-11-29T15:47:00+09:00"},
    ]
    with open(path, "w", encoding="utf-8") as f:
        f.writelines(json.dumps(line, ensure_ascii=False) + "\n" for line in [head, *events])
    print(path, len(events))


disputed(ROOT / "examples" / "gurren-lagann-example.jsonl", ROOT / "examples" / "gurren-lagann-disputed.jsonl")


# deck-out match
dk = [
    {
        "type": "reveal",
        "by": A,
        "cards": ["ラガン", "グレン", "シモン", "ドリル一閃", "カミナ", "ヨーコ"],
    },
    DP(A, "ラガン", "b1"),
    end_of(A),
    D(B),
    DP(B, "ガンメン", "d6"),
    end_of(B),
    D(A),
    MV(A, ["ラガン"], "b1", "b2", "b3"),
    end_of(A),
    D(B),
    end_of(B),
    D(A),
    MV(A, ["ラガン"], "b3", "b4", "b5"),
    end_of(A),
    D(B),
    end_of(B),
    D(A),
    MV(A, ["ラガン"], "b5", "b6"),
    "ラガンが B の出陣ゾーンへ: B に 1 ダメージ。以後は両者とも守りを固める。",
    end_of(A),
]
for turn in range(8, 60):
    p = B if turn % 2 == 0 else A
    dk += [D(p)]
    if turn == 48:
        dk.append(
            "B の山札が 0 枚になった時点でゲーム終了 (GL-11.2)。与えたダメージは A 1 点、B 0 点で A の勝利。"
        )
    dk.append(end_of(p))
    if turn == 8:
        dk.append(
            "以後は両者ともドローして手札上限まで捨てるだけ。見えないカードは null で、枚数だけが正確に残る。"
        )
bb = build(
    header("gl-deckout-2026", "グレンラガン 山札切れ"),
    dk,
    str(ROOT / "examples" / "gurren-lagann-deckout.jsonl"),
)
print(R.render_text(bb))
