"""Languages of what a person reads: Japanese first, English on request.

Messages are written in English in the code and the templates (``_("...")``, ``{% trans %}``)
and translated to Japanese by the gettext catalog ``exports/locale/ja/LC_MESSAGES/kifu.po``
(managed with Babel: ``make i18n`` extracts ``kifu.pot``, updates the catalog and compiles
``kifu.mo``, which is committed so the running program needs no Babel). English is the source
language, so it needs no catalog. ``tests/web/test_i18n.py`` fails when a string shown to a
person has no Japanese translation, or when a template shows text outside a message.

How a language is chosen: a page takes ``?lang=``, then the ``kifu-lang`` cookie, then
``Accept-Language``; the CLI takes ``--lang``, then ``KIFU_LANG``, ``LC_ALL``, ``LC_MESSAGES``,
``LANG``. Anything else means Japanese.
"""

from __future__ import annotations

import gettext
import os
import re
from collections.abc import Callable, Mapping
from typing import Any
from functools import cache
from pathlib import Path

from projections.base import N_, Said, said_of  # noqa: F401 (N_ for the faces: one marker everywhere)

LANGS = ("ja", "en")
DEFAULT = "ja"
DOMAIN = "kifu"
LOCALE_DIR = Path(__file__).resolve().parent / "locale"


def normalise(value: str | None) -> str | None:
    """``"en_US.UTF-8"``, ``"en-GB"``, ``"EN"`` -> ``"en"``; ``None`` for what kifu does not speak."""
    if not value:
        return None
    code = value.strip().split(".")[0].replace("-", "_").split("_")[0].lower()
    return code if code in LANGS else None


def from_accept_language(header: str | None) -> str | None:
    """The first language of an ``Accept-Language`` header kifu speaks, by q-value."""
    if not header:
        return None
    choices: list[tuple[float, int, str]] = []
    for i, part in enumerate(header.split(",")):
        tag, _, params = part.strip().partition(";")
        q = 1.0
        if params.strip().startswith("q="):
            try:
                q = float(params.strip()[2:])
            except ValueError:
                q = 0.0
        lang = normalise(tag)
        if lang and q > 0:
            choices.append((-q, i, lang))
    return min(choices)[2] if choices else None


def pick(*candidates: str | None) -> str:
    """The first candidate kifu speaks, else Japanese."""
    for c in candidates:
        lang = normalise(c)
        if lang:
            return lang
    return DEFAULT


def from_environment(environ: Mapping[str, str] | None = None) -> str:
    env = os.environ if environ is None else environ
    for name in ("KIFU_LANG", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name)
        if value and value not in ("C", "POSIX", "C.UTF-8"):
            return pick(value)
    return DEFAULT


@cache
def translations(lang: str) -> gettext.NullTranslations:
    if lang == "en":
        return gettext.NullTranslations()
    return gettext.translation(DOMAIN, str(LOCALE_DIR), languages=[lang])


def gettext_for(lang: str) -> Callable[[str], str]:
    return translations(pick(lang)).gettext


def ngettext_for(lang: str) -> Callable[[str, str, int], str]:
    return translations(pick(lang)).ngettext


def word_table(build: Callable[[gettext.NullTranslations], Mapping[str, str]]) -> Callable[[str | None], dict[str, str]]:
    """A module's table of words as ``labels(lang)``: ``build(t)`` gives the words from the
    catalog's translations ``t`` (``t.pgettext("event", "Table")`` …, which ``make i18n``
    extracts), built once per language and handed out as a fresh dict (Japanese unless "en")."""
    @cache
    def table(lang: str) -> tuple[tuple[str, str], ...]:
        return tuple(build(translations(lang)).items())

    def labels(lang: str | None) -> dict[str, str]:
        return dict(table(pick(lang or DEFAULT)))

    return labels


# -- messages built in English elsewhere (refusals, errors), said in the reader's language ----
#
# The rulesets and the recorder build their messages in English from templates marked with
# ``N_()``, filled with ``said`` where they are raised (``said(N_("a 通常目 needs its number
# 1-6, got {value}"), value=v)``): a ``Said`` is the English text (what their tests read) and
# remembers its template and values, so ``translate`` says it in the reader's language by
# translating the template first and filling it after, each value that is a message itself
# said alike. A message that lost what it was made of (it went through JSON, an f-string, an
# exception's ``str``) is matched against the catalog's templates instead (the placeholders as
# wildcards), and the matching template's translation is filled with the same values. A
# message no template matches is shown as it is.

_PLACEHOLDER = re.compile(r"\{(\w*)(?:![rsa])?(?::[^{}]*)?\}")


@cache
def _patterns(lang: str) -> tuple[tuple[str, str, tuple[str, ...], str], ...]:
    """(anchor, template, placeholder names in order, translation) of every template of the
    catalog with a placeholder: a template that ends in words before one that ends in a value
    (which could swallow the words of a message around it: "{violations} (not recorded:
    --strict)"), then the most literal. The anchor, the template's longest fixed words, must be
    in a text for its pattern to be tried (and compiled, once: ``_regex``)."""
    catalog = getattr(translations(lang), "_catalog", {})
    found = []
    for msgid, msgstr in catalog.items():
        if not isinstance(msgid, str) or "{" not in msgid or not msgstr:
            continue
        parts = _PLACEHOLDER.split(msgid)
        # split gives literal, name, literal, name, ..., literal
        if len(parts) < 3:
            continue
        literals = parts[0::2]
        if any(not lit for lit in literals[1:-1]):
            continue  # two placeholders side by side: no telling where one ends
        key = (not literals[-1], -sum(len(x) for x in literals))
        specs = tuple(m.group(0) for m in _PLACEHOLDER.finditer(msgid))  # "{value!r}": the name and how it is shown
        found.append((key, max(literals, key=len), msgid, specs, msgstr))
    found.sort(key=lambda p: p[0])
    return tuple((anchor, msgid, specs, msgstr) for _key, anchor, msgid, specs, msgstr in found)


@cache
def _regex(template: str) -> re.Pattern[str]:
    parts = _PLACEHOLDER.split(template)
    literals, count = parts[0::2], len(parts) // 2
    return re.compile(
        "".join(re.escape(lit) + (f"(?P<g{i}>.*?)" if i < count else "") for i, lit in enumerate(literals)), re.S
    )


def _fill(template: str, specs: tuple[str, ...], values: list[str]) -> str:
    """``template`` (a translation) with the values its message was filled with: a placeholder
    takes the value of the same placeholder in the message (``{value!r}`` and ``{value}`` are
    two), else of the same name."""
    by_spec: dict[str, str] = {}
    by_name: dict[str, str] = {}
    for spec, value in zip(specs, values):
        by_spec.setdefault(spec, value)
        by_name.setdefault(_PLACEHOLDER.fullmatch(spec).group(1), value)  # type: ignore[union-attr]
    order = iter(values)

    def one(m: Any) -> str:
        name = m.group(1)
        if m.group(0) in by_spec and name:
            return by_spec[m.group(0)]
        if name and not name.isdigit():
            return by_name.get(name, m.group(0))
        if name.isdigit():
            return values[int(name)] if int(name) < len(values) else m.group(0)
        return next(order, m.group(0))

    return _PLACEHOLDER.sub(one, template)


def _whole(lang: str, text: str, depth: int) -> str | None:
    """``text`` translated when all of it is one message of the catalog, else None."""
    said = _whole_scored(lang, text, depth)
    return None if said is None else said[0]


def _whole_scored(lang: str, text: str, depth: int) -> tuple[str, int] | None:
    """``_whole``, with how many fixed characters the template that matched has (a message
    word for word counts all of its own)."""
    if not text.strip():
        return None  # the empty message is the catalog's header
    catalog = getattr(translations(lang), "_catalog", {})
    said = catalog.get(text)
    if said:
        return str(said), len(text)
    if "{" in text and _PLACEHOLDER.search(text):
        return None  # a template itself is not a message filled in
    for anchor, template, specs, msgstr in _patterns(lang):
        if anchor not in text:
            continue
        m = _regex(template).fullmatch(text)
        if m is None:
            continue
        values = [m.group(f"g{i}") for i in range(len(specs))]
        if depth < 2:  # a value that is itself a message (a problem inside a problem)
            values = [translate(lang, v, depth + 1) if " " in v else v for v in values]
        return _fill(msgstr, specs, values), len(_PLACEHOLDER.sub("", template))
    return None


def translate(lang: str, text: str, depth: int = 0) -> str:
    """A message built in English (a refusal, an error) in ``lang``: all of it when the catalog
    has it, else its tail after a ``where: field:`` prefix (``game.jsonl:3: face: a 通常目
    needs ...``), each part of a ``; ``-joined list alike. English is returned as it is."""
    lang = pick(lang)
    if lang == "en" or not text:
        return text
    if isinstance(text, Said):
        return say(lang, text)
    catalog = getattr(translations(lang), "_catalog", {})
    said = catalog.get(text) if text.strip() else None
    if said:
        return str(said)
    cuts = sorted(m.end() for m in re.finditer(r": |：", text))
    for cut in cuts:  # a message after a prefix, word for word, before any template
        tail = text[cut:]
        if tail.strip() and catalog.get(tail):
            return text[:cut] + str(catalog[tail])
    scored = _whole_scored(lang, text, depth)
    if scored is not None:
        # a short template can take a prefix in as one of its values ("{card} has no {label}"
        # swallowing "match.table: round 1 of 'E' has no table '9'"): the message after a
        # prefix wins when its template says more words of it
        best, fixed = scored
        for cut in cuts:
            after = _whole_scored(lang, text[cut:], depth)
            if after is not None and after[1] > fixed:
                best, fixed = text[:cut] + after[0], after[1]
        return best
    if "; " in text:
        parts = text.split("; ")
        done = [translate(lang, p, depth + 1) for p in parts]
        if done != parts:
            return "; ".join(done)
    for cut in cuts:
        said = _whole(lang, text[cut:], depth)
        if said is not None:
            return text[:cut] + said
    return text


def say(lang: str, message: Said) -> str:
    """``message`` in ``lang``: its template translated, then filled with its values (a value
    that is a message said in ``lang`` too). A template the catalog lacks (glue such as
    ``"{where}: {problem}"``) is filled as it is; a translation that cannot be filled with the
    message's values (a placeholder it does not have) falls back to the English."""
    lang = pick(lang)
    if lang == "en":
        return str.__str__(message)
    template = gettext_for(lang)(message.template) or message.template
    if not message.args and not message.params:
        return template

    def one(value: Any) -> Any:
        return say(lang, value) if isinstance(value, Said) else value

    try:
        return template.format(*(one(a) for a in message.args), **{k: one(v) for k, v in message.params.items()})
    except (KeyError, IndexError, ValueError, AttributeError):
        return str.__str__(message)


def violation_json(lang: str, violation: Any) -> dict[str, Any]:
    """A violation's JSON (``Violation.to_json``) with its message said in ``lang``: what the
    recording page and the record API show beside a line."""
    out: dict[str, Any] = violation.to_json()
    out["message"] = translate(lang, violation.message)
    return out


