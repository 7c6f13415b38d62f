"""Broken bots: a field is checked whole before any game; refused, naming every broken bot,
or played on without them (``--skip-broken``). Real bots, real processes."""

from __future__ import annotations

import re
import shutil
import sys
from pathlib import Path

import pytest

from arena.bots.health import probe
from arena.bots.sandbox import detect
from arena.bots.spec import parse_bots
from arena.events.precheck import proven
from arena.protocol import Limits
from tests.test_tournament import leaderboard, run_cli

ROOT = Path(__file__).resolve().parent.parent
RANDOM_BOT = ROOT / "arena/samples/random_bot.py"
C_BOT = ROOT / "sample_bots/c/random_bot"


@pytest.fixture(autouse=True)
def records(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ARENA_CACHE_DIR", str(tmp_path / "cache"))


def broken_bots(folder: Path) -> list[str]:
    """A bot of each kind of broken, as --bot arguments: a failing build, a crash at
    start, garbage for ready, silence past startup_ms."""
    build = folder / "badbuild"
    build.mkdir()
    (build / "bot.toml").write_text(
        'run = "./bot"\nbuild = "sh -c \'echo main.c:1: error: nope >&2; exit 2\'"\n'
    )
    (folder / "crash.py").write_text("import sys\nsys.exit('Traceback: boom')\n")
    (folder / "garbage.py").write_text("print('debug: starting up', flush=True)\ninput()\n")
    (folder / "silent.py").write_text("import time\ntime.sleep(30)\n")
    return [str(build), *(f"python3 {folder / name}.py" for name in ("crash", "garbage", "silent"))]


def field(folder: Path) -> list[str]:
    bots = [str(RANDOM_BOT), str(C_BOT), *broken_bots(folder)]
    return [arg for bot in bots for arg in ("--bot", bot)]


def counting_bot(folder: Path) -> Path:
    """The random bot, writing its last argument to ``folder/starts`` at each start."""
    bot = folder / "counting.py"
    bot.write_text(
        "import runpy, sys\n"
        f"open({str(folder / 'starts')!r}, 'a').write(sys.argv.pop() + '\\n')\n"
        f"runpy.run_path({str(RANDOM_BOT)!r}, run_name='__main__')\n"
    )
    return bot


def test_a_field_with_broken_bots_is_refused_naming_each_before_any_game(tmp_path: Path) -> None:
    out = tmp_path / "out"
    code, output = run_cli(
        "tournament", *field(tmp_path), "--players", "2", "--startup-ms", "1500",
        "--out", str(out),
    )  # fmt: skip
    assert code == 1, output
    summary = "Error: 4 of 6 bots are broken: fix them, or rerun with --skip-broken to play "
    assert summary + "without them:" in output
    lines = output[output.index(summary) :].splitlines()[1:]
    # A crash reads "the bot process ended" or "closed its output", as the exit is seen.
    lines[1] = re.sub(r"handshake: .*: exited", "handshake: ...: exited", lines[1])
    assert lines == [
        "  bot 'badbuild': build \"sh -c 'echo main.c:1: error: nope >&2; exit 2'\" failed "
        f"(exit 2), ending 'main.c:1: error: nope' (log: {lines[0].rsplit('(log: ', 1)[1]}",
        "  bot 'crash': crash at the handshake: ...: exited with status 1 "
        f"(log: {out / 'logs/check/crash.stderr.log'})",
        "  bot 'garbage': malformed at the handshake: not JSON: debug: starting up "
        f"(log: {out / 'logs/check/garbage.stderr.log'})",
        "  bot 'silent': timeout at the handshake: did not answer in time "
        f"(log: {out / 'logs/check/silent.stderr.log'})",
    ]
    assert "Traceback: boom" in (out / "logs/check/crash.stderr.log").read_text()
    assert not (out / "logs/check/random_bot.stderr.log").exists(), "a working bot's is gone"
    assert not (out / "results.sqlite").exists(), "nothing played"


def test_the_plan_size_is_refused_before_any_bot_is_built_or_started(tmp_path: Path) -> None:
    out = tmp_path / "out"
    code, output = run_cli(
        "tournament", *field(tmp_path), "--players", "2", "--max-games", "3", "--out", str(out)
    )
    assert code == 1 and "more than --max-games 3" in output, output
    assert "building" not in output and not out.exists()


def test_a_round_robin_skips_them_for_the_folders_life(tmp_path: Path) -> None:
    """Played on without them, said once each; resumed with one fixed, it is still out:
    the round-robin's tables were made without it. The config file's key works too."""
    out = tmp_path / "out"
    config = tmp_path / "club.toml"
    config.write_text(f'skip_broken = true\nplayers = 2\nstartup_ms = 1500\nout = "{out}"\n')
    args = [str(config), *field(tmp_path), "--quiet"]
    code, output = run_cli("tournament", *args)
    assert code == 0, output
    assert output.count("skipping bot '") == 4
    assert "skipping bot 'crash': crash at the handshake" in output
    assert {row["bot"] for row in leaderboard(out)} == {"random_bot", "random_bot-2"}
    shutil.copy(RANDOM_BOT, tmp_path / "crash.py")
    shutil.copy(ROOT / "arena/samples/arena_bot.py", tmp_path)
    code, output = run_cli("tournament", *args)
    assert code == 0, output
    assert f"kept out since {out} started: bot 'crash': crash at the handshake" in output
    assert re.search(r"Done: (\d+)/\1 games \(0 played now", output), output


def test_a_league_plays_on_without_them_and_takes_one_back_when_it_works(
    tmp_path: Path,
) -> None:
    out = tmp_path / "out"
    common = [
        *field(tmp_path), "--players", "2", "--schedule", "sampled", "--skip-broken",
        "--startup-ms", "1500", "--out", str(out), "--quiet",
    ]  # fmt: skip
    code, output = run_cli("tournament", *common, "--rounds", "2")
    assert code == 0, output
    assert {row["bot"] for row in leaderboard(out)} == {"random_bot", "random_bot-2"}
    shutil.copy(RANDOM_BOT, tmp_path / "crash.py")
    shutil.copy(ROOT / "arena/samples/arena_bot.py", tmp_path)
    code, output = run_cli("tournament", *common, "--rounds", "4")
    assert code == 0, output
    assert output.count("skipping bot '") == 3 and "'crash'" not in output
    rows = {row["bot"]: row for row in leaderboard(out)}
    assert set(rows) == {"random_bot", "random_bot-2", "crash"}
    games = {bot: int(str(row["games"])) for bot, row in rows.items()}
    assert 0 < games["crash"] < games["random_bot"], "a newcomer from round 3"


def test_a_match_refuses_a_broken_bot_with_no_skipping(tmp_path: Path) -> None:
    (tmp_path / "crash.py").write_text("import sys\nsys.exit(3)\n")
    code, output = run_cli(
        "match", f"new=python3 {tmp_path / 'crash.py'}", str(RANDOM_BOT), "--max-games", "4",
        "--out", str(tmp_path / "m"),
    )  # fmt: skip
    assert code == 1, output
    assert output.startswith("Error: 1 of 2 bots are broken: fix them:\n  bot 'new': crash at")
    assert "--skip-broken" not in output


def test_each_distinct_bot_is_started_once_however_many_names_enter_it(tmp_path: Path) -> None:
    """A field of 1,000 names of 3 commands: 3 starts (counted by the bots themselves)."""
    counter, bot = tmp_path / "starts", counting_bot(tmp_path)
    texts = [f"b{index}=python3 {bot} {index % 3}" for index in range(1000)]
    assert probe(parse_bots(texts), Limits(), sandbox=None) == []
    assert sorted(counter.read_text().split()) == ["0", "1", "2"]


def test_a_probe_names_the_log_only_where_there_is_one() -> None:
    [spec] = parse_bots([f"{sys.executable} -c 'import sys; sys.exit(4)'"])
    [broken] = probe([spec], Limits(startup_ms=2000), sandbox=None)
    assert str(broken) == f"bot {spec.name!r}: {broken.reason}"
    assert "exited with status 4" in broken.reason


def test_check_bot_checks_every_bot_of_a_config_into_one_table(tmp_path: Path) -> None:
    broken_bots(tmp_path)
    config = tmp_path / "class.toml"
    config.write_text(
        f'[[bots]]\nname = "good"\ncommand = "python3 {RANDOM_BOT}"\n'
        '[[bots]]\nname = "crash"\ncommand = "python3 crash.py"\n'
        '[[bots]]\nname = "garbage"\ncommand = "python3 garbage.py"\n'
        '[[bots]]\nname = "badbuild"\ncommand = "badbuild"\n'
    )
    code, output = run_cli(
        "check-bot", str(config), "--games", "2", "--jobs", "3", "--startup-ms", "2000"
    )
    assert code == 1, output
    rows = {line.split()[0]: line for line in output.splitlines() if line[:1].isalpha()}
    assert rows["good"].split()[1:4] == ["-", "yes", "27/27"]
    assert rows["crash"].split()[1:4] == ["-", "no", "0/27"]
    assert "handshake: crash: handshake failed: " in rows["crash"]
    assert f"(log: {tmp_path / 'cache/check/crash.stderr.log'})" in rows["crash"]
    assert "not JSON: debug: starting up" in rows["garbage"]
    assert rows["badbuild"].split()[1:4] == ["no", "-", "-"]
    assert "failed (exit 2), ending 'main.c:1: error: nope' (log: " in rows["badbuild"]
    assert output.rstrip().endswith("1 of 4 bots pass every check")


def test_check_bot_of_several_working_bots_passes(tmp_path: Path) -> None:
    code, output = run_cli("check-bot", str(RANDOM_BOT), str(C_BOT), "--games", "2")
    assert code == 0, output
    assert output.rstrip().endswith("2 of 2 bots pass every check")


def test_bots_probed_side_by_side_in_the_sandbox_do_not_kill_each_other() -> None:
    """Each probe's stop kills its bot's leftovers: every child of arena that left its
    session and is not a live bot. A bot another thread had just started, its pid not yet
    among the live ones, was such a child (and two threads could take one bot uid): one
    probe in three of 7 kits under load found a working bot "exited with status 0"."""
    sandbox = detect()
    texts = [f"c{index}={C_BOT} {index}" for index in range(16)]  # 16 distinct commands
    for _ in range(3):
        assert probe(parse_bots(texts), Limits(), sandbox=sandbox) == []


def test_a_resumed_run_starts_no_bot_that_played_there_as_it_is(tmp_path: Path) -> None:
    """5,000 bots that played yesterday are not started again to be checked today: only
    a bot that changed, or never played in the folder, is probed."""
    counter, bot = tmp_path / "starts", counting_bot(tmp_path)
    out = tmp_path / "out"
    bots = [f"python3 {bot} {index}" for index in range(2)]
    args = ["tournament", *(f"--bot={text}" for text in bots), "--players", "2", "--deals", "1"]
    args += ["--no-sandbox", "--out", str(out), "--quiet"]
    code, output = run_cli(*args)
    assert code == 0, output
    first = counter.read_text().split()
    assert first.count("0") >= 2, "the probe's start and the game's"
    code, output = run_cli(*args)  # the same command again: every game is done
    assert code == 0, output
    assert counter.read_text().split() == first, "no bot started again"
    specs = parse_bots(bots)
    assert proven(out, specs) == {spec.name for spec in specs}
    bot.write_text(bot.read_text() + "# changed\n")
    assert proven(out, specs) == set(), "a changed bot is started again before a game"
    assert proven(tmp_path, specs) == set(), "a folder with no results yet"
