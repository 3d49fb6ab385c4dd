"""``kifu annotate``, ``retract``, ``dispute …``, ``correct``, ``penalty``, ``penalties`` and
``diff``: friendly front-ends that build the right log line and record it with
``service.record``, plus the views that read disputes, penalties and the two views' difference.

The workflow itself (which line may follow which) lives in ``recorder.workflow`` and is the
same for these commands, ``kifu record`` and ``kifu import``; here a refused transition is
reported as a WorkflowError naming the match.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Annotated, Any

import typer

from projections.errors import LogFormatError, NotFoundError, WorkflowError
from projections.base import at, said
from recorder.cli.common import N_, DbOpt, JsonOpt, LangOpt, _, app, dump_json, lang_of, ngettext, open_store, out, tr
from recorder import logformat
from recorder.logformat import DECISIONS, LEVELS, PENALTIES, SYMBOLS
from recorder.workflow import (
    dispute_states,
    event_penalties,
    suggested_replacement,
    violation_at,
    workflow_errors,
)

if TYPE_CHECKING:
    from recorder.store import Store

MatchArg = Annotated[str, typer.Argument(help="Match id.")]
ByOpt = Annotated[str, typer.Option("--by", help="Who: a player id, a judge's or scorekeeper's name.")]
StrictOpt = Annotated[bool, typer.Option(help="Refuse a replacement that breaks a rule instead of flagging it.")]
ReplaceOpt = Annotated[
    list[str] | None, typer.Option("--replace", help="A replacement move as JSON (no seq); repeat, or give a JSON list.")
]

# The codes these commands print as words (the Japanese in the catalog; English keeps the code).
WORDS = (
    N_("open"), N_("ruled"), N_("appealed"), N_("final"), N_("upheld"), N_("overturned"),
    N_("warning"), N_("game-loss"), N_("match-loss"), N_("disqualification"),
)

dispute_app = typer.Typer(help="Disputes, judges' rulings and appeals.", no_args_is_help=True)
app.add_typer(dispute_app, name="dispute")


def _record(store: Store, match: str, line: dict[str, Any], strict: bool = False) -> int:
    """Refuse a workflow transition as a WorkflowError, then record through the service."""
    from recorder import service
    _header, entries = store.load(match)
    probe = dict(line, seq=len(entries) + 1)
    errors = workflow_errors(entries, probe)
    if errors:
        raise WorkflowError(f"{match}: " + "; ".join(str(e) for e in errors))
    seq, found = service.record(store, match, line, strict=strict)
    out(_("recorded {match} seq {seq} ({type})").format(match=match, seq=seq, type=line["type"]))
    for v in found:
        out(f"  ✗ {v.rule}: " + _("{message} (flagged; --strict refuses it)").format(message=tr(v.message)))
    return seq


def _replacements(values: list[str]) -> list[dict[str, Any]]:
    moves: list[dict[str, Any]] = []
    for i, text in enumerate(values):
        value, error = logformat.refusal(text)  # the one log-line parser (issue 16)
        if error is not None:
            problem = said(N_("not JSON ({problem})"), problem=error.problem) if error.field == "json" else str(error)
            raise LogFormatError([logformat.clip(at(f"--replace[{i}]", problem))])
        items = value if isinstance(value, list) else [value]
        for item in items:
            if not isinstance(item, dict):
                raise LogFormatError([at(f"--replace[{i}]", N_("must be a JSON object (a move without seq)"))])
            moves.append({k: v for k, v in item.items() if k != "seq"})
    return moves


def _choice(value: str | None, allowed: tuple[str, ...], option: str) -> None:
    if value is not None and value not in allowed:
        raise LogFormatError([said(N_("{option}: must be one of {allowed}, not {value!r}"), option=option, allowed=", ".join(allowed), value=value)])


# -- annotations ------------------------------------------------------------------------------


@app.command()
def annotate(
    match: MatchArg,
    on: Annotated[int, typer.Option("--on", help="Seq of the event the note is about.")],
    text: Annotated[str, typer.Option("--text", help="The note.")],
    symbol: Annotated[str | None, typer.Option(help="! ? !! ?? !? or ?!")] = None,
    tag: Annotated[list[str] | None, typer.Option("--tag", help="A tag; repeat for several.")] = None,
    by: Annotated[str, typer.Option("--by", help="Who wrote the note.")] = "scorekeeper",
    db: DbOpt = None,
) -> None:
    """Add a note to any event, during or after the match (several per event are fine).

    Example: kifu annotate r1-t3 --on 14 --text "引き分け狙い" --symbol '?!' --tag 作戦 --by 解説
    """
    if tag is None:
        tag = []
    _choice(symbol, SYMBOLS, "--symbol")
    line: dict[str, Any] = {"type": "annotate", "by": by, "on": on, "text": text}
    if symbol:
        line["symbol"] = symbol
    if tag:
        line["tags"] = list(tag)
    _record(open_store(db), match, line)


@app.command()
def retract(
    match: MatchArg,
    note: Annotated[int, typer.Argument(help="Seq of the annotation to retract.")],
    by: Annotated[str, typer.Option("--by", help="Who retracts it.")] = "scorekeeper",
    text: Annotated[str | None, typer.Option("--text", help="Why.")] = None,
    db: DbOpt = None,
) -> None:
    """Retract an annotation. The note stays in the history, marked retracted.

    Example: kifu retract r1-t3 15 --by 解説 --text "読み違い"
    """
    line: dict[str, Any] = {"type": "retract", "by": by, "on": note}
    if text:
        line["text"] = text
    _record(open_store(db), match, line)


# -- disputes ---------------------------------------------------------------------------------


@dispute_app.command("open")
def dispute_open(
    match: MatchArg,
    by: ByOpt,
    on: Annotated[int | None, typer.Option("--on", help="Seq of the disputed move.")] = None,
    claim: Annotated[str | None, typer.Option("--claim", help="What is contested.")] = None,
    rule: Annotated[str | None, typer.Option("--rule", help="The rule id the claim cites.")] = None,
    from_violation: Annotated[
        str | None, typer.Option("--from-violation", help="SEQ or SEQ:RULE of a violation kifu check lists.")
    ] = None,
    db: DbOpt = None,
) -> None:
    """Contest a move. The dispute's id is the seq it is recorded at.

    Example: kifu dispute open r1-t3 --on 10 --by B --claim "出目は4だった" --rule GD-2.1
    Example: kifu dispute open r1-t3 --from-violation 10:GD-2.1 --by フロアジャッジ
    """
    store = open_store(db)
    if from_violation:
        seq_text, _sep, rule_text = from_violation.partition(":")
        if not seq_text.strip().isdigit() or len(seq_text.strip()) > 15:
            raise LogFormatError([said(N_("--from-violation: expected SEQ or SEQ:RULE, got {value!r}"), value=from_violation)])
        if on is not None and on != int(seq_text):
            raise LogFormatError([said(N_("--on: {on} is not the violation's seq {seq}"), on=on, seq=seq_text)])
        header, entries = store.load(match)
        v = violation_at(header, entries, int(seq_text), rule_text or rule)
        on, rule = v.seq, v.rule
        if claim is None:
            claim = f"{v.rule}: {v.message}"
            if v.expected:
                claim += f" (expected: {json.dumps(dict(v.expected), ensure_ascii=False)})"
    if on is None or claim is None:
        raise LogFormatError([N_("dispute open: give --on and --claim, or --from-violation")])
    line: dict[str, Any] = {"type": "dispute", "by": by, "on": on, "claim": claim}
    if rule:
        line["rule"] = rule
    _record(store, match, line)


@dispute_app.command("rule")
def dispute_rule(
    match: MatchArg,
    dispute: Annotated[int, typer.Argument(help="The dispute's seq.")],
    by: ByOpt,
    text: Annotated[str, typer.Option("--text", help="The judge's reasoning.")],
    decision: Annotated[str | None, typer.Option(help="upheld (the move stands) or overturned.")] = None,
    replace: ReplaceOpt = None,
    rewind: Annotated[bool, typer.Option(help="Also void every move after the disputed one.")] = False,
    level: Annotated[
        str | None, typer.Option(help="floor or head (default: head when the dispute is under appeal).")
    ] = None,
    rule: Annotated[str | None, typer.Option("--rule", help="The rule id the ruling cites.")] = None,
    suggested: Annotated[
        bool, typer.Option(help="Overturn with the correction the ruleset suggests for the violation.")
    ] = False,
    strict: StrictOpt = False,
    db: DbOpt = None,
) -> None:
    """A judge decides a dispute.

    Example: kifu dispute rule r1-t3 12 --by フロアジャッジ --decision overturned
    --replace '{"type": "defend", "by": "B", "die": "ギダン", "face": "normal", "value": 4}' --text "出目の記録誤り"
    Example: kifu dispute rule r1-t3 12 --suggested --by フロアジャッジ --text "ルール通りに"
    """
    if replace is None:
        replace = []
    _choice(decision, DECISIONS, "--decision")
    _choice(level, LEVELS, "--level")
    store = open_store(db)
    header, entries = store.load(match)
    state = dispute_states(entries).get(dispute)
    if state is None:
        raise NotFoundError(said(N_("{match}: no dispute at seq {seq} (see kifu dispute list {id})"), match=match, seq=dispute, id=match))
    moves = _replacements(replace)
    if suggested:
        if decision == "upheld" or moves:
            raise LogFormatError([N_("--suggested: overturns with the suggested moves; drop --decision upheld / --replace")])
        violation, moves = suggested_replacement(header, entries, dispute)
        decision = "overturned"
        rule = rule or violation.rule
    if decision is None:
        raise LogFormatError([N_("--decision: missing (upheld or overturned), or give --suggested")])
    line: dict[str, Any] = {
        "type": "ruling", "by": by, "dispute": dispute, "decision": decision, "text": text,
        "level": level or ("head" if state.status == "appealed" else "floor"),
    }
    if rule:
        line["rule"] = rule
    if moves:
        line["replace"] = moves
    if rewind:
        line["rewind"] = True
    _record(store, match, line, strict=strict)


@dispute_app.command("appeal")
def dispute_appeal(
    match: MatchArg,
    ruling: Annotated[int, typer.Argument(help="Seq of the floor ruling appealed.")],
    by: ByOpt,
    grounds: Annotated[str, typer.Option("--grounds", help="Why the ruling is wrong.")],
    db: DbOpt = None,
) -> None:
    """Appeal a floor judge's ruling to the head judge.

    Example: kifu dispute appeal r1-t3 13 --by A --grounds "GD-2.1 の読み違い"
    """
    _record(open_store(db), match, {"type": "appeal", "by": by, "ruling": ruling, "grounds": grounds})


@dispute_app.command("list")
def dispute_list(
    match: MatchArg,
    open_: Annotated[bool, typer.Option("--open", help="Only disputes waiting for a ruling.")] = False,
    as_json: JsonOpt = False,
    db: DbOpt = None,
) -> None:
    """The disputes of a match with where each stands (open, ruled, appealed, final).

    Example: kifu dispute list r1-t3 --open
    """
    _header, entries = open_store(db).load(match)
    states = [s for s in dispute_states(entries).values() if s.is_open or not open_]
    if as_json:
        dump_json([s.to_json() for s in states])
        return
    if not states:
        out(_("no open disputes") if open_ else _("no disputes"))
        return
    for s in states:
        d = s.dispute
        rule = f" [{d['rule']}]" if d.get("rule") else ""
        decided = f" — {_(s.decision['decision'])} (seq {s.decision['seq']})" if s.decision else ""
        said = _("#{seq} on seq {on} by {by}: {claim}").format(seq=s.seq, on=d["on"], by=d["by"], claim=d["claim"])
        out(f"{said}{rule}  {_(s.status)}{decided}")


# -- corrections and penalties ----------------------------------------------------------------


@app.command()
def correct(
    match: MatchArg,
    on: Annotated[int, typer.Option("--on", help="Seq of the mis-logged move.")],
    by: ByOpt,
    text: Annotated[str, typer.Option("--text", help="What was wrong.")],
    replace: ReplaceOpt = None,
    strict: StrictOpt = False,
    db: DbOpt = None,
) -> None:
    """Fix a scorekeeper's own logging mistake (no --replace: the move is void).

    Example: kifu correct r1-t3 --on 21 --by 記録係 --text "出目の打ち間違い"
    --replace '{"type": "defend", "by": "B", "die": "紅蓮のイスルギ", "face": "normal", "value": 4}'
    """
    if replace is None:
        replace = []
    line = {"type": "correct", "by": by, "on": on, "replace": _replacements(replace), "text": text}
    _record(open_store(db), match, line, strict=strict)


@app.command()
def penalty(
    match: MatchArg,
    player: Annotated[str, typer.Option("--player", help="Player id or name.")],
    infraction: Annotated[str, typer.Option("--infraction", help="The infraction, e.g. slow play.")],
    penalty_: Annotated[str, typer.Option("--penalty", help="warning, game-loss, match-loss or disqualification.")],
    by: ByOpt,
    text: Annotated[str | None, typer.Option("--text", help="Details.")] = None,
    on: Annotated[int | None, typer.Option("--on", help="Seq of the event it is about.")] = None,
    db: DbOpt = None,
) -> None:
    """A judge's penalty, recorded in the match (a game loss decides the result).

    Example: kifu penalty r1-t3 --player 佐藤 --infraction 遅延行為 --penalty warning --by ヘッドジャッジ
    """
    _choice(penalty_, PENALTIES, "--penalty")
    store = open_store(db)
    header, _entries = store.load(match)
    pid = _player_id(header, player)
    line: dict[str, Any] = {"type": "penalty", "by": by, "player": pid, "infraction": infraction, "penalty": penalty_}
    if on is not None:
        line["on"] = on
    if text:
        line["text"] = text
    _record(store, match, line)


def _player_id(header: Mapping[str, Any], player: str) -> str:
    for p in header["players"]:
        if player in (p["id"], p.get("name")):
            return str(p["id"])
    known = ", ".join(f"{p['id']} ({p.get('name') or '-'})" for p in header["players"])
    raise LogFormatError([said(N_("--player: {player!r} is not a player of {match} ({known})"), player=player, match=header["match"]["id"], known=known)])


@app.command()
def penalties(
    event: Annotated[str, typer.Option("--event", help="The event (header match.event).")],
    player: Annotated[str | None, typer.Option("--player", help="Only this player (name or id).")] = None,
    as_json: JsonOpt = False,
    db: DbOpt = None,
) -> None:
    """A player's (or everyone's) penalties across every match of an event, in time order.

    Example: kifu penalties --event "秋の大会" --player 佐藤
    """
    from exports.desk import penalty_text

    rows = event_penalties(open_store(db), event, player)
    if as_json:
        dump_json(rows)
        return
    if not rows:
        out(_("no penalties in {event!r} for {player}").format(event=event, player=player) if player
            else _("no penalties in {event!r}").format(event=event))
        return
    for r in rows:
        when = r["at"] or r["date"] or "-"
        where = " ".join(x for x in (f"R{r['round']}" if r["round"] is not None else "", f"T{r['table']}" if r["table"] is not None else "") if x)
        text = f" — {r['text']}" if r["text"] else ""
        said = _("{penalty} for {infraction} by {by}").format(
            penalty=penalty_text(r["penalty"], lang_of()), infraction=r["infraction"], by=r["by"])
        out(f"{when}  {r['match']} {where} seq {r['seq']}  {r['name']} ({r['player']}): {said}{text}")
    out(ngettext("{n} penalty", "{n} penalties", len(rows)).format(n=len(rows)))


# -- the two views ----------------------------------------------------------------------------


@app.command()
def diff(
    match: MatchArg,
    as_json: JsonOpt = False,
    lang: LangOpt = None,
    db: DbOpt = None,
) -> None:
    """Where the recorded and the ruled views part, which boards differ, and the result.

    Example: kifu diff r1-t3 --json
    """
    from exports.diff import diff_views, format_diff

    header, entries = open_store(db).load(match)
    found = diff_views(header, entries)
    if as_json:
        dump_json(found.to_json())
    else:
        out(format_diff(found, entries, lang=lang_of(lang)))

