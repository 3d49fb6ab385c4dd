"""The words of a player's own page, the round clock and what the desk adds for the players'
reports and the judges' extensions (issue 33), from the catalog (exports/locale), in one leaf
module that the round view (exports/tournament.py), the desk block (exports/event_pages.py) and
the players' pages (exports/player_pages.py) all read."""

from __future__ import annotations

from typing import Any

from exports import i18n


def _words(t: Any) -> dict[str, str]:
    """The players' pages', the clock's and the desk's words of issue 33."""
    return {
        "my_page": t.pgettext("player", "My page"), "your_table": t.pgettext("player", "Your table"),
        "time_left": t.pgettext("player", "Time left"), "extended": t.pgettext("player", "extended +{m} min"),
        "waiting_pairing": t.pgettext("player", "Waiting for the next round's pairing"),
        "your_bye": t.pgettext("player", "You have the bye this round"),
        "report": t.pgettext("player", "Report your result"), "send": t.pgettext("player", "Send the report"),
        "games_yours": t.pgettext("player", "Games (yours first)"),
        "you_reported": t.pgettext("player", "You reported: {result} {games}"),
        "st_waiting": t.pgettext("player", "Waiting for your opponent's report"),
        "st_agreed": t.pgettext("player", "Both reports agree: the result stands"),
        "st_dispute": t.pgettext("player", "The reports disagree: a judge will rule"),
        "st_recorded": t.pgettext("player", "The table's result is recorded"),
        "st_closed": t.pgettext("player", "The round is closed"),
        "opponent_reported": t.pgettext("player", "Your opponent reported: {result} {games}"),
        "no_token": t.pgettext("player", "This page needs your player's link (the QR code or the address with #token=)."),
        "loading": t.pgettext("player", "Loading…"), "sent": t.pgettext("player", "Sent"),
        "clock": t.pgettext("clock", "Round clock"), "time_up": t.pgettext("clock", "Time"),
        "round_closed": t.pgettext("clock", "Round {n} closed"),
        "no_round_yet": t.pgettext("clock", "Waiting for the first round"),
        "extended_tables": t.pgettext("clock", "Extended tables"),
        "table_plus": t.pgettext("clock", "Table {table}: +{m} min"),
        "record": t.pgettext("player", "Your record"),
        "scan_seat": t.pgettext("player", "Scan with your phone's camera: your own page opens (your table each round, "
                                          "the time left, your result to report)."),
        "valid_seat": t.pgettext("player", "For this player, for the whole event."),
        "win": t.pgettext("event", "win"), "loss": t.pgettext("event", "loss"), "draw": t.pgettext("event", "draw"),
        "disputes": t.pgettext("desk", "Disputed reports"), "over_time": t.pgettext("desk", "Over time"),
        "reports_h": t.pgettext("desk", "Players' reports"), "extend": t.pgettext("desk", "Extend a table's time"),
        "minutes": t.pgettext("desk", "Minutes"), "reason": t.pgettext("desk", "Reason"),
        "judge_token": t.pgettext("desk", "Judge's token"), "ends": t.pgettext("desk", "ends {time}"),
        "st_none": t.pgettext("player", "Not reported yet"),
        "rp_waiting": t.pgettext("desk", "one side reported"), "rp_agreed": t.pgettext("desk", "reports agree"),
        "rp_dispute": t.pgettext("desk", "reports disagree"),
        "clock_link": t.pgettext("desk", "Round clock"),
    }


labels = i18n.word_table(_words)  # labels(lang): the words in ``lang`` (Japanese unless "en")


__all__ = ["labels"]
