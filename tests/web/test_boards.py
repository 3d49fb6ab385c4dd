"""Board renderers, one test per game, from the board JSON of generated matches."""

from __future__ import annotations

import re

import pytest

from exports import boards
from projections import registry
from projections.replay import Replay
from tests.web.matches import GAMES, XSS, generated, toy_match


def all_boards(game: str) -> tuple[Replay, list[str]]:
    header, entries = generated(game)
    rep = Replay(header, entries)
    return rep, [str(boards.render(rep.board_json(s))) for s in range(rep.steps + 1)]


def text_of(html: str) -> str:
    return re.sub(r"<[^>]+>", " ", html)


@pytest.mark.parametrize("game", GAMES)
def test_every_step_renders_with_the_players_counter(game):
    counter = {"gandice": "alive", "mushijingi": "territory", "gurren-lagann": "damage", "variants-war": "life"}[game]
    rep, html = all_boards(game)
    assert len(html) == rep.steps + 1
    for step, h in enumerate(html):
        decided = " decided" if rep.board_json(step)["result"] else ""
        assert h.startswith(f'<div class="board board-{game}{decided}">') and h.endswith("</div>")
        assert counter in h
        for pid, p in rep.board_json(step)["players"].items():
            assert f">{p[counter]}</b>" in h, (step, pid)
    final = rep.board_json(rep.steps)
    if final["result"]:
        assert "結果:" in html[-1] and f'data-reason="{final["result"]["reason"]}"' in html[-1]


def test_gandice_dice_states_and_graveyard():
    rep, html = all_boards("gandice")
    seen_states = set()
    for step, h in enumerate(html):
        bj = rep.board_json(step)
        for p in bj["players"].values():
            for d in p["dice"]:
                if d["kind"] == "character":
                    seen_states.add(d["state"])
                    assert d["name"] in h
            for name in p["graveyard"]:
                assert "墓場" in h and name in h
    assert {"summoned", "unsummoned"} <= seen_states
    assert "state-summoned" in "".join(html) and "dead" in html[-1]


def test_mushijingi_territory_feed_field_damage_hand_and_deck():
    rep, html = all_boards("mushijingi")
    hurt = False
    for step, h in enumerate(html):
        bj = rep.board_json(step)
        for p in bj["players"].values():
            assert f"山札</span> <b>{p['deck']}</b>" in h and p["name"] in h
            assert f"手札</span> <b>{p['hand_count']}</b>" in h
            for card in p["feed"]:
                assert card in h
            for insect in p["insects"]:
                assert insect["card"] in h and f"ダメージ {insect['damage']}" in h
                hurt = hurt or insect["damage"] > 0
        assert "{" not in h and "'" not in h, step  # no raw Python values (issue 14)
    assert hurt, "the generated match should show damage on the field at some step"


def test_gurren_lagann_field_is_5_by_6_with_figures():
    rep, html = all_boards("gurren-lagann")
    for step, h in enumerate(html):
        squares = re.findall(r'data-square="([a-e][1-6])"', h)
        assert sorted(squares) == sorted(f"{c}{r}" for c in "abcde" for r in range(1, 7))
        bj = rep.board_json(step)
        for sq in bj["field"]["squares"]:
            cell = h.split(f'data-square="{sq["square"]}"', 1)[1].split("</td>", 1)[0]
            for f in sq["figures"]:
                assert f["figure"] in cell and f"P{f['power']}" in cell
    # the top row drawn first is row 6 (the bottom player's home row is at the bottom)
    assert html[0].index('data-square="a6"') < html[0].index('data-square="a1"')


def test_variants_war_zones_and_orientation():
    rep, html = all_boards("variants-war")
    orientations = set()
    for step, h in enumerate(html):
        bj = rep.board_json(step)
        for z in bj["zones"]:
            assert f'data-square="{z["square"]}"' in h and z["zone_ja"] in h
        for m in bj["monsters"]:
            cell = h.split(f'data-square="{m["square"]}"', 1)[1].split("</td>", 1)[0]
            assert m["card"] in cell and f"orient-{m['orientation']}" in cell
            orientations.add(m["orientation"])
    assert orientations, "monsters should appear on the field"


def test_violations_of_the_step_are_shown_with_rule_ids():
    header, entries = toy_match()
    rep = Replay(header, entries, "recorded")
    h4 = str(boards.render(rep.board_json(4)))
    assert "TOY-1" in h4 and "b-violations" in h4
    assert "TOY-1" not in str(boards.render(rep.board_json(5)))  # only the step's own


def test_user_text_is_escaped_in_boards():
    header, entries = toy_match()
    header["players"][1]["name"] = XSS
    rep = Replay(header, entries)
    names = {p["id"]: p["name"] for p in header["players"]}
    h = str(boards.render(rep.board_json(1), names))  # B to play
    assert "<script>" not in h and "&lt;script&gt;" in h
    assert "<b>太郎</b>" not in str(boards.render(rep.board_json(1), names))


def test_unknown_game_gets_the_generic_renderer():
    header, entries = toy_match()
    h = str(boards.render(Replay(header, entries).board_json(2)))
    assert "board-toy" in h and "score" in h
    assert "toy" in registry.available()


@pytest.mark.parametrize("game", GAMES)
def test_the_phase_reads_in_japanese_and_in_english_on_request(game):
    header, entries = generated(game)
    rep = Replay(header, entries)
    seen = set()
    for step in range(rep.steps + 1):
        board = rep.board_json(step)
        code = board.get("phase")
        if not code or code in seen:
            continue
        seen.add(code)
        ja = str(boards.render(board))
        en = str(boards.render(board, lang="en"))
        ja_name, en_name = boards.common.PHASE_NAMES[game][code]  # every phase the game reaches is named
        assert f'<span class="b-phase" data-phase="{code}">{ja_name}</span>' in ja
        assert f'<span class="b-phase" data-phase="{code}">{en_name}</span>' in en
    assert seen


def test_a_phase_no_table_knows_reads_as_its_code():
    assert boards.common.phase_name("doc-toy", "scoring") == "scoring"
    assert boards.common.phase_name("gandice", "interlude", "en") == "interlude"
    assert boards.common.phase_name("gandice", "battle", "fr") == "バトル"  # anything else: Japanese
