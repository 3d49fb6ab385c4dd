"""Each game's ``name_filter`` (the names a field may hold, from the board's sets in one go) gives
exactly the names that putting every name to its ``name_errors`` one at a time gives
(projections.vocabulary.sift_names): on every step of every example match and of generated
matches, for every field of every move type, for each player of the match and a player it
does not have, over the match's names and names made to catch the checks' corners. And the board's squares
that squares_of finds (a loop) are those a recursive walk finds."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from projections import registry
from exports.recording import forms
from projections.replay import Replay
from projections.vocabulary import SQUARE_RE, names_for, sift_names, squares_of
from recorder.logformat import read_file
from recorder.tools.synth import generate

ROOT = Path(__file__).resolve().parents[2]
GAMES = ("gandice", "mushijingi", "gurren-lagann", "variants-war")
# Names that are keys or values the checks look at, or refs of another shape: a map's keys
# "player", "die", "card", "figure" are references; "normal" is what the pickers put in a map;
# "A1" is a Mushijingi uid; "X:..." a Gurren Lagann figure of a seat that does not exist.
CORNERS = ("player", "die", "card", "figure", "normal", "", "A1", "B12", "A", "X:グレン", "A:", ":")


def matches(game: str) -> list[tuple[dict[str, Any], list[dict[str, Any]], int]]:
    """The examples, every step; a generated match (longer), every 9th step."""
    out = [(*read_file(str(p)), 1) for p in sorted((ROOT / "examples").glob(f"{game}-*.jsonl"))]
    rs = registry.get(game)
    header, moves = generate(rs, 11, 0)
    out.append((header, [dict(m, seq=i + 1) for i, m in enumerate(moves)], 9))
    return out


def names_of(rep: Replay, board: Any) -> list[str]:
    players = [p["id"] for p in rep.header["players"]]
    names = [str(n) for n in rep.ruleset.vocabulary(rep.header)]
    # a seat-qualified figure ("A:グレン") of every player, and the board's own names (uids)
    seated = [f"{p}:{n}" for p in players for n in names[:6]]
    uids = [u for u in (getattr(i, "uid", None) for i in getattr(board, "field", ())) if isinstance(u, str)]
    return list(dict.fromkeys([*names, *players, *CORNERS, *seated, *uids]))


@pytest.mark.parametrize("game", GAMES)
def test_name_filter_offers_exactly_what_name_errors_lets_through(game):
    compared = partial = 0
    for header, entries, every in matches(game):
        rep = Replay(header, entries)
        players = [p["id"] for p in header["players"]]
        # a step with its player to move; every eighth for every player and a stranger
        for step in range(0, rep.steps + 1, every):
            board = rep.board(step)
            bys = [*players, "nobody"] if step % 8 == 0 else [str(rep.board_json(step).get("active") or players[0])]
            names = names_of(rep, board)
            for spec in rep.ruleset.move_types.values():
                for field in ["by", *spec.fields]:
                    for by in bys:
                        want = sift_names(rep.ruleset, board, by, spec, field, names)
                        got = names_for(rep.ruleset, board, by, spec, field, names)
                        assert got == want, (header["match"]["id"], step, spec.type, field, by)
                        compared += 1
                        partial += 0 < len(want) < len(names)  # a name field: some names, not all
    assert compared > 1000 and partial > 100


class Sifting:
    """A ruleset without its name_filter: every name put to name_errors (the lists as before)."""

    name_filter = None

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


@pytest.mark.parametrize("game", GAMES)
def test_the_recording_forms_offer_what_the_sift_offered(game):
    """The forms of the recording page's state (one board shared by every field, the filters'
    lists shared between fields of a kind) offer the names the sift field by field offered."""
    header, entries = read_file(str(ROOT / "examples" / f"{game}-example.jsonl"))
    rep = Replay(header, entries)
    names = [str(n) for n in rep.ruleset.vocabulary(header)]
    offered = 0
    for step in range(0, rep.steps + 1, 2):
        board = rep.board(step)
        by = str(rep.board_json(step).get("active") or header["players"][0]["id"])
        legal = list(rep.ruleset.legal_moves(board))[:80]
        squares = squares_of(rep.board_json(step))
        got = forms(rep.ruleset, legal, names, "ja", board, by, lambda found=squares: found)
        assert got == forms(Sifting(rep.ruleset), legal, names, "ja", board, by, squares), (step, by)
        offered += sum(len(f.get("names", ())) for form in got.values() for f in form["fields"])
    assert offered > 0


def test_every_game_has_a_filter_and_a_filter_that_fails_is_not_trusted():
    """The four games answer from their filters (no sift behind the test's back), and a filter
    that raises falls back to asking name_errors per name."""
    header, entries = read_file(str(ROOT / "examples" / "gandice-example.jsonl"))
    rep = Replay(header, entries)
    board = rep.board(rep.steps)
    for game in GAMES:
        rs = registry.get(game)
        spec = next(iter(rs.move_types.values()))
        assert callable(rs.name_filter(rs.initial_board(generate(rs, 1, 0)[0]), spec.type, "A", "by", "one"))

    class Broken:
        def __init__(self, inner: Any) -> None:
            self.inner, self.move_types, self.name_errors = inner, inner.move_types, inner.name_errors

        def name_filter(self, *args: Any) -> Any:
            raise RuntimeError("broken filter")

    spec = rep.ruleset.move_types["defend"]
    names = [str(n) for n in rep.ruleset.vocabulary(header)]
    want = sift_names(rep.ruleset, board, "A", spec, "die", names)
    assert want and len(want) < len(names)
    assert names_for(Broken(rep.ruleset), board, "A", spec, "die", names) == want


# -- the board's squares (projections.vocabulary.squares_of, a loop) against a plain recursive walk --


def _squares_walked(board_json: Any) -> list[str]:
    found: set[str] = set()

    def walk(x: Any) -> None:
        if isinstance(x, str):
            if SQUARE_RE.match(x):
                found.add(x)
        elif isinstance(x, Mapping):
            for k, v in x.items():
                walk(k)
                walk(v)
        elif isinstance(x, (list, tuple)):
            for v in x:
                walk(v)

    walk(board_json)
    return sorted(found, key=lambda q: (int(q[1:]), q[0]))


TEXT = st.text(alphabet=st.sampled_from(list('ab1２٣"\\\n\t:,[]{} z9')), max_size=6)
JSONISH = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | TEXT,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(TEXT, inner, max_size=4),
    max_leaves=20,
)


@settings(max_examples=400, deadline=None)
@given(JSONISH)
def test_squares_found_by_the_loop_are_the_squares_walked(value):
    assert squares_of(value) == _squares_walked(value)


def test_squares_of_every_board_are_the_squares_walked():
    for game in ("gurren-lagann", "variants-war", "gandice"):
        for header, entries, every in matches(game):
            rep = Replay(header, entries)
            for step in range(0, rep.steps + 1, every):
                board_json = rep.board_json(step)
                assert squares_of(board_json) == _squares_walked(board_json)
    assert squares_of({"a1": ["b2", 'x"c3', "d4\n", ("e5",)], 1: {"z9": None}}) == ["a1", "b2", "d4\n", "e5", "z9"]
    assert squares_of({("a1",): "b2"}) == ["a1", "b2"]
