"""The command line: simulate narrates a game; bad input is one line, exit 1, no traceback."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from arena.cli import main


def test_simulate_narrates_a_whole_game() -> None:
    result = CliRunner().invoke(main, ["simulate", "--seed", "2026"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].startswith("Seed 2026, 4 random players")
    assert lines[1].startswith("Cut for the deal:")
    assert any(line.startswith("  Trick 1:") for line in lines)
    assert lines[-1].startswith("Game over:")


def test_simulate_is_deterministic_per_seed() -> None:
    runner = CliRunner()
    first = runner.invoke(main, ["simulate", "--seed", "5", "--players", "6"]).output
    second = runner.invoke(main, ["simulate", "--seed", "5", "--players", "6"]).output
    other = runner.invoke(main, ["simulate", "--seed", "6", "--players", "6"]).output
    assert first == second
    assert first != other


def test_simulate_quiet_prints_one_line() -> None:
    result = CliRunner().invoke(main, ["simulate", "--seed", "3", "--quiet"])
    assert result.exit_code == 0
    assert len(result.output.splitlines()) == 1
    assert "wins" in result.output


def test_unknown_rule_is_a_one_line_error() -> None:
    result = CliRunner().invoke(main, ["simulate", "--rule", "colour=red"])
    assert result.exit_code == 1
    assert result.output.strip() == (
        "Error: unknown rule option 'colour'; known options: players, dog_life, "
        "dog_first_hand_only, blind_dog, upside_dog, rainbow, no_picture, trumps_broken, "
        "eliminated_deals, sweep_wins, tie_break"
    )


def test_bad_rule_value_and_usage_errors() -> None:
    runner = CliRunner()
    bad_value = runner.invoke(main, ["simulate", "--rule", "dog_life=sometimes"])
    assert bad_value.exit_code == 1
    assert "Traceback" not in bad_value.output
    usage = runner.invoke(main, ["simulate", "--players", "9"])
    assert usage.exit_code == 2


def test_python_dash_m_arena_runs_the_cli() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "arena", "simulate", "--seed", "1", "--quiet"],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("seed 1:")


def test_replay_of_a_folder_says_which_game_to_choose(tmp_path: Path) -> None:
    folder = tmp_path / "replays"
    folder.mkdir()
    for game in ("d1-r0", "d1-r1"):
        (folder / f"{game}.jsonl").write_text("")
    empty = tmp_path / "empty"
    empty.mkdir()
    runner = CliRunner()
    for args, line in (
        ([str(tmp_path)], f"{folder} holds 2 replays: choose one with --game, e.g. --game d1-r0"),
        ([str(tmp_path), "--game", "d9-r0"], f"no replay of game 'd9-r0' in {folder}"),
        ([str(empty)], f"no replay (.jsonl) in {empty}"),
    ):
        result = runner.invoke(main, ["replay", *args])
        assert (result.exit_code, result.output) == (1, f"Error: {line}\n")
