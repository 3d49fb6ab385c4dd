"""The cases issue 16 lists, each as the user met it: one line, a non-zero exit, nothing written."""

from __future__ import annotations

from tests.hardening.conftest import dump, seed

NEW = ["new", "--game", "gandice", "--player", "A=山田", "--player", "B=佐藤"]


def one_line(err: str) -> str:
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert "internal error" not in err and "Traceback" not in err
    return lines[0]


def test_new_with_a_round_that_is_not_a_number(kifu, db):
    seed(db)
    before = dump(db)
    code, _, err = kifu(*NEW, "--round", "abc")
    assert code == 2 and one_line(err).startswith("kifu: Invalid value for '--round'")
    assert dump(db) == before


def test_new_with_an_id_ending_in_a_newline(kifu, db):
    seed(db)
    before = dump(db)
    # a header complete but for its id (kifu new names a missing deck before it checks the id)
    code, _, err = kifu(*NEW, "--cards", "A=ギダン,美雅羅,爪牙,武具・羅,武具・羅#2",
                        "--cards", "B=紅蓮のイスルギ,青嵐のイスルギ,イスルギ,武具・羅,呪術・笑童児", "--id", "nl\n")
    assert code == 2 and one_line(err).startswith("kifu: header: match.id: must be 1-100 letters")
    assert dump(db) == before


def test_new_with_a_player_name_that_is_not_utf8(kifu, db):
    seed(db)
    before = dump(db)
    code, _, err = kifu("new", "--game", "gandice", "--player", "A=\udcff", "--player", "B=b")
    assert code == 2 and "not valid UTF-8" in one_line(err)
    assert dump(db) == before


def test_new_from_a_header_file_with_nan_and_a_duplicate_key(kifu, db, tmp_path):
    seed(db)
    before = dump(db)
    path = tmp_path / "header.json"
    path.write_text('{"kifu": 1, "game": "gandice", "game": "mushijingi"}', encoding="utf-8")
    code, _, err = kifu("new", str(path))
    assert code == 2 and one_line(err) == f"kifu: {path}:1: game: duplicate key (each key once per object)"
    path.write_bytes(b'{"kifu": 1,\n "game": "gandice",\n "x": "\xff"}')
    code, _, err = kifu("new", str(path))
    assert code == 2 and one_line(err).startswith(f"kifu: {path}:3: encoding: not UTF-8")
    assert dump(db) == before



def test_a_token_name_ending_in_a_newline_is_refused(kifu, db):
    seed(db)
    code, _, err = kifu("token", "new", "--name", "nl\n", "--role", "admin")
    assert code != 0 and "internal error" not in err
    assert len(err.splitlines()) == 1, err
