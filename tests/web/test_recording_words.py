"""The phone recording page speaks the table's language: its recent lines are the notation the
replay page shows (never ``annotate →22 …`` or ``key=value``), and its field labels carry no
English description in Japanese (the English one stays the label's tooltip)."""

from __future__ import annotations

import re

import pytest

from exports import recording
from projections.replay import Replay
from recorder.logformat import read_file
from tests.web.test_notation import RAW

EXAMPLE = "examples/gandice-example.jsonl"
GAMES = ["gandice", "gurren-lagann", "mushijingi", "variants-war"]


def _state(lang: str, path: str = EXAMPLE) -> dict:
    header, entries = read_file(path)
    return recording.state(Replay(header, entries), lang, lambda board: "")


def test_recent_lines_read_as_the_replay_page_reads_them():
    ja, en = _state("ja"), _state("en")
    notes_ja = [line["label"] for line in ja["last"] if line["meta"]]
    notes_en = [line["label"] for line in en["last"] if line["meta"]]
    assert notes_ja and all(label.startswith("※ #") and "への注釈" in label for label in notes_ja)
    assert notes_en and all(label.startswith("※ note on #") for label in notes_en)
    for line in ja["last"] + en["last"]:
        assert not RAW.search(line["label"]) and not line["label"].startswith(("annotate", "dispute")), line


@pytest.mark.parametrize("game", GAMES)
def test_field_labels_carry_no_english_in_japanese(game):
    for lang in ("ja", "en"):
        forms = _state(lang, f"examples/{game}-example.jsonl")["forms"].values()
        if lang == "ja":
            assert not any(re.search(r"[a-z]{3}", form["label"]) for form in forms)  # move types too
        fields = [f for form in forms for f in form["fields"]]
        assert fields
        for f in fields:
            assert f["help"]  # the ruleset's own words stay as the tooltip
            if lang == "ja":
                assert f["note"] == "" and not re.search(r"[a-z]{3}", f["label"]), f
            else:
                assert f["note"] == f["help"], f


def test_a_move_a_ruleset_cannot_describe_still_reads_as_words():
    class Mute:
        def describe(self, board, move, lang):
            raise RuntimeError("no notation")

    text = recording.describe(Mute(), None, {"seq": 3, "type": "summon", "by": "A", "rolls": {"ギダン": "side"}}, "ja")
    assert text.startswith("A summon") and "=" not in text and "{" not in text


def test_the_flags_the_page_shows_are_said_in_the_readers_language():
    """Every flag of the recording page's state (its last lines' and its list of violations) is
    translated, then filled: each example with a mistyped move that breaks a rule (recorded and
    flagged), read in ja and en."""
    from projections import registry
    from tests.web.test_i18n_flags import SENTENCE, flagged

    for path in ("examples/gurren-lagann-example.jsonl", "examples/mushijingi-example.jsonl",
                 "examples/gandice-example.jsonl", "examples/variants-war-example.jsonl"):
        header, entries = read_file(path)
        ruleset = registry.get(header["game"])
        before, bad = flagged(header, entries, ruleset)
        lines = [*entries[:before], {**bad, "seq": before + 1}]
        rep = Replay(header, lines)
        assert rep.violations(), path
        ja = recording.state(rep, "ja", lambda board: "")
        en = recording.state(Replay(header, lines), "en", lambda board: "")
        said_ja = [v["message"] for v in ja["violations"]] + [v["message"] for line in ja["last"] for v in line["violations"]]
        said_en = [v["message"] for v in en["violations"]] + [v["message"] for line in en["last"] for v in line["violations"]]
        assert said_ja and len(said_ja) == len(said_en), path
        for m in said_ja:
            assert not [w for w in SENTENCE.findall(m) if len(w.split()) >= 3], (path, m)
        assert said_ja != said_en, (path, said_ja)  # the English page keeps its English
