"""The issue's own example: a typo in a die name is refused with the closest names, not
recorded and resolved (README tour, `kifu record tour-1 ... -f die=ギダソ`)."""

from __future__ import annotations

import json


def test_a_die_the_match_does_not_have_is_refused_with_did_you_mean(kifu):
    code, _, err = kifu("new", "--game", "gandice", "--id", "tour-1", "--event", "冬季大会", "--round", "1",
                        "--table", "3", "--player", "A=山田", "--player", "B=佐藤",
                        "--deck", "A=闇ダイス組", "--cards", "A=ギダン,美雅羅,爪牙,武具・羅,武具・羅#2",
                        "--deck", "B=イスルギ組", "--cards", "B=紅蓮のイスルギ,青嵐のイスルギ,イスルギ,武具・羅,呪術・笑童児",
                        "--first", "A")
    assert code == 0, err
    for line in (
        {"type": "summon", "by": "A", "rolls": {"ギダン": "special", "美雅羅": "normal", "爪牙": "side"}},
        {"type": "summon", "by": "B", "rolls": {"紅蓮のイスルギ": "normal", "青嵐のイスルギ": "normal", "イスルギ": "special"}},
    ):
        code, _, err = kifu("record", "tour-1", json.dumps(line, ensure_ascii=False))
        assert code == 0, err
    code, _, err = kifu("record", "tour-1", "--type", "attack", "--by", "B", "-f", "die=紅蓮のイスルギ",
                        "-f", "target=ギダン", "-f", "face=stand")
    assert code == 0, err
    code, out, err = kifu("record", "tour-1", "--type", "defend", "--by", "A", "-f", "die=ギダソ",
                          "-f", "face=normal", "-f", "value=3")
    assert code != 0
    assert err.strip().count("\n") == 0 and "ギダソ" in err and "did you mean 'ギダン'" in err
    code, out, _ = kifu("log", "tour-1")
    assert "ギダソ" not in out
