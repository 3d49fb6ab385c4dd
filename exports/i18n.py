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
from collections.abc import Callable, Mapping
from functools import cache
from pathlib import Path

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


def N_(message: str) -> str:
    """Marks a message for extraction where it is translated later (``_(variable)``)."""
    return message
