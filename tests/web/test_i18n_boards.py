"""The boards speak the page's language (issue 26): every label from the catalog, Japanese by
default, English on request with no Japanese left but names as recorded (dice, cards, players,
decks: whatever the match's header and board carry). The desk and the reports say a result's
reason in words, never its code."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from exports import boards, i18n
from projections.replay import Replay
from recorder.logformat import read_file

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "examples").glob("*.jsonl"))
JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff\u3000-\u3003\u3005-\u303f\uff01-\uffef【】]+")
# Words a Japanese board keeps in Latin letters: the games' own names for things.
LATIN_TERMS = {"GBS", "EX", "XII"}


def strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield str(k)
            yield from strings(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from strings(v)


def shown(html: str) -> str:
    """What a person reads on a board: its text and its tooltips."""
    return re.sub(r"<[^>]+>", " ", html) + " " + " ".join(re.findall(r'title="([^"]*)"', html))


def steps_of(path: Path) -> Iterator[tuple[dict[str, Any], dict[str, str], str]]:
    header, entries = read_file(str(path))
    rep = Replay(header, entries)
    names = {p["id"]: p.get("name") or p["id"] for p in header["players"]}
    for step in range(rep.steps + 1):
        board = rep.board_json(step)
        known = " ".join([*strings(board), *strings(header)])  # the names as recorded, and the codes
        yield board, names, known


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_an_english_board_shows_no_japanese_but_names(path):
    stray: set[str] = set()
    for board, names, known in steps_of(path):
        html = str(boards.render(board, names, "en"))
        stray |= {w for w in JAPANESE.findall(shown(html)) if w not in known}
    assert not stray, f"{path.name}: Japanese on an English board: {sorted(stray)}"


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_a_japanese_board_shows_no_english_but_names(path):
    stray: set[str] = set()
    for board, names, known in steps_of(path):
        html = str(boards.render(board, names))  # the default
        stray |= {w for w in re.findall(r"[A-Za-z]{2,}", shown(html)) if w not in known and w not in LATIN_TERMS}
    assert not stray, f"{path.name}: English on a Japanese board: {sorted(stray)}"


def test_the_two_languages_differ_on_every_game():
    """Not one board left out of the catalog: each game's board reads differently in English."""
    for path in EXAMPLES:
        board, names, _known = list(steps_of(path))[-1]
        ja, en = str(boards.render(board, names)), str(boards.render(board, names, "en"))
        assert ja != en and JAPANESE.search(shown(ja).replace(" ", "")), path.name


def test_the_boards_japanese_is_the_games_own_vocabulary():
    """The page's board and the terminal's say a code in the same words: one table each, in the
    game's render module, read through the catalog; its Japanese is the game's own."""
    from exports.boards import gandice, variants_war
    from projections.gandice import render as gd_render
    from projections.gandice.catalog import FACE_JA, KIND_JA, STATE_JA
    from projections.variants_war.render import ZONE_JA

    ja = i18n.translations("ja")
    assert gandice.faces is gd_render.faces and gandice.reasons is gd_render.reasons
    assert gandice.faces(ja) == FACE_JA and gandice.states(ja) == STATE_JA and gandice.kinds(ja) == KIND_JA
    assert gandice.steps(ja)["defend"] == "防御側のロール待ち" and gandice.winners(ja)["attacker"] == "攻撃側の勝利"
    assert gandice.reasons(ja)["all_graveyard"] == "相手のキャラダイスが全て墓場"
    assert variants_war.zones(ja) == ZONE_JA
    en = i18n.translations("en")
    assert not any(JAPANESE.search(v) for table in (gandice.faces(en), gandice.reasons(en), gandice.steps(en),
                                                    gandice.winners(en), variants_war.zones(en))
                   for v in table.values())


def test_a_violation_on_a_board_is_said_in_the_boards_language():
    header, _entries = read_file(str(ROOT / "examples" / "gandice-example.jsonl"))
    early = {"seq": 1, "type": "attack", "by": "A", "die": "ギダン", "target": "紅蓮のイスルギ", "face": "normal", "value": 7}
    rep = Replay(header, [early])
    flagged = {v.rule: v.message for v in rep.violations()}
    assert flagged["GD-4.5"] == "a 通常目 needs its number 1-6, got 7"
    board = rep.board_json(1)
    en, ja = str(boards.render(board, lang="en")), str(boards.render(board))
    assert "a 通常目 needs its number 1-6, got 7" in en
    assert "通常目には 1〜6 の数が必要です（7 が記録されています）" in ja and "needs its number" not in ja
    assert "最初の攻撃ターンの前に全プレイヤーが眼魔召喚のロールを行います" in ja  # GD-2.1


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_the_desk_says_a_reason_in_words_never_its_code(lang):
    from exports import desk
    from exports.notation import reason_text

    row = {"status": "finished", "result": {"winner": "A", "winner_name": "山田", "reason": "all_graveyard"}}
    text = desk.status_text(row, lang)
    assert "all_graveyard" not in text and reason_text("all_graveyard", lang) in text
    assert ("相手のキャラダイス" in text) == (lang == "ja")


def test_every_documented_reason_code_has_words():
    """docs/rules/*.md list the result reasons (a table row per code): each reads as words."""
    from exports.notation import REASONS

    codes = set()
    for doc in sorted((ROOT / "docs" / "rules").glob("*.md")):
        text = doc.read_text(encoding="utf-8")
        section = re.split(r"^#+ .*[Rr]eason", text, flags=re.M)
        for part in section[1:]:
            body = re.split(r"^#+ ", part, flags=re.M)[0]
            for row in re.findall(r"^\| (`[^|]+)\|", body, flags=re.M):
                codes |= set(re.findall(r"`([\w-]+)`", row))
    assert codes >= {"all_graveyard", "zenkai_summon", "concession", "direct-attack", "deck-out", "damage"}
    assert sorted(codes - set(REASONS)) == []
    for code in codes:
        assert JAPANESE.search(i18n.gettext_for("ja")(REASONS[code])), code
