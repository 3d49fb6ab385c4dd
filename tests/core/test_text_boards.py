"""The terminal's board speaks one language at a time (issue 26): ``kifu board`` and ``kifu record
-i`` print each game's text board (``render_text(board, t)``) with its words from the catalog of
the pages, Japanese by default, English with ``--lang en``; names stay as recorded.

Over every example and every step: in English no Japanese is left but what the match itself
recorded (players, decks, dice, cards, notes: any string of its header, its lines or its board
JSON); in Japanese no English word is left but those same names and the games' own Latin terms.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from exports.i18n import translations
from exports.text import format_board
from projections import registry
from projections.base import ENGLISH
from projections.replay import Replay
from recorder.logformat import read_file
from tests.core.test_cli_lang import nothing_said  # noqa: F401  (a fixture: no language asked for)
from tests.web.test_i18n_boards import JAPANESE, LATIN_TERMS, strings

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "examples").glob("*.jsonl"))
GAMES = ("gandice", "mushijingi", "gurren-lagann", "variants-war")
# What a Japanese text board keeps in Latin letters besides the names: the notes of its legend
# ("^v", "[n]", "[A1]"), a lock-on number's [n], and the games' own terms (GBS, EX, XII).
JA_LATIN = LATIN_TERMS | {"vs"}


def known_words(header: dict, entries: list[dict], rep: Replay) -> str:
    """Everything the match recorded, and its boards' codes and names: a board may show these."""
    boards = [rep.board_json(step) for step in range(0, rep.steps + 1, max(1, rep.steps // 12))]
    return " ".join([*strings(header), *strings(entries), *strings(boards)])


def stray_japanese(text: str, known: str) -> set[str]:
    return {w for w in JAPANESE.findall(text) if w not in known}


def stray_english(text: str, known: str) -> set[str]:
    # a variants-war cell is a player's mark and the monster's facing: "Bv" is B facing south
    text = re.sub(r"(?<![A-Za-z])([A-Za-z]+)[v^](?=[|\- ])", r"\1", text)
    return {w for w in re.findall(r"[A-Za-z]{2,}", text) if w not in known and w not in JA_LATIN}


def every_board(path: Path) -> Iterator[tuple[Replay, int, str]]:
    header, entries = read_file(str(path))
    for view in ("ruled", "recorded"):
        rep = Replay(header, entries, view)
        known = known_words(header, entries, rep)
        for step in range(rep.steps + 1):
            yield rep, step, known


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_an_english_text_board_shows_no_japanese_but_names(path):
    stray: dict[str, int] = {}
    for rep, step, known in every_board(path):
        for word in stray_japanese(format_board(rep, step, "en"), known):
            stray.setdefault(word, step)
    assert not stray, f"{path.name}: Japanese on the English board (word: first step): {stray}"


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_a_japanese_text_board_shows_no_english_but_names(path):
    stray: dict[str, int] = {}
    for rep, step, known in every_board(path):
        for word in stray_english(format_board(rep, step, "ja"), known):
            stray.setdefault(word, step)
    assert not stray, f"{path.name}: English on the Japanese board (word: first step): {stray}"


@pytest.mark.parametrize("game", GAMES)
def test_every_game_says_its_board_in_both_languages(game):
    """Each game's own board (not only the lines around it) changes with the language, on
    generated matches too: a game left out of the catalog would read the same twice."""
    import random

    rs = registry.get(game)
    header, moves = rs.generate(random.Random(7), "gen-7")
    rep = Replay(header, moves)
    known = known_words(header, moves, rep)
    ja_t, en_t = translations("ja"), translations("en")
    for step in range(0, rep.steps + 1, max(1, rep.steps // 15)):
        board = rep.frame(step).board
        ja, en = rs.render_text(board, ja_t), rs.render_text(board, en_t)
        assert ja != en, (game, step)
        assert rs.render_text(board) == en == rs.render_text(board, ENGLISH)  # English without a catalog
        assert not stray_japanese(en, known), (game, step, stray_japanese(en, known))
        assert not stray_english(ja, known), (game, step, stray_english(ja, known))


def test_the_japanese_text_board_is_the_games_own_words():
    """The catalog gives back the Japanese the boards said before they were translated."""
    header, entries = read_file(str(ROOT / "examples" / "variants-war-example.jsonl"))
    rep = Replay(header, entries)
    ja = format_board(rep, rep.steps, "ja")
    assert "結果: 佐藤の勝ち (ライフ0)" in ja and "凡例: 山=山田 佐=佐藤  ^v=向き" in ja and "アルクトスXII: 破壊済み" in ja
    en = format_board(rep, rep.steps, "en")
    assert "result: 佐藤 wins (life 0)" in en and "key: 山=山田 佐=佐藤  ^v=facing" in en
    assert "Arctos XII: destroyed (no master phase)" in en


@pytest.mark.parametrize("path", [p for p in EXAMPLES if p.stem.endswith("-example")], ids=lambda p: p.stem)
def test_kifu_board_in_each_language(path, kifu, nothing_said):  # noqa: F811
    """The command itself, at the start, in the middle and at the end of each game's example."""
    assert kifu("import", str(path))[0] == 0
    header, entries = read_file(str(path))
    rep = Replay(header, entries)
    known = known_words(header, entries, rep)
    mid = header["match"]["id"]
    for step in (0, rep.steps // 2, rep.steps):
        code, ja, err = kifu("board", mid, "--at", str(step))
        assert code == 0, err
        assert not stray_english(ja, known), (step, stray_english(ja, known))
        code, en, err = kifu("board", mid, "--at", str(step), "--lang", "en")
        assert code == 0, err
        assert not stray_japanese(en, known), (step, stray_japanese(en, known))
        assert en != ja


@pytest.mark.parametrize("game", GAMES)
def test_the_move_types_read_in_the_readers_language(game):
    """``types`` in ``kifu record -i`` and the recording page say each move type's summary and its
    fields' help: English with no Japanese game term (a die's or a card's name may stay), and the
    catalog's Japanese by default."""
    ja = translations("ja")
    for version in registry._versions(registry.canonical(game)).values():
        for name, spec in version.move_types.items():
            assert not JAPANESE.search(spec.summary.replace("笑童児's 裏切り", "")), (game, name, spec.summary)
            assert JAPANESE.search(ja.gettext(spec.summary)), (game, name)
            for field, help_ in spec.fields.items():
                assert not JAPANESE.search(help_.replace("B:エンキ", "")), (game, name, field, help_)
