"""What a person reads of a tournament on the server's pages and on paper: the round sheet (one
block per table with its pairing and a QR code for its recording page), the standings page, a
round's pairings (by table and by name) and a player's page. Pure rendering over the fold
(projections/tournament.py), the standings (projections/standings.py) and the desk's round
view (exports/tournament.py): the faces (recorder/cli/event.py, recorder/web/event.py) read the
store and hand the rows in. Japanese by default, English with ``lang="en"``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any
from urllib.parse import quote

from exports import pages
from exports import tournament as view
from projections import standings
from projections import tournament as T
from projections.standings import player_key

LABELS = {
    "ja": {
        "sheet": "卓シート", "scan": "スマートフォンのカメラで読み取ると、この卓の記録ページが開き、そのまま記録できます。",
        "valid": "この卓・この回戦だけに有効です（回戦の締切で無効になります）。",
        "token_name": "トークン名", "address": "アドレス", "games_ids": "試合ID",
        "standings": "順位", "pairings": "組み合わせ", "desk": "大会デスク", "as_of": "第{n}回戦終了時点",
        "all_rounds": "最新", "rank": "順位", "points": "勝ち点", "record_wld": "勝-敗-分", "mwp": "MW%",
        "omw": "OMW%", "gwp": "GW%", "ogw": "OGW%", "pending": "未終了の対戦（順位に未反映）",
        "rounds_nav": "回戦", "win": "勝ち", "loss": "負け", "draw": "引き分け", "unfinished": "未終了",
        "matches": "対戦", "penalties": "ペナルティ", "no_penalties": "ペナルティはありません",
        "no_deck": "デッキの登録はありません", "cards": "カード", "archetype": "アーキタイプ",
        "status_line": "{done}/{total} 卓終了", "round_status": "回戦の状況", "byes": "不戦勝（BYE）",
        "players_page": "プレイヤー", "active": "参加中", "this_round": "第{n}回戦",
        "event_links": "この大会", "print": "印刷用", "infraction": "違反", "judge": "ジャッジ",
        "no_standings": "まだ結果がありません", "registered": "登録デッキ", "time_used": "経過時間",
        "counts": "卓の状況", "bye_win": "不戦勝", "score": "ゲーム", "changes": "組み合わせの変更", "round_col": "回戦",
    },
    "en": {
        "sheet": "Table sheet", "scan": "Scan with a phone's camera: this table's recording page opens, ready to record.",
        "valid": "Valid for this table and this round only (revoked when the round closes).",
        "token_name": "Token name", "address": "Address", "games_ids": "Match ids",
        "standings": "Standings", "pairings": "Pairings", "desk": "Event desk", "as_of": "after round {n}",
        "all_rounds": "latest", "rank": "Rank", "points": "Points", "record_wld": "W-L-D", "mwp": "MW%",
        "omw": "OMW%", "gwp": "GW%", "ogw": "OGW%", "pending": "Matches still playing (not in the standings yet)",
        "rounds_nav": "Rounds", "win": "win", "loss": "loss", "draw": "draw", "unfinished": "not finished",
        "matches": "Matches", "penalties": "Penalties", "no_penalties": "No penalties",
        "no_deck": "No deck registered", "cards": "Cards", "archetype": "Archetype",
        "status_line": "{done} of {total} tables finished", "round_status": "Round status", "byes": "Byes",
        "players_page": "Player", "active": "active", "this_round": "Round {n}",
        "event_links": "This event", "print": "printable", "infraction": "Infraction", "judge": "Judge",
        "no_standings": "No results yet", "registered": "Deck as registered", "time_used": "Time used",
        "counts": "Tables", "bye_win": "bye", "score": "Games", "changes": "Pairing changes", "round_col": "Round",
    },
}


def labels(lang: str | None) -> dict[str, str]:
    """The pages' words: the round view's (exports/tournament.py) and these."""
    key = "en" if lang == "en" else "ja"
    return {**view.LABELS[key], **LABELS[key]}


def _q(text: Any) -> str:
    return quote(str(text), safe="")


def urls(event: str, lang: str = "ja") -> dict[str, Any]:
    """The event's pages, keeping an English reader in English (``?lang=en``)."""
    base = f"/events/{_q(event)}"
    tail = "?lang=en" if lang == "en" else ""
    return {
        "desk": base + tail, "standings": f"{base}/standings{tail}",
        "round": lambda n: f"{base}/rounds/{n}{tail}",
        "standings_after": lambda n: f"{base}/standings?round={n}" + ("&lang=en" if lang == "en" else ""),
        "player": lambda name: f"{base}/players/{_q(name)}{tail}",
        "match": lambda mid: f"/matches/{_q(mid)}{tail}",
        "match_step": lambda mid, seq: f"/matches/{_q(mid)}?step={seq}" + ("&lang=en" if lang == "en" else ""),
    }


def nav(state: T.Tournament | None, event: str, lang: str, here: str, current_round: int | None = None) -> dict[str, Any]:
    """What ``_event_nav.html`` reads: the desk, the standings and each round's pairings."""
    u = urls(event, lang)
    return {"urls": u, "here": here, "current_round": current_round,
            "round_links": [(r.number, u["round"](r.number)) for r in state.paired] if state is not None else []}


# -- the round sheet ---------------------------------------------------------------------------


def qr_data_uri(url: str) -> str:
    """A QR code of ``url`` as a PNG data URI (error correction M: a sheet may be creased)."""
    import segno

    return str(segno.make(url, error="m").png_data_uri(scale=8, border=4))


def game_ids(state: T.Tournament, seat: T.Seat) -> list[str]:
    """The match ids of every game of a table (best of three: ``…-g1``, ``-g2``, ``-g3``)."""
    if state.best_of == 1:
        return [seat.match]
    at = seat.match.rfind("-g1")  # the last one: an event may be named "…-g1" too
    if at < 0:
        return [seat.match]
    return [f"{seat.match[:at]}-g{g}{seat.match[at + 3:]}" for g in range(1, state.best_of + 1)]


def record_url(base_url: str, match_id: str, secret: str) -> str:
    """A table's recording page with its token in the fragment (``#token=``): the page keeps the
    token for the tab and takes it out of the address bar; a fragment never reaches a server log."""
    return f"{base_url.rstrip('/')}/matches/{_q(match_id)}/record#token={_q(secret)}"


def render_sheet(state: T.Tournament, rnd: T.Round, tables: Sequence[Mapping[str, Any]], lang: str = "ja") -> str:
    """The round sheet (``event_sheet.html``). ``tables``: per table of the round, ``table``,
    ``players``, ``games`` (match ids), ``url`` (with the token) and ``token`` (its name)."""
    blocks = [{**t, "qr": qr_data_uri(str(t["url"]))} for t in tables]
    return pages.render("event_sheet.html", {
        "ev": state.header_json(), "rnd": rnd.to_json(), "tables": blocks, "t": labels(lang), "lang": lang,
    }, lang)


# -- standings, pairings, a player ---------------------------------------------------------------


def standings_rows(table: standings.Table) -> list[dict[str, Any]]:
    return [s.to_json() for s in table.rows]


def standings_context(state: T.Tournament | None, event: str, table: standings.Table, upto: int | None,
                      lang: str) -> dict[str, Any]:
    """``event_standings.html``: the rows (match-win % among them), the rounds to look back at."""
    u = urls(event, lang)
    paired = [r.number for r in state.paired] if state is not None else []
    return {
        **nav(state, event, lang, "standings"), "event": event, "t": labels(lang), "lang": lang, "upto": upto,
        "rows": standings_rows(table), "has_stream": state is not None,
        "pending": [{"round": p.round, "table": p.table, "players": list(p.players)} for p in table.pending],
        "rounds": [(n, u["standings_after"](n)) for n in paired],
        "tiebreaks": list(state.tiebreaks) if state is not None else list(T.TIEBREAKS),
    }


def round_json(state: T.Tournament, rnd: T.Round, desk: Mapping[str, Any]) -> dict[str, Any]:
    """``/api/events/E/rounds/N``: the pairing, by name, and the desk's status of each table."""
    return {"event": state.name, **rnd.to_json(), "by_name": view.by_name(rnd), "status": dict(desk)}


def round_context(state: T.Tournament, rnd: T.Round, desk: Mapping[str, Any], lang: str) -> dict[str, Any]:
    """``event_round.html``: the pairing by table (with each table's status) and by name."""
    return {
        **nav(state, state.name, lang, "round", rnd.number), "event": state.name, "ev": state.header_json(),
        "t": labels(lang), "lang": lang, "rnd": rnd.to_json(), "desk": desk, "by_name": view.by_name(rnd),
    }


def _outcome(pairing: standings.Pairing | None, me: str) -> str:
    if pairing is None or not pairing.games:
        return "not_started"
    if not pairing.finished:
        return "unfinished"
    winner = pairing.winner()
    if winner is None:
        return "draw"
    return "win" if winner == me else "loss"


def _score(pairing: standings.Pairing, me: str) -> str:
    """Games won-lost(-drawn), the player's own first."""
    wins = pairing.game_wins()
    theirs = sum(w for p, w in wins.items() if p != me)
    draws = sum(1 for g in pairing.games if g.finished and g.winner is None)
    return f"{wins.get(me, 0)}-{theirs}" + (f"-{draws}" if draws else "")


def player_json(state: T.Tournament, name: str, table: standings.Table, games: Iterable[standings.Game],
                penalties: Sequence[Mapping[str, Any]]) -> dict[str, Any] | None:
    """A player's record, deck as registered, every round (table, opponent, games, outcome) and
    penalties; None when ``name`` is not registered."""
    reg = state.player(name)
    if reg is None:
        return None
    me = player_key(reg.name)
    mine = [g for g in T.paired_games(state, games) if me in g.players]
    by_round = {p.round: p for p in standings.pairings(mine)}
    rounds = []
    for rnd in state.paired:
        seat = rnd.table_of(reg.name)
        if seat is not None:
            pairing = by_round.get(rnd.number)
            rounds.append({
                "round": rnd.number, "table": seat.table, "closed": rnd.closed,
                "opponent": next((p for p in seat.players if player_key(p) != me), None),
                "games": game_ids(state, seat), "outcome": _outcome(pairing, me),
                "score": _score(pairing, me) if pairing is not None and pairing.finished else None,
            })
        elif me in {player_key(b) for b in rnd.byes}:
            rounds.append({"round": rnd.number, "table": None, "closed": rnd.closed, "opponent": None, "games": [],
                           "outcome": "bye", "score": None})
    row = next((r.to_json() for r in table.rows if player_key(r.player) == me), None)
    return {"event": state.name, "player": reg.name, "deck": dict(reg.deck) if reg.deck else None,
            "dropped_after": reg.dropped_after, "standing": row, "rounds": rounds,
            "penalties": [dict(p) for p in penalties]}


def player_context(state: T.Tournament, player: Mapping[str, Any], lang: str) -> dict[str, Any]:
    """``event_player.html``: the player's JSON with each penalty's name in the reader's language."""
    from exports.i18n import gettext_for
    from exports.notation import PENALTIES

    _ = gettext_for(lang)
    player = {**player, "penalties": [{**x, "penalty_text": _(PENALTIES[x["penalty"]]) if x.get("penalty") in PENALTIES
                                       else str(x.get("penalty"))} for x in player["penalties"]]}
    return {**nav(state, state.name, lang, "player"), "event": state.name, "t": labels(lang), "lang": lang,
            "p": player}


def desk_block(state: T.Tournament, desk: Mapping[str, Any] | None, lang: str) -> dict[str, Any]:
    """The desk's round status and links (``_event_round.html``): ``desk`` is the round view of
    the last round paired, or None before the first pairing."""
    u = urls(state.name, lang)
    return {"ev": state.header_json(), "view": desk, "urls": u, "t": labels(lang),
            "rounds": [(r.number, u["round"](r.number), r.closed) for r in state.paired],
            "players": [(p.name, u["player"](p.name), p.dropped_after) for p in state.players.values()]}


__all__ = ["LABELS", "desk_block", "game_ids", "labels", "player_context", "player_json", "qr_data_uri",
           "record_url", "render_sheet", "round_context", "round_json", "standings_context", "urls"]
