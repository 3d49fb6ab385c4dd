"""What a person reads of a top cut: the bracket (projections/bracket.py) on the desk
(``_bracket.html`` in ``_desk.html``), on its public page ``/events/E/bracket``
(``event_bracket.html``) and in the terminal (``kifu event bracket E``). Japanese by default,
English with ``lang="en"``: every word from the gettext catalog (exports/locale, context
"event").
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

from exports import event_pages, i18n

__all__ = ["bracket_block", "bracket_text", "labels", "status_word"]


def labels(lang: str | None) -> dict[str, str]:
    return {**event_pages.labels(lang), **dict(_labels(i18n.pick(lang or "ja")))}


@cache
def _labels(lang: str) -> tuple[tuple[str, str], ...]:
    t = i18n.translations(lang)
    return tuple({
        "final": t.pgettext("event", "Final"),
        "semifinal": t.pgettext("event", "Semifinal"), "quarterfinal": t.pgettext("event", "Quarterfinal"),
        "round_of": t.pgettext("event", "Round of {n}"), "seed": t.pgettext("event", "Seed"),
        "champion": t.pgettext("event", "Champion"), "no_cut": t.pgettext("event", "No top cut yet"),
        "chooses": t.pgettext("event", "chooses who plays first"), "advances": t.pgettext("event", "advances"),
        "top_of": t.pgettext("event", "Top {n}"),
        "bo5": t.pgettext("event", "best of five"), "undecided": t.pgettext("event", "playing"),
    }.items())


def stage_word(stage: str, t: Mapping[str, str]) -> str:
    if stage.startswith("round_of_"):
        return t["round_of"].format(n=stage.rsplit("_", 1)[1])
    return t[stage]


def status_word(match: Mapping[str, Any], t: Mapping[str, str]) -> str:
    return t["finished"] if match["decided"] else t["undecided"]


def bracket_block(view: Mapping[str, Any], lang: str) -> dict[str, Any]:
    """What ``_bracket.html`` reads: the bracket with each round's name and the words."""
    t = labels(lang)
    rounds = [{**r, "title": stage_word(r["stage"], t)} for r in view["rounds"]]
    return {"view": {**view, "rounds": rounds}, "t": t,
            "format_word": t.get(str(view.get("format")), str(view.get("format"))),
            "player_url": event_pages.urls(str(view["event"]), lang)["player"]}


def bracket_text(view: Mapping[str, Any], lang: str = "ja") -> str:
    t = labels(lang)
    if not view["seeds"]:
        return f"{view['event']} — {t['no_cut']}"
    lines = [f"{view['event']} — {t['bracket']} ({t['top_of'].format(n=view['top'])}, "
             f"{t.get(str(view['format']), view['format'])})"]
    lines.append(f"{t['seed']}: " + ", ".join(f"{s['seed']}. {s['player']}" for s in view["seeds"]))
    for r in view["rounds"]:
        lines.append(f"[{stage_word(r['stage'], t)} — {t['round'].format(n=r['round'])}]")
        for m in r["matches"]:
            a, b = m["players"]
            mark = f"  → {m['winner']}" if m["winner"] else f"  ({t['undecided']})"
            lines.append(f"  {t['table']} {m['table']}  ({a['seed']}) {a['name']} {a['wins']}-{b['wins']} "
                         f"{b['name']} ({b['seed']}){mark}")
        for b in r["byes"]:
            lines.append(f"  {t['bye']}: ({b['seed']}) {b['name']}")
    if view["champion"]:
        lines.append(f"{t['champion']}: {view['champion']}")
    return "\n".join(lines)
