"""The options a field's help spells out (projections.vocabulary.enum_options): what the
recording page's face buttons and live logging's Tab offer. The help is English (the catalog's
source); the labels a Japanese reader sees come from the help's translation, word for word."""

from __future__ import annotations

from exports.i18n import gettext_for
from projections import registry
from projections.vocabulary import enum_options

FACE = registry.get("gandice").move_types["defend"].fields["face"]
VALUES = ["stand", "handstand", "side", "special", "normal"]


def test_pairs_give_values_and_labels():
    got = enum_options("resting position: stand/立ち, handstand/逆立ち, side/横倒し")
    assert got == [{"value": "stand", "label": "立ち"}, {"value": "handstand", "label": "逆立ち"},
                   {"value": "side", "label": "横倒し"}]


def test_alternatives_give_values_as_labels():
    assert [o["value"] for o in enum_options("normal / lateral / special")] == ["normal", "lateral", "special"]


def test_an_english_list_gives_values_labelled_from_its_translation():
    assert [o["value"] for o in enum_options(FACE)] == VALUES
    assert [o["label"] for o in enum_options(FACE)] == VALUES  # no translation: the values
    ja = enum_options(FACE, gettext_for("ja")(FACE))
    assert [o["value"] for o in ja] == VALUES
    assert [o["label"] for o in ja] == ["立ち", "逆立ち", "横倒し", "特殊目", "通常目"]
    assert [o["label"] for o in enum_options(FACE, gettext_for("en")(FACE))] == VALUES


def test_a_translation_listing_other_words_leaves_the_values():
    """A translator who drops or adds a word must not shift every label by one."""
    assert [o["label"] for o in enum_options(FACE, "向き：立ち、逆立ち、横倒し、特殊目")] == VALUES
    assert [o["label"] for o in enum_options(FACE, "向き：立ち、逆立ち、横倒し、特殊目、通常目、他")] == VALUES


def test_prose_is_not_a_list_of_options():
    assert enum_options("the number on a normal face (1-6); omitted otherwise") == []
    assert enum_options("item after a special face: a weapon or curse die roll") == []


KIND = registry.get("variants-war").move_types["effect"].fields["kind"]


def test_alternatives_are_labelled_from_their_translation():
    """ヴァリアンツ＝ウォー's effect kinds read in the seed's own terms on the Japanese page
    (［通常効果］【横移動効果】《特殊効果》), in English on the English one; the values stay."""
    ja = enum_options(KIND, gettext_for("ja")(KIND))
    assert [o["value"] for o in ja] == ["normal", "lateral", "special"]
    assert [o["label"] for o in ja] == ["通常効果", "横移動効果", "特殊効果"]
    assert [o["label"] for o in enum_options(KIND, gettext_for("en")(KIND))] == ["normal", "lateral", "special"]
    pile = registry.get("variants-war").move_types["reveal"].fields["pile"]
    assert [o["label"] for o in enum_options(pile, gettext_for("ja")(pile))] == ["デッキ", "救援デッキ", "魔法デッキ"]
    out = registry.get("gurren-lagann").move_types["battle"].fields["outcome"]
    assert [o["label"] for o in enum_options(out, gettext_for("ja")(out))] == ["攻撃側の勝利", "防御側の勝利", "双方敗北"]
    # a translation whose words do not split as many: the values
    assert [o["label"] for o in enum_options("up / down", "上下")] == ["up", "down"]
