"""Tab in ``kifu record -i`` offers only this match's names and the fields of the move type
being typed (recorder/completion.py); the recording page's pickers use the same names."""

from __future__ import annotations

from pathlib import Path

from projections.replay import Replay
from recorder.completion import complete
from recorder.logformat import read_file

ROOT = Path(__file__).resolve().parents[2]


def example(upto: int) -> Replay:
    header, entries = read_file(str(ROOT / "examples" / "gandice-example.jsonl"))
    return Replay(header, [e for e in entries if e["seq"] <= upto])


def test_first_word_is_a_move_type_or_a_command():
    rep = example(3)
    assert complete(rep, "", "") [:3] == ["summon", "resummon", "attack"]
    assert complete(rep, "de", "de") == ["defend"]
    assert "concede" in complete(rep, "con", "con")


def test_fields_of_the_type_being_typed_only():
    rep = example(3)
    assert complete(rep, "defend ", "") == ["by=", "die=", "face=", "value="]
    assert complete(rep, "defend by=B d", "d") == ["die="]
    assert "target=" not in complete(rep, "defend ", "")


def test_names_are_this_matchs_own():
    rep = example(3)
    dice = complete(rep, "defend by=B die=", "die=")
    assert "die=紅蓮のイスルギ" in dice and "die=ギダン" in dice
    assert not any(d.endswith(("獣幽士", "鰐蛇", "武王")) for d in dice)  # other decks' dice
    assert complete(rep, "defend die=ギダ", "die=ギダ") == ["die=ギダン"]
    assert complete(rep, "attack by=", "by=") == ["by=A", "by=B"]
    assert complete(rep, "defend die=ギダン face=s", "face=s") == ["face=stand", "face=side", "face=special"]


def test_tab_in_a_real_terminal_completes_this_matchs_die(tmp_path):
    """``kifu record -i`` in a pseudo-terminal: Tab after ``die=ギダ`` gives ギダン, and the
    candidates after ``die=`` are this match's dice only (not faces, move types or other decks)."""
    import os
    import pty
    import select
    import subprocess
    import sys
    import time

    db = str(tmp_path / "kifu.db")
    kifu = str(Path(sys.executable).parent / "kifu")
    env = {k: v for k, v in os.environ.items() if k != "KIFU_DB"} | {"TERM": "xterm", "LANG": "C.UTF-8"}
    subprocess.run([kifu, "--db", db, "import", str(ROOT / "examples" / "gandice-example.jsonl")],
                   check=True, capture_output=True, env=env)
    header, _ = read_file(str(ROOT / "examples" / "gandice-example.jsonl"))
    main, child = pty.openpty()
    proc = subprocess.Popen([kifu, "--db", db, "record", header["match"]["id"], "-i"], stdin=child,
                            stdout=child, stderr=child, env=env, close_fds=True)
    os.close(child)
    seen = b""

    def read_until(found) -> None:
        nonlocal seen
        deadline = time.monotonic() + 10  # an upper bound for the terminal to answer, not a speed check
        while time.monotonic() < deadline:
            if found():
                return
            ready, _, _ = select.select([main], [], [], 0.2)
            if ready:
                try:
                    seen += os.read(main, 4096)
                except OSError:
                    return

    try:
        read_until(lambda: b"> " in seen)
        start = len(seen)  # the board printed first names ギダン too: look after it
        os.write(main, "defend by=B die=ギダ\t".encode())
        read_until(lambda: "ギダン".encode() in seen[start:])
        assert "ギダン".encode() in seen[start:], seen[start:]
        # two Tabs after a bare ``die=`` list the candidates: this match's dice, nothing else
        os.write(main, b"\x15defend by=B die=\t\t")
        start = len(seen)
        # the listing is complete when readline redraws the prompt line after it
        read_until(lambda: "紅蓮のイスルギ".encode() in seen[start:]
                   and b"> defend by=B die=" in seen[start:].split("紅蓮のイスルギ".encode(), 1)[1])
        listing = seen[start:].decode("utf-8", "replace")
        assert "紅蓮のイスルギ" in listing and "美雅羅" in listing
        assert not any(word in listing for word in ("特殊目", "summon", "獣幽士")), listing
        os.write(main, b"\x15quit\n")  # Ctrl-U clears the line, then quit
        proc.wait(20)
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(main)
