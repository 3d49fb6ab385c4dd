"""The kifu command, in process (the toy game is registered only in this process)."""

from __future__ import annotations

import json
import sys


from projections import registry
from recorder import cli
from recorder.logformat import export_lines
from recorder.tools.synth import generate


def write_log(tmp_path, header, moves, name="m.jsonl"):
    path = tmp_path / name
    path.write_text("\n".join(export_lines(header, moves)) + "\n", encoding="utf-8")
    return str(path)


def test_new_record_board_result_log(kifu):
    code, out, err = kifu("new", "--game", "toy", "--id", "r1-t1", "--event", "秋の大会", "--player", "A=山田",
                          "--player", "B=佐藤", "--deck", "A=闇ダイス組", "--deck", "B=イスルギ組", "--first", "A")
    assert code == 0, err
    assert out.strip() == "r1-t1"
    assert kifu("record", "r1-t1", "--type", "score", "--by", "A", "-f", "points=3")[0] == 0
    code, out, _ = kifu("record", "r1-t1", '{"type": "score", "by": "A", "points": 2}')
    assert code == 0 and "TOY-1" in out  # recorded and flagged: not A's turn
    code, out, err = kifu("record", "r1-t1", "--type", "score", "--by", "B", "-f", "points=9", "--strict")
    assert code == 1 and "TOY-2" in err and "not recorded" in err
    code, out, _ = kifu("board", "r1-t1", "--at", "1", "--json")
    board = json.loads(out)
    assert board["game"] == "toy" and board["step"] == 1 and board["players"]["A"] == {"score": 3}
    assert board["view"] == "ruled" and board["result"] is None and board["violations"] == []
    code, out, _ = kifu("log", "r1-t1")
    assert "山田" in out and "✗ TOY-1" in out
    code, out, _ = kifu("result", "r1-t1", "--lang", "en")
    assert "in progress" in out
    code, out, _ = kifu("check", "r1-t1")
    assert code == 1 and "seq 2: TOY-1" in out


def test_import_export_round_trip_and_duplicate(kifu, tmp_path):
    header, moves = generate(registry.get("toy"), 4, 0)
    path = write_log(tmp_path, header, moves)
    code, out, err = kifu("import", path)
    assert code == 0, err
    mid = header["match"]["id"]
    code, exported, _ = kifu("export", mid, "--format", "jsonl")
    with open(path, encoding="utf-8") as fh:
        assert exported == fh.read()
    code, out, err = kifu("import", path)
    assert code == 1 and "already recorded" in err


def test_bad_input_is_one_line_per_problem_no_traceback(kifu, tmp_path):
    path = tmp_path / "bad.jsonl"
    path.write_text('{"kifu": 1, "game": "toy", "match": {}, "players": [{"id": "A"}, {"id": "B"}]}\n{"seq": 1, "type": "score", "by": "A"}\n', encoding="utf-8")
    code, out, err = kifu("import", str(path))
    assert code == 1
    assert err.strip() == f"kifu: {path}:2: points: must be an integer"
    assert "Traceback" not in err
    for args in (["board", "nope"], ["record", "nope", "--type", "pass", "--by", "A"], ["board", "x", "--view", "sideways"]):
        code, out, err = kifu(*args)
        assert code != 0 and len(err.strip().splitlines()) == 1 and "Traceback" not in err, (args, err)


def test_board_step_out_of_range(kifu, tmp_path):
    header, moves = generate(registry.get("toy"), 4, 0)
    kifu("import", write_log(tmp_path, header, moves))
    code, _, err = kifu("board", header["match"]["id"], "--at", "9999")
    assert code == 2 and "out of range" in err


def test_whole_event_import_summary(kifu, tmp_path):
    folder = tmp_path / "event"
    folder.mkdir()
    for i in range(3):
        header, moves = generate(registry.get("toy"), 9, i)
        write_log(folder, header, moves, f"m{i}.jsonl")
    (folder / "broken.jsonl").write_text('{"kifu": 1}\n', encoding="utf-8")
    code, out, err = kifu("import", str(folder))
    assert code == 1 and "imported 3, skipped 0 duplicate(s), failed 1" in out
    assert "broken.jsonl:1: game: missing" in err
    (folder / "broken.jsonl").unlink()
    code, out, err = kifu("import", str(folder))
    assert code == 0 and "imported 0, skipped 3 duplicate(s), failed 0" in out


def test_matches_lists_json(kifu, tmp_path):
    header, moves = generate(registry.get("toy"), 4, 0)
    kifu("import", write_log(tmp_path, header, moves))
    code, out, _ = kifu("matches", "--json")
    rows = json.loads(out)
    assert rows[0]["id"] == header["match"]["id"] and rows[0]["result"]["reason"] == "target"
    assert rows[0]["players"][0]["name"] == "プレイヤーA"


def test_live_logging_session(kifu, monkeypatch, tmp_path):
    kifu("new", "--game", "toy", "--id", "live", "--player", "A=山田", "--player", "B=佐藤")
    monkeypatch.setattr(sys, "stdin", __import__("io").StringIO(
        "score by=A points=2\nscore by=A points=1\nwarp by=A\nboard\n{\"type\": \"score\", \"by\": \"B\", \"points\": 3}\nquit\n"))
    code, out, err = kifu("record", "live", "-i")
    assert code == 0
    assert "✗ TOY-1" in out  # A played twice: recorded and flagged at once
    assert out.count("✗ TOY-1") == 3  # once under each flagged move's board, once more when `board` shows one again
    assert "unknown toy move type 'warp'" in out
    code, out, _ = kifu("board", "live", "--json")
    assert json.loads(out)["players"] == {"A": {"score": 3}, "B": {"score": 3}}


def test_every_command_has_help_with_an_example():
    from typer.main import get_command

    cli.load_commands()
    group = get_command(cli.app)
    pending = list(group.commands.items())
    while pending:
        name, command = pending.pop()
        if hasattr(command, "commands"):  # a group such as `kifu dispute`
            pending.extend((f"{name} {sub}", c) for sub, c in command.commands.items())
            continue
        assert "Example" in (command.help or ""), name


def test_import_of_an_empty_folder_says_so(kifu, tmp_path):
    (tmp_path / "empty").mkdir()
    code, out, err = kifu("import", str(tmp_path / "empty"))
    assert code == 1 and "no match logs" in err


def test_each_command_closes_the_store_it_opened_even_when_it_fails(kifu, monkeypatch):
    """A command's store is closed when the command ends (in a server or a test process the
    interpreter does not end with it: a PostgreSQL pool left open printed a traceback at exit)."""
    from recorder.store import Store

    opened: list[Store] = []
    closed: list[Store] = []
    real_init, real_close = Store.__init__, Store.close

    def init(self, *a, **k):
        real_init(self, *a, **k)
        opened.append(self)

    def close(self):
        closed.append(self)
        real_close(self)

    monkeypatch.setattr(Store, "__init__", init)
    monkeypatch.setattr(Store, "close", close)
    assert kifu("new", "--game", "toy", "--id", "c1", "--player", "A=山田", "--player", "B=佐藤")[0] == 0
    assert kifu("record", "c1", "--type", "score", "--by", "A", "-f", "points=3")[0] == 0
    assert kifu("board", "c1", "--json")[0] == 0
    assert kifu("board", "no-such-match")[0] != 0
    assert opened and all(s in closed for s in opened)


def test_a_read_model_kept_open_does_not_keep_its_store_alive(tmp_path):
    import gc
    import weakref

    from projections import readmodel
    from recorder import service
    from recorder.store import Store

    store = Store(str(tmp_path / "k.db"))
    header, _ = generate(registry.get("toy"), 3, 0)
    service.create_match(store, header)
    rm = readmodel.ReadModel(str(tmp_path / "rm.db"))
    try:
        rm.catch_up(store)
        rm.catch_up(store)  # the store was checked: not asked for its first event again
        gone = weakref.ref(store)
        store.close()
        del store
        gc.collect()
        assert gone() is None
    finally:
        rm.close()
