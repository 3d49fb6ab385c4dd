"""A list whose length the board fixes (``most`` in a ruleset's FIELD_KINDS: the cards of the
acting player's hand not yet seen): the item that names the last of them completes the move, so
its buttons carry data-action="record" and a tap records it at once (docs/recording-page.md).
グレンラガン's opening reveal of six cards is six taps (tests/web/test_recording_taps_more.py)."""

from __future__ import annotations

import json

from exports.recording import first_view, state, unseen_in_hand
from projections.replay import Replay
from tests.web.conftest import ROOT


def lines_of(game: str) -> list[dict]:
    return [json.loads(x) for x in (ROOT / "examples" / f"{game}-example.jsonl").read_text("utf-8").splitlines() if x]


def reveal_cards(st: dict) -> dict:
    return next(fd for fd in st["forms"]["reveal"]["fields"] if fd["name"] == "cards")


def test_a_reveal_names_at_most_the_cards_of_the_hand_not_seen():
    lines = lines_of("gurren-lagann")
    rep = Replay(lines[0], [])
    assert reveal_cards(state(rep, "ja", lambda b: ""))["most"] == {"A": 6, "B": 6}  # the opening hands, unseen
    rep.extend([lines[1]])  # A's six shown
    assert reveal_cards(state(rep, "ja", lambda b: ""))["most"] == {"B": 6}  # A's hand all seen: no bound asked
    assert unseen_in_hand({"players": {"A": {"hand": [None, "グレン"]}, "B": {"hand": []}}}, ["A", "B"]) == {"A": 1}
    assert unseen_in_hand({}, ["A"]) == {}  # a board without hands: no bound


def test_the_item_that_fills_the_list_records_the_move_from_the_first_paint():
    st = state(Replay(lines_of("gurren-lagann")[0], []), "ja", lambda b: "")
    cur = {"type": "reveal", "by": "A", "f": {}}
    row = next(fd for fd in first_view(st, cur)["main"] if fd["name"] == "cards")
    assert row["records"] is False  # six to name: the first tap does not record
    reveal_cards(st)["most"] = {"A": 1}
    row = next(fd for fd in first_view(st, cur)["main"] if fd["name"] == "cards")
    assert row["records"] is True  # one to name: its tap completes the move
    other = next(fd for fd in first_view(st, {"type": "draw", "by": "A", "f": {}})["main"] + [{"records": False}]
                 if fd.get("name") == "cards" or "name" not in fd)
    assert other["records"] is False  # a list without a bound never records by itself


def test_the_page_is_drawn_at_every_line_of_every_example():
    """The server's first paint of the recording page after every line of the four examples, in
    whatever form the guess pre-selects (an effect's list of actions drew its nested rows through
    the same macro as a list: a nested row has no ``records`` of its own)."""
    from markupsafe import Markup

    from exports import pages
    from exports.recording import board_picks, initial_move, mark_board, page_context

    drawn = set()
    for game in ("gandice", "mushijingi", "gurren-lagann", "variants-war"):
        lines = lines_of(game)
        rep = Replay(lines[0], [])
        for line in [None, *lines[1:]]:
            if line is not None:
                rep.extend([line])
            st = state(rep, "ja", lambda b: "")
            view = first_view(st, initial_move(st))
            ctx = page_context(rep, "ja", True)
            html = pages.render("record.html", dict(ctx, board=Markup(mark_board("", board_picks(view))),
                                                    steps=rep.steps, s=st, first_view=view))
            assert 'data-action="record"' in html
            drawn.add((game, view["type"]))
    assert ("variants-war", "effect") in drawn and ("gurren-lagann", "reveal") in drawn
