"""The one registry of games. The recorder and the exports find a game only through here.

Adding a game is one line in ``GAMES``: the package exposes ``RULESETS = {version: ruleset}``
so that matches recorded under an older version of the rules still replay as recorded.

A game is named by its name (``gandice``) or by one of the names its ruleset declares in its
own ``aliases`` (the Japanese titles of its rules and the short forms players use, e.g.
``眼魔伝ガンダイス``, ``ガンダイス``, ``gd``): the registry keeps no list of its own. Names are
compared after NFKC, case folding, and without spaces and the marks players write or leave out
between words (``＝``, ``・``, ``-``, ``_``): ``ヴァリアンツ＝ウォー``, ``ヴァリアンツ=ウォー`` and
``ヴァリアンツウォー`` are one name.
"""

from __future__ import annotations

import importlib
import re
import unicodedata
from functools import cache

from projections.base import N_, said
from projections.base import Ruleset
from projections.errors import UnknownGameError

GAMES: dict[str, str] = {
    "gandice": "projections.gandice",
    "mushijingi": "projections.mushijingi",
    "gurren-lagann": "projections.gurren_lagann",
    "variants-war": "projections.variants_war",
}
ALIASES: dict[str, str] = {}  # names of games added at run time (``register``), by name_key
_APART = re.compile(r"[\s=・･_\-]+")


def name_key(name: str) -> str:
    """A game's name as compared: NFKC, case folded, without spaces and ``=``, ``・``, ``-``, ``_``."""
    return _APART.sub("", unicodedata.normalize("NFKC", str(name)).casefold())


def canonical(name: str) -> str:
    key = name.strip().lower()
    if key in GAMES:  # the usual case (a header's game): no package is loaded to tell
        return key
    wanted = name_key(name)
    found = ALIASES.get(wanted) or _declared().get(wanted)
    if found is None:
        raise UnknownGameError(said(N_("unknown game {name!r} (known: {known})"), name=name, known=', '.join(GAMES)))
    return found


@cache
def _declared() -> dict[str, str]:
    """Every built-in game's names as its rulesets declare them (their ``aliases``, and the
    game's own name), by ``name_key``: read once, when a name is not a game's own."""
    out: dict[str, str] = {}
    for game in available():
        for ruleset in _versions(game).values():
            for alias in (game, *ruleset.aliases):
                out.setdefault(name_key(alias), game)
    return out


_PLUGINS: dict[str, dict[int, Ruleset]] = {}


def register(name: str, rulesets: dict[int, Ruleset], aliases: tuple[str, ...] = ()) -> None:
    """Add a game at run time (plugins, tests). Built-in games are listed in ``GAMES``."""
    _PLUGINS[name] = dict(rulesets)
    GAMES.setdefault(name, f"<plugin {name}>")
    for alias in (name, *aliases):
        ALIASES[name_key(alias)] = name


@cache
def _load(game: str) -> dict[int, Ruleset]:
    try:
        module = importlib.import_module(GAMES[game])
    except ModuleNotFoundError as exc:
        if exc.name and GAMES[game].startswith(exc.name):
            raise UnknownGameError(said(N_("game {game!r} is not available in this build"), game=game)) from None
        raise
    return dict(module.RULESETS)


def _versions(game: str) -> dict[int, Ruleset]:
    if game in _PLUGINS:
        return _PLUGINS[game]
    return _load(game)


def available() -> list[str]:
    """Games whose ruleset package is present."""
    out = []
    for game in GAMES:
        try:
            _versions(game)
        except UnknownGameError:
            continue
        out.append(game)
    return out


def get(name: str, version: int | None = None) -> Ruleset:
    """The ruleset for ``name`` (a game, an alias, or ``"game/version"``); newest by default."""
    if "/" in name and version is None:
        name, _, ver = name.partition("/")
        try:
            version = int(ver)
        except ValueError:
            raise UnknownGameError(said(N_("bad rules version {version!r} (expected e.g. gandice/1)"), version=ver)) from None
    game = canonical(name)
    versions = _versions(game)
    if version is None:
        return versions[max(versions)]
    if version not in versions:
        known = ", ".join(f"{game}/{v}" for v in sorted(versions))
        raise UnknownGameError(said(N_("no ruleset {game}/{version} (known: {known})"), game=game, version=version, known=known))
    return versions[version]


def for_header(header: dict) -> Ruleset:
    """The ruleset a match was recorded under (its header's ``rules``, else ``game``)."""
    rules = header.get("rules")
    if rules:
        return get(rules)
    return get(header["game"])
