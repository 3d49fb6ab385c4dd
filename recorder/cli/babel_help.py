"""A Babel extractor (exports/locale/babel.cfg, ``make i18n``): the messages of the CLI's
modules, plus what typer shows as help: the docstring of every command (a function decorated
with ``@….command`` or ``@….callback``) and every ``help="..."`` given to typer (an option's,
an argument's, a command group's). ``recorder.cli.said_in`` translates them when the help is
shown. Only Babel imports this."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import IO, Any


def extract(fileobj: IO[bytes], keywords: Any, comment_tags: Any, options: Any) -> Iterator[Any]:
    from babel.messages.extract import extract_python

    source = fileobj.read()
    fileobj.seek(0)
    yield from extract_python(fileobj, keywords, comment_tags, options)
    for lineno, doc in help_texts(source.decode("utf-8")):
        yield lineno, None, doc, []


def help_texts(source: str) -> Iterator[tuple[int, str]]:
    """(line, text as typer shows it) of each command's docstring and each ``help=`` string
    in a module's source."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call):
            for kw in node.keywords:
                if kw.arg == "help" and isinstance(kw.value, ast.Constant) and isinstance(kw.value.value, str):
                    yield kw.value.lineno, kw.value.value
            continue
        if not isinstance(node, ast.FunctionDef):
            continue
        if not any(
            isinstance(d, ast.Call) and isinstance(d.func, ast.Attribute) and d.func.attr in ("command", "callback")
            for d in node.decorator_list
        ):
            continue
        doc = ast.get_docstring(node, clean=True)
        if doc:
            yield node.lineno, doc
