"""``kifu new`` from options alone (issue 37, item 6): every field of every game's header has
an option (グレンラガン's stock deck, Gandice's evolution dice and 小札絵, 蟲神器's catalog, the
rules version), and what a game's header needs and was not given is named in one line in the
reader's language, with a non-zero exit and nothing written."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from projections import registry

ROOT = Path(__file__).resolve().parents[2]


def example(game: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    lines = (ROOT / "examples" / f"{game}-example.jsonl").read_text(encoding="utf-8").splitlines()
    return json.loads(lines[0]), [json.loads(x) for x in lines[1:] if x.strip()]


def options_of(header: dict[str, Any], match_id: str) -> list[str]:
    """The options that say ``header`` field by field."""
    m = header["match"]
    opts = ["--game", header["game"], "--rules", header["rules"], "--id", match_id, "--title", m["title"],
            "--event", m["event"], "--round", str(m["round"]), "--table", m["table"], "--date", m["date"],
            "--first", header["first"]]
    for name, value in m.get("house_rules", {}).items():
        opts += ["--house-rule", f"{name}={json.dumps(value, ensure_ascii=False)}"]
    for p in header["players"]:
        pid, deck = p["id"], p["deck"]
        opts += ["--player", f"{pid}={p['name']}", "--deck", f"{pid}={deck['name']}", "--archetype", f"{pid}={deck['archetype']}"]
        for key in ("cards", "stock", "evolution", "kofuda"):
            if key in deck:
                opts += [f"--{key}", f"{pid}=" + ",".join(deck[key])]
    return opts


def test_a_gurren_lagann_match_from_options_alone(kifu, db):
    header, moves = example("gurren-lagann")
    opts = options_of(header, "gl-cli") + ["--house-rule", "deckout=draw"]
    assert not any(o.endswith(".json") or o == "-" for o in opts)  # no header file
    code, out, err = kifu("new", *opts)
    assert (code, out.strip(), err) == (0, "gl-cli", "")
    first = {k: v for k, v in moves[0].items() if k not in ("seq", "at")}
    code, out, err = kifu("record", "gl-cli", json.dumps(first, ensure_ascii=False))
    assert code == 0, err
    code, out, err = kifu("export", "gl-cli")
    assert code == 0, err
    lines = [json.loads(x) for x in out.splitlines()]
    got = lines[0]
    assert got["game"] == "gurren-lagann" and got["rules"] == header["rules"] and got["first"] == "A"
    assert {k: got["match"][k] for k in ("id", "title", "event", "round", "table", "date")} == {
        **{k: header["match"][k] for k in ("title", "event", "round", "table", "date")}, "id": "gl-cli"}
    assert got["match"]["house_rules"] == {"deckout": "draw"}
    assert got["players"] == header["players"]  # names, deck names, archetypes, cards and stock decks
    assert [{k: v for k, v in x.items() if k not in ("at",)} for x in lines[1:]] == [
        {k: v for k, v in moves[0].items() if k != "at"}]


def test_every_deck_list_of_a_gandice_header_from_options(kifu, db):
    header, _ = example("gandice")
    deck = header["players"][0]["deck"]
    custom = [{"name": "試作ダイス", "kind": "character", "kin": "闇", "bonus": 1}]
    code, _, err = kifu("new", *options_of(header, "gd-cli"), "--kofuda", "A=" + ",".join(deck.get("kofuda", [])),
                        "--dice", "A=" + json.dumps(custom, ensure_ascii=False))
    assert code == 0, err
    code, out, err = kifu("export", "gd-cli")
    got = json.loads(out.splitlines()[0])["players"][0]["deck"]
    assert got["cards"] == deck["cards"] and got["dice"] == custom


@pytest.mark.parametrize(("game", "given", "ja", "en"), [
    ("gandice", ["--player", "A=山田", "--player", "B=佐藤"],
     "不足しています: --cards A=CARD,…, --cards B=CARD,…（gandice のヘッダーに必要です）",
     "missing --cards A=CARD,…, --cards B=CARD,… (a gandice header needs them)"),
    ("gurren-lagann", ["--player", "A=山田", "--player", "B=佐藤", "--cards", "A=グレン", "--stock", "B=グレン"],
     "不足しています: --stock A=FIGURE,…, --cards B=CARD,…（gurren-lagann のヘッダーに必要です）",
     "missing --stock A=FIGURE,…, --cards B=CARD,… (a gurren-lagann header needs them)"),
    ("variants-war", ["--player", "A=山田", "--player", "B=佐藤", "--archetype", "A=森羅万象"],
     "不足しています: --archetype B=ARCHETYPE / --cards B=CARD,…（variants-war のヘッダーに必要です）",
     "missing --archetype B=ARCHETYPE / --cards B=CARD,… (a variants-war header needs them)"),
    ("mushijingi", ["--player", "A=山田"],
     "不足しています: --player ID=NAME（mushijingi のヘッダーに必要です）",
     "missing --player ID=NAME (a mushijingi header needs them)"),
])
def test_what_a_header_needs_is_named_in_one_line(kifu, db, game, given, ja, en):
    from recorder.store import Store

    for lang, said in (("ja", ja), ("en", en)):
        code, out, err = kifu("--lang", lang, "new", "--game", game, "--id", "m1", *given)
        assert code != 0 and out == "" and err == f"kifu: {said}\n", err
    assert not Path(db).exists() or not Store(db).exists("m1")  # nothing written


def test_each_game_says_what_its_decks_need():
    """The required deck keys ``kifu new`` asks for are the ones the game's header refuses without."""
    for game in ("gandice", "gurren-lagann", "mushijingi", "variants-war"):
        ruleset = registry.get(game)
        header, _ = example(game)
        for keys in ruleset.deck_required:
            bare = json.loads(json.dumps(header))
            for p in bare["players"]:
                for k in keys:
                    p["deck"].pop(k, None)
            assert ruleset.validate_header(bare), (game, keys)  # refused without them
        assert not ruleset.validate_header(header)


def test_a_bad_house_rule_is_named_in_japanese(kifu, db):
    header, _ = example("gurren-lagann")
    code, _, err = kifu("--lang", "ja", "new", *options_of(header, "gl-bad"), "--house-rule", "deckout=sometimes")
    assert code != 0 and "match.house_rules.deckout: empty, draw のいずれかでなければなりません" in err, err
    code, _, err = kifu("--lang", "ja", "new", *options_of(header, "gl-bad"), "--house-rule", "draw_per_turn=-1")
    assert code != 0 and "0 以上でなければなりません" in err, err
