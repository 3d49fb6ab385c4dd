"""The code every game package shares (projections/package.py, projections/names.py)."""

from __future__ import annotations

import dataclasses

from projections.base import FieldError
from projections.names import closest, did_you_mean, unknown_name
from projections.package import evolve, header_version, house_rule_errors

CARDS = ["ヴァリアンツの忍者－南月", "ヴァリアンツの忍者－北月", "ヴァリアンツＭ－マーキス", "破天荒な風"]


def test_closest_offers_at_most_three_names_above_the_cutoff():
    assert closest("ギタン", ["ギダン", "イスルギ", "爪牙"], cutoff=0.5) == ["ギダン"]
    assert closest("zzz", ["ギダン", "イスルギ"]) == []
    assert len(closest("ab", ["ab1", "ab2", "ab3", "ab4"], cutoff=0.1)) == 3


def test_near_keeps_only_the_names_nearly_as_close_as_the_best():
    everything = closest("ヴァリアンツの忍者－南日", CARDS, cutoff=0.6)
    best = closest("ヴァリアンツの忍者－南日", CARDS, cutoff=0.6, near=0.05)
    assert everything[:2] == ["ヴァリアンツの忍者－南月", "ヴァリアンツの忍者－北月"]
    assert best == ["ヴァリアンツの忍者－南月"]


def test_within_offers_the_names_that_contain_a_short_form():
    assert closest("南月", CARDS) == []
    assert closest("南月", CARDS, within=True) == ["ヴァリアンツの忍者－南月"]
    assert closest("", CARDS, within=True) == []


def test_the_hint_and_the_refusal():
    assert did_you_mean([]) == ""
    assert did_you_mean(["ギダン", "爪牙"]) == "; did you mean 'ギダン' or '爪牙'?"
    assert unknown_name("die", "ギダン", ["ギダン"], "a die") == []
    assert unknown_name("die", None, ["ギダン"], "a die") == []  # not a name: validate_move says so
    assert unknown_name("die", "ギタン", ["ギダン", "爪牙", "ギダン"], "a die") == [
        FieldError("die", "'ギタン' is not a die of this match; did you mean 'ギダン'?")
    ]
    assert unknown_name("die", "xyz", ["ギダン"], "a die") == [FieldError("die", "'xyz' is not a die of this match")]


def test_evolve_changes_only_the_named_fields_and_keeps_the_old_value():
    @dataclasses.dataclass(frozen=True)
    class Side:
        life: int
        hand: tuple[str, ...]

    old = Side(5, ("a",))
    new = evolve(old, life=4)
    assert (old.life, new.life, new.hand is old.hand, type(new)) == (5, 4, True, Side)

    @dataclasses.dataclass(frozen=True, slots=True)
    class Slotted:
        n: int

    assert evolve(Slotted(1), n=2) == Slotted(2)


def test_header_version_keeps_the_deck_rules_with_other_defaults():
    def validate(header):
        return [FieldError("players", "two")] if len(header["players"]) != 2 else []

    def initial(header, defaults):
        return (header["match"]["id"], dict(defaults))

    old = header_version("projections.demo.header", {"deck_out": "last"}, validate, initial)
    assert old.HOUSE_RULES == {"deck_out": "last"} and old.validate_header is validate
    assert old.initial_board({"match": {"id": "m"}}) == ("m", {"deck_out": "last"})


def test_house_rule_errors_name_the_option_and_what_it_takes():
    defaults = {"tie": "none", "draw": True, "atk": 2500, "cycle": "赤>緑>赤"}
    choices = {"tie": ("none", "both"), "draw": (True, False)}

    def extra(name, value):
        return "must be 0 or more" if name == "atk" and value < 0 else None

    def problems(given):
        return [str(e) for e in house_rule_errors(given, defaults, choices, extra)]

    assert problems(None) == [] and problems({}) == []
    assert problems({"tie": "both", "draw": False, "atk": 0, "cycle": "x"}) == []
    assert problems([]) == ["match.house_rules: must be an object"]
    assert problems({"speed": 1}) == ["match.house_rules.speed: unknown house rule (known: tie, draw, atk, cycle, flagged_results)"]
    # the core's option (KIFU-3) is every game's
    assert problems({"flagged_results": "pending"}) == [] and problems({"flagged_results": "stand"}) == []
    assert problems({"flagged_results": "void"}) == ["match.house_rules.flagged_results: must be one of pending, stand"]
    assert problems({"tie": "some"}) == ["match.house_rules.tie: must be one of none, both"]
    assert problems({"draw": 1}) == ["match.house_rules.draw: must be one of true, false"]  # 1 == True, not a bool
    assert problems({"atk": "2500"}) == ["match.house_rules.atk: must be an integer"]
    assert problems({"atk": True}) == ["match.house_rules.atk: must be an integer"]
    assert problems({"atk": -1}) == ["match.house_rules.atk: must be 0 or more"]
    assert problems({"cycle": 3}) == ["match.house_rules.cycle: must be text"]


def test_a_house_rule_of_a_kind_without_a_word_is_named_by_its_type():
    problems = [str(e) for e in house_rule_errors({"order": "AB"}, {"order": ["A", "B"]})]
    assert problems == ["match.house_rules.order: must be list"]
    role = header_version("projections.demo.header", {}, lambda h: [], lambda h, d: None)
    assert role.__name__ == "projections.demo.header.version" and role.__doc__ == header_version.__doc__


def test_a_generated_header_is_the_same_event_round_table_and_date_for_every_game():
    from projections import registry
    from projections.package import GENERATED_DATE, generated_header

    ruleset = registry.get("mushijingi")
    header = generated_header(ruleset, "gen-1", [{"id": "A"}, {"id": "B"}], "B", house_rules={"x": 1}, title="t")
    assert header == {
        "kifu": 1, "game": "mushijingi", "rules": f"mushijingi/{ruleset.version}",
        "match": {"id": "gen-1", "event": "generated", "round": 1, "table": "1", "date": GENERATED_DATE,
                  "house_rules": {"x": 1}, "title": "t"},
        "players": [{"id": "A"}, {"id": "B"}], "first": "B",
    }
    assert "first" not in generated_header(ruleset, "gen-2", [{"id": "A"}], None)


def test_the_package_ruleset_hands_each_role_to_its_module():
    import types

    from projections.package import PackageRuleset

    calls = []

    def role(**fns):
        return types.SimpleNamespace(**fns)

    rs = PackageRuleset(
        header=role(HOUSE_RULES={"r": 1}, validate_header=lambda h: [], initial_board=lambda h: "board"),
        moves=role(MOVE_TYPES={}, validate_move=lambda m: []),
        apply=role(apply=lambda b, m: b),
        check=role(check=lambda b, m: [], result=lambda b: None,
                   name_errors=lambda b, m: calls.append("check") or [FieldError("card", "no such card")]),
        render=role(board_json=lambda b: {}, render_text=lambda b, t: "盤面", vocabulary=lambda h: [],
                    describe=lambda b, m, lang: f"{m['type']}:{lang}"),
        generate=role(),
    )
    assert rs.house_rules == {"r": 1} and rs.move_types == {}
    assert rs.render_text("board") == "盤面"
    assert rs.describe("board", {"type": "play"}) == "play:ja"  # Japanese unless asked
    assert [str(e) for e in rs.name_errors("board", {})] == ["card: no such card"] and calls == ["check"]
    rs._moves = role(MOVE_TYPES={}, validate_move=lambda m: [])
    rs._check = role()
    assert rs.name_errors("board", {}) == []  # a game without the check: no refusals
