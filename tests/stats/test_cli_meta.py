"""``kifu stats --meta``, ``--trend week|month`` and ``--cards`` in process: a season of seeded
weekly events, its trend equal to the per-period ``--since/--until`` figures, every format,
and each refusal as one line."""

from __future__ import annotations

import csv
import io
import json

import pytest

from projections import registry
from tests.stats.season import weekly_season

@pytest.fixture
def season(kifu, store):
    """Seven weekly gandice events and two mushijingi matches (tests/stats/season.py)."""
    weekly_season(store)
    return kifu


def run_json(kifu, *args):
    code, out, err = kifu("stats", *args)
    assert code == 0, err
    assert "\\u" not in out  # names as they are (ensure_ascii=False)
    return json.loads(out)


def test_the_trend_equals_the_per_period_figures(season):
    for period in ("week", "month"):
        trend = run_json(season, "--trend", period, "--game", "gandice", "--json")
        assert trend["view"] == "trend"
        (t,) = trend["games"]
        assert t["period"] == period and t["title"] == registry.get("gandice").title
        labels = [p["period"] for p in t["periods"]]
        if period == "week":  # the empty weeks of December are periods too
            assert labels[0] == "2026-W44" and labels[-1] == "2027-W01" and len(labels) == 11
            assert [p["matches"] for p in t["periods"]][:6] == [1, 2, 3, 1, 2, 3]
            assert all(p["matches"] == 0 and p["archetypes"] == [] for p in t["periods"][6:10])
        else:
            assert labels == ["2026-10", "2026-11", "2026-12", "2027-01"]
        for p in t["periods"]:
            meta = run_json(season, "--meta", "--game", "gandice", "--since", p["since"], "--until", p["until"], "--json")
            (m,) = meta["games"]
            assert (p["matches"], p["field"]) == (m["matches"], m["field"])
            assert p["archetypes"] == [{k: a[k] for k in p["archetypes"][0]} for a in m["archetypes"]] if p["archetypes"] else m["archetypes"] == []
            report = run_json(season, "--game", "gandice", "--by", "archetype", "--since", p["since"], "--until", p["until"], "--json")
            assert report["matches"] == p["matches"]
            rates = {a["name"]: (a["games"], a["win_rate"], a["low"], a["high"]) for a in p["archetypes"]}
            assert rates == {d["name"]: (d["games"], d["win_rate"], d["low"], d["high"]) for d in report["decks"]}


def test_the_trend_as_csv_and_text(season):
    code, out, err = season("stats", "--trend", "month", "--csv")
    assert code == 0, err
    rows = list(csv.DictReader(io.StringIO(out)))
    assert {r["game"] for r in rows} == {"gandice", "mushijingi"}
    nov = [r for r in rows if r["game"] == "gandice" and r["period"] == "2026-11"]
    assert sum(int(r["players"]) for r in nov) == int(nov[0]["period_field"])
    code, out, err = season("stats", "--trend", "week", "--game", "gandice")
    assert code == 0, err
    assert "2026-W44" in out and "2027-W01" in out


def test_meta_json_csv_and_text(season):
    meta = run_json(season, "--meta", "--json")
    games = {g["game"]: g for g in meta["games"]}
    assert set(games) == {"gandice", "mushijingi"}
    g = games["gandice"]
    assert round(sum(a["share"] for a in g["archetypes"]), 3) == 1.0
    assert sum(a["players"] for a in g["archetypes"]) == g["field"] == sum(d["players"] for d in g["decks"])
    assert g["matrix"] and all("mirror" in c for c in g["matrix"])
    code, out, err = season("stats", "--meta", "--csv", "--game", "gandice")
    assert code == 0, err
    rows = list(csv.DictReader(io.StringIO(out)))
    assert {r["section"] for r in rows} == {"archetype", "deck"}
    code, out, err = season("stats", "--meta", "--game", "gandice")
    assert code == 0 and g["archetypes"][0]["name"] in out


def test_cards_json_csv_and_text(season):
    cards = run_json(season, "--cards", "--game", "gandice", "--json")
    (c,) = cards["games"]
    assert c["cards"] and all(x["included"]["games"] >= x["played"]["games"] or x["included"]["games"] == 0
                              for x in c["cards"])
    few = run_json(season, "--cards", "--game", "gandice", "--min-sample", "5", "--json")["games"][0]
    assert all(max(x["included"]["games"], x["played"]["games"]) >= 5 for x in few["cards"])
    assert len(few["cards"]) + len(few["hidden_cards"]) == len(c["cards"])
    code, out, err = season("stats", "--cards", "--csv")
    assert code == 0, err
    rows = list(csv.DictReader(io.StringIO(out)))
    assert {r["game"] for r in rows} == {"gandice", "mushijingi"} and rows[0]["card"]
    code, out, err = season("stats", "--cards", "--game", "gandice")
    assert code == 0 and c["cards"][0]["card"] in out


def test_html_files_of_each_view(season, tmp_path, monkeypatch):
    monkeypatch.delenv("KIFU_LANG")  # what a person reads: Japanese unless asked
    for args, marker in ((("--meta",), 'class="kifu-meta metagame"'), (("--trend", "week"), 'class="kifu-meta trend"'),
                         (("--cards",), 'class="kifu-meta cards"')):
        path = tmp_path / f"{args[0][2:]}.html"
        code, out, err = season("stats", *args, "--html", str(path))
        assert code == 0, err
        assert str(path) in out
        page = path.read_text(encoding="utf-8")
        assert marker in page and "<script" not in page and "http" not in page.replace("http-equiv", "")
        assert '<html lang="ja">' in page and "カード統計" in page if args[0] == "--cards" else "<html lang=\"ja\">" in page
        if args[0] != "--cards":
            assert 'role="img"' in page and "<title id=" in page and "<desc id=" in page and "<table" in page
    page = (tmp_path / "meta.html").read_text(encoding="utf-8")
    assert 'class="matrix"' in page  # the matchup matrix as kifu stats draws it
    code, _out, err = season("stats", "--trend", "month", "--html", str(tmp_path / "en.html"), "--lang", "en")
    assert code == 0, err
    assert '<html lang="en">' in (tmp_path / "en.html").read_text(encoding="utf-8")


@pytest.mark.parametrize("args, said", [
    (("--meta", "--cards"), "--meta, --cards: choose one"),
    (("--trend", "week", "--meta"), "--meta, --trend: choose one"),
    (("--trend", "year"), "--trend: must be week or month, not 'year'"),
    (("--cards", "--min-sample", "-1"), "--min-sample: must be a whole number >= 0, not -1"),
    (("--min-sample", "3"), "--min-sample: only with --cards"),
    (("--meta", "--json", "--csv"), "--csv, --json: choose one"),
    (("--meta", "--since", "11月"), "--since: '11月' is not a date"),
])
def test_refusals_are_one_line(kifu, args, said):
    code, out, err = kifu("stats", *args)
    assert code == 2 and said in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1


def test_an_html_file_that_cannot_be_written_is_one_line(season, tmp_path):
    code, out, err = season("stats", "--cards", "--html", str(tmp_path / "no-such-folder" / "c.html"))
    assert code == 2 and "--html: " in err and "No such file or directory" in err and "Traceback" not in err
    assert not (tmp_path / "no-such-folder").exists()


def test_meta_groups_its_matrix_by_archetype_unless_by_deck(season):
    by_archetype = run_json(season, "--meta", "--game", "gandice", "--json")["games"][0]
    by_deck = run_json(season, "--meta", "--game", "gandice", "--by", "deck", "--json")["games"][0]
    archetypes = {a["name"] for a in by_archetype["archetypes"]}
    decks = {d["name"] for d in by_archetype["decks"]}
    assert {c["deck"] for c in by_archetype["matrix"]} <= archetypes
    # the share and win-rate tables are the same either way; only the matrix follows --by
    assert by_deck["archetypes"] == by_archetype["archetypes"] and by_deck["decks"] == by_archetype["decks"]
    assert {c["deck"] for c in by_deck["matrix"]} <= decks


def test_min_games_hides_rare_archetypes_from_the_matrix_only(season):
    every = run_json(season, "--meta", "--game", "gandice", "--json")["games"][0]
    some = run_json(season, "--meta", "--game", "gandice", "--min-games", "5", "--json")["games"][0]
    report = run_json(season, "--game", "gandice", "--by", "archetype", "--min-games", "5", "--json")
    assert some["matrix"] == report["matrix"] and len(some["matrix"]) < len(every["matrix"])
    assert some["archetypes"] == every["archetypes"]
