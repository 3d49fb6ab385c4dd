"""Notation of the lines every game shares (exports/notation.py), in Japanese and English,
and of one example of every move type of every game through the same entry point the pages
use: words, never a raw dict, JSON or ``key=value``."""

from __future__ import annotations

import random
import re

import pytest

from exports import notation
from exports.notation import fallback, line_text, meta_text, result_text, value_text
from projections import registry
from projections.replay import Replay
from tests.web.matches import GAMES

NAMES = {"A": "山田", "B": "佐藤"}
RAW = re.compile(r"[{}]|\"\w+\":|\b\w+=|\[\{|\[\"")

SHARED = [
    ({"seq": 3, "type": "annotate", "on": 2, "by": "解説", "text": "好手", "symbol": "!", "tags": ["序盤", "攻め"]},
     "※ #2 への注釈: ! 好手 — 解説 [序盤、攻め]", "※ note on #2: ! 好手 — 解説 [序盤, 攻め]"),
    ({"seq": 4, "type": "retract", "on": 3, "by": "解説", "text": "読み違い"},
     "⌫ 解説 が注釈 #3 を撤回: 読み違い", "⌫ 解説 withdraws note #3: 読み違い"),
    ({"seq": 5, "type": "dispute", "on": 2, "by": "B", "claim": "横倒しだった", "rule": "GD-2.1"},
     "⚑ 佐藤 が #2 に異議: 横倒しだった [GD-2.1]", "⚑ 佐藤 disputes #2: 横倒しだった [GD-2.1]"),
    ({"seq": 6, "type": "ruling", "dispute": 5, "by": "田中", "decision": "overturned", "text": "記録誤り",
      "replace": [{"type": "pass", "by": "A"}], "rewind": True, "level": "head", "rule": "GD-2.1"},
     "⚖ 田中 (ヘッドジャッジ) の裁定、異議 #5: 覆す + 巻き戻し · 1 手に差し替え [GD-2.1] — 記録誤り",
     "⚖ ruling by 田中 (head judge) on dispute #5: overturned + rewind · replaced by 1 move(s) [GD-2.1] — 記録誤り"),
    ({"seq": 7, "type": "ruling", "dispute": 5, "by": "田中", "decision": "upheld", "text": "記録どおり"},
     "⚖ 田中 (フロアジャッジ) の裁定、異議 #5: 支持 — 記録どおり",
     "⚖ ruling by 田中 (floor judge) on dispute #5: upheld — 記録どおり"),
    ({"seq": 8, "type": "correct", "on": 2, "by": "記録係", "replace": [], "text": "重複"},
     "✎ 記録係 による #2 の訂正: 手を無効化 — 重複", "✎ correction of #2 by 記録係: move voided — 重複"),
    ({"seq": 9, "type": "appeal", "ruling": 6, "by": "A", "grounds": "再考を"},
     "↑ 山田 が裁定 #6 に上訴: 再考を", "↑ 山田 appeals ruling #6: 再考を"),
    ({"seq": 10, "type": "penalty", "player": "B", "by": "田中", "infraction": "遅延", "penalty": "game-loss", "on": 4},
     "⚠ 佐藤 に罰則: ゲームロス (遅延) — 田中 (#4 について)", "⚠ penalty for 佐藤: game loss (遅延) — 田中 (on #4)"),
    ({"seq": 11, "type": "concede", "by": "A"}, "🏳 山田 投了", "🏳 山田 concedes"),
    ({"seq": 12, "type": "result", "by": "田中", "winner": "B", "reason": "time"},
     "🏁 結果宣言: 佐藤 の勝ち (時間切れ)", "🏁 result declared: 佐藤 wins (time)"),
    ({"seq": 13, "type": "result", "by": "田中", "winner": None, "reason": "agreed"},
     "🏁 結果宣言: 引き分け (agreed)", "🏁 result declared: draw (agreed)"),
]


@pytest.mark.parametrize(("entry", "ja", "en"), SHARED, ids=lambda x: x.get("type") if isinstance(x, dict) else None)
def test_shared_lines_in_both_languages(entry, ja, en):
    assert meta_text(entry, "ja", NAMES) == ja
    assert meta_text(entry, "en", NAMES) == en
    assert line_text(None, None, entry, "ja", NAMES) == ja  # what the pages and kifu log call


def test_results_and_values_are_words():
    assert result_text("A", "concede", NAMES, "ja") == "山田 の勝ち (投了)"
    assert result_text(None, None, NAMES, "en") == "draw"
    assert value_text({"ギダン": "special", "美雅羅": "normal"}, "ja") == "ギダン special、美雅羅 normal"
    assert value_text([1, [2, 3]], "en") == "1, 2, 3" and value_text(True, "ja") == "はい"
    text = fallback({"seq": 1, "type": "effect", "by": "A", "actions": [{"do": "draw", "pile": "magic"}]})
    assert text == "effect actions do draw、pile magic" and not RAW.search(text)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("lang", ["ja", "en"])
def test_every_move_type_of_every_game_reads_as_words(game, lang):
    ruleset = registry.get(game)
    header, _moves = ruleset.generate(random.Random(1), "notation")
    board = ruleset.initial_board(header)
    assert ruleset.move_types, game
    for kind, spec in ruleset.move_types.items():
        text = line_text(ruleset, board, dict(spec.example), lang, NAMES)
        assert text.strip(), (game, kind)
        assert not RAW.search(text), (game, kind, text)
        assert text != fallback(dict(spec.example), lang), f"{game} {kind}: no notation, only the fields: {text}"


@pytest.mark.parametrize("game", GAMES)
def test_a_generated_match_has_notation_for_every_line_in_both_languages(game):
    from projections.replay import Replay
    from exports.notation import replay_texts

    header, entries = registry.get(game).generate(random.Random(2), "notation-2")
    rep = Replay(header, entries)
    ja, en = replay_texts(rep, "ja"), replay_texts(rep, "en")
    assert len(ja) == len(en) == len(entries)
    assert all(t.strip() and not RAW.search(t) for t in ja + en)
    assert ja != en


# Every reason a result can carry, by who decides it: the core (result_overrides, a result
# line's words) and each game's rules (their check/apply modules).
REASON_CODES = {
    "core": ["concession", "declared", "penalty-game-loss", "penalty-match-loss", "penalty-disqualification",
             "time", "judge"],
    "gandice": ["all_graveyard", "zenkai_summon"],
    "mushijingi": ["direct-attack", "deck-out", "deck-out-tie"],
    "gurren-lagann": ["damage", "damage-both", "deck-out", "deck-out-tie", "deck-out-draw"],
    "variants-war": ["life", "double_life"],
}


@pytest.mark.parametrize("who", list(REASON_CODES))
def test_every_result_reason_reads_as_words_in_both_languages(who):
    for code in REASON_CODES[who]:
        ja, en = notation.reason_text(code, "ja"), notation.reason_text(code, "en")
        assert code in notation.REASONS, code
        assert ja not in (en, code), (code, ja, en)  # the English may be the code itself ("damage")
        assert not any("a" <= c <= "z" for c in ja), ja  # Japanese, not an English word left over


@pytest.mark.parametrize("game", ["gandice", "mushijingi", "gurren-lagann", "variants-war"])
def test_the_reasons_generated_matches_end_with_are_all_named(game):
    from recorder.tools.synth import generate

    ruleset = registry.get(game)
    reasons = set()
    for i in range(12):
        header, entries = generate(ruleset, 40, i)
        result = Replay(header, entries, checks=False).result()
        if result is not None:
            reasons.add(result.reason)
    assert reasons and reasons <= set(REASON_CODES[game]), reasons


def test_a_reason_no_table_knows_is_shown_as_it_is():
    assert notation.reason_text("sudden-death", "ja") == notation.reason_text("sudden-death", "en") == "sudden-death"
    assert notation.reason_text(None) == ""
