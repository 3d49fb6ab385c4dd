"""The tournament speaks one language at a time (issue 26): every refusal of the tournament
(recorder/tournament_service.py), of the round sheet (recorder/roundsheet.py) and of ``kifu event`` /
``kifu round`` / ``kifu standings``, and every line they print, in Japanese by default with no
English a person reads, and in English with ``--lang en`` with no Japanese but the names as
recorded (the event's, the players', a file's own). Each refusal is triggered here in both
languages; the rest of the suite reads them in English (tests/conftest.py sets KIFU_LANG=en)."""

from __future__ import annotations

import io
import json
import re
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from exports import i18n
from recorder.tournament_service import LINE_FIELDS

E = "冬季大会"
PLAYERS = ["山田", "佐藤", "鈴木", "田中", "高橋"]
ROUND1 = "table,player1,player2\n1,山田,佐藤\n2,鈴木,田中\nBYE,高橋,\n"
JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff\u3000-\u303f\uff01-\uffef]+")
# a command, a package or an address a message tells the reader to type: the same in every language
TYPED = re.compile(r"\bkifu(?: [\w.-]+)+|pip install \w+|apt-get install \w+|http://\S+")


def english_prose(text: str, *typed: str) -> list[str]:
    """Two English words in a row (a sentence) in ``text``, leaving out what the reader typed
    (``typed``: the command line) and the commands the message names."""
    for t in sorted(typed, key=len, reverse=True):
        text = text.replace(t, " ")
    text = TYPED.sub(" ", text)
    return re.findall(r"\b[A-Za-z]{2,} [a-z]{2,}\b", text)


def japanese_but_names(text: str, *names: str) -> set[str]:
    """Japanese in ``text`` that is not part of one of ``names`` (as recorded or typed)."""
    known = " ".join(names)
    return {w for w in JAPANESE.findall(text) if w not in known}


def csv_file(tmp_path: Path, text: str, name: str = "pairing.csv") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def stage(kifu: Callable[..., tuple[int, str, str]], tmp_path: Path, name: str) -> None:
    """The event as far as ``name``: empty, opened (5 players), paired (round 1 open),
    closed (round 1 closed), dropped (and 高橋 dropped after it), lonely (one player)."""
    if name == "empty":
        return
    players = ["山田"] if name == "lonely" else PLAYERS
    assert kifu("event", "new", E, "--game", "mushijingi", "--rounds", "3", "--seed", "7")[0] == 0
    for p in players:
        assert kifu("event", "register", E, "--player", p)[0] == 0
    if name in ("opened", "lonely"):
        return
    assert kifu("round", "pair", E, "--import", csv_file(tmp_path, ROUND1, "r1.csv"))[0] == 0
    if name == "paired":
        return
    assert kifu("round", "close", E, "--unreported", "draw")[0] == 0
    if name == "dropped":
        assert kifu("event", "drop", E, "--player", "高橋")[0] == 0


def event_log(tmp_path: Path, *lines: str) -> str:
    return csv_file(tmp_path, "\n".join(lines) + "\n", "event.jsonl")


HEADER = json.dumps({"kifu": 1, "kind": "event", "event": {"name": "秋季大会", "game": "mushijingi", "rounds": 2}},
                    ensure_ascii=False)
NEW_R1 = ("new", "--game", "mushijingi", "--event", E, "--round", "1")

# (stage, the command line (given tmp_path), what it says in English, what it says in Japanese)
REFUSALS = [
    ("empty", lambda t: ("event", "new", E, "--game", "mushijingi", "--rounds", "3", "--format", "bo7"),
     "--format: one of bo1, bo3, bo5, got 'bo7'", "--format: bo1, bo3, bo5 のいずれかを指定してください（'bo7' が指定されました）"),
    ("empty", lambda t: ("event", "new", E, "--game", "mushijingi", "--rounds", "3", "--cut-format", "bo2"),
     "--cut-format: one of bo1, bo3, bo5, got 'bo2'", "--cut-format: bo1, bo3, bo5 のいずれかを指定してください"),
    ("empty", lambda t: ("event", "new", "a/b", "--game", "mushijingi", "--rounds", "3"),
     "letters, digits, spaces", "からなる 1〜100 文字の名前を指定してください"),
    ("empty", lambda t: ("event", "new", E, "--game", "mushijingi", "--rounds", "0"),
     "--rounds: 1 to 30, got 0", "--rounds: 1〜30 を指定してください（0 が指定されました）"),
    ("empty", lambda t: ("event", "new", E, "--game", "mushijingi", "--rounds", "3", "--round-minutes", "0"),
     "--round-minutes: 1 to 600, got 0", "--round-minutes: 1〜600 を指定してください"),
    ("empty", lambda t: ("event", "new", E, "--game", "mushijingi", "--rounds", "3", "--tiebreaks", "omw,omw"),
     "without repeats, got 'omw,omw'", "omw, gw, ogw, oomw を重複なく並べてください（'omw,omw' が指定されました）"),
    ("empty", lambda t: ("event", "new", E, "--game", "mushijingi", "--rounds", "3", "--unfinished", "coin"),
     "--unfinished: one of draw, exclude, double-loss, got 'coin'", "--unfinished: draw, exclude, double-loss のいずれかを指定してください"),
    ("empty", lambda t: ("event", "register", E, "--player", "x"),
     f"no event '{E}' in", f"に大会 '{E}' はありません（kifu event new {E} --game G --rounds N で作成できます）"),
    ("empty", lambda t: ("event", "show", E),
     f"no event '{E}' and no match of it", f"大会 '{E}' はなく、その対局もありません"),
    ("empty", lambda t: ("standings", E),
     f"no event '{E}' and no match of it", f"大会 '{E}' はなく、その対局もありません"),
    ("opened", lambda t: ("event", "new", E, "--game", "gandice", "--rounds", "2"),
     f"event '{E}' is already recorded", f"大会 '{E}' はすでに記録されています"),
    ("opened", lambda t: ("event", "register", E, "--player", "山田"),
     f"--player: '山田' is already registered in '{E}'", f"--player: '山田' はすでに '{E}' に登録されています"),
    ("opened", lambda t: ("event", "register", E, "--player", "x" * 101),
     "--player: a name of 1-100 characters", "--player: 1〜100 文字の名前を指定してください"),
    ("opened", lambda t: ("event", "register", E, "--player", "x", "--deck-file", csv_file(t, "[]", "deck.json")),
     "must be a deck object", "デッキのオブジェクト でなければなりません"),
    ("opened", lambda t: ("event", "drop", E, "--player", "誰か"),
     f"--player: '誰か' is not registered in '{E}'", f"--player: '誰か' は '{E}' に登録されていません"),
    ("opened", lambda t: ("event", "reinstate", E, "--player", "山田", "--reason", "x"),
     "--player: '山田' has not dropped", "--player: '山田' はドロップしていません"),
    ("opened", lambda t: ("round", "close", E), f"'{E}' has no open round to close", f"'{E}' に締め切る回戦はありません"),
    ("opened", lambda t: ("round", "show", E, "1"), f"'{E}' has no round 1", f"'{E}' に第1回戦はありません"),
    ("opened", lambda t: ("round", "pair", E, "--import", csv_file(t, "round,table,player1,player2\nx,1,山田,佐藤\n")),
     ":2: round: a number, got 'x'", ":2: round: 数を指定してください（'x' が指定されました）"),
    ("opened", lambda t: ("round", "pair", E, "--import",
                          csv_file(t, "round,table,player1,player2\n1,1,山田,佐藤\n2,2,鈴木,田中\n")),
     ":3: round: every row names the same round (1), got 2", ":3: round: すべての行が同じ回戦（1）でなければなりません"),
    ("opened", lambda t: ("round", "pair", E, "--import", csv_file(t, "1\n")),
     ":1: player1: missing (expected table,player1,player2)", ":1: player1: ありません（table,player1,player2 の形"),
    ("opened", lambda t: ("round", "pair", E, "--import", csv_file(t, "卓" * 21 + ",山田,佐藤\n")),
     ":1: table: 1-20 characters", ":1: table: 1〜20 文字で指定してください"),
    ("opened", lambda t: ("round", "pair", E, "--import", csv_file(t, "")),
     ":0: file: no pairing rows", ":0: file: 組み合わせの行がありません"),
    ("opened", lambda t: ("round", "pair", E, "--import", csv_file(t, "round,table,player1,player2\n2,1,山田,佐藤\n")),
     f":2: round: the next round of '{E}' is 1, got 2", f":2: round: '{E}' の次の回戦は第1回戦です（2 が指定されました）"),
    ("opened", lambda t: ("round", "pair", E, "--import", csv_file(t, "1,山田,佐藤\n2,鈴木,田中\n")),
     "round 1: not paired: 高橋", "第1回戦：組み合わされていないプレイヤー：高橋"),
    ("opened", lambda t: ("round", "pair", E, "--import", csv_file(t, "1,山田,佐藤\n1,鈴木,田中\nBYE,高橋,\n")),
     "round 1: table 1 appears twice", "第1回戦：1 卓が2回出てきます"),
    ("opened", lambda t: ("round", "pair", E, "--import", csv_file(t, "1,山田,佐藤\n2,鈴木,山田\nBYE,高橋,\n")),
     "round 1: table 2: '山田' is already seated at table 1", "第1回戦：2 卓：'山田' はすでに 1 卓に着いています"),
    ("opened", lambda t: ("round", "pair", E, "--import", csv_file(t, "1,山田,佐藤\n2,鈴木,誰か\nBYE,高橋,\n")),
     "round 1: table 2: '誰か' is not registered", "第1回戦：2 卓：'誰か' は登録されていません"),
    ("opened", lambda t: ("round", "pair", E, "--import", csv_file(t, "1,山田,佐藤\n2,鈴木,田中\nBYE,高橋,\nBYE,高橋,\n")),
     "round 1: bye: '高橋' already has the bye", "第1回戦：不戦勝：'高橋' はすでに不戦勝です"),
    ("opened", lambda t: ("round", "pair", E, "--import", csv_file(t, "1,山田,佐藤\n2,鈴木,田中\nBYE,山田,\n")),
     "round 1: bye: '山田' is already seated at table 1", "第1回戦：不戦勝：'山田' はすでに 1 卓に着いています"),
    ("opened", lambda t: ("round", "pair", E, "--import", csv_file(t, "1,山田,佐藤\n2,鈴木,田中\nBYE,誰か,\n")),
     "round 1: bye: '誰か' is not registered", "第1回戦：不戦勝：'誰か' は登録されていません"),
    ("opened", lambda t: ("standings", E, "--csv", "--json"), "--csv, --json: choose one", "--csv, --json"),
    ("opened", lambda t: ("standings", E, "--round", "5"),
     f"--round: '{E}' has paired 0 round(s)", f"--round: '{E}' が組み合わせた回戦は 0 回戦までです"),
    ("lonely", lambda t: ("round", "pair", E),
     f"'{E}': 1 active player(s); pairing needs 2", f"'{E}'：参加中のプレイヤーは 1 人です。組み合わせには2人以上が必要です"),
    ("paired", lambda t: ("round", "pair", E),
     f"round 1 of '{E}' is still open: kifu round close {E}", f"'{E}' の第1回戦はまだ締め切られていません：kifu round close {E}"),
    ("paired", lambda t: ("event", "register", E, "--player", "遅刻"),
     "a player who arrives now enters with --late", "今から来たプレイヤーは --late で途中参加します"),
    ("paired", lambda t: ("event", "drop", E, "--player", "山田", "--after", "0"),
     "--after: '山田' is paired in round 1", "--after: '山田' は第1回戦で組み合わされています"),
    ("paired", lambda t: ("event", "drop", E, "--player", "山田", "--after", "2"),
     "--after: a round from 0 to 1 (the last paired), got 2", "--after: 0〜1（最後に組み合わせた回戦）の回戦を指定してください"),
    ("paired", lambda t: ("round", "change", E, "--table", "1=山田,佐藤", "--table", "2=鈴木,田中", "--bye", "高橋",
                          "--reason", " "),
     "--reason: a judge's reason is needed", "--reason: ジャッジの理由が必要です"),
    ("paired", lambda t: ("round", "change", E, "--table", "1", "--reason", "x"),
     "--table: expected LABEL=PLAYER1,PLAYER2, got '1'", "--table: 卓名=プレイヤー1,プレイヤー2 の形で指定してください"),
    ("paired", lambda t: ("round", "change", E, "--table", "1=山田", "--table", "2=鈴木,田中,佐藤", "--bye", "高橋",
                          "--reason", "x"),
     "round 1: table 1: 2 players, got 1", "第1回戦：1 卓：プレイヤーは2人です（1 人が指定されました）"),
    ("paired", lambda t: ("round", "change", E, "--round", "2", "--table", "1=山田,佐藤", "--reason", "x"),
     f"--round: '{E}' has no round 2", f"--round: '{E}' に第2回戦はありません"),
    ("paired", lambda t: ("round", "sheet", E, "1", "-o", str(t / "sheet.txt")),
     "a sheet is .html or .pdf, got '.txt'", "シートは .html か .pdf です（'.txt' が指定されました）"),
    ("paired", lambda t: ("round", "sheet", E, "1", "-o", str(t / "sheet")),
     "a sheet is .html or .pdf, got a name without a suffix", "シートは .html か .pdf です（拡張子のない名前が指定されました）"),
    ("paired", lambda t: ("round", "sheet", E, "1", "-o", str(t / "nowhere" / "sheet.html")),
     ": no such folder", ": そのフォルダーはありません"),
    ("paired", lambda t: ("round", "sheet", E, "1", "-o", str(t / "sheet.html"), "--base-url", "ftp://x"),
     "--base-url: http://HOST:PORT where the phones reach kifu serve", "--base-url: スマートフォンから kifu serve に届く"),
    ("paired", lambda t: ("round", "sheet", E, "5", "-o", str(t / "sheet.html")),
     f"'{E}' has no round 5 (kifu round show {E} lists the last one)", f"'{E}' に第5回戦はありません"),
    ("paired", lambda t: (*NEW_R1, "--table", "3", "--player", "A=山田", "--player", "B=高橋"),
     f"players: '山田' is already seated at table 1 of round 1 of '{E}'",
     f"players: '山田' はすでに '{E}' の第1回戦で 1 卓に着いています"),
    ("paired", lambda t: (*NEW_R1, "--table", "3", "--player", "A=高橋", "--player", "B=X"),
     f"players: '高橋' has the bye in round 1 of '{E}'", f"players: '高橋' は '{E}' の第1回戦で不戦勝です"),
    ("paired", lambda t: (*NEW_R1, "--table", "1", "--id", "x", "--player", "A=山田", "--player", "B=代役"),
     "players: table 1 of round 1 is 山田 vs 佐藤, not 山田 vs 代役", "players: 第1回戦の 1 卓は 山田 vs 佐藤 です"),
    ("paired", lambda t: (*NEW_R1, "--table", "9", "--id", "y", "--player", "A=代役", "--player", "B=代役2"),
     f"match.table: round 1 of '{E}' has no table '9'", f"match.table: '{E}' の第1回戦に卓 '9' はありません"),
    ("paired", lambda t: ("new", "--game", "mushijingi", "--event", E, "--round", "2", "--table", "1",
                          "--player", "A=山田", "--player", "B=佐藤"),
     f"match.round: '{E}' has not paired round 2", f"match.round: '{E}' は第2回戦をまだ組み合わせていません"),
    ("paired", lambda t: ("new", "--game", "mushijingi", "--event", E, "--table", "1", "--player", "A=山田",
                          "--player", "B=佐藤"),
     f"match.round: '{E}' is paired by kifu: a match of it names its round",
     f"match.round: '{E}' は kifu で組み合わせる大会です"),
    ("closed", lambda t: (*NEW_R1, "--table", "1", "--id", "late", "--player", "A=山田", "--player", "B=佐藤"),
     f"match.round: round 1 of '{E}' is closed", f"match.round: '{E}' の第1回戦は締め切られています"),
    ("closed", lambda t: ("round", "sheet", E, "1", "-o", str(t / "sheet.html")),
     f"round 1 of '{E}' is closed: its tables' tokens are revoked", f"'{E}' の第1回戦は締め切られています。卓のトークンは失効"),
    ("closed", lambda t: ("round", "change", E, "--round", "1", "--table", "1=山田,佐藤", "--reason", "x"),
     f"--round: round 1 of '{E}' is closed", f"--round: '{E}' の第1回戦は締め切られています"),
    ("dropped", lambda t: ("event", "drop", E, "--player", "高橋"),
     "--player: '高橋' already dropped after round 1", "--player: '高橋' はすでに第1回戦後にドロップしています"),
    ("dropped", lambda t: ("round", "pair", E, "--import", csv_file(t, "1,高橋,佐藤\n2,鈴木,田中\nBYE,山田,\n")),
     "round 2: table 1: '高橋' dropped after round 1", "第2回戦：1 卓：'高橋' は第1回戦後にドロップしています"),
    # an event log refused whole, each problem naming the file, the line and the field
    ("empty", lambda t: ("event", "import", event_log(t, '{"kifu": 1, "game": "gandice"}')),
     ":1: kind: not an event log", ":1: kind: 大会ログではありません"),
    ("empty", lambda t: ("event", "import", event_log(t, "[1]")),
     ":1: must be the event header", ":1：大会ログのヘッダー でなければなりません"),
    ("empty", lambda t: ("event", "import", event_log(t, '{"kifu": 1, "kind": "event", "event": {"rounds": "3"}}')),
     ":1: event.rounds: missing or not an integer", ":1: event.rounds: ないか、整数ではありません"),
    ("empty", lambda t: ("event", "import", event_log(t, '{"kifu": 1, "kind": "event", "event": {"rounds": 3}}')),
     ":1: event.name: missing or not a string", ":1: event.name: ないか、文字列ではありません"),
    ("empty", lambda t: ("event", "import", event_log(t, '{"kifu": 1, "kind": "event", "event": {"name": "x", '
                                                        '"game": "mushijingi", "rounds": 3, "format": "bo7"}}')),
     ":1: event.format: one of bo1, bo3, bo5, got 'bo7'", ":1: event.format: bo1, bo3, bo5 のいずれかを指定してください"),
    ("empty", lambda t: ("event", "import", event_log(t, HEADER, '{"seq": 5, "type": "register", "player": "x"}')),
     ":2: seq: expected 1, got 5", ":2: seq: 1 のはずです（5 が記録されています）"),
    ("empty", lambda t: ("event", "import", event_log(t, HEADER, '{"seq": 1, "type": "promote"}')),
     # every line type this build knows (the tournament's helpers each add theirs)
     f":2: type: one of {', '.join(LINE_FIELDS)}, got 'promote'",
     f":2: type: {', '.join(LINE_FIELDS)} のいずれかを指定してください"),
    ("empty", lambda t: ("event", "import", event_log(t, HEADER, '{"seq": 1, "type": "pair", "round": 1, '
                                                               '"tables": {}, "byes": []}')),
     ":2: tables: missing or not a list", ":2: tables: ないか、リストではありません"),
    ("empty", lambda t: ("event", "import", event_log(t, HEADER, '{"seq": 1, "type": "register"}')),
     ":2: player: missing or not a string", ":2: player: ないか、文字列ではありません"),
    ("empty", lambda t: ("event", "import", event_log(t, HEADER, "[]")),
     ":2: must be an event line", ":2：大会ログの行 でなければなりません"),
]


def _id(case: tuple) -> str:
    return f"{case[0]}: {case[2][:50]}"


@pytest.mark.parametrize("case", REFUSALS, ids=_id)
def test_each_refusal_in_japanese_by_default_and_in_english_on_request(kifu, tmp_path, monkeypatch, case):
    name, args_of, en_words, ja_words = case
    stage(kifu, tmp_path, name)
    args = args_of(tmp_path)
    monkeypatch.delenv("KIFU_LANG")  # nothing asked for: Japanese
    code, out, ja = kifu(*args)
    assert code != 0 and ja.startswith("kifu: ") and "Traceback" not in ja, (out, ja)
    assert ja_words in ja, ja
    assert JAPANESE.search(ja) and not english_prose(ja, *args), (ja, english_prose(ja, *args))
    code, _, en = kifu("--lang", "en", *args)
    assert code != 0 and en_words in en, en
    assert not japanese_but_names(en, E, *PLAYERS, *args, *_files(args)), en


def test_an_empty_event_log_is_refused_in_either_language(kifu, tmp_path, monkeypatch):
    path = tmp_path / "empty.jsonl"
    path.write_text("", encoding="utf-8")
    path = str(path)
    assert ":1: header: the file is empty" in kifu("event", "import", path)[2]
    monkeypatch.delenv("KIFU_LANG")
    assert ":1: header: ファイルが空です" in kifu("event", "import", path)[2]


def _files(args: tuple[str, ...]) -> list[str]:
    """What the files named on a command line hold (their names are as recorded too)."""
    out = []
    for a in args:
        p = Path(a)
        if p.is_file():
            out.append(p.read_text(encoding="utf-8"))
    return out


# -- what the commands print -------------------------------------------------------------------


def run_event(kifu, tmp_path: Path) -> list[tuple[tuple[str, ...], str]]:
    """An event from opening to its standings through ``kifu``; (command line, what it printed)."""
    said = []

    def ok(*args: str) -> None:
        code, out, err = kifu(*args)
        assert code == 0, (args, err)
        said.append((args, out))

    ok("event", "new", E, "--game", "mushijingi", "--rounds", "2", "--format", "bo3", "--seed", "7")
    for p in PLAYERS:
        ok("event", "register", E, "--player", p, "--deck", f"{p}の甲虫")
    ok("round", "pair", E, "--import", csv_file(tmp_path, ROUND1))
    ok("round", "show", E, "1")
    ok("round", "change", E, "--table", "1=山田,鈴木", "--table", "2=佐藤,田中", "--bye", "高橋", "--reason", "同じ店舗")
    ok("event", "show", E)
    ok("round", "sheet", E, "1", "-o", str(tmp_path / "sheet.html"))
    ok("event", "drop", E, "--player", "田中")
    ok("event", "reinstate", E, "--player", "田中", "--reason", "誤操作")
    ok("round", "close", E, "--unreported", "draw")
    ok("event", E)
    ok("standings", E)
    ok("event", "export", E, "-o", str(tmp_path / "e.jsonl"))
    ok("--db", str(tmp_path / "other.db"), "event", "import", str(tmp_path / "e.jsonl"))
    ok("round", "pair", E)  # Swiss, from the event's seed
    return said


def test_what_the_tournament_commands_print_is_japanese_by_default(kifu, tmp_path, monkeypatch):
    monkeypatch.delenv("KIFU_LANG")
    said = run_event(kifu, tmp_path)
    for args, out in said:
        if args[:2] == ("event", "export"):
            continue  # the log as recorded, written to a file
        assert JAPANESE.search(out.replace(E, "")), (args, out)
        assert not english_prose(out, *args), (args, out, english_prose(out, *args))
    text = "\n".join(out for _, out in said)
    assert f"{E}：mushijingi、全2回戦、bo3（mushijingi/" in text and "）、シード 7" in text
    assert f"{E}：山田 を登録しました（1 行目）" in text and f"{E}：田中 が第1回戦後にドロップしました" in text
    assert f"{E}：田中 のドロップを取り消しました" in text and f"{E}：第1回戦を締め切りました" in text
    assert "大会 冬季大会 を取り込みました" in text and "sheet.html：2 卓、トークン " in text
    assert f"{E} (蟲神器, 3本勝負（2本先取）, 全2回戦) — 参加者: 5" in text and "[卓順]" in text and "不戦勝: 高橋" in text


def test_what_the_tournament_commands_print_in_english_has_no_japanese_but_names(kifu, tmp_path):
    said = run_event(kifu, tmp_path)
    names = [E, *PLAYERS, *(f"{p}の甲虫" for p in PLAYERS), "同じ店舗", "誤操作", "蟲神器"]  # and the game's own name
    for args, out in said:
        assert not japanese_but_names(out, *names, *args), (args, out)
    text = "\n".join(out for _, out in said)
    assert f"{E}: 山田 registered (line 1)" in text and f"{E}: round 1 closed" in text
    assert f"{E} (蟲神器, best of three, 2 rounds) — Roster: 5" in text


# -- the rulesets' guards (reached only by a caller that skipped the tournament's checks) ----------


def test_the_pairing_and_standings_guards_are_said_in_either_language():
    from projections import standings, swiss
    from projections.errors import KifuError

    said = []
    for call in (lambda: swiss.pair_round(1, ["甲", "甲"], points={}, ranking=[], met=set(), had_bye=set(), seed=1),
                 lambda: swiss.pair_round(2, ["甲", "乙", "丙"], points={}, ranking=["甲", "乙", "丙"], met=set(),
                                          had_bye=set(), seed=1, dropped={"丙"}),
                 lambda: standings.check_options(("omw", "omw"), "draw", None),
                 lambda: standings.check_options(("omw",), "coin", None),
                 lambda: standings.check_options(("omw",), "draw", 0)):
        with pytest.raises(KifuError) as exc:
            call()
        said.append(str(exc.value))
    ja = [i18n.translate("ja", s) for s in said]
    assert ja[0] == "players：甲：2回挙げられています"
    assert ja[1] == "players：丙：ドロップしたプレイヤーは組み合わせません"
    assert ja[2] == "tiebreaks：omw, omw：omw, gw, ogw, oomw はそれぞれ1回までです"
    assert ja[3] == "unfinished：coin：draw, exclude, double-loss のいずれかを指定してください"
    assert ja[4] == "best_of：0：1 以上の整数のゲーム数を指定してください"
    assert all(not english_prose(s) for s in ja), ja


# -- kifu record -i ----------------------------------------------------------------------------------


EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "gandice-example.jsonl"


def live(kifu, monkeypatch, typed: str, *lang: str) -> str:
    monkeypatch.setattr(sys, "stdin", io.StringIO(typed))
    code, out, err = kifu(*lang, "record", "gandice-reiwa-example", "-i")
    assert code == 0, err
    return out


def test_the_live_prompt_is_japanese_by_default_and_english_on_request(kifu, monkeypatch, tmp_path):
    header = EXAMPLE.read_text(encoding="utf-8").splitlines()[0]
    (tmp_path / "header.json").write_text(header, encoding="utf-8")
    monkeypatch.delenv("KIFU_LANG")
    assert kifu("new", str(tmp_path / "header.json"))[0] == 0  # a match not begun: the moves are checked
    typed = "help\ntypes\nlog\nboard\nsummon by=A rolls\nattack by=A die=ギダン target=紅蓮のイスルギ face=normal value=9\nquit\n"
    ja = live(kifu, monkeypatch, typed)
    assert "コマンド: TYPE key=value ..." in ja and "1行まるごと（JSON）" in ja and "quit（終了）" in ja
    assert "rolls: key=value の形で指定してください" in ja  # a refusal, in words
    assert "GD-4.5: 通常目には 1〜6 の数が必要です（9 が記録されています）" in ja  # a rule broken, in words
    assert "項目: " in ja and "commands:" not in ja and "fields:" not in ja
    # what the reader types stays as typed: the example move, and a field's value a summary quotes
    prose = english_prose(ja, typed, "TYPE key=value", "attack by=A die=美雅羅", "（item null）")
    assert not prose, prose
    en = live(kifu, monkeypatch, typed.replace("value=9", "value=8"), "--lang", "en")
    assert "commands: TYPE key=value" in en and "fields: " in en and "a 通常目 needs its number 1-6, got 8" in en
    known = [header, typed, "通常目"]  # names as recorded, and the game's own word the rule quotes
    # what the prompt itself says: its help and the refusals (the move types' summaries are the
    # ruleset's, which quote the game's own terms; the board is the game's text board)
    own = [line.split("> ")[-1] for line in en.splitlines()]
    own = [line for line in own if re.match(r"\s*(commands:|\{|board \||kifu: )", line)]
    assert len(own) >= 7 and not japanese_but_names("\n".join(own), *known), own
