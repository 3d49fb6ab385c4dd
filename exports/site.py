"""``kifu event publish E -o DIR``: the event as a static site (issue 34, item 1).

Japanese pages in DIR, the same pages in English in DIR/en/: ``index.html`` (name, game, date,
format, winner, players), ``standings.html`` (+ ``standings.json``, the figures of ``kifu
standings E --json``), ``round-N.html`` per round, ``player-ID.html`` per player (record,
matches, deck list where it may be shown, penalties), ``match-ID.html`` per match (the
step-through replay ``kifu report`` writes, with links back into the site), ``metagame.html``
and ``cards.html`` (exports/stats_render.py), ``bracket.html`` when the event has a top cut.

Every link is a file name beside the page (the site is flat), so it reads the same from
``file://`` and from any static server; nothing is fetched from anywhere. ``build`` is pure
(bytes per relative path); ``write`` compares bytes and writes only what changed.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from exports import event_pages, i18n, pages
from projections import standings
from projections import tournament as T
from projections.standings import player_key

LANGS = ("ja", "en")
SITE_VERSION = 1  # raise when a replay page's make changes (the manifest's digests then miss)


def list_visible(state: T.Tournament, name: str) -> bool:
    """Whether ``name``'s deck list may be on the site: the one place the site decides it.
    Lists are open unless the event keeps them closed (``--lists closed``) and they were not
    published yet (``kifu event publish-lists``): the fold's ``lists_closed``."""
    return not bool(getattr(state, "lists_closed", False))


def bracket_of(state: T.Tournament, games: Iterable[standings.Game]) -> dict[str, Any] | None:
    """The top cut's bracket (projections/bracket.py) when the event has a cut, else None."""
    if not getattr(state, "cut", None):
        return None
    try:
        from projections import bracket  # type: ignore[attr-defined,unused-ignore]  # branch cut
    except ImportError:  # pragma: no cover - a store with a cut has the module that made it
        return None
    return dict(bracket.bracket(state, list(games)))


def slug(kind: str, text: str) -> str:
    """A file name for a player or a match: ASCII, stable across publishes."""
    return f"{kind}-{hashlib.sha1(text.encode('utf-8')).hexdigest()[:12]}.html"


@cache
def labels(lang: str) -> dict[str, str]:
    """The words of the site's pages: the event pages' own (``event_pages.labels``, which holds
    the round view's, exports/tournament.py: "Table", "Player", "Result", "Top cut" … come from
    there, the one source) and those only the site has (context "site")."""
    t = i18n.translations(lang)
    return {**event_pages.labels(lang), **{
        "site_nav": t.pgettext("site", "The event"), "metagame": t.pgettext("site", "Metagame"),
        "card_stats": t.pgettext("site", "Card statistics"), "game": t.pgettext("site", "Game"),
        "date": t.pgettext("site", "Date"), "format": t.pgettext("site", "Format"),
        "players_count": t.pgettext("site", "Players"), "winner": t.pgettext("site", "Winner"),
        "no_winner": t.pgettext("site", "not decided yet"), "dropped_after": t.pgettext("site", "dropped after round {n}"),
        "table_n": t.pgettext("site", "table {n}"), "replay": t.pgettext("site", "Replay"),
        "list_closed": t.pgettext("site", "This deck list is not published."), "game_n": t.pgettext("site", "game {n}"),
        "top": t.pgettext("site", "Event top"), "swiss": t.pgettext("site", "Swiss, {rounds} rounds, best of {bo}"),
        "not_played": t.pgettext("site", "not played"),
        "as_json": t.pgettext("site", "The standings as JSON (standings.json)"),
    }}


@dataclass
class Match:
    id: str
    round: int
    table: str
    n: int
    header: Mapping[str, Any]
    entries: list[Mapping[str, Any]]


def _outcome_text(t: Mapping[str, str], outcome: str) -> str:
    return {"win": t["win"], "loss": t["loss"], "draw": t["draw"], "bye": t["bye_win"],
            "unfinished": t["unfinished"]}.get(outcome, t["not_played"])


MANIFEST = ".kifu-publish.json"  # each replay's inputs' digest, so that a publish again renders only new matches


def build(state: T.Tournament, games: list[standings.Game], load: Callable[[str], tuple[Any, list[Any]] | None],
          stats: Callable[[str], tuple[str, str] | None] | None = None,
          reuse: Callable[[str, str], bytes | None] | None = None) -> dict[str, bytes]:
    """Every file of the site: ``{relative path: bytes}``. ``load(match_id)`` gives a match's
    (header, entries) or None when it was never recorded; ``stats(lang)`` the metagame page's
    body and the card statistics' body (None: no statistics); ``reuse(path, digest)`` the bytes
    a replay page already has when its inputs' digest is the one it was written from (the
    manifest, ``MANIFEST``, lists them), so an unchanged match is not rendered again. A game
    with nothing recorded (the third of a best of three won 2-0) is left out."""
    from exports.report import report_html

    from projections import bracket

    games = list(games)
    # the same table as kifu standings --json: every row's place (a top cut's players first)
    table = bracket.placed(state, T.event_standings(state, games), games)
    matches: list[Match] = []
    for rnd in state.paired:
        for seat in rnd.tables:
            for n, mid in enumerate(event_pages.game_ids(state, seat, rnd.number), 1):
                got = load(mid)
                if got is not None and got[1]:  # a game never begun (a best of three decided 2-0) has no page
                    matches.append(Match(mid, rnd.number, seat.table, n, got[0], list(got[1])))
    recorded = {m.id for m in matches}
    penalties: dict[str, list[dict[str, Any]]] = {}
    for m in matches:
        for e in m.entries:
            if e.get("type") != "penalty":
                continue
            for p in m.header.get("players", []):
                if p.get("id") == e.get("player"):
                    penalties.setdefault(player_key(p.get("name") or p["id"]), []).append({
                        "match": m.id, "round": m.round, "table": m.table, "seq": e["seq"],
                        "penalty": e.get("penalty"), "infraction": e.get("infraction"), "by": e.get("by"),
                        "text": e.get("text"), "at": e.get("at")})
    players = {player_key(p.name): p for p in state.players.values()}
    pjson = {k: event_pages.player_json(state, p.name, table, games, penalties.get(k, [])) for k, p in players.items()}
    brk = bracket_of(state, games)
    secret = not all(list_visible(state, p.name) for p in players.values())  # replays as the public sees them
    out: dict[str, bytes] = {}
    digests: dict[str, str] = {}
    standings_doc = {"event": state.name, "round": None, "standings": [s.to_json() for s in table.rows],
                     "pending": [{"round": p.round, "table": p.table, "players": list(p.players)} for p in table.pending]}
    out["standings.json"] = (json.dumps(standings_doc, ensure_ascii=False, indent=2) + "\n").encode("utf-8")
    for lang in LANGS:
        prefix = "" if lang == "ja" else "en/"
        t = labels(lang)
        _ = i18n.gettext_for(lang)
        meta = stats(lang) if stats is not None else None
        common = {"ev": state.header_json(), "t": t, "lang": lang, "round_numbers": [r.number for r in state.paired],
                  "bracket": brk is not None, "has_meta": bool(meta and meta[0]), "has_cards": bool(meta and meta[1])}

        def page(name: str, kind: str, title: str, _common: dict[str, Any] = common, _prefix: str = prefix,
                 _lang: str = lang, **ctx: Any) -> None:
            html = pages.render("site_page.html", {**_common, "kind": kind, "title": title, "here": name, **ctx}, _lang)
            out[_prefix + name] = html.encode("utf-8")

        def phref(name: str) -> str:
            return slug("player", player_key(name))

        winner = None
        last = state.paired[-1] if state.paired else None
        every_seat = all(event_pages.game_ids(state, seat, r.number)[0] in recorded for r in state.paired for seat in r.tables)
        if brk is not None:  # a cut: its champion
            if brk.get("champion"):
                winner = {"name": brk["champion"], "href": phref(brk["champion"])}
        elif table.rows and last is not None and last.number >= state.rounds and every_seat and not table.pending:
            winner = {"name": table.rows[0].player, "href": phref(table.rows[0].player)}
        try:
            from projections import registry
            game_title = registry.get(state.game).title
        except Exception:
            game_title = state.game
        page("index.html", "index", state.name, game_title=game_title, winner=winner,
             format_text=t["swiss"].format(rounds=state.rounds, bo=state.best_of),
             players=[{"name": p.name, "href": phref(p.name), "dropped_after": p.dropped_after} for p in players.values()])
        rows = [{**s.to_json(), "href": phref(s.player)} for s in table.rows]
        page("standings.html", "standings", t["standings"], rows=rows, pending=standings_doc["pending"],
             tiebreaks=list(state.tiebreaks))
        results: dict[Any, dict[Any, standings.Pairing]] = {}
        for p in standings.pairings(T.paired_games(state, games)):
            results.setdefault(p.round, {})[p.table] = p
        for rnd in state.paired:
            seats = []
            for seat in rnd.tables:
                pairing = results.get(rnd.number, {}).get(seat.table)
                if pairing is None or not pairing.games:
                    result = t["not_played"]
                elif not pairing.finished:
                    result = t["unfinished"]
                else:
                    w = pairing.winner()
                    result = t["draw"] if w is None else f"{t['win']}: {next((n for n in seat.players if player_key(n) == w), w)}"
                seats.append({"table": seat.table, "result": result,
                              "players": [{"name": n, "href": phref(n)} for n in seat.players],
                              "games": [{"href": slug("match", mid), "label": t["game_n"].format(n=i)}
                                        for i, mid in enumerate(event_pages.game_ids(state, seat, rnd.number), 1) if mid in recorded]})
            page(f"round-{rnd.number}.html", "round", t["this_round"].format(n=rnd.number), rnd=rnd, seats=seats,
                 byes=[{"name": b, "href": phref(b)} for b in rnd.byes])
        for k, reg in players.items():
            pj = dict(pjson[k] or {})
            pj["rounds"] = [{**r, "outcome_text": _outcome_text(t, r["outcome"]),
                             "opponent_href": phref(r["opponent"]) if r["opponent"] else None,
                             "links": [{"href": slug("match", mid), "label": t["game_n"].format(n=i)}
                                       for i, mid in enumerate(r["games"], 1) if mid in recorded]} for r in pj["rounds"]]
            shown = list_visible(state, reg.name)
            if not shown:
                pj["deck"] = None
            ctx = event_pages.player_context(state, pj, lang)["p"]
            ctx["penalties"] = [{**x, "href": slug("match", x["match"])} for x in ctx["penalties"]]
            page(phref(reg.name), "player", reg.name, p=ctx, deck_shown=shown)
        if brk is not None:
            def game_links(round_no: int, table: str, _t: Mapping[str, str] = t) -> list[dict[str, str]]:
                rnd_of = state.round(round_no)
                seat = next((s for s in rnd_of.tables if s.table == str(table)), None) if rnd_of else None
                ids = event_pages.game_ids(state, seat, round_no) if seat is not None else []
                return [{"href": slug("match", mid), "label": _t["game_n"].format(n=i)}
                        for i, mid in enumerate(ids, 1) if mid in recorded]

            page("bracket.html", "bracket", t["bracket"], body=_bracket_body(brk, lang, phref, game_links))
        if meta and meta[0]:
            page("metagame.html", "metagame", t["metagame"], body=_markup(meta[0]))
        if meta and meta[1]:
            page("cards.html", "cards", t["card_stats"], body=_markup(meta[1]))
        for m in matches:
            rnd_of = state.round(m.round)
            mseat = next((s for s in rnd_of.tables if s.table == m.table), None) if rnd_of is not None else None
            links = {"event": state.name, "round": f"round-{m.round}.html", "standings": "standings.html",
                     "desk": "index.html", "t": {"pairings": t["this_round"].format(n=m.round),
                                                 "standings": t["standings"], "desk": t["top"]}}
            rel = prefix + slug("match", m.id)
            digest = hashlib.sha256(json.dumps(
                [m.header, m.entries, links, lang, secret, list(mseat.players) if mseat else None, SITE_VERSION],
                ensure_ascii=False, sort_keys=True, default=str).encode("utf-8")).hexdigest()
            digests[rel] = digest
            kept = reuse(rel, digest) if reuse is not None else None
            if kept is not None:
                out[rel] = kept
                continue
            html = report_html(m.header, m.entries, lang=lang, extra={"event_links": links}, public=secret)
            lang_link = (f'<p class="actions"><a href="en/{slug("match", m.id)}" hreflang="en" lang="en">English</a></p>'
                         if lang == "ja" else
                         f'<p class="actions"><a href="../{slug("match", m.id)}" hreflang="ja" lang="ja">日本語</a></p>')
            if mseat is not None:
                lang_link += '<p class="actions">' + " · ".join(
                    f'<a href="{phref(n)}">{_esc(n)}</a>' for n in mseat.players) + "</p>"
            html = html.replace("<main>", "<main>\n" + lang_link, 1)
            out[rel] = html.encode("utf-8")
    out[MANIFEST] = (json.dumps({"replays": digests}, indent=1, sort_keys=True) + "\n").encode("utf-8")
    return out


def reuse_from(folder: Path) -> Callable[[str, str], bytes | None]:
    """``build``'s ``reuse`` over a site already in ``folder`` (nothing when it has no manifest)."""
    try:
        known = json.loads((folder / MANIFEST).read_text(encoding="utf-8")).get("replays", {})
    except (OSError, ValueError, AttributeError):
        known = {}

    def reuse(rel: str, digest: str) -> bytes | None:
        if known.get(rel) != digest:
            return None
        try:
            return (folder / rel).read_bytes()
        except OSError:
            return None

    return reuse


def _esc(text: str) -> str:
    from markupsafe import escape
    return str(escape(text))


def _markup(body: str) -> Any:
    from markupsafe import Markup
    return Markup(body)


def _bracket_body(brk: Mapping[str, Any], lang: str, phref: Callable[[str], str],
                  game_links: Callable[[int, str], list[dict[str, str]]]) -> Any:
    """The bracket as the server's page draws it (exports/bracket_view.py, ``_bracket.html``),
    its player links made the site's, and each playoff match's games linked to their replays."""
    from exports import bracket_view  # type: ignore[attr-defined,unused-ignore]  # branch cut

    block = {**bracket_view.bracket_block(brk, lang), "player_url": phref, "game_links": game_links}
    return _markup(pages.render("_bracket.html", {"bracket": block, "lang": lang}, lang))


def write(files: Mapping[str, bytes], folder: Path, advance: Callable[[], None] | None = None) -> tuple[int, int]:
    """Write ``files`` under ``folder``, each only if its bytes differ from what is there;
    (written, unchanged)."""
    written = unchanged = 0
    for rel, data in sorted(files.items()):
        path = folder / rel
        try:
            same = path.read_bytes() == data
        except OSError:
            same = False
        if same:
            unchanged += 1
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_name(path.name + ".tmp")
            tmp.write_bytes(data)
            tmp.replace(path)
            written += 1
        if advance is not None:
            advance()
    return written, unchanged


__all__ = ["LANGS", "MANIFEST", "bracket_of", "build", "labels", "list_visible", "reuse_from", "slug", "write"]
