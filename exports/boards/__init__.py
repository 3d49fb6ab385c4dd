"""Board renderers: one per game, each drawing HTML from the DESIGN board JSON only.

``render(board_json)`` is what the report, the server and the tests call. A game without its
own renderer (a plugin, the test game) gets the generic one. Every piece of text goes through
``esc`` so names and card text from a log can never become markup.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any

from markupsafe import Markup

from exports.boards.common import esc, generic_body, players_order, status_line, violations_html

RENDERERS: dict[str, str] = {
    "gandice": "exports.boards.gandice",
    "mushijingi": "exports.boards.mushijingi",
    "gurren-lagann": "exports.boards.gurren_lagann",
    "variants-war": "exports.boards.variants_war",
}


def body_renderer(game: str) -> Callable[..., str]:
    """``body(board_json, lang)``: the board's body in ``lang`` (its labels from the catalog)."""
    module = RENDERERS.get(game)
    if module is None:
        return generic_body
    return importlib.import_module(module).body  # type: ignore[no-any-return]


def render(board: Mapping[str, Any], names: Mapping[str, str] | None = None, lang: str = "ja") -> Markup:
    """The board of one step as an HTML fragment (safe to insert as-is). A decided board
    carries the class ``decided`` (nobody is "to play" any more)."""
    game = str(board.get("game", ""))
    body = body_renderer(game)(board, lang)
    decided = " decided" if board.get("result") else ""
    parts = [
        f'<div class="board board-{esc(game)}{decided}">',
        status_line(board, names or {}, lang),
        body,
        violations_html(board, lang),
        "</div>",
    ]
    return Markup("".join(parts))


__all__ = ["esc", "players_order", "render"]
