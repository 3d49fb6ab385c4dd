"""Notation: a log line as a person reads it, in Japanese (default) or English.

Game moves are described by their ruleset (``ruleset.describe(board_before, move, lang)``,
each game's own vocabulary); the lines every game shares (annotate, retract, dispute, ruling,
correct, appeal, penalty, concede, result) are described here. A ruleset without
``describe`` (or one that fails on a line) gets a readable fallback, never a raw dict.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from exports.i18n import N_, gettext_for
from projections.base import META_TYPES

ENVELOPE = ("seq", "type", "by", "at", "claimed_at", "token")  # token: who wrote it (recorder/tokens.py)

DECISIONS = {"upheld": N_("upheld"), "overturned": N_("overturned")}
LEVELS = {"floor": N_("floor judge"), "head": N_("head judge")}
PENALTIES = {
    "warning": N_("warning"),
    "game-loss": N_("game loss"),
    "match-loss": N_("match loss"),
    "disqualification": N_("disqualification"),
}
# Every reason a result can carry: the core's (projections.replay.result_overrides, and the
# words a scorekeeper's ``result`` line may use), then each game's (its check/apply). A reason
# no table knows is shown as it is.
REASONS = {
    "concede": N_("concession"),
    "conceded": N_("concession"),
    "concession": N_("concession"),
    "declared": N_("declared by the table"),
    "penalty": N_("penalty"),
    "game-loss": N_("game loss"),
    "match-loss": N_("match loss"),
    "disqualification": N_("disqualification"),
    "penalty-game-loss": N_("penalty: game loss"),
    "penalty-match-loss": N_("penalty: match loss"),
    "penalty-disqualification": N_("penalty: disqualification"),
    "time": N_("time"),
    "judge": N_("judge's decision"),
    "reported": N_("reported by both players"),
    # 眼魔伝ガンダイス
    "all_graveyard": N_("every opposing character die in the graveyard"),
    "zenkai_summon": N_("full summon"),
    # 蟲神器
    "direct-attack": N_("direct attack"),
    # 蟲神器, グレンラガン
    "deck-out": N_("deck out"),
    "deck-out-tie": N_("deck out, tied"),
    "deck-out-draw": N_("deck out, drawn"),
    # グレンラガン
    "damage": N_("damage"),
    "damage-both": N_("damage to both at once"),
    # ヴァリアンツ＝ウォー
    "life": N_("life reached 0"),
    "double_life": N_("both lives reached 0"),
}


def value_text(value: Any, lang: str = "ja") -> str:
    """A field value as words: lists joined, mappings as ``key value`` pairs; never JSON."""
    sep = "、" if lang == "ja" else ", "
    if isinstance(value, bool):
        _ = gettext_for(lang)
        return _("yes") if value else _("no")
    if value is None:
        return "—"
    if isinstance(value, Mapping):
        return sep.join(f"{k} {value_text(v, lang)}" for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return sep.join(value_text(v, lang) for v in value)
    return str(value)


def fallback(move: Mapping[str, Any], lang: str = "ja") -> str:
    """A move of a ruleset without notation: its type and its fields as words."""
    fields = [f"{k} {value_text(v, lang)}" for k, v in move.items() if k not in ENVELOPE]
    return " ".join([str(move.get("type", "?")), *fields])


def move_text(ruleset: Any, board: Any, move: Mapping[str, Any], lang: str = "ja") -> str:
    """A game move in its game's notation, read from the board before it."""
    describe = getattr(ruleset, "describe", None)
    if describe is not None and board is not None:
        try:
            text = describe(board, move, lang)
        except Exception:  # a notation bug must not hide the record: fall back to the fields
            text = None
        if text:
            return str(text)
    return fallback(move, lang)


def reason_text(reason: Any, lang: str = "ja") -> str:
    if reason is None:
        return ""
    known = REASONS.get(str(reason))
    return gettext_for(lang)(known) if known else str(reason)


def result_text(winner: str | None, reason: Any, names: Mapping[str, str], lang: str = "ja") -> str:
    """``山田 の勝ち (投了)`` / ``山田 wins (concession)``; a draw without a winner."""
    _ = gettext_for(lang)
    head = _("{name} wins").format(name=names.get(winner, winner)) if winner else _("draw")
    why = reason_text(reason, lang)
    return f"{head} ({why})" if why else head


def meta_text(entry: Mapping[str, Any], lang: str = "ja", names: Mapping[str, str] | None = None) -> str:
    """A shared line (annotation, dispute, ruling, ...) in one line of words."""
    _ = gettext_for(lang)
    names = names or {}
    kind = entry.get("type")

    def who(key: str = "by") -> str:
        value = entry.get(key)
        return str(names.get(value, value)) if value is not None else "?"

    def rule() -> str:
        return f" [{entry['rule']}]" if entry.get("rule") else ""

    if kind == "annotate":
        sym = f"{entry['symbol']} " if entry.get("symbol") else ""
        tags = f" [{value_text(entry['tags'], lang)}]" if entry.get("tags") else ""
        return "※ " + _("note on #{on}: {text} — {by}").format(
            on=entry.get("on"), text=f"{sym}{entry.get('text', '')}", by=who()) + tags
    if kind == "retract":
        text = f": {entry['text']}" if entry.get("text") else ""
        return "⌫ " + _("{by} withdraws note #{on}").format(by=who(), on=entry.get("on")) + text
    if kind == "dispute":
        return "⚑ " + _("{by} disputes #{on}: {claim}").format(
            by=who(), on=entry.get("on"), claim=entry.get("claim", "")) + rule()
    if kind == "ruling":
        decision = entry.get("decision")
        said = _(DECISIONS[decision]) if decision in DECISIONS else str(decision)
        level = entry.get("level", "floor")
        judge = _(LEVELS[level]) if level in LEVELS else str(level)
        rewind = " + " + _("rewind") if entry.get("rewind") else ""
        replace = entry.get("replace") or []
        instead = ""
        if decision == "overturned":
            instead = " · " + (_("replaced by {n} move(s)").format(n=len(replace)) if replace else _("move voided"))
        return "⚖ " + _("ruling by {by} ({level}) on dispute #{dispute}: {decision}").format(
            by=who(), level=judge, dispute=entry.get("dispute"), decision=said
        ) + rewind + instead + rule() + (f" — {entry['text']}" if entry.get("text") else "")
    if kind == "correct":
        n = len(entry.get("replace") or [])
        what = _("replaced by {n} move(s)").format(n=n) if n else _("move voided")
        return "✎ " + _("correction of #{on} by {by}: {what}").format(on=entry.get("on"), by=who(), what=what) + (
            f" — {entry['text']}" if entry.get("text") else "")
    if kind == "appeal":
        return "↑ " + _("{by} appeals ruling #{ruling}: {grounds}").format(
            by=who(), ruling=entry.get("ruling"), grounds=entry.get("grounds", ""))
    if kind == "penalty":
        p = entry.get("penalty")
        said = _(PENALTIES[p]) if p in PENALTIES else str(p)
        on = " " + _("(on #{on})").format(on=entry["on"]) if entry.get("on") else ""
        return "⚠ " + _("penalty for {player}: {penalty} ({infraction}) — {by}").format(
            player=who("player"), penalty=said, infraction=entry.get("infraction", ""), by=who()
        ) + on + (f" — {entry['text']}" if entry.get("text") else "")
    if kind == "concede":
        return "🏳 " + _("{by} concedes").format(by=who())
    if kind == "result":
        return "🏁 " + _("result declared: {result}").format(
            result=result_text(entry.get("winner"), entry.get("reason"), names, lang))
    return fallback(entry, lang)


def line_text(
    ruleset: Any, board: Any, entry: Mapping[str, Any], lang: str = "ja", names: Mapping[str, str] | None = None
) -> str:
    """Any log line: a shared line by ``meta_text``, a game move by its ruleset's notation."""
    if entry.get("type") in META_TYPES:
        return meta_text(entry, lang, names)
    return move_text(ruleset, board, entry, lang)


def replay_texts(rep: Any, lang: str = "ja", names: Mapping[str, str] | None = None) -> list[str]:
    """The notation of every line of a replay, each from the board before it in that replay's
    view (one forward pass: the replay's cursor makes each step one fold)."""
    out: list[str] = []
    for e in rep.entries:
        board = None if e["type"] in META_TYPES else rep.board(e["seq"] - 1)
        out.append(line_text(rep.ruleset, board, e, lang, names))
    return out


def with_player(text: str, move: Mapping[str, Any], names: Mapping[str, str] | None) -> str:
    """``name: text`` unless the notation already starts with the player's name (or id)."""
    by = move.get("by")
    if by is None or names is None:
        return text
    name = str(names.get(by, by))
    if text.startswith((f"{name} ", f"{name}:", f"{by} ", f"{by}:")):
        return text
    return f"{name}: {text}"


def moves_text(
    ruleset: Any, board: Any, moves: Sequence[Mapping[str, Any]], lang: str = "ja",
    names: Mapping[str, str] | None = None,
) -> str:
    """Replacement moves (a ruling's or correction's), each described on the board before the
    first of them, then on the boards they lead to."""
    if not moves:
        _ = gettext_for(lang)
        return _("void")
    texts = []
    for m in moves:
        texts.append(with_player(move_text(ruleset, board, m, lang), m, names))
        try:
            board = ruleset.apply(board, m) if board is not None else None
        except Exception:
            board = None
    return "; ".join(texts)
