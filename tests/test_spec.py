"""BOT arguments: NAME=COMMAND, COMMAND, bot.toml folders; paths resolved; clear errors."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from arena.bots.builds import build_bot
from arena.bots.fingerprint import files_hash
from arena.bots.spec import parse_bot, parse_bots
from arena.errors import BotError


def write_bot(folder: Path, name: str = "bot.py") -> Path:
    script = folder / name
    script.write_text("print('hi')\n")
    return script


def test_name_equals_command_with_relative_paths(tmp_path: Path) -> None:
    write_bot(tmp_path)
    spec = parse_bot("alice=python3 bot.py --level 3", tmp_path)
    assert spec.name == "alice" and spec.named
    assert spec.argv == (sys.executable, str(tmp_path / "bot.py"), "--level", "3")


@pytest.mark.parametrize(
    ("shebang", "arenas_python"),
    [
        ("#!/usr/bin/env python3", True),
        ("#!/usr/bin/env python", True),
        ("#!/usr/bin/python3", False),  # a chosen interpreter stays
        ("#!/bin/sh", False),
    ],
)
def test_a_script_asking_for_the_paths_python_gets_arenas(
    tmp_path: Path, shebang: str, arenas_python: bool
) -> None:
    """A virtual environment's python on PATH may have its base install where bots cannot read."""
    script = tmp_path / "bot.py"
    script.write_text(f"{shebang}\nprint('hi')\n")
    script.chmod(0o755)
    spec = parse_bot("./bot.py", tmp_path)
    expected = (sys.executable, str(script)) if arenas_python else (str(script),)
    assert spec.argv == expected


def test_name_is_derived_from_the_script(tmp_path: Path) -> None:
    write_bot(tmp_path, "greedy_bot.py")
    assert parse_bot("python3 greedy_bot.py", tmp_path).name == "greedy_bot"


def test_a_module_run_with_m_is_named_by_its_last_part(tmp_path: Path) -> None:
    """The shipped sample bots run as modules, from any folder: their names are theirs."""
    spec = parse_bot("python3 -m arena.samples.greedy_bot --eps 0.5", tmp_path)
    assert spec.name == "greedy_bot"
    assert spec.argv == (sys.executable, "-m", "arena.samples.greedy_bot", "--eps", "0.5")
    assert parse_bot("python3 -m", tmp_path).name == Path(sys.executable).stem


def test_derived_names_are_numbered_explicit_ones_must_differ(tmp_path: Path) -> None:
    write_bot(tmp_path)
    names = [s.name for s in parse_bots(["python3 bot.py", "python3 bot.py", "bot=true"], tmp_path)]
    assert names == ["bot-2", "bot-3", "bot"]
    with pytest.raises(BotError, match="two bots are named 'x'"):
        parse_bots(["x=python3 bot.py", "x=python3 bot.py"], tmp_path)


def test_manifest_folder_with_build(tmp_path: Path) -> None:
    folder = tmp_path / "mybot"
    folder.mkdir()
    (folder / "make_run.sh").write_text("printf '#!/bin/sh\\n' > run.sh && chmod +x run.sh\n")
    (folder / "bot.toml").write_text(
        'name = "manifested"\nrun = "./run.sh"\nbuild = "sh make_run.sh"\n'
    )
    spec = parse_bot(str(folder), tmp_path)
    assert spec.name == "manifested"
    assert spec.argv == (str(folder / "run.sh"),)
    build_bot(spec)
    assert (folder / "run.sh").is_file()


@pytest.mark.parametrize(
    ("manifest", "message"),
    [
        ("run = 5", "bot.toml: run must be a string, not 5"),
        ('nme = "x"\nrun = "./x"', r"unknown key 'nme' \(known: name, run, build, limits\)"),
        ('name = "x"', "bot.toml: missing key 'run'"),
        ('run = "  "', "bot.toml: run must not be blank"),
        ('run = "./x"\nlimits = 5', "bot.toml: limits must be a table, not 5"),
        ('run = "./x"\n[limits]\nmemroy_mb = 5', "unknown limit 'memroy_mb'"),
        ("this is not toml", "not a valid TOML manifest"),
        ('run = "./x"\nbuild = "false"', "build 'false' failed"),
        ('name = "../b"\nrun = "./x"', "bot name '../b' does not fit the rule: 1 to 64"),
    ],
)
def test_bad_manifests(tmp_path: Path, manifest: str, message: str) -> None:
    (tmp_path / "bot.toml").write_text(manifest)
    with pytest.raises(BotError, match=message):
        build_bot(parse_bot(str(tmp_path), tmp_path))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("python3 missing.py", "no such file: missing.py"),
        ("./missing", "cannot start ./missing: no such file"),
        ("definitely-not-a-program", "no such program on PATH"),
        ("x=", "has no command"),
        ("x=python3 'unclosed", "cannot split the command"),
    ],
)
def test_bots_that_cannot_start_are_errors(tmp_path: Path, text: str, message: str) -> None:
    with pytest.raises(BotError, match=message):
        parse_bot(text, tmp_path)


def test_not_executable_file(tmp_path: Path) -> None:
    write_bot(tmp_path, "plain")
    with pytest.raises(BotError, match="not executable"):
        parse_bot("./plain", tmp_path)


def test_folder_without_manifest(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    with pytest.raises(BotError, match=r"without a bot\.toml"):
        parse_bot("empty", tmp_path)


def test_a_bot_folders_hash_leaves_out_build_caches_but_not_the_program(tmp_path: Path) -> None:
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "main.rs").write_text("fn main() {}\n")
    (tmp_path / "target" / "release").mkdir(parents=True)
    program = tmp_path / "target" / "release" / "bot"
    program.write_bytes(b"\x7fELF one")
    program.chmod(0o755)
    (tmp_path / "bot.toml").write_text('name = "b"\nrun = "target/release/bot"\n')
    spec = parse_bot(str(tmp_path))
    first = files_hash(spec)
    (tmp_path / "target" / "release" / "incremental.bin").write_bytes(b"timestamps")
    (tmp_path / "node_modules").mkdir()
    (tmp_path / "node_modules" / "x.js").write_text("cache")
    assert files_hash(spec) == first, "build caches changed nothing the bot is made of"
    program.write_bytes(b"\x7fELF two")
    assert files_hash(spec) != first, "the program itself is hashed wherever it is"
    program.write_bytes(b"\x7fELF one")
    (tmp_path / "src" / "main.rs").write_text("fn main() { println!(); }\n")
    assert files_hash(spec) != first, "a source change is a new bot"
