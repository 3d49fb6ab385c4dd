"""Live logging (``kifu record MATCH -i``): the scorekeeper's prompt at the table.

One line per move: ``TYPE key=value ...`` (values parsed as JSON where they parse) or a JSON
object. Tab completes move types, field names and the names of the match's cards and dice.
Nothing is undone: a mistake is fixed by a later ``correct`` line. What it prints (the help,
the board, the refusals) is in the run's language (``kifu --lang``; Japanese by default), from
the catalog; the commands typed (``board``, ``quit``, move types, field names) are the same in
every language.
"""

from __future__ import annotations

import shlex
import sys
from typing import Any

from projections.base import N_, at, said, said_of
from projections.errors import KifuError, LogFormatError
from recorder import logformat, service
from recorder.store import Store

# the words typed (TYPE, key=value, board, log, ...) stay as they are: they are what kifu reads
HELP = N_("""commands: TYPE key=value ...   (e.g. attack by=A die=美雅羅)
          {"type": …}            a whole line as JSON
          board | log | types | help | quit""")


def parse_line(text: str) -> dict[str, Any]:
    text = text.strip()
    if text.startswith("{"):  # the one log-line parser: limits, duplicate keys, NaN (issue 16)
        return logformat.loads_object(text, "line")
    try:
        words = shlex.split(text)
    except ValueError as exc:
        raise LogFormatError([said(N_("line: {exc}"), exc=exc)]) from None  # shlex's own words ("No closing quotation")
    line: dict[str, Any] = {"type": words[0]}
    for word in words[1:]:
        key, sep, value = word.partition("=")
        if not sep:
            raise LogFormatError([at(f"{word}", N_("expected key=value"))])
        line[key] = logformat.loads_or_text(value, key)
    return line


def live_session(store: Store, match_id: str, strict: bool, lang: str = "ja") -> int:
    from exports.i18n import gettext_for, translate
    from exports.notation import line_text
    from exports.recording import TYPE_JA
    from exports.text import format_board

    _ = gettext_for(lang)
    rep = service.head(store, match_id)
    interactive = sys.stdin.isatty()
    if interactive:  # pragma: no cover
        import readline

        from recorder.completion import readline_completer

        # only this match's names, and only the fields of the move type being typed
        readline.set_completer(readline_completer(lambda: rep, readline.get_line_buffer))
        readline.set_completer_delims(" ")
        readline.parse_and_bind("tab: complete")
    print(format_board(rep, rep.steps, lang))
    print(_(HELP))
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
            print(_(HELP))
            continue
        if text == "types":
            for spec in rep.ruleset.move_types.values():
                name = spec.type if lang == "en" else f"{spec.type} ({TYPE_JA.get(spec.type, spec.type)})"
                summary = _(spec.summary) if spec.summary else ""
                print("  " + _("{type}: {summary}  fields: {fields}").format(
                    type=name, summary=summary, fields=", ".join(spec.fields)))
            continue
        if text == "board":
            print(format_board(rep, rep.steps, lang))
            continue
        if text == "log":  # the last lines in words, as kifu log says them
            names = {p["id"]: p.get("name") or p["id"] for p in rep.header["players"]}
            for e in rep.entries[-10:]:
                before = rep.board(e["seq"] - 1) if e["seq"] <= rep.steps else None
                print(f"{e['seq']:>5} {line_text(rep.ruleset, before, e, lang, names)}")
            continue
        try:
            line = parse_line(text)
            seq, found = service.record(store, match_id, line, strict=strict)  # the one record path
        except KifuError as exc:
            problems = exc.problems if isinstance(exc, LogFormatError) else [said_of(exc)]
            for p in problems:
                print(f"kifu: {translate(lang, p)}")
            continue
        finally:
            rep = service.head(store, match_id)  # whatever anyone recorded meanwhile
        print(format_board(rep, rep.steps, lang))  # with the ✗ rules its last line broke
        if seq != rep.steps:  # someone recorded after this line: say what this one broke
            for v in found:
                print(f"✗ {v.rule}: {translate(lang, v.message)}")
