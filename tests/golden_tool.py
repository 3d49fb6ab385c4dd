"""Golden playthroughs: the board after every line of every shipped example, as text.

``make golden`` (python -m tests.golden_tool --write) regenerates tests/golden/<game>/<example>.txt;
tests/core/test_golden.py diffs them, so any change in a rule's behaviour shows up as a
readable diff in review.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from exports.i18n import translations  # noqa: E402
from exports.text import describe  # noqa: E402
from projections.replay import Replay  # noqa: E402
from recorder import logformat  # noqa: E402

GOLDEN = ROOT / "tests" / "golden"


def playthrough(path: Path) -> tuple[str, str]:
    """(game, text) for one example log."""
    header, entries = logformat.read_file(str(path))
    out = []
    for view in ("ruled", "recorded"):
        rep = Replay(header, entries, view)
        if view == "recorded" and not any(e["type"] in ("ruling", "correct") for e in entries):
            break
        out.append(f"######## view: {view}")
        for step in range(rep.steps + 1):
            frame = rep.frame(step)
            title = describe(entries[step - 1]) if step else "start"
            out.append(f"=== step {step}: {title}")
            out.append(rep.ruleset.render_text(frame.board, translations("ja")))  # as kifu board says it
            for v in frame.violations:
                if v.seq == step:
                    out.append(f"! {v.rule}: {v.message}")
            if frame.result:
                out.append(f"result: {frame.result.winner} ({frame.result.reason})")
    return header["game"], "\n".join(out) + "\n"


def golden_path(example: Path, game: str) -> Path:
    return GOLDEN / game / (example.stem + ".txt")


def examples() -> list[Path]:
    return sorted((ROOT / "examples").glob("*.jsonl"))


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args()
    for example in examples():
        game, text = playthrough(example)
        target = golden_path(example, game)
        if args.write:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")
            print(f"wrote {target.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
