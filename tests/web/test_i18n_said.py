"""Every message in the reader's language (issue 37, item 5): a message is translated from its
template, then filled (``said(N_("..."), value=...)``, projections/base.py), never filled in
English first and matched back. A static walk over the code finds a template formatted,
concatenated or built before it reaches the catalog; every template has Japanese that takes
the same values."""

from __future__ import annotations

import ast
import re
import string
from pathlib import Path


from exports import i18n
from projections.base import N_, Said, at, said

ROOT = Path(__file__).resolve().parents[2]
CODE = [p for d in ("recorder", "projections", "exports") for p in sorted((ROOT / d).rglob("*.py"))]
GLUE = re.compile(r"[^A-Za-z]*(?:\{\w*(?:![rsa])?(?::[^{}]*)?\}[^A-Za-z{]*)*")  # only placeholders and punctuation


def _parents(tree: ast.AST) -> dict[ast.AST, ast.AST]:
    return {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}


def _called(node: ast.AST, name: str) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == name


ENGLISH = re.compile(r"[A-Za-z]{3,}")  # a word in a message's own text
MESSAGE_CALLS = {"FieldError", "Violation", "v", "AuthError", "LogFormatError", "IllegalMoveError", "ConflictError",
                 "NotFoundError", "WorkflowError", "UnknownGameError", "DuplicateMatchError", "KifuError"}


def _is_message(node: ast.AST, up: dict[ast.AST, ast.AST]) -> bool:
    """``node`` is (part of) a message: an argument of an error or a violation, or the message
    of a ``(rule id, message, ...)`` tuple a check returns."""
    child, parent = node, up.get(node)
    while isinstance(parent, (ast.List, ast.BinOp, ast.IfExp, ast.ListComp, ast.Starred)):
        child, parent = parent, up.get(parent)
    if isinstance(parent, ast.Call) and isinstance(parent.func, ast.Name) and parent.func.id in MESSAGE_CALLS:
        at = {"FieldError": 1, "v": 1, "AuthError": 1, "Violation": 2}.get(parent.func.id, 0)  # the message, not the field
        return len(parent.args) > at and parent.args[at] is child
    if isinstance(parent, ast.Call) and isinstance(parent.func, ast.Attribute) and parent.func.attr == "flag":
        return len(parent.args) > 1 and parent.args[1] is child  # a card text's reader: L.flag(rule, message, ...)
    if isinstance(parent, ast.Tuple) and len(parent.elts) >= 2 and parent.elts[1] is child:
        first = parent.elts[0]
        return isinstance(first, ast.Constant) and isinstance(first.value, str) and bool(
            re.fullmatch(r"[A-Z]+-\d+(\.\d+)*", first.value))
    return False


def misuses(source: str, where: str) -> list[str]:
    """Where ``source`` builds a message before it is translated: ``N_`` of anything but one
    literal; an ``N_`` result formatted (``.format``, ``%``), concatenated or put in an
    f-string; ``said`` of a template that is neither ``N_("...")`` nor glue (placeholders and
    punctuation only, ``"{where}: {problem}"``)."""
    tree = ast.parse(source)
    up = _parents(tree)
    found = []
    for node in ast.walk(tree):
        line = f"{where}:{getattr(node, 'lineno', 0)}"
        if _called(node, "N_"):
            assert isinstance(node, ast.Call)
            if len(node.args) != 1 or node.keywords or not (
                isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)
            ):
                found.append(f"{line}: N_ of something other than one literal")
            parent = up.get(node)
            while isinstance(parent, (ast.IfExp, ast.BoolOp)):  # N_("a") if x else N_("b"): the same
                parent = up.get(parent)
            if isinstance(parent, ast.Attribute):
                found.append(f"{line}: N_(...).{parent.attr}: the template is used before it is translated")
            elif isinstance(parent, ast.BinOp) and isinstance(parent.op, (ast.Add, ast.Mod)):
                found.append(f"{line}: N_(...) {'+' if isinstance(parent.op, ast.Add) else '%'}: built from pieces")
            elif isinstance(parent, ast.FormattedValue):
                found.append(f"{line}: N_(...) in an f-string")
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and _is_message(node, up) \
                and re.search(r"[A-Za-z]{2,} [A-Za-z]{2,}", node.value):
            found.append(f"{line}: a message not marked for the catalog (N_(\"...\"))")
        if isinstance(node, ast.JoinedStr) and _is_message(node, up):
            words = " ".join(v.value for v in node.values if isinstance(v, ast.Constant) and isinstance(v.value, str))
            if ENGLISH.search(words):
                found.append(f"{line}: a message written as an f-string (said(N_(\"...\"), ...) instead)")
        if _called(node, "said"):
            assert isinstance(node, ast.Call)
            first = node.args[0] if node.args else None
            if _called(first, "N_") or (isinstance(first, ast.IfExp) and _called(first.body, "N_")
                                        and _called(first.orelse, "N_")):
                continue
            if isinstance(first, ast.Constant) and isinstance(first.value, str) and GLUE.fullmatch(first.value):
                continue
            found.append(f"{line}: said() of a template that is neither N_(\"...\") nor glue")
    return found


def test_the_check_bites():
    bad = '\n'.join([
        'a = N_("power {a}").format(a=1)',
        'b = "x: " + N_("missing")',
        'c = N_("%s cards") % 3',
        'd = f"{N_(\'late\')} here"',
        'e = N_(f"built {x}")',
        'f = N_("one " "two" + z)',
        'g = said("words {x}", x=1)',
        'h = "where: " + (N_("yes") if z else N_("no"))',
        'i = FieldError("on", f"seq {n} is not a move")',
        'j = [("GL-8.6", f"{card} draws {n} cards", None)]',
        'k = LogFormatError(["a refusal in English"])',
    ])
    lines = {m.split(":")[1] for m in misuses(bad, "bad.py")}
    assert lines == {str(n) for n in range(1, 12)}, misuses(bad, "bad.py")
    good = ('a = said(N_("power {a}"), a=1)\nb = at("x", N_("missing"))\nc = said("{where}: {problem}", where=1, problem=2)\n'
            'd = FieldError("on", f"{n}: {m}")')
    assert misuses(good, "good.py") == []


def test_no_message_is_filled_before_it_is_translated():
    found = [m for p in CODE for m in misuses(p.read_text(encoding="utf-8"), str(p.relative_to(ROOT)))]
    assert not found, "\n".join(found)


def _fields(template: str) -> set[str]:
    return {f"{{{name}{'!' + conv if conv else ''}}}" for _lit, name, _spec, conv in string.Formatter().parse(template)
            if name is not None}


def test_every_translation_takes_the_values_of_its_template():
    """A translation has the placeholders of its template, no more (a ``{value}`` it lacks
    would leave the reader without the value; one it adds could not be filled)."""
    from tests.web.test_i18n import japanese

    wrong = []
    for msgid, msgstr in japanese().items():
        if isinstance(msgid, tuple) or not isinstance(msgstr, str) or not msgstr or "{" not in msgid:
            continue
        try:
            want, got = _fields(msgid), _fields(msgstr)
        except ValueError:
            continue  # not a str.format template (a brace in prose)
        names = lambda fs: {re.sub(r"!.*", "", f) for f in fs}  # noqa: E731
        if names(got) - names(want) or names(want) - names(got):
            wrong.append((msgid, msgstr))
    assert not wrong, wrong


def test_a_message_is_said_from_its_template():
    inner = said(N_("{pid} holds {hand} cards and discards down to {HAND_LIMIT} ({need} cards), not {discarded}"),
                 pid="A", hand=8, HAND_LIMIT=6, need=2, discarded=1)
    msg = at("line 3", inner)
    assert isinstance(msg, Said) and msg == "line 3: A holds 8 cards and discards down to 6 (2 cards), not 1"
    ja = i18n.translate("ja", msg)
    assert ja == "line 3: A の手札は 8 枚で、6 枚まで捨てます（2 枚。1 枚ではありません）"
    assert i18n.translate("en", msg) == msg
    # a value that is a message is said too; one that is a name stays as recorded
    nested = said(N_("{card} is not playable: {why}"), card="missing", why=N_("missing"))
    assert i18n.translate("ja", nested).startswith("missing ")
