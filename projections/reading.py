"""Names by reading (読み, 五十音順): a player's name as it is read, in kana, and the order of
every by-name list (the pairings posted on the wall, the roster).

A reading is kana only: hiragana, katakana (full or half width), the long-vowel mark ー and
spaces; katakana is folded to hiragana, so やまだ and ヤマダ sort as one. The order is the
dictionary's (五十音順): the letters are compared first without their voicing marks and with
small kana as large (か = が, つ = っ), and only where that ties, with them (か before が). A
player without a reading whose name is kana itself is read as written; any other name
without a reading (漢字 with no reading given, a Latin name) goes after every read name, in
code-point order of the name. Pure: no I/O.
"""

from __future__ import annotations

import unicodedata
from typing import Any

from projections.standings import player_key

_SMALL = dict(zip("ぁぃぅぇぉっゃゅょゎゕゖ", "あいうえおつやゆよわかけ", strict=True))
_MARKS = {"\u3099", "\u309a"}  # the combining voiced and semi-voiced sound marks


def fold(text: str) -> str:
    """``text`` (NFKC, spaces collapsed) with katakana folded to hiragana (ヤマダ -> やまだ)."""
    out = []
    for ch in player_key(text):
        code = ord(ch)
        out.append(chr(code - 0x60) if 0x30A1 <= code <= 0x30F6 else ch)
    return "".join(out)


def is_kana(text: str) -> bool:
    """Whether ``text`` is a reading: hiragana or katakana (any width), ー, ・ and spaces, at least one kana."""
    folded = fold(text)
    kana = [ch for ch in folded if ch not in " ・ー"]
    return bool(kana) and all("\u3041" <= ch <= "\u3096" or ch in "\u309d\u309e" for ch in kana)


def _base(hira: str) -> str:
    """Letters without voicing marks, small kana as large: the dictionary's first comparison."""
    plain = "".join(ch for ch in unicodedata.normalize("NFD", hira) if ch not in _MARKS)
    return "".join(_SMALL.get(ch, ch) for ch in plain)


def sort_key(name: Any, reading: str | None = None) -> tuple[Any, ...]:
    """The place of a player in a by-name list: by reading (五十音順), then names without one."""
    read = reading if reading else (str(name) if is_kana(str(name)) else None)
    if read:
        hira = fold(read)
        return (0, _base(hira), hira, player_key(name))
    return (1, player_key(name))


__all__ = ["fold", "is_kana", "sort_key"]
