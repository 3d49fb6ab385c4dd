"""Live logging (``kifu record MATCH -i``): the scorekeeper's prompt at the table.

One line per move: ``TYPE key=value ...`` (values parsed as JSON where they parse) or a JSON
object. Tab completes move types, field names and the names of the match's cards and dice.
Nothing is undone: a mistake is fixed by a later ``correct`` line.
"""

from __future__ import annotations

import shlex
import sys
from typing import Any

from projections.errors import KifuError, LogFormatError
from recorder import logformat, service
from recorder.store import Store

HELP = """commands: TYPE key=value ...   (e.g. attack by=A die=美雅羅)
          {json object}          a whole line
          board | log | types | help | quit"""


def parse_line(text: str) -> dict[str, Any]:
    text = text.strip()
    if text.startswith("{"):  # the one log-line parser: limits, duplicate keys, NaN (issue 16)
        return logformat.loads_object(text, "line")
    try:
        words = shlex.split(text)
    except ValueError as exc:
        raise LogFormatError([f"line: {exc}"]) from None
    line: dict[str, Any] = {"type": words[0]}
    for word in words[1:]:
        key, sep, value = word.partition("=")
        if not sep:
            raise LogFormatError([f"{word}: expected key=value"])
        line[key] = logformat.loads_or_text(value, key)
    return line


def live_session(store: Store, match_id: str, strict: bool) -> int:
    from exports.text import describe, format_board

    rep = service.head(store, match_id)
    interactive = sys.stdin.isatty()
    if interactive:  # pragma: no cover
        import readline

        from recorder.completion import readline_completer

        # only this match's names, and only the fields of the move type being typed
        readline.set_completer(readline_completer(lambda: rep, readline.get_line_buffer))
        readline.set_completer_delims(" ")
        readline.parse_and_bind("tab: complete")
    print(format_board(rep, rep.steps))
    print(HELP)
    while True:
        try:
            text = input(f"{match_id} #{rep.steps + 1}> ")
        except EOFError:
            print()
            return 0
        text = text.strip()
        if not text:
            continue
        if text in ("quit", "exit", "q"):
            return 0
        if text == "help":
            print(HELP)
            continue
        if text == "types":
            for spec in rep.ruleset.move_types.values():
                print(f"  {spec.type}: {spec.summary}  fields: {', '.join(spec.fields)}")
            continue
        if text == "board":
            print(format_board(rep, rep.steps))
            continue
        if text == "log":
            for e in rep.entries[-10:]:
                print(f"{e['seq']:>5} {describe(e)}")
            continue
        try:
            line = parse_line(text)
            _, found = service.record(store, match_id, line, strict=strict)  # the one record path
        except KifuError as exc:
            problems = exc.problems if isinstance(exc, LogFormatError) else [str(exc)]
            for p in problems:
                print(f"kifu: {p}")
            continue
        finally:
            rep = service.head(store, match_id)  # whatever anyone recorded meanwhile
        print(format_board(rep, rep.steps))
        for v in found:
            print(f"✗ {v.rule}: {v.message}")
