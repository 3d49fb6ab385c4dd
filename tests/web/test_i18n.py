"""Every string a person reads — on a page, a board, in the CLI's help, messages and errors, in
a refusal — has a Japanese translation (English is the source language), the compiled catalog
is the one the .po says, and no template shows text outside a message. The CLI's own tests are
tests/core/test_cli_lang.py, the boards' tests/web/test_i18n_boards.py."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from exports import i18n

ROOT = Path(__file__).resolve().parents[2]
PO = i18n.LOCALE_DIR / "ja" / "LC_MESSAGES" / "kifu.po"
MO = PO.with_suffix(".mo")
TEMPLATE_DIRS = (ROOT / "exports" / "templates", ROOT / "exports" / "stats_templates")
# Text a template may show outside a message: names that are the same in every language.
ALLOWED_WORDS = {"kifu", "API", "English", "vs", "stats"}


def extracted() -> set[str | tuple[str, str]]:
    """The messages Babel finds where ``make i18n`` looks (exports/locale/babel.cfg: the pages'
    code and templates, the CLI with its help, the boards, the refusals of the log format and
    the rulesets), a message with a context as (context, message)."""
    from babel.messages.catalog import Catalog
    from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
    from babel.messages.frontend import parse_mapping_cfg

    with (i18n.LOCALE_DIR / "babel.cfg").open(encoding="utf-8") as fh:
        method_map, options = parse_mapping_cfg(fh)
    catalog = Catalog()
    keywords = {**DEFAULT_KEYWORDS, "N_": None}
    for _filename, _lineno, message, _comments, context in extract_from_dir(
        str(ROOT), method_map, options, keywords=keywords
    ):
        catalog.add(message, context=context)
    return {_key(m) for m in catalog if m.id}


def _key(m: Any) -> str | tuple[str, str]:
    mid = m.id[0] if isinstance(m.id, (list, tuple)) else m.id
    return (m.context, mid) if m.context else mid


def japanese() -> dict[str | tuple[str, str], object]:
    from babel.messages.pofile import read_po

    with PO.open("rb") as fh:
        catalog = read_po(fh, locale="ja")
    return {_key(m): m.string for m in catalog if m.id}


def test_every_message_has_a_japanese_translation():
    found = extracted()
    assert len(found) > 1000  # the pages, the CLI and its help, the boards, the refusals
    ja = japanese()
    missing = sorted((m for m in found if m not in ja), key=str)
    assert not missing, f"not in {PO.relative_to(ROOT)} (run make i18n): {missing}"
    empty = sorted((m for m in found if not (all(ja[m]) if isinstance(ja[m], tuple) else ja[m])), key=str)
    assert not empty, f"no Japanese for: {empty}"


def test_the_compiled_catalog_is_the_po():
    from babel.messages.mofile import read_mo

    def norm(v: object) -> object:
        return tuple(v) if isinstance(v, (list, tuple)) else v

    with MO.open("rb") as fh:
        compiled = {_key(m): norm(m.string) for m in read_mo(fh) if m.id}
    ja = {k: norm(v) for k, v in japanese().items() if v and (all(v) if isinstance(v, tuple) else True)}
    assert compiled == ja, "kifu.mo is stale: run make i18n"


def test_the_running_program_uses_the_catalog():
    _ = i18n.gettext_for("ja")
    assert _("Matches") == "対局一覧" and i18n.gettext_for("en")("Matches") == "Matches"
    assert i18n.ngettext_for("ja")("%(num)s match", "%(num)s matches", 3) == "%(num)s 局"


def visible_text(source: str) -> str:
    """What a template shows outside Jinja tags and expressions, without markup."""
    text = re.sub(r"\{#.*?#\}", " ", source, flags=re.S)
    text = re.sub(r"\{% block body_class %\}.*?\{% endblock %\}", " ", text, flags=re.S)  # a class, not text
    text = re.sub(r"\{%.*?%\}", " ", text, flags=re.S)
    text = re.sub(r"\{\{.*?\}\}", " ", text, flags=re.S)
    text = re.sub(r"<(style|script)\b.*?</\1>", " ", text, flags=re.S | re.I)
    text = re.sub(r"<[^>]*>", " ", text)
    return re.sub(r"&\w+;", " ", text)


@pytest.mark.parametrize("template", [p for d in TEMPLATE_DIRS for p in sorted(d.glob("*.html"))], ids=lambda p: p.name)
def test_templates_show_no_text_outside_a_message(template):
    words = re.findall(r"[A-Za-z]+|[\u3040-\u30ff\u4e00-\u9fff]+", visible_text(template.read_text(encoding="utf-8")))
    # a single letter is a seat or a round mark (A, B, R1); 日本語 is the language switch's own name
    stray = [w for w in words if w not in ALLOWED_WORDS and w not in ("日本語", "棋譜") and len(w) > 1]
    assert not stray, f"{template.name}: text outside _() / trans: {stray}"


@pytest.mark.parametrize(("given", "want"), [
    ("en_US.UTF-8", "en"), ("ja_JP.UTF-8", "ja"), ("EN", "en"), ("fr_FR", "ja"), (None, "ja"), ("", "ja"),
])
def test_language_from_the_environment(given, want):
    env = {} if given is None else {"LANG": given}
    assert i18n.from_environment(env) == want


def test_accept_language_by_quality():
    assert i18n.from_accept_language("fr-FR, en;q=0.8, ja;q=0.9") == "ja"
    assert i18n.from_accept_language("en-US,en;q=0.9") == "en"
    assert i18n.from_accept_language("de, fr") is None
    assert i18n.from_accept_language("ja;q=0, en;q=0.1") == "en"


def test_every_page_picks_the_language_alike(readonly):
    """The replay page, the recording page and the event desk choose their language the same
    way: ?lang=, then the cookie, then the browser's Accept-Language, else Japanese."""
    from tests.web.matches import toy_match

    header = toy_match("toy-1")[0]
    mid, event = header["match"]["id"], header["match"].get("event") or "generated"
    english = {"Accept-Language": "en-US,en;q=0.9"}

    def nav(path: str, headers: dict | None = None, cookies: dict | None = None, query: str = "") -> str:
        with readonly.client() as c:  # a client of its own: no cookie carried over
            c.cookies.update(cookies or {})
            r = c.get(path + query, headers=headers or {})
        assert r.status_code == 200, (path, r.status_code)
        return "ja" if "対局一覧" in r.text else "en" if ">Matches<" in r.text else "?"

    for path in (f"/matches/{mid}", f"/matches/{mid}/record", f"/events/{event}"):
        assert nav(path) == "ja", path  # nothing said: Japanese
        assert nav(path, headers=english) == "en", path
        assert nav(path, headers=english, query="?lang=ja") == "ja", path
        assert nav(path, headers=english, cookies={"kifu-lang": "ja"}) == "ja", path
        assert nav(path, cookies={"kifu-lang": "en"}) == "en", path
