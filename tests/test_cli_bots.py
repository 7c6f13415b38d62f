"""End to end: the sample bots (Python, JavaScript, C) through `play`, `replay`, `check-bot`.

Real processes all the way (the C bot is built by `make test`).
"""

from __future__ import annotations

import json
import shutil
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from arena.bots.sandbox import detect
from arena.cli import main
from arena.protocol import full_validator
from tests.system import E2E

pytestmark = E2E

ROOT = Path(__file__).resolve().parent.parent
PY_BOT = str(ROOT / "arena/samples/random_bot.py")
JS_BOT = f"node {ROOT / 'sample_bots/javascript/random_bot.js'}"
C_BOT = str(ROOT / "sample_bots/c/random_bot")
NODE = shutil.which("node")


@pytest.fixture(scope="module", autouse=True)
def c_bot_is_built() -> None:
    assert Path(C_BOT).is_file(), "build the C bot first: make -C sample_bots/c (make test does)"
    assert NODE is not None, "node is needed for the JavaScript sample bot"


def test_play_three_languages_writes_a_valid_replay(tmp_path: Path) -> None:
    replay = tmp_path / "game.jsonl"
    args = ["play", f"py={PY_BOT}", f"js={JS_BOT}", f"c={C_BOT}", "--seed", "7"]
    result = CliRunner().invoke(main, [*args, "--replay", str(replay)])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == "Seed 7: seat 0 py, seat 1 js, seat 2 c"
    assert any(line.startswith("  Trick 1: ") for line in lines)
    assert lines[-2].startswith("Result (seed 7): 1. ")
    assert "faulted" not in result.output
    records = [json.loads(line) for line in replay.read_text().splitlines()]
    validator = full_validator("replay_line")
    for record in records:
        assert validator.is_valid(record), record
    assert records[0]["type"] == "game" and records[-1]["type"] == "game_end"
    assert [p["name"] for p in records[0]["players"]] == ["py", "js", "c"]

    again = tmp_path / "again.jsonl"
    CliRunner().invoke(main, [*args, "--replay", str(again), "--quiet"])
    strip = [{k: v for k, v in r.items() if k != "ms"} for r in records]
    assert strip == [
        {k: v for k, v in json.loads(line).items() if k != "ms"}
        for line in again.read_text().splitlines()
    ], "same seed, same bots: the same game apart from timings"

    shown = CliRunner().invoke(main, ["replay", str(replay)])
    assert shown.exit_code == 0, shown.output
    assert shown.output.splitlines()[0] == "Game play-7, seed 7: py, js, c"
    assert [line for line in shown.output.splitlines() if line.startswith("  Trick")] == [
        line for line in lines if line.startswith("  Trick")
    ]


GREEDY = str(ROOT / "arena/samples/greedy_bot.py")


@pytest.mark.parametrize(
    "bot", [PY_BOT, JS_BOT, C_BOT, GREEDY], ids=["python", "javascript", "c", "greedy"]
)
def test_sample_bots_pass_check_bot(bot: str) -> None:
    result = CliRunner().invoke(main, ["check-bot", bot, "--games", "5"])
    assert result.exit_code == 0, result.output
    assert "FAIL" not in result.output
    assert result.output.splitlines()[-1].endswith("all checks passed")


def test_check_bot_fails_a_misbehaving_bot() -> None:
    bad = f"python3 {ROOT / 'tests/bots/misbehave.py'} illegal check-bot-test"
    result = CliRunner().invoke(main, ["check-bot", bad, "--games", "2", "--move-ms", "300"])
    assert result.exit_code == 1
    assert "  FAIL  only legal moves" in result.output
    assert "  PASS  handshake" in result.output


def test_check_bot_fails_a_silent_bot_at_its_first_request() -> None:
    """A bot that shakes hands but never answers fails on its first request, not after 40
    games; and it does exit on bye, which is what the verdict says."""
    silent = f"python3 {ROOT / 'tests/bots/misbehave.py'} hang check-bot-test"
    start = time.monotonic()
    result = CliRunner().invoke(main, ["check-bot", silent, "--move-ms", "200", "--bank-ms", "200"])
    assert time.monotonic() - start < 20
    assert result.exit_code == 1
    lines = result.output.splitlines()[1:]
    assert lines[:2] == [
        "  PASS  handshake  (ready as 'hang')",
        "  FAIL  answers requests  (no reply to its first request (game check-1-1, request 1: "
        "play) within 200 ms + 200 ms of bank; the other checks need answers)",
    ]
    unreached = lines[2:-2]  # what needs answers is not reached, never passed
    assert len(unreached) == 25 and all(
        line.startswith("  ----  ") and line.endswith("  (not reached: it gave no answer)")
        for line in unreached
    ), unreached
    assert "  ----  answers in time  (not reached: it gave no answer)" in unreached
    assert lines[-2:] == ["  PASS  exits on bye", "misbehave: 1 check failed, 25 not reached"]


def test_check_bot_tells_a_bot_printing_debug_to_stdout_where_it_belongs(tmp_path: Path) -> None:
    """Its first reply is a debug line: one failure with the hint, the rest not reached
    (not 22 identical FAILs and a PASS for "answers in time (0 requests)")."""
    bot = tmp_path / "chatty.py"
    bot.write_text(
        "import json, sys\n"
        "for line in sys.stdin:\n"
        "    m = json.loads(line)\n"
        "    if m['type'] == 'hello':\n"
        "        print(json.dumps({'type': 'ready', 'name': 'chatty'}), flush=True)\n"
        "    elif m['type'] == 'request':\n"
        "        print('thinking about', m['legal'][0], flush=True)\n"
        "        print(json.dumps({'type': 'move', 'id': m['id'], 'move': m['legal'][0]}),"
        " flush=True)\n"
        "    elif m['type'] == 'bye':\n"
        "        break\n"
    )
    result = CliRunner().invoke(main, ["check-bot", f"python3 {bot}", "--games", "2"])
    assert result.exit_code == 1
    lines = result.output.splitlines()
    assert lines[2].startswith("  FAIL  answers requests  (malformed: not JSON: thinking about ")
    assert "(print debug output to stderr, not stdout: stdout carries the protocol)" in lines[2]
    assert sum(line.startswith("  FAIL") for line in lines) == 1
    assert not any("PASS  answers in time" in line for line in lines)
    assert lines[-1] == "chatty: 1 check failed, 25 not reached"


@pytest.mark.parametrize(
    ("mode", "verdict"),
    [
        ("slowbye", "  PASS  exits on bye"),
        ("lingers", "  FAIL  exits on bye  (still running 2 s after bye (stopped by signal 15))"),
    ],
)
def test_check_bot_gives_a_bot_the_documented_grace_after_bye(mode: str, verdict: str) -> None:
    bot = f"python3 {ROOT / 'tests/bots/misbehave.py'} {mode} check-bot-test"
    result = CliRunner().invoke(main, ["check-bot", bot, "--games", "1"])
    assert result.output.splitlines()[-2] == verdict, result.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["play", "python3 no_such_bot.py", PY_BOT], "no such file: no_such_bot.py"),
        (["play", "./nope", PY_BOT], "cannot start ./nope: no such file"),
        (["play", "no-such-program-xyz", PY_BOT], "no such program on PATH"),
        (["play", f"a={PY_BOT}", f"a={C_BOT}"], "two bots are named 'a'"),
        (["play", PY_BOT, C_BOT, "--rule", "dog_life=maybe"], "'dog_life' takes one of"),
    ],
)
def test_bad_bots_and_rules_are_one_line_errors(args: list[str], message: str) -> None:
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 1, result.output
    assert message in result.output
    assert len(result.output.strip().splitlines()) == 1
    assert "Traceback" not in result.output


def test_replay_of_garbage_is_a_one_line_error(tmp_path: Path) -> None:
    junk = tmp_path / "junk.jsonl"
    junk.write_text("this is not a replay\n")
    result = CliRunner().invoke(main, ["replay", str(junk)])
    assert result.exit_code == 1
    assert "not a readable replay" in result.output


def test_the_same_bot_can_play_itself() -> None:
    result = CliRunner().invoke(main, ["play", PY_BOT, PY_BOT, C_BOT, "--seed", "1", "--quiet"])
    assert result.exit_code == 0, result.output
    assert "random_bot-2" in result.output and "random_bot-3" in result.output


def test_arena_sandbox_reports_layers_and_attacks() -> None:
    result = CliRunner().invoke(main, ["sandbox", "--attack", "write", "--attack", "orphan"])
    host, layers = result.output.splitlines()[:2]
    assert host == f"Host: {detect().host}" and "cgroup" in host
    assert layers.startswith("Sandbox layers: process-group")
    assert "Self-test (hostile probe bots):" in result.output
    lines = result.output.splitlines()
    attacks = [line for line in lines if line.startswith(("  contained", "  NOT"))]
    assert len(attacks) == 2
    expected = 0 if all(line.startswith("  contained") for line in attacks) else 1
    assert result.exit_code == expected


def test_require_unknown_or_missing_protection_is_a_one_line_error() -> None:
    result = CliRunner().invoke(main, ["play", PY_BOT, C_BOT, "--require", "net,walls"])
    assert result.exit_code == 1
    assert result.output.strip() == (
        "Error: unknown protection 'walls'; known: net, fs, tree-kill, memory, processes, "
        "signals, privileges, uids"
    )


def test_replay_header_names_the_sandbox_layers(tmp_path: Path) -> None:
    replay = tmp_path / "g.jsonl"
    args = ["play", PY_BOT, C_BOT, "--seed", "3", "--quiet", "--replay", str(replay)]
    assert CliRunner().invoke(main, args).exit_code == 0
    header = json.loads(replay.read_text().splitlines()[0])
    assert "rlimits" in header["sandbox"] and "process-group" in header["sandbox"]
    unconfined = tmp_path / "u.jsonl"
    args = [
        "play",
        PY_BOT,
        C_BOT,
        "--seed",
        "3",
        "--quiet",
        "--no-sandbox",
        "--replay",
        str(unconfined),
    ]
    assert CliRunner().invoke(main, args).exit_code == 0
    assert json.loads(unconfined.read_text().splitlines()[0])["sandbox"] == []


@pytest.mark.parametrize(
    ("limit", "message"),
    [
        ("colour=3", "unknown limit 'colour'"),
        ("memory_mb=lots", "is not KEY=NUMBER"),
        ("memory_mb=0", "takes a whole number >= 1"),
    ],
)
def test_bad_resource_limits_are_one_line_errors(limit: str, message: str) -> None:
    result = CliRunner().invoke(main, ["play", PY_BOT, C_BOT, "--limit", limit])
    assert result.exit_code == 1, result.output
    assert message in result.output
    assert len(result.output.strip().splitlines()) == 1


def test_a_resource_limit_applies_to_every_bot() -> None:
    """The hog bot plays only when a limit stops its 200 MB allocation."""
    hog = f"hog=python3 {ROOT / 'tests/bots/misbehave.py'} hog limit-test"
    limited = CliRunner().invoke(
        main, ["play", hog, C_BOT, "--seed", "1", "--limit", "memory_mb=64"]
    )
    assert limited.exit_code == 0, limited.output
    assert "faulted" not in limited.output
    free = CliRunner().invoke(
        main, ["play", hog, C_BOT, "--seed", "1", "--limit", "memory_mb=1024"]
    )
    assert "hog faulted (crash)" in free.output


def test_the_search_bot_passes_check_bot_at_100_ms() -> None:
    """Every check, at 100 ms a move. The bank is 1 s, not the default 10 s: the bot spends
    half its bank over each game by design, so the default made each of the check's ~20
    games ~5 s longer (two minutes of CPU in all) without asking more of its clock."""
    bot = str(ROOT / "arena/samples/ismcts_bot.py")
    result = CliRunner().invoke(
        main, ["check-bot", bot, "--games", "2", "--move-ms", "100", "--bank-ms", "1000"]
    )
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[-1].endswith("all checks passed")


def test_a_replay_path_that_cannot_be_made_is_refused_before_the_game(tmp_path: Path) -> None:
    (tmp_path / "afile").write_text("keep")
    for option, path in (("--replay", "afile/game.jsonl"), ("--logs", "afile/logs")):
        result = CliRunner().invoke(
            main, ["play", C_BOT, C_BOT, "--seed", "3", option, str(tmp_path / path)]
        )
        assert result.exit_code == 1, result.output
        assert result.stderr.strip() == (
            f"Error: {option} {tmp_path / path}: {tmp_path / 'afile'} is a file, not a folder"
        )
        assert "Result" not in result.output, "no game was played"
    assert [p.name for p in tmp_path.iterdir()] == ["afile"]


def test_a_replay_that_fails_to_write_keeps_the_result(tmp_path: Path) -> None:
    """Where the check cannot tell (a full disk: /dev/full), the result is printed, then
    one line that says how to play the same game again."""
    long = tmp_path / f"{'g' * 300}.jsonl"
    result = CliRunner().invoke(main, ["play", C_BOT, C_BOT, "--replay", str(long)])
    assert result.exit_code == 1, result.output
    assert result.stderr.strip() == f"Error: --replay {long}: File name too long"
    result = CliRunner().invoke(
        main, ["play", C_BOT, C_BOT, "--seed", "3", "--quiet", "--replay", "/dev/full"]
    )
    assert result.exit_code == 1
    assert result.stdout.startswith("Result (seed 3): 1. ")
    assert result.stderr.strip() == (
        "Error: cannot write the replay /dev/full: No space left on device "
        "(--seed 3 plays the same game again)"
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--step", "--html", "x.html"], "--step is for the narration here; --html writes"),
        (["--hide-hands", "--html", "x.html"], "--hide-hands is for the narration here"),
        (["--game", "d0-r0"], "--game picks a game in a results folder; "),
    ],
)
def test_replay_options_that_contradict_are_refused(
    tmp_path: Path, args: list[str], message: str
) -> None:
    replay = tmp_path / "game.jsonl"
    played = CliRunner().invoke(main, ["play", C_BOT, C_BOT, "--quiet", "--replay", str(replay)])
    assert played.exit_code == 0, played.output
    result = CliRunner().invoke(main, ["replay", str(replay), *args])
    assert result.exit_code == 2
    assert result.stderr.strip().splitlines()[-1].startswith(f"Error: {message}")
    assert not (tmp_path / "x.html").exists()


def test_a_bot_faulting_keeps_its_whole_traceback_in_its_log(tmp_path: Path) -> None:
    """After a fault the bot's pipes close and it gets a moment before SIGTERM: the
    traceback it then writes (a Python bot's usual last words) is in its log whole, not
    cut after its first line."""
    bot = tmp_path / "dies_talking.py"
    bot.write_text(
        "import json, sys, time\n"
        "def deep(n):\n"
        "    if n == 0:\n"
        "        raise RuntimeError('the last line of a long traceback')\n"
        "    return deep(n - 1)\n"
        "for line in sys.stdin:\n"
        "    message = json.loads(line)\n"
        "    if message['type'] == 'hello':\n"
        "        print(json.dumps({'type': 'ready', 'name': 'x'}), flush=True)\n"
        "    elif message['type'] == 'request':\n"
        "        print('debug: not a reply', flush=True)\n"
        "        time.sleep(0.05)\n"
        "        deep(40)\n"
    )
    logs = tmp_path / "logs"
    result = CliRunner().invoke(
        main, ["play", f"dies=python3 {bot}", PY_BOT, "--quiet", "--logs", str(logs)]
    )
    assert result.exit_code == 0, result.output
    log = (logs / "dies.stderr.log").read_text()
    assert log.startswith("Traceback (most recent call last):\n")
    assert "[Previous line repeated 37 more times]" in log
    assert log.endswith("RuntimeError: the last line of a long traceback\n")
