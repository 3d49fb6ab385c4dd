"""Every CLI verb and every API route with hypothesis-generated hostile input (issue 16):
deep JSON, huge numbers, lone surrogates, control characters, long strings, wrong types in
every field. Whatever comes in: never an internal error or a 500, and a refusal writes
nothing (the store is compared as a dump before and after)."""

from __future__ import annotations

import json
import re
import sys
from urllib.parse import quote

import httpx
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from recorder import logformat
from tests.hardening.conftest import TOKEN, dump, seed
from tests.hardening.corpus import SUMMON

MATCH = "hostile-base"
SKIP = {"serve", "bench", "gen"}  # they run until stopped, or for as long as they are asked to
OUTPUTS = {"output", "html", "readmodel_path", "target", "source", "db", "paths", "header_file"}

hostile_text = st.one_of(
    st.sampled_from([
        "\ud800", "a\udcff", "nl\n", "tab\tx", "\x1b[31m", "\u2028", "", " ", "-1", "0", "999999999999999999999",
        "9" * 5000, "NaN", "Infinity", "-Infinity", "1e999", "[" * 5000, "{" * 3000, '{"a":' * 50 + "1" + "}" * 50,
        "x" * 100_000, "true", "null", "[]", "{}", '"s"', "2026-13-45", "1999-01-01T00:00:00Z", "../x",
        "%00", "ruled", "recorded", "en", "ja", "zz", "A", "B", "hostile-base\n", "1", "3", "12345678901234567890",
        '{"type": "summon", "by": "A", "by": "B"}', '{"type": "summon", "by": "A", "n": NaN}',
    ]),
    st.text(max_size=20),
    st.text(alphabet=st.characters(codec=None, categories=["Cc", "Cs", "Zl", "Zp", "Co"]), min_size=1, max_size=5),
    st.integers().map(str),
)

json_leaf = st.one_of(
    st.none(), st.booleans(), st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=True, allow_infinity=True), hostile_text,
)
json_value = st.recursive(json_leaf, lambda inner: st.one_of(
    st.lists(inner, max_size=3), st.dictionaries(hostile_text, inner, max_size=3)), max_leaves=12)


def leaf_commands():
    import typer

    from recorder import cli

    cli.load_commands()

    def walk(command, path=()):
        subs = getattr(command, "commands", None)
        if subs:
            for name, sub in sorted(subs.items()):
                yield from walk(sub, (*path, name))
        elif path[0] not in SKIP:
            yield path, command

    return list(walk(typer.main.get_command(cli.app)))


COMMANDS = leaf_commands()
DEFAULTS = {"match": MATCH, "on": "1", "by": "J", "text": "t", "claim": "c", "grounds": "g", "player": "A",
            "infraction": "遅延", "penalty_": "warning", "dispute": "2", "ruling": "3", "note": "2",
            "event": "堅牢化", "name": "n", "target": MATCH, "paths": "missing.jsonl", "source": "kifu.db"}


def argv_for(path, command, slot, value: str, db: str) -> list[str]:
    args = ["--db", db, *path]
    for param in command.params:
        if param.name in ("help", "db") or getattr(param, "is_flag", False):
            continue
        chosen = param.name == slot
        if not chosen and not param.required:
            continue
        text = value if chosen else DEFAULTS.get(param.name, "1")
        if param.param_type_name == "argument":
            args.append(text)
        else:
            args.extend([param.opts[-1], text])
    return args


@pytest.fixture
def run(capsys, monkeypatch, tmp_path):
    from recorder import cli

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("KIFU_READMODEL", str(tmp_path / "h.readmodel.db"))

    def go(args: list[str]) -> tuple[int, str, str]:
        monkeypatch.setattr(sys, "argv", ["kifu", *args])
        code = 0
        try:
            cli.main()
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 0
        captured = capsys.readouterr()
        return code, captured.out, captured.err

    return go


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_every_cli_verb_refuses_hostile_values_cleanly(run, tmp_path, data):
    db = str(tmp_path / "kifu.db")
    if not (tmp_path / "kifu.db").exists():
        seed(db, MATCH)
    path, command = data.draw(st.sampled_from(COMMANDS), label="command")
    slots = [p.name for p in command.params if p.name not in ("help", "db") and not getattr(p, "is_flag", False)]
    assume(slots)
    slot = data.draw(st.sampled_from(slots), label="slot")
    value = data.draw(hostile_text, label="value")
    if slot in OUTPUTS:  # a hostile path is written relative to the test's own folder only
        assume("/" not in value and "\\" not in value and value not in ("", ".", ".."))
    before = dump(db)
    code, out, err = run(argv_for(path, command, slot, value, db))
    assert code != 70 and "internal error" not in err and "Traceback" not in err, (path, slot, value[:80], err[:500])
    for line in err.splitlines():
        assert len(line) < 2000, line[:200]
    if code != 0:
        assert dump(db) == before, (path, slot, value[:80])
    exported = run(["--db", db, "export", MATCH])[1]
    for line in exported.split("\n")[:-1]:  # JSON Lines end at "\n" only: U+2028 may sit inside a string
        json.loads(line, parse_constant=lambda name: pytest.fail(f"{name} was stored"))


@settings(max_examples=300, deadline=None)
@given(field=st.sampled_from(["type", "by", "rolls", "seq", "at", "on", "text", "extra", "ギダン"]), value=json_value)
def test_the_one_parser_refuses_or_accepts_storable_json(field, value):
    line = dict(SUMMON, **{field: value})
    try:
        text = json.dumps(line, ensure_ascii=False)
    except (ValueError, RecursionError):
        return
    parsed, error = logformat.refusal(text)
    if error is None:
        assert logformat.storable_errors(parsed) == []
        json.dumps(parsed, allow_nan=False).encode("utf-8")  # stores and reads back as strict JSON
    else:
        assert "\n" not in str(error)


# -- the server ---------------------------------------------------------------------------

QUERY = ["step", "view", "page", "per_page", "after", "game", "event", "round", "player", "deck", "result",
         "lang", "since", "until", "by", "min_games", "expect", "table", "q"]


def routes(server):
    from starlette.routing import Mount, Route

    out = []
    for route in server.app.routes:
        if isinstance(route, Route):
            out.append((route.path, sorted(route.methods or ["GET"])))
        elif isinstance(route, Mount):
            out.append((route.path + "/{path}", ["GET"]))
    return out


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_every_route_answers_hostile_requests_without_a_500(live_server, data):
    path, methods = data.draw(st.sampled_from(routes(live_server)), label="route")
    method = data.draw(st.sampled_from([m for m in methods if m != "HEAD"] or ["GET"]), label="method")
    value = data.draw(hostile_text, label="value")
    params = {}
    url = path
    while "{" in url:
        start, end = url.index("{"), url.index("}")
        name = url[start + 1:end].split(":")[0]
        own = data.draw(st.booleans(), label=f"hostile {name}")
        url = url[:start] + quote((value if own else MATCH).encode("utf-8", "surrogatepass"), safe="") + url[end + 1:]
    for name in data.draw(st.lists(st.sampled_from(QUERY), max_size=3, unique=True), label="query"):
        params[name] = value.encode("utf-8", "surrogatepass").decode("latin-1")
    before = dump(live_server.db)
    with live_server.client(TOKEN) as client:
        if method == "POST":
            body = data.draw(st.one_of(
                json_value.map(lambda v: json.dumps(v, ensure_ascii=False).encode("utf-8", "surrogatepass")),
                hostile_text.map(lambda t: t.encode("utf-8", "surrogatepass")),
                st.dictionaries(st.sampled_from(["type", "by", "on", "text", "rolls", "at", "claim"]), json_value)
                .map(lambda d: json.dumps(d).encode()),
            ), label="body")
            try:
                r = client.post(url, params=params, content=body)
            except httpx.InvalidURL:  # longer than the client itself can send (65,536): not the server's
                assume(False)
        elif path.endswith("/stream"):  # an event stream never ends: its status and first bytes
            try:
                with client.stream(method, url, params=params) as streamed:
                    status, text = streamed.status_code, next(streamed.iter_text(), "")
            except httpx.InvalidURL:
                assume(False)
            assert status < 500, (method, url, params, status, text[:300])
            return
        else:
            try:
                r = client.request(method, url, params=params)
            except httpx.InvalidURL:
                assume(False)
    assert r.status_code < 500, (method, url, params, r.status_code, r.text[:300])
    if r.status_code >= 400 and method != "GET":
        assert dump(live_server.db) == before


# -- and a deterministic sweep: every verb, every value slot, the nastiest values ---------------

NASTIEST = ["\udcff", "[" * 5000, "9" * 5000, '{"type": "x", "type": "y"}', "nl\n", "x" * 20_000]


@pytest.mark.parametrize(("path", "command"), COMMANDS, ids=[" ".join(p) for p, _ in COMMANDS])
def test_every_verb_and_slot_with_the_nastiest_values(run, tmp_path, path, command):
    db = str(tmp_path / "kifu.db")
    seed(db, MATCH)
    before = dump(db)
    slots = [p.name for p in command.params if p.name not in ("help", "db") and not getattr(p, "is_flag", False)]
    for slot in slots:
        accepted = []
        for value in NASTIEST:
            if slot in OUTPUTS and value in ("nl\n",):
                continue
            code, out, err = run(argv_for(path, command, slot, value, db))
            assert code != 70 and "internal error" not in err, (path, slot, value[:40], err[:300])
            assert all(len(line) < 1000 for line in err.splitlines()), (path, slot, value[:40], err[:300])
            if code == 0:
                accepted.append(value)
        if not accepted:  # every value refused: nothing written (one dump per slot keeps this fast)
            assert dump(db) == before, (path, slot)
        before = dump(db)


API_NASTIEST = ["\udcff", "[" * 5000, "9" * 5000, '{"type": "x", "type": "y"}', "nl\n", "x" * 5000, "-1", "..%2F..%2Fetc"]
BODIES = [b"[" * 100_000, b'{"type": "summon", "by": "A", "n": NaN}', b"\xff\xfe", b'{"type": "summon", "by": "A", "by": "B"}',
          b'{"type": "summon", "by": "A", "n": ' + b"9" * 5000 + b"}", b"null", b"", b'"\\ud800"']


def test_every_route_with_the_nastiest_values(live_server):
    before = dump(live_server.db)
    with live_server.client(TOKEN) as client:
        for path, methods in routes(live_server):
            for value in API_NASTIEST:
                raw = value.encode("utf-8", "surrogatepass")
                hostile_path = re.sub(r"\{[^}]+\}", quote(raw, safe="%"), path)
                plain_path = re.sub(r"\{[^}]+\}", MATCH, path)
                query = {name: raw[:600].decode("latin-1") for name in QUERY}
                for method in [m for m in methods if m != "HEAD"]:
                    for url, params in ((hostile_path, {}), (plain_path, query)):
                        if method == "POST":
                            for body in BODIES:
                                r = client.post(url, params=params, content=body)
                                assert r.status_code < 500, (method, url[:80], body[:40], r.status_code, r.text[:200])
                        elif path.endswith("/stream"):  # an event stream never ends: its status and first bytes
                            with client.stream(method, url, params=params) as streamed:
                                status, text = streamed.status_code, next(streamed.iter_text(), "")
                            assert status < 500, (method, url[:80], status, text[:200])
                        else:
                            r = client.request(method, url, params=params)
                            assert r.status_code < 500, (method, url[:80], r.status_code, r.text[:200])
    assert dump(live_server.db) == before
