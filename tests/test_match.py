"""``arena match`` with real bot processes: verdicts, determinism, resume, faults, bad input.

The statistics alone (error rates by simulation) are tested in
``tests/test_match_stats.py``; here the whole command runs, as a bot author
would run it, on the sample bots.
"""

from __future__ import annotations

import json
import re
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from arena.cli import main
from tests.system import E2E
from tests.test_tournament import kill_9_during

pytestmark = E2E

ROOT = Path(__file__).resolve().parent.parent
GREEDY = str(ROOT / "arena/samples/greedy_bot.py")
RANDOM = str(ROOT / "arena/samples/random_bot.py")
C_RANDOM = str(ROOT / "sample_bots/c/random_bot")


def run_cli(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.output


def match_json(*args: str) -> dict[str, Any]:
    """The one JSON object a match prints on stdout (notices go to stderr)."""
    done = CliRunner().invoke(main, ["match", *args, "--format", "json", "--quiet"])
    assert done.exit_code == 0, done.output
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def test_greedy_against_random_gets_h1(tmp_path: Path) -> None:
    out = tmp_path / "m"
    result = match_json(f"g={GREEDY}", f"r={RANDOM}", "--sprt", "--jobs", "2", "--out", str(out))
    assert result["result"] == "H1"
    assert result["llr"] >= result["llr_bounds"][1]
    assert result["score_diff_ci95"][0] > 0 and result["elo"] > 0
    assert result["pairs"] >= 20 and result["games"] == 4 * result["pairs"]
    assert result["new"]["bot"] == "g" and result["base"]["bot"] == "r"
    assert result["new"]["games"] == result["games"]
    assert result["base"]["games"] == 3 * result["games"], "BASE's three copies"
    # The round scheduled while the deciding one was checked is played out and listed.
    assert len(result["not_used"]) == 32 and result["played"] == result["games"] + 32
    with sqlite3.connect(out / "results.sqlite") as db:
        assert db.execute("SELECT count(*) FROM games WHERE status = 'pending'").fetchone() == (0,)
    code, output = run_cli("match", f"g={GREEDY}", f"r={RANDOM}", "--sprt", "--out", str(out))
    assert code == 0, output
    assert "Result: H1 (g is better than r)" in output and "(0 done)" not in output
    assert "Played out after the verdict, not used: 32 games" in output


def test_without_sprt_the_games_are_all_played_and_the_bounds_judged_once(
    tmp_path: Path,
) -> None:
    common = [f"g={GREEDY}", f"r={C_RANDOM}", "--players", "3", "--max-games", "96"]
    fixed = match_json(*common, "--elo0", "300", "--elo1", "400", "--out", str(tmp_path / "a"))
    assert fixed["played"] == fixed["games"] == 96 and fixed["not_used"] == []
    assert not fixed["sprt"] and (fixed["elo0"], fixed["elo1"]) == (300, 400)
    assert fixed["elo_ci95"][1] < 300 and fixed["result"] == "H0", "far below elo0"
    usual = match_json(*common[:-2], "--max-games", "288", "--out", str(tmp_path / "b"))
    assert usual["result"] == "H1" and usual["llr"] >= usual["llr_bounds"][1]


def test_a_bot_against_a_copy_of_itself_does_not_get_h1(tmp_path: Path) -> None:
    # The random bot seeds its moves from the game id and its seat: NEW and its copies
    # play different moves in every seat.
    result = match_json(
        RANDOM, RANDOM, "--sprt", "--alpha", "0.01", "--max-games", "640", "--jobs", "2",
        "--seed", "11", "--out", str(tmp_path / "m"),
    )  # fmt: skip
    assert result["new"]["bot"] == "random_bot" and result["base"]["bot"] == "random_bot-2"
    assert result["result"] != "H1"
    assert result["llr"] < result["llr_bounds"][1]
    low, high = result["score_diff_ci95"]
    assert low < 0 < high


def test_a_deterministic_bot_against_its_copy_is_even_to_the_last_digit(tmp_path: Path) -> None:
    """The greedy bot plays the same moves as its copy: every unit is 0. Their running
    mean came out as -1e-17, shown as LOS 0.3% and a score diff of -0.0000."""
    args = [f"a={GREEDY}", f"b={GREEDY}", "--max-games", "32", "--out", str(tmp_path / "m")]
    code, output = run_cli("match", *args, "--quiet")
    assert code == 0, output
    assert "  score diff  +0.0000  95% [+0.0000, +0.0000]" in output
    assert "  Elo         +0.0  95% [+0.0, +0.0]" in output and "  LOS         50.0%" in output
    result = match_json(*args)
    assert result["los"] == 0.5 and result["score_diff"] == 0.0 and result["worse"] is False


def test_a_clearly_worse_version_is_called_worse(tmp_path: Path) -> None:
    """H0 says only "not better by the margin"; a version whose whole interval is below
    says it is worse, with its Elo, and the JSON gains worse: true."""
    args = [f"r={RANDOM}", f"g={GREEDY}", "--sprt", "--max-games", "400", "--seed", "2"]
    code, output = run_cli("match", *args, "--quiet", "--out", str(tmp_path / "m"))
    assert code == 0, output
    assert re.search(
        r"^Result: H0 \(r is not better than g by the margin; worse: Elo -\d+\.\d "
        r"\[-\d+\.\d, -\d+\.\d\]\), after round \d+",
        output,
        re.MULTILINE,
    ), output
    result = match_json(*args, "--out", str(tmp_path / "m"))
    assert result["result"] == "H0" and result["worse"] is True
    assert result["elo_ci95"][1] < 0


def test_the_verdict_is_the_same_with_any_jobs_and_after_a_resume(tmp_path: Path) -> None:
    common = [f"g={GREEDY}", f"r={RANDOM}", "--field", RANDOM, "--players", "3"]
    common += ["--sprt", "--elo1", "40", "--deals", "4", "--seed", "3"]
    whole = match_json(*common, "--jobs", "1", "--out", str(tmp_path / "one"))
    assert whole["result"] == "H1", whole
    assert whole["games"] == 2 * 3 * whole["pairs"], "NEW's and BASE's games of each deal set"
    assert all(game_id.endswith(("~new", "~base")) for game_id in whole["not_used"])
    part = match_json(*common, "--jobs", "2", "--max-games", "48", "--out", str(tmp_path / "two"))
    assert part["result"] == "inconclusive" and part["played"] == 48
    resumed = match_json(*common, "--jobs", "2", "--out", str(tmp_path / "two"))
    assert resumed == whole


def test_paired_games_send_one_id_and_seeded_opponents_play_alike(tmp_path: Path) -> None:
    out = tmp_path / "m"
    match_json(
        f"a={RANDOM}", f"b={RANDOM}", "--field", RANDOM, "--players", "2", "--deals", "1",
        "--max-games", "4", "--out", str(out),
    )  # fmt: skip
    replays = sorted((out / "replays").glob("*.jsonl"))
    assert [path.name for path in replays] == [
        "m000000-r0~base.jsonl", "m000000-r0~new.jsonl",
        "m000000-r1~base.jsonl", "m000000-r1~new.jsonl",
    ]  # fmt: skip
    base, new = (
        [json.loads(line) for line in path.read_text().splitlines()] for path in replays[2:]
    )
    assert new[0]["game"] == base[0]["game"] == "m000000-r1" and new[0]["seed"] == base[0]["seed"]
    # a and b are the same program, so the two games are the same game, move for move.
    assert moves(new) == moves(base) and len(moves(new)) > 20


def moves(lines: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    return [(line["seat"], line["move"]) for line in lines if line["type"] == "move"]


def test_faulted_games_are_scored_as_placed_and_listed(tmp_path: Path) -> None:
    illegal = f"illegal=python3 {ROOT / 'tests/bots/misbehave.py'} illegal match"
    result = match_json(
        illegal, f"r={C_RANDOM}", "--players", "2", "--max-games", "8", "--deals", "1",
        "--out", str(tmp_path / "m"),
    )  # fmt: skip
    assert result["games"] == 8 and result["new"]["faults"] == 8
    assert result["new"]["mean_score"] == 0.0 and result["score_diff"] == -0.5
    assert result["faulted_games"] == 8 and len(result["faulted"]) == 8


def test_a_bot_that_no_longer_starts_stops_the_match_in_one_line(tmp_path: Path) -> None:
    """It starts when the field is checked, then never again (a broken one from the start
    is refused before any game: tests/test_broken.py)."""
    marker = tmp_path / "started"
    out = tmp_path / "m"
    for attempt in range(2):  # and a rerun stops at once, saying the same
        marker.unlink(missing_ok=True)
        code, output = run_cli(
            "match", f"c=python3 {ROOT / 'tests/bots/misbehave.py'} startsonce {marker}",
            f"r={C_RANDOM}", "--players", "2", "--startup-ms", "1000", "--out", str(out),
            "--quiet", "--no-sandbox",  # it writes its marker
        )  # fmt: skip
        assert code == 1, output
        assert output.startswith(
            "Error: bot 'c' failed to start 3 games in a row (the last: timeout: did not answer "
            "in time): a match "
        )
        assert output.rstrip().endswith("fix the bot and run the match into a new --out")
        assert output.count("\n") == 1 and "Result" not in output, (attempt, output)
    with sqlite3.connect(out / "results.sqlite") as db:
        assert db.execute("SELECT count(*) FROM games WHERE status='done'").fetchone()[0] < 16


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["a=" + RANDOM, "a=" + RANDOM], "two bots are named 'a'"),
        ([RANDOM, RANDOM, "--elo0", "5", "--elo1", "5"], "elo0 (5) must be below elo1 (5)"),
        ([RANDOM, RANDOM, "--alpha", "0.5"], "alpha must be between 0 and 0.5"),
        ([RANDOM, RANDOM, "--beta", "0"], "beta must be between 0 and 0.5"),
        ([f"n={RANDOM}", f"b={RANDOM}", "--field", f"n={GREEDY}"], "two bots are named 'n'"),
        ([RANDOM, RANDOM, "--rule", "nope=1"], "nope"),
        ([RANDOM, RANDOM, "--elo0", "-200000"], "elo0 takes an Elo difference in -2000..2000"),
        ([RANDOM, RANDOM, "--elo1", "inf"], "elo1 takes an Elo difference in -2000..2000"),
    ],
)
def test_bad_input_is_one_line(tmp_path: Path, args: list[str], message: str) -> None:
    code, output = run_cli("match", *args, "--out", str(tmp_path / "m"))
    assert code == 1, output
    assert output.count("\n") == 1 and output.startswith("Error: ") and message in output
    assert not (tmp_path / "m").exists(), "nothing is written"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--players", "8"], "Invalid value for '--players': 8 is not in the range 2<=x<=7."),
        (["--players", "1"], "Invalid value for '--players': 1 is not in the range 2<=x<=7."),
        (["--deals", "0"], "Invalid value for '--deals': 0 is not in the range x>=1."),
        (["--jobs", "2", "--dask", "local:2"], "--jobs and --dask exclude each other"),
    ],
)
def test_a_flag_out_of_range_is_a_usage_error_as_in_a_tournament(
    tmp_path: Path, args: list[str], message: str
) -> None:
    for command in (
        ["match", RANDOM, C_RANDOM],
        ["tournament", "--bot", RANDOM, "--bot", C_RANDOM],
    ):
        code, output = run_cli(*command, *args, "--out", str(tmp_path / "m"))
        assert code == 2, output
        assert output.startswith("Usage: ") and f"Error: {message}" in output, output
        assert not (tmp_path / "m").exists(), "nothing is written"


def test_a_folder_of_another_match_is_refused_and_kept(tmp_path: Path) -> None:
    out = tmp_path / "m"
    first = match_json(RANDOM, C_RANDOM, "--players", "2", "--max-games", "32", "--out", str(out))
    code, output = run_cli("match", RANDOM, C_RANDOM, "--players", "3", "--out", str(out))
    assert code == 1 and output.count("\n") == 1 and "holds another match" in output, output
    code, output = run_cli(
        "match", RANDOM, C_RANDOM, "--players", "2", "--elo1", "10", "--out", str(out)
    )
    assert code == 1, output
    assert "(match.sprt.elo1: 5.0 there, 10.0 now)" in output, "the setting by its name"
    file = tmp_path / "a-file"
    file.write_text("")
    code, output = run_cli("match", RANDOM, C_RANDOM, "--out", str(file))
    assert code == 1 and output.count("\n") == 1 and "is a file" in output, output
    again = match_json(RANDOM, C_RANDOM, "--players", "2", "--max-games", "32", "--out", str(out))
    assert again == first


def test_a_dask_cluster_reaches_the_same_verdict_on_the_same_games(tmp_path: Path) -> None:
    common = [f"g={GREEDY}", f"r={C_RANDOM}", "--sprt", "--players", "3", "--seed", "5"]
    here = match_json(*common, "--out", str(tmp_path / "here"))
    there = match_json(*common, "--dask", "local:2", "--out", str(tmp_path / "there"))
    assert there == here and here["result"] == "H1"


def test_kill_9_then_rerun_reaches_the_uninterrupted_verdict(tmp_path: Path) -> None:
    common = [f"g={GREEDY}", f"r={C_RANDOM}", "--sprt", "--players", "3", "--seed", "9"]
    common += ["--jobs", "2", "--format", "json", "--quiet"]
    whole = match_json(*common[:-3], "--out", str(tmp_path / "whole"))
    assert whole["result"] == "H1"
    folder = tmp_path / "killed"
    done = kill_9_during(common, folder, after=30, subcommand="match")
    assert 30 <= done < whole["played"], f"the kill came at {done} games"
    again = subprocess.run(
        [sys.executable, "-m", "arena", "match", *common, "--out", str(folder)],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert again.returncode == 0, again.stderr
    assert json.loads(again.stdout) == whole
