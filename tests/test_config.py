"""The config file's schema: one source for rule options and limits, one line per problem."""

from __future__ import annotations

import json
import os
import re
from dataclasses import fields
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from arena.bots.sandbox import ResourceLimits, SandboxError
from arena.bots.spec import parse_bot
from arena.cli import main
from arena.errors import RuleError
from arena.game.rules import OPTION_NAMES, Rules
from arena.protocol import load_schema
from arena.tournament.config import ConfigError, load_config
from arena.tournament.config_schema import PUBLISHED, config_schema, problems

ROOT = Path(__file__).resolve().parent.parent
C_BOT = str(ROOT / "sample_bots/c/random_bot")


def test_the_published_schema_is_the_generated_one() -> None:
    published = json.loads((ROOT / PUBLISHED).read_text(encoding="utf-8"))
    assert published == config_schema(), f"run: arena config-schema > {PUBLISHED}"
    jsonschema.Draft7Validator.check_schema(published)
    result = CliRunner().invoke(main, ["config-schema"])
    assert result.exit_code == 0 and json.loads(result.output) == published


def test_the_rules_part_is_the_protocols_rules_object() -> None:
    """The bot protocol's ``rules`` object and the config's ``[rules]`` list the same options."""
    config = config_schema()["properties"]["rules"]["properties"]
    protocol = load_schema("referee_to_bot")["definitions"]["rules"]["properties"]
    assert ["players", *config] == list(OPTION_NAMES) == list(protocol)
    assert config_schema()["properties"]["players"] == {
        **protocol["players"],
        "description": "Seats per table.",
    }
    for option, entry in config.items():
        assert {k: v for k, v in entry.items() if k != "default"} == protocol[option]
        assert entry["default"] == getattr(Rules(), option)


RULE_VALUES = st.one_of(
    st.booleans(),
    st.integers(-1, 9),
    st.sampled_from(["standard", "expanded", "none", "cut", "random", "sometimes"]),
)


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.sampled_from([*OPTION_NAMES[1:], "sweep_win"]), RULE_VALUES, max_size=4))
def test_the_schema_takes_exactly_the_rules_that_rules_take(options: dict[str, Any]) -> None:
    try:
        Rules.from_dict(options)
        accepted = True
    except RuleError:
        accepted = False
    assert (problems({"rules": options}) is None) == accepted, options


@settings(max_examples=200, deadline=None)
@given(
    st.dictionaries(
        st.sampled_from([*(f.name for f in fields(ResourceLimits)), "cpu"]),
        st.one_of(st.integers(-2, 4096), st.booleans(), st.text(max_size=3)),
        max_size=3,
    )
)
def test_the_schema_takes_exactly_the_limits_that_resource_limits_take(
    limits: dict[str, Any],
) -> None:
    try:
        ResourceLimits().merged(limits)
        accepted = True
    except SandboxError:
        accepted = False
    assert (problems({"limits": limits}) is None) == accepted
    assert (problems({"bots": [{"command": "x", "limits": limits}]}) is None) == accepted


BAD_CONFIGS = [
    (
        '[[bots]]\nname = "a"\ncommand = "x"\n[[bots]]\ncommand = "x"\nlimts = {cpu_s = 5}',
        "bots[2]: unknown key 'limts' (known: name, command, limits)",
    ),
    ('[[bots]]\ncommnd = "x"', "bots[1]: unknown key 'commnd' (known: name, command, limits)"),
    ('[[bots]]\nname = "a"', "bots[1]: missing key 'command'"),
    ('[[bots]]\ncommand = "  "', "bots[1].command must not be blank"),
    ("move_ms = 0", "move_ms must be >= 1, not 0"),
    ("bank_ms = -5", "bank_ms must be >= 1, not -5"),
    ("startup_ms = 0", "startup_ms must be >= 1, not 0"),
    ("players = 4.0", "players must be a whole number, not 4.0"),
    ("players = 9", "players must be <= 7, not 9"),
    ("deals = true", "deals must be a whole number, not True"),
    ('pin = "yes"', "pin must be true or false, not 'yes'"),
    ("dask = 8786", "dask must be a string, not 8786"),
    ('schedule = "knockout"', "schedule takes one of round-robin, sampled, swiss, not 'knockout'"),
    ("stop_confidence = 1.0", "stop_confidence must be < 1, not 1.0"),
    ('[rules]\ndog_life = "sometimes"', "rules.dog_life takes one of standard, expanded, none"),
    ("[rules]\nsweep_win = true", "rules: unknown key 'sweep_win' (known: dog_life, dog_first"),
    ("[rules]\nplayers = 3", "rules: unknown key 'players' (known: dog_life,"),
    ("[limits]\nmemory_mb = 0", "limits.memory_mb must be >= 1, not 0"),
    ('[limits]\nmemory = "1G"', "limits: unknown key 'memory' (known: cpu_s, memory_mb,"),
    ("bots = 3", "bots must be a list of tables ([[bots]]), not 3"),
    ("rules = 3", "rules must be a table, not 3"),
    ("wat = 1", "unknown key 'wat' (known: name, out, players,"),
    (
        '[[bots]]\nname = "a b"\ncommand = "x"',
        "bots[1].name: bot name 'a b' does not fit the rule: 1 to 64 letters",
    ),
]


@pytest.mark.parametrize(("text", "message"), BAD_CONFIGS)
def test_a_bad_config_is_one_line_and_touches_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, text: str, message: str
) -> None:
    config = tmp_path / "club.toml"
    config.write_text(text, encoding="utf-8")
    here = tmp_path / "here"
    here.mkdir()
    monkeypatch.chdir(here)
    result = CliRunner().invoke(main, ["tournament", str(config)])
    assert result.exit_code == 1, result.output
    assert result.stderr.startswith(f"Error: {config}: {message}")
    assert len(result.stderr.strip().splitlines()) == 1
    assert os.listdir(here) == [], "nothing is created"


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b'name = "caf\xe9"\n', "is not UTF-8 text (byte 11): save it as UTF-8"),
        (b'name = "x\n', "is not valid TOML: Illegal character"),
    ],
)
def test_undecodable_configs(tmp_path: Path, content: bytes, message: str) -> None:
    config = tmp_path / "club.toml"
    config.write_bytes(content)
    with pytest.raises(ConfigError, match=re.escape(message)):
        load_config(config)


def test_a_schema_line_names_the_saved_schema_for_editors(tmp_path: Path) -> None:
    config = tmp_path / "club.toml"
    config.write_text(
        f'#:schema ./tournament.schema.json\nplayers = 3\n[[bots]]\ncommand = "{C_BOT}"\n'
    )
    assert load_config(config) == {"players": 3, "bots": [{"command": C_BOT}]}


def test_names_derived_from_commands_fit_the_rule(tmp_path: Path) -> None:
    script = tmp_path / "my bot (v2).py"
    script.write_text("print()\n")
    assert parse_bot(f"python3 '{script}'", tmp_path).name == "my-bot--v2-"
    long = tmp_path / f"{'x' * 200}.py"
    long.write_text("print()\n")
    assert parse_bot(f"python3 {long}", tmp_path).name == "x" * 60


def test_a_long_bot_name_is_one_line_and_makes_no_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(
        main, ["tournament", "--bot", f"{'n' * 300}={C_BOT}", "--bot", C_BOT, "--quiet"]
    )
    assert result.exit_code == 1, result.output
    assert result.stderr.strip() == (
        f"Error: bot name '{'n' * 40}... (300 characters)' does not fit the rule: 1 to 64 "
        "letters, digits, '_', '.' or '-', not starting with '.' or '-'"
    )
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--out", "afile/sub"], "results folder afile/sub: afile is a file, not a folder"),
        (["--name", "../../x"], "name '../../x' is not one folder name (results go to results/"),
        (["--name", ".."], "name '..' is not one folder name"),
        (["--out", "/proc/arena-x"], "cannot make the results folder /proc/arena-x: No such file"),
    ],
)
def test_a_results_folder_that_cannot_be_made_is_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, extra: list[str], message: str
) -> None:
    here = tmp_path / "deep" / "here"
    here.mkdir(parents=True)
    (here / "afile").write_text("keep")
    monkeypatch.chdir(here)
    result = CliRunner().invoke(
        main, ["tournament", "--bot", C_BOT, "--bot", C_BOT, "--players", "2", "--quiet", *extra]
    )
    assert result.exit_code == 1, result.output
    assert result.stderr.startswith(f"Error: {message}"), result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert sorted(p.name for p in tmp_path.rglob("*")) == ["afile", "deep", "here"]
    assert (here / "afile").read_text() == "keep"


def test_a_name_with_a_slash_is_fine_where_out_chooses_the_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    args = ["tournament", "--bot", C_BOT, "--bot", C_BOT, "--players", "2", "--dry-run"]
    result = CliRunner().invoke(main, [*args, "--name", "CS 101/Spring", "--out", "cs101"])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("Plan: round-robin, 2 bots")
