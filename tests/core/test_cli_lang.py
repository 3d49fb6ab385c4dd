"""The CLI speaks one language at a time: Japanese by default (its help, every command's help,
click's own words, messages, errors, refusals, the demo), English with ``--lang en`` wherever
it stands or ``KIFU_LANG=en``. Everything comes from the gettext catalog of the pages
(exports/locale); the rest of the suite reads English (tests/conftest.py sets KIFU_LANG=en)."""

from __future__ import annotations

import ast
import importlib
import inspect
import os
import re
import subprocess
import sys
from pathlib import Path

import click
import pytest
import typer

from exports import i18n

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = str(ROOT / "examples" / "gandice-example.jsonl")
JA = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
LANG_VARS = ("KIFU_LANG", "LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE")


@pytest.fixture
def nothing_said(monkeypatch):
    """No language asked for anywhere: kifu's default."""
    for name in LANG_VARS:
        monkeypatch.delenv(name, raising=False)


def run(*args: str, lang_env: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in LANG_VARS}
    env["PYTHONPATH"] = str(ROOT)
    if lang_env:
        env["KIFU_LANG"] = lang_env
    return subprocess.run([sys.executable, "-m", "recorder.cli", *args], capture_output=True, text=True, env=env,
                          cwd=ROOT)


# -- the help ---------------------------------------------------------------------------------------


def test_kifu_help_is_japanese_by_default_and_english_on_request():
    ja = run("--help")
    assert ja.returncode == 0, ja.stderr
    assert ja.stdout.startswith("使い方:") and "オプション:" in ja.stdout and "コマンド:" in ja.stdout
    assert "テーブルゲームの対局を一手ずつ記録" in ja.stdout and "このメッセージを表示して終了。" in ja.stdout
    assert "Usage:" not in ja.stdout and "Show this message" not in ja.stdout
    assert "--db 文字列" in ja.stdout and "TEXT" not in ja.stdout
    for en in (run("--lang", "en", "--help"), run("--help", lang_env="en")):
        assert en.stdout.startswith("Usage:") and "record tabletop matches move by move" in en.stdout
        assert not JA.search(en.stdout.replace("棋譜", "")), en.stdout  # kifu's own name is 棋譜


def every_command() -> list[tuple[str, ...]]:
    from recorder import cli

    cli.load_commands()
    command = typer.main.get_command(cli.app)
    found: list[tuple[str, ...]] = []

    def walk(cmd: click.Command, path: tuple[str, ...]) -> None:
        if isinstance(cmd, click.Group):
            for name, sub in cmd.commands.items():
                walk(sub, (*path, name))
        else:
            found.append(path)

    walk(command, ())
    return found


@pytest.mark.parametrize("path", every_command(), ids=" ".join)
def test_every_commands_help_is_japanese_by_default(path, kifu, nothing_said):
    code, out, err = kifu(*path, "--help")
    assert code == 0, err
    assert out.startswith("使い方:") and "このメッセージを表示して終了。" in out, out
    description = out.split("\n\n", 2)[1]
    assert JA.search(description), f"kifu {' '.join(path)}: {description!r}"
    code, out, _ = kifu("--lang", "en", *path, "--help")
    assert out.startswith("Usage:") and "Show this message and exit." in out


def test_every_help_text_of_the_command_tree_is_said_in_japanese():
    """Each command's description and each option's help, as typer builds them, translated."""
    from recorder import cli

    cli.load_commands()
    tree = cli.said_in(typer.main.get_command(cli.app), "ja")
    untranslated = []
    stack: list[tuple[str, click.Command]] = [("kifu", tree)]
    while stack:
        name, cmd = stack.pop()
        texts = [("help", cmd.help)] + [(p.name, getattr(p, "help", None)) for p in cmd.params]
        untranslated += [(name, what) for what, text in texts if text and not JA.search(text)]
        if isinstance(cmd, click.Group):
            stack.extend((f"{name} {n}", c) for n, c in cmd.commands.items())
    assert not untranslated


# -- messages, errors, refusals -------------------------------------------------------------------


def test_an_error_is_japanese_by_default(kifu, nothing_said):
    code, _, err = kifu("result", "no-such-match")
    assert code != 0 and "対局 'no-such-match' はありません" in err
    code, _, err = kifu("--lang", "en", "result", "no-such-match")
    assert "no match 'no-such-match'" in err


def test_a_usage_error_of_click_is_japanese_by_default(kifu, nothing_said):
    assert kifu("board")[2].strip() == "kifu: 引数 'MATCH' がありません。"
    code, _, err = kifu("boar", "x")
    assert code == 2 and err.strip() == "kifu: コマンド 'boar' はありません。 もしかして 'board' ですか？"
    assert kifu("--lang", "en", "board")[2].strip() == "kifu: Missing argument 'MATCH'."
    assert kifu("board", "m", "--at", "zz")[2].strip() == "kifu: '--at' の値が不正です：'zz' は整数ではありません。"


def test_a_refusal_of_the_log_format_is_japanese_by_default(kifu, nothing_said, tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(Path(EXAMPLE).read_text(encoding="utf-8").splitlines()[:1]
                             + ['{"seq": 1, "type": "summon", "by": "A"}']) + "\n", encoding="utf-8")
    code, _, err = kifu("import", str(bad))
    assert code == 1
    assert f"kifu: {bad}:2: rolls: ありません" in err and "取り込み 0、重複で除外 0、失敗 1" in kifu("import", str(bad))[1]
    assert f"kifu: {bad}:2: rolls: missing" in kifu("--lang", "en", "import", str(bad))[2]


def test_a_rule_refusal_is_japanese_by_default_with_its_rule_id(kifu, nothing_said, tmp_path):
    header = tmp_path / "header.json"
    header.write_text(Path(EXAMPLE).read_text(encoding="utf-8").splitlines()[0], encoding="utf-8")
    assert kifu("new", str(header))[0] == 0
    move = ("-t", "attack", "--by", "A", "-f", "die=ギダン", "-f", "target=紅蓮のイスルギ", "-f", "face=normal",
            "-f", "value=-5")
    code, out, err = kifu("record", "gandice-reiwa-example", *move, "--strict")
    assert code == 1 and "GD-4.5: 通常目には 1〜6 の数が必要です（-5 が記録されています）" in err, err
    assert "GD-2.1: 最初の攻撃ターンの前に全プレイヤーが眼魔召喚のロールを行います" in err
    assert err.rstrip().endswith("（--strict のため記録していません）")
    code, out, err = kifu("--lang", "en", "record", "gandice-reiwa-example", *move, "--strict")
    assert "GD-4.5: a 通常目 needs its number 1-6, got -5" in err and err.rstrip().endswith("(not recorded: --strict)")
    code, out, _ = kifu("record", "gandice-reiwa-example", *move)  # flagged, recorded: the same words on stdout
    assert code == 0 and "  ✗ GD-4.5: 通常目には 1〜6 の数が必要です（-5 が記録されています）" in out


def test_a_name_as_recorded_stays_as_it_is(kifu, nothing_said):
    kifu("import", EXAMPLE)
    code, _, err = kifu("record", "gandice-reiwa-example", "-t", "attack", "--by", "A", "-f", "die=ギタン",
                        "-f", "target=紅蓮のイスルギ", "-f", "face=side")
    assert "die: 'ギタン' はこの対局のダイスではありません。もしかして 'ギダン' ですか？" in err


def test_one_language_for_the_whole_run_whichever_place_lang_is_given(kifu, nothing_said):
    kifu("import", EXAMPLE)
    for args in (("--lang", "en", "result", "gandice-reiwa-example"), ("result", "gandice-reiwa-example", "--lang=en")):
        out = kifu(*args)[1]
        assert "wins" in out and "every opposing character die in the graveyard" in out
    out = kifu("result", "gandice-reiwa-example")[1]
    assert "の勝ち" in out and "相手のキャラダイスが全て墓場" in out and "all_graveyard" not in out


def test_a_language_kifu_does_not_speak_is_refused_in_one_line(kifu, nothing_said):
    code, _, err = kifu("--lang", "fr", "matches")
    assert code == 2 and err.strip() == "kifu: --lang：ja か en を指定してください（'fr' は使えません）"


# -- the demo -------------------------------------------------------------------------------------------


def test_the_demo_is_japanese_by_default_and_english_on_request(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in LANG_VARS}
    env.update(PYTHONPATH=str(ROOT))
    cmd = [sys.executable, "-m", "recorder.tools.demo", "--db", str(tmp_path / "d.db")]
    ja = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=ROOT)
    assert ja.returncode == 0, ja.stderr
    assert "== 例の対局" in ja.stdout and "== 対局" in ja.stdout and "== 対局を一手ずつたどる：" in ja.stdout
    assert "勝者 B（相手のキャラダイスが全て墓場）" in ja.stdout
    assert "importing" not in ja.stdout and "winner" not in ja.stdout and "steps" not in ja.stdout
    en = subprocess.run([*cmd[:-1], str(tmp_path / "e.db"), "--lang", "en"], capture_output=True, text=True, env=env,
                        cwd=ROOT)
    assert "== importing" in en.stdout and "winner B (every opposing character die in the graveyard)" in en.stdout


# -- the mechanism ---------------------------------------------------------------------------------------


def test_a_message_built_in_english_is_said_through_the_catalogs_templates():
    say = i18n.translate
    assert say("ja", "missing") == "ありません"
    assert say("ja", "a 通常目 needs its number 1-6, got 7") == "通常目には 1〜6 の数が必要です（7 が記録されています）"
    # a prefix naming the file, the line and the field stays; the problem after it is said
    assert say("ja", "game.jsonl:3: face: unknown face 'up'") == "game.jsonl:3: face: 不明な出目 'up'"
    # a value that is itself a message is said too; each part of a ;-joined list alike
    assert say("ja", "GD-4.5: a 通常目 needs its number 1-6, got 9 (not recorded: --strict)") == (
        "GD-4.5: 通常目には 1〜6 の数が必要です（9 が記録されています）（--strict のため記録していません）")
    assert say("ja", "missing; must be an integer") == "ありません; 整数でなければなりません"
    # a message word for word after a prefix wins over a template that would take the prefix in
    assert say("ja", "header: players: must be a non-empty list") == "header: players: 空でないリストでなければなりません"
    # English is the source; what no template knows is shown as it is
    assert say("en", "missing") == "missing"
    assert say("ja", "something kifu never says") == "something kifu never says"


def test_the_cli_loads_the_catalog_only_when_it_speaks():
    """`kifu --help` reads the compiled catalog (no Babel, no template patterns)."""
    code = (
        "import sys, runpy\n"
        "sys.argv = ['kifu', '--help']\n"
        "try:\n"
        "    runpy.run_module('recorder.cli', run_name='__main__')\n"
        "except SystemExit:\n"
        "    pass\n"
        "from exports import i18n\n"
        "print('babel' in sys.modules, i18n._patterns.cache_info().currsize, file=sys.stderr)\n"
    )
    env = {k: v for k, v in os.environ.items() if k not in LANG_VARS}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=dict(env, PYTHONPATH=str(ROOT)))
    assert out.stderr.strip().splitlines()[-1] == "False 0", out.stderr


def test_clicks_messages_in_the_catalog_are_still_clicks():
    """recorder/cli/clicktext.py lists click's and typer's messages for the catalog: each must
    still be one that the installed click or typer says (else it would silently stay English)."""
    from recorder.cli import clicktext

    source = "".join(inspect.getsource(importlib.import_module(m)) for m in (
        "click.core", "click.exceptions", "click.parser", "click.types", "click.formatting", "click.decorators",
        "typer.core"))
    said = {node.value for node in ast.walk(ast.parse(source)) if isinstance(node, ast.Constant)
            and isinstance(node.value, str)}
    built = {"{value!r} is not a valid integer.", "{value!r} is not a valid float.", "Missing argument {param_hint}.", "Missing option {param_hint}.", "Missing parameter {param_hint}.",
             "{message}. Did you mean {suggestions}?"}  # the lines click and typer build from pieces
    built |= {"TEXT", "INTEGER"}  # the metavars of click's STRING and INT types (their names, upper-cased)
    assert {click.STRING.name.upper(), click.INT.name.upper()} == {"TEXT", "INTEGER"}
    assert [m for m in clicktext.MESSAGES if m not in said and m not in built] == []
    assert "Missing argument" in said and '{message}. Did you mean {suggestions}?' not in said
    assert ". Did you mean " in source


def test_the_recorders_message_templates_are_still_its_messages():
    """recorder/cli/messages.py holds templates of messages other modules build: the fixed words
    of each must still stand in the module it names."""
    from recorder.cli import messages

    stale = []
    for where, templates in messages.TEMPLATES.items():
        files = [f for pattern in where.split() for f in sorted(ROOT.glob(pattern))]
        assert files, where
        words = set(re.findall(r"[\w'-]+", "".join(f.read_text(encoding="utf-8") for f in files)))
        for template in templates:
            fixed = re.sub(r"\{[^{}]*\}", " ", template)
            if not set(re.findall(r"[\w'-]+", fixed)) <= words:
                stale.append((where, template, sorted(set(re.findall(r"[\w'-]+", fixed)) - words)))
    assert not stale


def test_the_japanese_help_lines_up_its_columns(kifu, nothing_said):
    """A kanji takes two columns of a terminal: the descriptions of the options start in one
    column all the same (click counts characters; kifu's help counts columns)."""
    from recorder.cli import display_width

    out = kifu("board", "--help")[1]
    options = out.split("オプション:\n", 1)[1].splitlines()
    starts = {display_width(m.group(1)) for line in options if (m := re.match(r"^(  \S.*?\s{2,})\S", line))}
    assert "--at 整数" in out and len(starts) == 1, out


def test_every_template_of_the_catalog_is_said_back_from_its_english():
    """Each message template the catalog holds (a refusal, an error, a line of the CLI), filled
    with values and built in English, is said in Japanese with the same values in place."""
    catalog = i18n.translations("ja")._catalog  # type: ignore[attr-defined]
    placeholder = re.compile(r"\{(\w*)(![rsa])?(:[^{}]*)?\}")
    wrong = []
    tried = 0
    for msgid, msgstr in catalog.items():
        if not isinstance(msgid, str) or "\x04" in msgid or not placeholder.search(msgid):
            continue
        values: dict[str, str] = {}
        tried += 1
        english, want = _filled(placeholder, msgid, values), _filled(placeholder, msgstr, values)
        if i18n.translate("ja", english) != want:
            wrong.append((msgid, i18n.translate("ja", english), want))
    assert tried > 300 and not wrong


def _filled(placeholder: re.Pattern[str], template: str, values: dict[str, str]) -> str:
    """``template`` with a made-up value per placeholder name (the same in both languages)."""
    def one(m: re.Match[str]) -> str:
        value = values.setdefault(m.group(1), f"V{len(values)}")
        return repr(value) if m.group(2) == "!r" else value
    return placeholder.sub(one, template)
