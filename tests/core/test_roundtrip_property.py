"""Property: importing an export gives the identical export and identical boards at every
step, over generated matches of every game present (plus annotations with arbitrary text)."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from projections import registry
from projections.replay import Replay
from recorder import logformat
from recorder.store import Store
from recorder.tools.synth import generate

GAMES = [g for g in registry.available() if g != "toy"] + ["toy"]

notes = st.lists(
    st.tuples(st.floats(0, 1), st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=40).filter(str.strip),
              st.sampled_from([None, "!", "?", "!!", "??", "!?", "?!"])),
    max_size=4,
)


def with_annotations(moves, drawn):
    """Insert notes at drawn positions, each on the line just before it; renumber seq."""
    lines = [dict(m) for m in moves]
    for where, text, symbol in drawn:
        at = max(1, int(where * len(lines)))
        note = {"type": "annotate", "by": "解説者", "text": text}
        if symbol:
            note["symbol"] = symbol
        lines.insert(at, note)
    out = []
    for seq, line in enumerate(lines, start=1):
        line["seq"] = seq
        if line["type"] == "annotate":
            line["on"] = seq - 1
        out.append(line)
    return out


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=st.sampled_from(GAMES), seed=st.integers(0, 10_000), drawn=notes)
def test_import_export_round_trip(game, seed, drawn):
    header, moves = generate(registry.get(game), seed, 0)
    lines = with_annotations(moves, drawn)
    text = "\n".join(logformat.export_lines(header, lines)) + "\n"
    with tempfile.TemporaryDirectory() as tmp:
        first = Path(tmp, "a.jsonl")
        first.write_text(text, encoding="utf-8")
        one, two = Store(str(Path(tmp, "one.db"))), Store(str(Path(tmp, "two.db")))
        h, e = logformat.read_file(str(first))
        mid = one.create(h, e)
        export1 = "\n".join(logformat.export_lines(*one.load(mid))) + "\n"
        second = Path(tmp, "b.jsonl")
        second.write_text(export1, encoding="utf-8")
        two.create(*logformat.read_file(str(second)))
        export2 = "\n".join(logformat.export_lines(*two.load(mid))) + "\n"
        assert export1 == export2 == text
        r1, r2 = Replay(*one.load(mid)), Replay(*two.load(mid))
        assert r1.steps == r2.steps == len(lines)
        for step in range(r1.steps + 1):
            assert r1.board_json(step) == r2.board_json(step)
        assert r1.violations() == (), [v.to_json() for v in r1.violations()][:3]
        one.close()
        two.close()
