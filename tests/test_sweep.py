"""A sweep of generated config files and command lines, valid and broken.

Whatever is given, a user error must be one clean line: no traceback, exit
status 1 (a domain error, one line on stderr) or 2 (click's usage error),
and no results folder made or touched. Most examples stop at validation;
those that pass it are dry runs, or one short game of C bots.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from click.testing import CliRunner, Result
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from arena.cli import main
from arena.game.rules import OPTION_NAMES

ROOT = Path(__file__).resolve().parent.parent
C_BOT = str(ROOT / "sample_bots/c/random_bot")

SCALARS = st.one_of(
    st.integers(-3, 12),
    st.sampled_from([0.5, 0.95, 1.0, 1.5, -1.0]),
    st.booleans(),
    st.sampled_from(["", "x", "round-robin", "sampled", "swiss", "expanded", "../x", "a b"]),
)
TOP_KEYS = [
    "name", "players", "deals", "jobs", "pin", "seed", "move_ms", "bank_ms", "startup_ms",
    "gauntlet", "schedule", "rounds", "stop_top", "stop_confidence", "max_games", "out",
    "wat",
]  # fmt: skip
BOT = st.fixed_dictionaries(
    {},
    optional={
        "name": st.sampled_from(["a", "b", "a b", "x" * 70, ".hidden", "ok-1"]),
        "command": st.sampled_from([C_BOT, "", "  ", "no-such-program-xyz", f"{C_BOT} --x"]),
        "commnd": st.just(C_BOT),
        "limits": st.dictionaries(
            st.sampled_from(["cpu_s", "memory_mb", "memry"]), st.integers(-1, 600), max_size=2
        ),
    },
)
CONFIGS = st.fixed_dictionaries(
    {},
    optional={
        **dict.fromkeys(TOP_KEYS, SCALARS),
        "rules": st.dictionaries(st.sampled_from([*OPTION_NAMES, "colour"]), SCALARS, max_size=3),
        "limits": st.dictionaries(
            st.sampled_from(["cpu_s", "memory_mb", "walls"]), SCALARS, max_size=2
        ),
        "bots": st.lists(BOT, max_size=4),
    },
)


def toml_value(value: Any) -> str:
    """A TOML value: numbers, booleans and strings as in JSON; a table inline."""
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{key} = {toml_value(v)}" for key, v in value.items()) + " }"
    return json.dumps(value)


def toml(config: dict[str, Any]) -> str:
    lines = [f"{key} = {toml_value(value)}" for key, value in config.items()
             if key not in ("rules", "limits", "bots")]  # fmt: skip
    for table in ("rules", "limits"):
        if table in config:
            lines += [f"[{table}]", *(f"{k} = {toml_value(v)}" for k, v in config[table].items())]
    for bot in config.get("bots", []):
        lines += ["[[bots]]", *(f"{k} = {toml_value(v)}" for k, v in bot.items())]
    return "\n".join(lines) + "\n"


def check_clean(result: Result, here: Path) -> None:
    """The contract for any input: a clean exit, one line on a domain error, nothing made."""
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError(f"a traceback: {result.exception!r}\n{result.output}")
    assert result.exit_code in (0, 1, 2), result.output
    if result.exit_code == 1:
        assert len(result.stderr.strip().splitlines()) == 1, result.stderr
        assert result.stderr.startswith("Error: "), result.stderr
    assert not (here / "results").exists(), "a refused or dry run made a results folder"


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(config=CONFIGS)
def test_any_config_file_is_run_or_refused_in_one_line(
    tmp_path_factory: Any, config: dict[str, Any]
) -> None:
    here = tmp_path_factory.mktemp("config")
    path = here / "club.toml"
    path.write_text(toml(config), encoding="utf-8")
    previous = Path.cwd()
    os.chdir(here)
    try:
        result = CliRunner().invoke(main, ["tournament", str(path), "--dry-run"])
    finally:
        os.chdir(previous)
    check_clean(result, here)


OPTIONS = st.lists(
    st.sampled_from(
        [
            ["--players", "3"], ["--players", "9"], ["--deals", "0"], ["--deals", "2"],
            ["--jobs", "0"], ["--jobs", "999"], ["--seed", "-1"], ["--schedule", "knockout"],
            ["--schedule", "sampled"], ["--rounds", "0"], ["--rounds", "2"], ["--stop-top", "2"],
            ["--stop-confidence", "0.4"], ["--stop-confidence", "0.9"], ["--rule", "colour=red"],
            ["--rule", "dog_life=none"], ["--rule", "players=3"], ["--limit", "walls=1"],
            ["--limit", "memory_mb=x"], ["--move-ms", "0"], ["--gauntlet", "zz"],
            ["--name", "../x"], ["--out", "afile/sub"], ["--max-games", "1"], ["--update", "b"],
            ["--dask", "local:2", "--jobs", "2"], ["--require", "net", "--no-sandbox"],
            ["--bot", "x" * 70 + f"={C_BOT}"], ["--bot", f"a b={C_BOT}"], ["--bot", ""],
        ]
    ),
    max_size=4,
)  # fmt: skip


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(options=OPTIONS)
def test_any_command_line_is_run_or_refused_in_one_line(
    tmp_path_factory: Any, options: list[list[str]]
) -> None:
    here = tmp_path_factory.mktemp("line")
    (here / "afile").write_text("keep")
    args = [arg for option in options for arg in option]
    bots = ["--bot", f"a={C_BOT}", "--bot", f"b={C_BOT}", "--bot", f"c={C_BOT}"]
    previous = Path.cwd()
    os.chdir(here)
    try:
        result = CliRunner().invoke(main, ["tournament", *bots, *args, "--dry-run"])
    finally:
        os.chdir(previous)
    check_clean(result, here)
    assert (here / "afile").read_text() == "keep"
