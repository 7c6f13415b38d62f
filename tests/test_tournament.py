"""Tournaments: the schedule, the store's ratings, and whole runs with real bots.

The kill -9 test starts a real tournament in a subprocess (with worker
processes and bot processes), kills the whole process group mid-run, reruns
the same command and checks that the leaderboard equals an uninterrupted
run's, with every game counted exactly once.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import re
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from contextlib import closing
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner

from arena.cli import main
from arena.events.schedule import ScheduleError, deal_set_seed
from arena.results.ratings import Environment
from arena.results.store import (
    CLOSED,
    BotRecord,
    Finished,
    Store,
    StoreError,
    open_existing,
    untouched,
)
from arena.tournament.schedule import round_robin_games
from tests.system import E2E

pytestmark = E2E

ROOT = Path(__file__).resolve().parent.parent
C_BOT = str(ROOT / "sample_bots/c/random_bot")
PY_BOT = f"python3 {ROOT / 'arena/samples/random_bot.py'}"
BOTS = [
    "--bot",
    f"a={C_BOT}",
    "--bot",
    f"b={C_BOT}",
    "--bot",
    f"py={PY_BOT}",
    "--bot",
    f"d={C_BOT}",
]


# ---------------------------------------------------------------------- schedule


def test_round_robin_with_duplicate_deals() -> None:
    games = round_robin_games(["a", "b", "c", "d"], players=3, deals=2, seed=9)
    assert len(games) == 4 * 2 * 3  # 4 tables of 3, 2 deal sets, 3 rotations
    assert [g.game_id for g in games] == sorted(g.game_id for g in games)
    first_set = [g for g in games if g.deal_set == 0]
    assert [g.seats for g in first_set] == [("a", "b", "c"), ("b", "c", "a"), ("c", "a", "b")]
    assert {g.seed for g in first_set} == {deal_set_seed(9, 0)}
    assert len({g.seed for g in games}) == 8
    for bot in "abcd":
        for seat in range(3):
            holding = [g for g in games if g.seats[seat] == bot]
            assert len(holding) == 3 * 2  # every bot holds every seat's cards equally


def test_gauntlet_keeps_only_the_challengers_tables() -> None:
    games = round_robin_games(["a", "b", "c", "d"], players=2, deals=1, seed=0, gauntlet="d")
    assert {frozenset(g.seats) for g in games} == {
        frozenset("ad"),
        frozenset("bd"),
        frozenset("cd"),
    }


@pytest.mark.parametrize(
    ("bots", "players", "message"),
    [(["a", "b"], 3, "2 bots cannot fill a 3-seat table"), (["a", "b"], 8, "takes 2..7")],
)
def test_impossible_schedules(bots: list[str], players: int, message: str) -> None:
    with pytest.raises(ScheduleError, match=message):
        round_robin_games(bots, players=players, deals=1, seed=0)


# ---------------------------------------------------------------------- store


def make_store(folder: Path) -> Store:
    schedule = round_robin_games(["a", "b", "c"], players=3, deals=2, seed=1)
    store = Store.open(
        folder,
        config={"players": 3},
        bots=[BotRecord(name, name, "h") for name in "abc"],
        environment=Environment.for_table(3),
        sandbox=[],
    )
    store.schedule_round(1, [("a", "b", "c")], schedule)
    return store


def finished(ordinal: int) -> Finished:
    places = [(1, 2, 3), (2, 1, 2), (3, 3, 1), (1, 1, 3), (2, 3, 1), (3, 1, 2)][ordinal]
    faults = {1: ("timeout", "late")} if ordinal == 2 else {}
    return Finished(ordinal, places, faults, 50, 1.0, f"replays/{ordinal}.jsonl")


def test_ratings_do_not_depend_on_the_order_games_finish(tmp_path: Path) -> None:
    in_order, shuffled = make_store(tmp_path / "a"), make_store(tmp_path / "b")
    for ordinal in range(6):
        in_order.finish(finished(ordinal))
    prefix = []
    for ordinal in (4, 1, 5, 0, 3, 2):
        shuffled.finish(finished(ordinal))
        prefix.append(shuffled.meta("rated_through"))
    assert prefix == [-1, -1, -1, 1, 1, 5], "games are rated as the finished prefix grows"
    assert in_order.standings() == shuffled.standings()
    assert in_order.pairwise() == shuffled.pairwise()
    rows = {row["bot"]: row for row in in_order.standings()}
    schedule = round_robin_games(["a", "b", "c"], players=3, deals=2, seed=1)
    assert rows[schedule[2].seats[1]]["faults"] == {"timeout": 1}
    for bot in "abc":
        places = [finished(g.ordinal).placements[g.seats.index(bot)] for g in schedule]
        assert rows[bot]["games"] == 6
        assert rows[bot]["wins"] == places.count(1)
        assert rows[bot]["avg_place"] == round(sum(places) / 6, 3)


def sharpened(environment: Environment, games: int) -> dict[str, tuple[float, float]]:
    """Ratings of four fixed-strength bots after ``games`` noisy four-seat games."""
    rng = random.Random(5)
    rater = environment.free_for_all()
    ratings = dict.fromkeys("abcd", (environment.mu, environment.sigma))
    for _ in range(games):
        performance = {
            bot: strength + rng.gauss(0, 4)
            for bot, strength in zip("abcd", (3, 2, 1, 0), strict=True)
        }
        order = sorted("abcd", key=lambda bot: -performance[bot])
        new = rater.rate([ratings[bot] for bot in order], [1, 2, 3, 4])
        ratings.update(zip(order, new, strict=True))
    return ratings


def test_ratings_of_fixed_bots_keep_sharpening() -> None:
    """Without a dynamics factor sigma keeps falling (a bot's skill does not drift);
    with TrueSkill's tau 25/300 it floors near 0.7, about the gap between close bots."""
    settled = sharpened(Environment.for_table(4), 1500)
    drifting = sharpened(replace(Environment.for_table(4), tau=25 / 300), 1500)
    assert max(sigma for _, sigma in settled.values()) < 0.35
    assert min(sigma for _, sigma in drifting.values()) > 0.6
    assert sorted(settled, key=lambda bot: -settled[bot][0]) == list("abcd")


def test_a_resumed_folder_keeps_its_stored_environment(tmp_path: Path) -> None:
    """A folder rated with tau 25/300 (made before tau 0) keeps it on resume."""
    before = replace(Environment.for_table(3), tau=25 / 300)
    opened = {"config": {"players": 3}, "bots": [BotRecord("a", "a", "h")], "sandbox": []}
    Store.open(tmp_path, environment=before, **opened).close()  # type: ignore[arg-type]
    store = Store.open(tmp_path, environment=Environment.for_table(3), **opened)  # type: ignore[arg-type]
    assert store.meta("environment")["tau"] == pytest.approx(25 / 300)
    store.close()


def test_a_game_cannot_be_committed_twice(tmp_path: Path) -> None:
    store = make_store(tmp_path)
    store.finish(finished(0))
    with pytest.raises(StoreError, match="not pending"):
        store.finish(finished(0))
    assert store.done() == 1


def test_a_store_of_another_tournament_is_refused(tmp_path: Path) -> None:
    make_store(tmp_path).close()
    with pytest.raises(StoreError, match="holds another tournament"):
        Store.open(
            tmp_path,
            config={"players": 4},
            bots=[],
            environment=Environment(),
            sandbox=[],
        )


# ---------------------------------------------------------------------- whole runs


def run_cli(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.output


def leaderboard(folder: Path) -> list[dict[str, object]]:
    code, output = run_cli("leaderboard", str(folder), "--format", "json")
    assert code == 0, output
    rows: list[dict[str, object]] = json.loads(output)
    return rows


def test_tournament_jobs_1_and_2_give_the_same_leaderboard(tmp_path: Path) -> None:
    common = [*BOTS, "--players", "3", "--deals", "2", "--seed", "5", "--quiet"]
    code, output = run_cli("tournament", *common, "--out", str(tmp_path / "one"))
    assert code == 0, output
    assert output.startswith("Done: 24/24 games")
    code, output = run_cli("tournament", *common, "--out", str(tmp_path / "two"), "--jobs", "2")
    assert code == 0, output
    rows = leaderboard(tmp_path / "one")
    assert rows == leaderboard(tmp_path / "two")
    assert [row["rank"] for row in rows] == [1, 2, 3, 4]
    for row in rows:
        assert {
            "rank",
            "bot",
            "mu",
            "sigma",
            "score",
            "games",
            "wins",
            "avg_place",
            "faults",
        } <= set(row)
        assert row["games"] == 18
    replays = sorted((tmp_path / "one" / "replays").glob("*.jsonl"))
    assert len(replays) == 24
    header = json.loads(replays[0].read_text().splitlines()[0])
    assert header["game"] == replays[0].stem
    code, output = run_cli("tournament", *common, "--out", str(tmp_path / "one"))
    assert output.startswith("Done: 24/24 games (0 played now"), "a finished folder plays nothing"


#: Done games of the round under way (some of its games done, some not); 0 between rounds.
MID_ROUND = (
    "SELECT count(*) FROM games WHERE status = 'done' AND round = (SELECT min(round) FROM games "
    "WHERE status = 'pending') AND round <= (SELECT max(round) FROM games WHERE status = 'done')"
)


def kill_9_during(
    common: list[str],
    folder: Path,
    *,
    after: int,
    mid_round: bool = False,
    env: dict[str, str] | None = None,
    subcommand: str = "tournament",
) -> int:
    """Start ``arena tournament`` (or ``subcommand``) in a subprocess, SIGKILL its whole
    group once ``after`` games are done (and, with ``mid_round``, once a round is partly
    played); return how many games were done."""
    command = [sys.executable, "-m", "arena", subcommand, *common, "--out", str(folder)]
    child = subprocess.Popen(
        command,
        start_new_session=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=env,
    )
    database = folder / "results.sqlite"
    deadline = time.monotonic() + 60
    done = partly = 0
    while time.monotonic() < deadline and (done < after or (mid_round and not partly)):
        time.sleep(0.02)
        if database.exists():
            try:  # closed at once: a connection left open keeps the WAL past the rerun
                with closing(sqlite3.connect(database)) as db:
                    done = db.execute("SELECT count(*) FROM games WHERE status='done'").fetchone()[
                        0
                    ]
                    partly = db.execute(MID_ROUND).fetchone()[0] if mid_round else 0
            except sqlite3.Error:
                done = 0
    os.killpg(child.pid, signal.SIGKILL)
    child.wait()
    return int(done)


def test_kill_9_then_rerun_gives_the_uninterrupted_leaderboard(tmp_path: Path) -> None:
    common = [*BOTS, "--players", "3", "--deals", "6", "--seed", "11", "--jobs", "2", "--quiet"]
    code, output = run_cli("tournament", *common, "--out", str(tmp_path / "whole"))
    assert code == 0, output
    folder = tmp_path / "killed"
    scratch = bot_tmpdir()
    env = {**os.environ, "TMPDIR": str(scratch)}
    done = kill_9_during(common, folder, after=10, env=env)
    assert 10 <= done < 72, f"the kill came at {done} games"
    assert not untouched(folder), "a killed run leaves no mark: the resume checks every page"
    rerun = [sys.executable, "-m", "arena", "tournament", *common, "--out", str(folder)]
    again = subprocess.run(rerun, env=env, capture_output=True, text=True, check=False)
    assert again.returncode == 0, again.stderr
    assert untouched(folder), "a run that ends closes its store whole"
    # What the killed run left (it could not clean up) the rerun reaped.
    assert list(scratch.iterdir()) == [] and running_in(scratch) == []
    scratch.rmdir()
    with sqlite3.connect(folder / "results.sqlite") as db:
        assert db.execute("SELECT count(*) FROM games WHERE status='done'").fetchone()[0] == 72
        assert db.execute("SELECT count(*) FROM ratings").fetchone()[0] == 72 * 3
    assert leaderboard(folder) == leaderboard(tmp_path / "whole")


def done_in(folder: Path) -> int:
    """Games committed in a results folder (0 before it exists). Read-only: a plain connect
    would make an empty results.sqlite before the tournament makes its own."""
    try:
        with sqlite3.connect(f"file:{folder / 'results.sqlite'}?mode=ro", uri=True) as db:
            return int(db.execute("SELECT count(*) FROM games WHERE status='done'").fetchone()[0])
    except sqlite3.Error:
        return 0


def wait_for_games(folder: Path, games: int, timeout_s: float = 60) -> None:
    """Wait until ``folder`` holds ``games`` committed games."""
    deadline = time.monotonic() + timeout_s
    while done_in(folder) < games:
        assert time.monotonic() < deadline, (
            f"{folder}: fewer than {games} games after {timeout_s} s"
        )
        time.sleep(0.02)


def worker_pids(coordinator: int) -> list[int]:
    """The worker processes a coordinator started (its spawned children)."""
    pids = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
            command = (stat.parent / "cmdline").read_bytes()
        except OSError:  # a process that ended meanwhile
            continue
        if int(fields[1]) == coordinator and b"spawn_main" in command:
            pids.append(int(stat.parent.name))
    return pids


def test_a_worker_killed_mid_run_stops_it_in_one_line_and_it_resumes(tmp_path: Path) -> None:
    """A worker process that dies (the OOM killer, a stray kill): the run stops at once
    with one line naming it, keeps what finished, and a rerun completes the leaderboard."""
    common = [*BOTS, "--players", "3", "--deals", "50", "--seed", "5", "--jobs", "2", "--quiet"]
    code, output = run_cli("tournament", *common, "--out", str(tmp_path / "whole"))
    assert code == 0, output
    folder = tmp_path / "cut"
    child = subprocess.Popen(
        [sys.executable, "-m", "arena", "tournament", *common, "--out", str(folder)],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip
    wait_for_games(folder, 20)
    workers = worker_pids(child.pid)
    assert len(workers) == 2, workers
    os.kill(workers[0], signal.SIGKILL)
    out, _ = child.communicate(timeout=60)
    assert child.returncode == 1, out
    lines = out.strip().splitlines()
    assert len(lines) == 1 and "Error: worker process" in lines[0], out
    assert "ended (exit status -9) with games to play" in lines[0], out
    assert "run it again to resume" in lines[0], out
    code, output = run_cli("tournament", *common, "--out", str(folder))
    assert code == 0, output
    assert leaderboard(folder) == leaderboard(tmp_path / "whole")


def tables_of(folder: Path) -> list[tuple[int, int, str]]:
    with sqlite3.connect(folder / "results.sqlite") as db:
        return db.execute(
            "SELECT round, table_no, bots FROM tables ORDER BY round, table_no"
        ).fetchall()


@pytest.mark.parametrize("schedule", ["sampled", "swiss"])
def test_rounds_with_jobs_1_and_2_and_after_kill_9_are_the_same(
    tmp_path: Path, schedule: str
) -> None:
    """Seven real bots, two tables of three a round (one sits out), six rounds. Four deal
    sets a table: a round's 24 games span several group commits, so a kill finds one
    partly committed."""
    seven = [*BOTS, "--bot", f"e={C_BOT}", "--bot", f"f={C_BOT}", "--bot", f"g={C_BOT}"]
    common = [*seven, "--players", "3", "--deals", "4", "--seed", "3", "--quiet",
              "--schedule", schedule, "--rounds", "6"]  # fmt: skip
    code, output = run_cli("tournament", *common, "--out", str(tmp_path / "one"))
    assert code == 0, output
    assert output.startswith("Done: 144/144 games")
    code, output = run_cli("tournament", *common, "--jobs", "2", "--out", str(tmp_path / "two"))
    assert code == 0, output
    done = kill_9_during([*common, "--jobs", "2"], tmp_path / "killed", after=16, mid_round=True)
    with sqlite3.connect(tmp_path / "killed" / "results.sqlite") as db:
        partly = db.execute(MID_ROUND).fetchone()[0]
    assert 16 <= done < 144 and partly, f"the kill came at {done} games, not mid-round"
    code, output = run_cli("tournament", *common, "--jobs", "2", "--out", str(tmp_path / "killed"))
    assert code == 0, output
    expected = leaderboard(tmp_path / "one")
    assert sorted(int(str(row["games"])) for row in expected) == [60] * 6 + [72], "one table apart"
    for other in ("two", "killed"):
        assert leaderboard(tmp_path / other) == expected
        assert tables_of(tmp_path / other) == tables_of(tmp_path / "one")
    ids = sorted(path.stem for path in (tmp_path / "one" / "replays").glob("*.jsonl"))
    assert ids[0] == "rd00001-t00000-d0-r0" and ids[-1] == "rd00006-t00001-d3-r2"


def test_dry_run_prints_the_plan_and_big_plans_are_refused(tmp_path: Path) -> None:
    thirty = [arg for n in range(30) for arg in ("--bot", f"b{n}={C_BOT}")]
    folder = tmp_path / "never"
    common = [*thirty, "--deals", "5", "--out", str(folder)]
    code, output = run_cli("tournament", *common)
    assert code == 1
    assert output.strip() == (
        "Error: the round-robin plan has 548,100 games, more than --max-games 200,000: try "
        "--schedule sampled --rounds 35 (4,900 games, 640-660 per bot), or raise --max-games"
    )
    code, output = run_cli("tournament", *common, "--max-games", "1000000", "--dry-run")
    assert code == 0, output
    assert "Plan: round-robin, 30 bots, 4 per table, 5 deal sets per table" in output
    assert "  games: 548,100 (73,080 per bot)" in output
    # Before any game, the bots' first moves are timed (30 names, one command: one bot).
    assert re.search(r"  time: about \S+ at the bots' pace, 1 game at once \(30 timed", output)
    assert "  at most " in output and "the banks can dominate" in output
    assert "refused" not in output
    code, output = run_cli("tournament", *common, "--dry-run")
    assert code == 0, output
    assert "  games: 548,100 (73,080 per bot)" in output
    assert "  refused as it is: the round-robin plan has 548,100 games" in output
    assert "  time: unknown" in output, "a plan refused starts no bot to time it"
    code, output = run_cli("tournament", *common, "--schedule", "swiss", "--rounds", "35",
                           "--stop-top", "3", "--dry-run")  # fmt: skip
    assert code == 0, output
    assert "  games: 4,900 (640-660 per bot)" in output
    assert "  rounds: 35, 140 games each" in output
    assert "stop rule: once the top 3 are in order with probability >= 0.95" in output
    assert not folder.exists(), "a dry run writes nothing"


def test_a_dry_run_builds_nothing_and_times_only_what_is_built(tmp_path: Path) -> None:
    kit = tmp_path / "kit"
    kit.mkdir()
    (kit / "bot.toml").write_text('run = "./bot"\nbuild = "sh -c \'touch ../built; exit 1\'"\n')
    code, output = run_cli(
        "tournament", "--bot", str(kit), "--bot", f"c={C_BOT}", "--bot", f"d={C_BOT} 2",
        "--players", "2", "--out", str(tmp_path / "out"), "--dry-run",
    )  # fmt: skip
    assert code == 0, output
    assert "(2 timed over their first moves; slowest " in output
    assert "  not timed: kit (not built yet, no answer, or past the 3 s budget)" in output
    assert not (tmp_path / "built").exists() and not (tmp_path / "out").exists()


def test_a_dry_run_of_a_thousand_bots_times_what_3_seconds_allow(tmp_path: Path) -> None:
    """1,000 distinct commands: the first are timed, the rest named untimed, and the dry
    run ends (the budget holds whatever the field)."""
    bots = [arg for n in range(1000) for arg in ("--bot", f"b{n}={C_BOT} {n}")]
    code, output = run_cli(
        "tournament", *bots, "--schedule", "sampled", "--rounds", "2",
        "--out", str(tmp_path / "out"), "--dry-run",
    )  # fmt: skip
    assert code == 0, output
    assert "  games: 10,000 (40 per bot)" in output
    untimed = re.search(r"  not timed: (.*) \(not built yet, no answer, or past the 3 s", output)
    assert untimed and untimed[1].endswith(", ..."), output
    timed = re.search(r"\((\d+) timed over their first moves", output)
    assert timed and 0 < int(timed[1]) < 1000, output


def test_dry_run_estimates_the_time_from_the_folders_pace(tmp_path: Path) -> None:
    common = [*BOTS, "--players", "3", "--deals", "2", "--out", str(tmp_path), "--quiet"]
    assert run_cli("tournament", *common)[0] == 0
    before = fingerprint(tmp_path)
    code, output = run_cli("tournament", *common, "--dry-run")
    assert code == 0, output
    assert f"  {tmp_path}: 24 games done" in output
    assert " games/s, as measured there" in output
    assert fingerprint(tmp_path) == before


def test_a_bot_that_no_longer_starts_is_disabled_and_forfeits(tmp_path: Path) -> None:
    """It starts when the field is checked, then never again: its games are forfeited."""
    marker = tmp_path / "started"
    broken = f"broken=python3 {ROOT / 'tests/bots/misbehave.py'} startsonce {marker}"
    args = ["--bot", f"a={C_BOT}", "--bot", f"b={C_BOT}", "--bot", broken]
    code, output = run_cli(
        "tournament", *args, "--players", "3", "--deals", "3", "--startup-ms", "1000",
        "--out", str(tmp_path / "out"), "--quiet", "--no-sandbox",  # it writes its marker
    )  # fmt: skip
    assert code == 0, output
    log = tmp_path / "out/logs/broken.stderr.log"
    assert (
        "bot 'broken' disabled: failed to start 3 games in a row (the last: timeout: did not "
        f"answer in time); its remaining games are forfeits (log: {log})"
    ) in output, output
    rows = {row["bot"]: row for row in leaderboard(tmp_path / "out")}
    assert rows["broken"]["faults"] == {"crash": 6, "timeout": 3}
    assert rows["broken"]["rank"] == 3


def fingerprint(folder: Path) -> str:
    return hashlib.sha256((folder / "results.sqlite").read_bytes()).hexdigest()


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--rule", "colour=red"], "unknown rule option 'colour'"),
        (["--players", "5"], "4 bots cannot fill a 5-seat table"),
        (["--deals", "3"], "holds another tournament (deals: 2 there, 3 now)"),
        (["--limit", "walls=1"], "unknown limit 'walls'"),
        (["--schedule", "sampled"], "another tournament (schedule: not set there, 'sampled' now)"),
        (["--rule", "dog_life=none"], "(rules.dog_life: 'standard' there, 'none' now)"),
        (["--limit", "memory_mb=300"], "(resources.memory_mb: not set there, 300 now)"),
        (["--rounds", "3"], "--rounds needs --schedule sampled or swiss"),
        (["--stop-top", "2"], "a stop rule needs --schedule sampled or swiss"),
    ],
)
def test_bad_input_is_one_line_and_keeps_results(
    tmp_path: Path, extra: list[str], message: str
) -> None:
    base = [*BOTS, "--players", "3", "--out", str(tmp_path), "--quiet"]
    assert run_cli("tournament", *base, "--deals", "2")[0] == 0
    before = fingerprint(tmp_path)
    deals = [] if "--deals" in extra else ["--deals", "2"]
    code, output = run_cli("tournament", *base, *deals, *extra)
    assert code == 1, output
    assert message in output
    assert len(output.strip().splitlines()) == 1
    assert fingerprint(tmp_path) == before


def test_a_config_file_with_flags_overriding_it(tmp_path: Path) -> None:
    config = tmp_path / "club.toml"
    config.write_text(
        f"""
name = "club"
players = 3
deals = 1
seed = 4
[rules]
dog_life = "expanded"
[[bots]]
name = "a"
command = "{C_BOT}"
[[bots]]
name = "b"
command = "{C_BOT}"
limits = {{ memory_mb = 256 }}
[[bots]]
name = "c"
command = "{C_BOT}"
"""
    )
    out = tmp_path / "out"
    code, output = run_cli("tournament", str(config), "--deals", "2", "--out", str(out), "--quiet")
    assert code == 0, output
    assert output.startswith("Done: 6/6 games")
    with sqlite3.connect(out / "results.sqlite") as db:
        stored = json.loads(db.execute("SELECT value FROM meta WHERE key='config'").fetchone()[0])
    assert stored["deals"] == 2 and stored["rules"]["dog_life"] == "expanded"
    config.write_text("players = [")
    code, output = run_cli("tournament", str(config))
    assert code == 1 and "is not valid TOML" in output
    config.write_text('pin = "yes"')
    code, output = run_cli("tournament", str(config))
    assert code == 1 and "pin must be true or false, not 'yes'" in output
    config.write_text("dask = 8786")
    code, output = run_cli("tournament", str(config))
    assert code == 1 and "dask must be a string, not 8786" in output
    config.write_text(f'[[bots]]\nname = "logs/x"\ncommand = "{C_BOT}"')
    code, output = run_cli("tournament", str(config))
    assert code == 1 and output.strip() == (
        f"Error: {config}: bots[1].name: bot name 'logs/x' does not fit the rule: 1 to 64 "
        "letters, digits, '_', '.' or '-', not starting with '.' or '-'"
    )


def test_ctrl_c_stops_cleanly_and_prints_the_resume_command(tmp_path: Path) -> None:
    folder = tmp_path / "interrupted"
    args = [*BOTS, "--players", "3", "--deals", "20", "--jobs", "2", "--out", str(folder)]
    child = subprocess.Popen(
        [sys.executable, "-m", "arena", "tournament", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    wait_for_games(folder, 1)  # under way: a game is saved
    child.send_signal(signal.SIGINT)
    _, stderr = child.communicate(timeout=60)
    assert child.returncode == 130, stderr
    last = stderr.strip().splitlines()[-1]
    assert last.startswith("Interrupted: ") and "Resume with: arena tournament " in last
    assert f"--out {folder}" in last
    code, output = run_cli("tournament", *args, "--quiet")
    assert code == 0, output
    assert output.startswith("Done: 240/240 games")


def test_a_bot_that_cannot_start_at_all_is_an_error_before_any_game(tmp_path: Path) -> None:
    code, output = run_cli(
        "tournament", "--bot", C_BOT, "--bot", "python3 missing.py", "--out", str(tmp_path)
    )
    assert code == 1
    assert output.strip() == "Error: bot 'python3 missing.py': no such file: missing.py"
    assert not (tmp_path / "results.sqlite").exists()


# ---------------------------------------------------------------------- CPU pinning


AFFINITY_BOT = f"{sys.executable} {ROOT / 'tests/bots/affinity.py'}"


def logged_cpus(folder: Path) -> list[list[int]]:
    """The CPU sets the affinity bots logged, one per bot process started."""
    found = []
    for log in (folder / "logs").glob("*.stderr.log"):
        for line in log.read_text().splitlines():
            if line.startswith("cpus "):
                found.append(json.loads(line.removeprefix("cpus ")))
    return found


@pytest.mark.parametrize("jobs", [1, 2])
def test_each_worker_and_its_bots_run_on_a_cpu_of_their_own(tmp_path: Path, jobs: int) -> None:
    everything = sorted(os.sched_getaffinity(0))
    bots = [arg for n in range(3) for arg in ("--bot", f"x{n}={AFFINITY_BOT}")]
    common = [*bots, "--players", "3", "--deals", "4", "--jobs", str(jobs), "--quiet"]
    code, _ = run_cli("tournament", *common, "--out", str(tmp_path / "pinned"))
    assert code == 0
    pinned = logged_cpus(tmp_path / "pinned")
    assert len(pinned) >= 3
    if len(everything) >= jobs and len(everything) > 1:
        assert all(len(cpus) == 1 for cpus in pinned), pinned
        assert {cpus[0] for cpus in pinned} <= set(everything[:jobs])
    else:
        assert all(cpus == everything for cpus in pinned)
    assert sorted(os.sched_getaffinity(0)) == everything, "the caller's CPUs are given back"
    code, _ = run_cli("tournament", *common, "--no-pin", "--out", str(tmp_path / "free"))
    assert code == 0
    assert all(cpus == everything for cpus in logged_cpus(tmp_path / "free"))


def test_a_league_of_real_bots_grows_and_updates_a_bot(tmp_path: Path) -> None:
    """Five C bots for two rounds; then a sixth joins and one bot's program changes."""
    copy = tmp_path / "changing_bot"
    copy.write_bytes(Path(C_BOT).read_bytes())
    copy.chmod(0o755)
    five = [arg for n in range(4) for arg in ("--bot", f"c{n}={C_BOT}")] + ["--bot", f"x={copy}"]
    common = ["--players", "3", "--deals", "1", "--schedule", "swiss", "--out", str(tmp_path / "l"),
              "--quiet", "--jobs", "2"]  # fmt: skip
    code, output = run_cli("tournament", *five, *common, "--rounds", "2")
    assert code == 0, output
    six = [*five, "--bot", f"late={C_BOT}"]
    code, output = run_cli("tournament", *six, *common, "--rounds", "4")
    assert code == 0, output
    rows = {row["bot"]: row for row in leaderboard(tmp_path / "l")}
    assert set(rows) == {"c0", "c1", "c2", "c3", "x", "late"}
    assert int(str(rows["late"]["games"])) > 0
    copy.write_bytes(copy.read_bytes() + b"\0")  # a new build of x
    code, output = run_cli("tournament", *six, *common, "--rounds", "5")
    assert code == 1
    assert output.strip().endswith(
        "rerun with --update x to enter the new version as x@2 (the old one retires), "
        "or choose another --out"
    )
    code, output = run_cli("tournament", *six, *common, "--rounds", "5", "--update", "x")
    assert code == 0, output
    rows = {row["bot"]: row for row in leaderboard(tmp_path / "l")}
    assert rows["x"]["retired"] is True and rows["x@2"]["retired"] is False
    code, output = run_cli("leaderboard", str(tmp_path / "l"))
    assert "x (retired)" in output
    code, output = run_cli("tournament", *six, "--players", "3", "--deals", "1",
                           "--out", str(tmp_path / "l"), "--quiet")  # fmt: skip
    assert code == 1 and "holds another tournament (schedule: 'swiss' there, not set now)" in output


def test_more_jobs_than_tables_are_capped_in_one_line(tmp_path: Path) -> None:
    """--jobs 999 once spawned 999 workers for one table (minutes, gigabytes): now one."""
    args = [*BOTS[:6], "--players", "3", "--deals", "1", "--jobs", "999"]
    done = subprocess.run(
        [sys.executable, "-m", "arena", "tournament", *args, "--out", str(tmp_path), "--quiet"],
        check=False,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr.strip() == (
        "--jobs 999: 1 table (or parts of one) can be played at once, so 1 job"
    )
    assert done.stdout.startswith("Done: 3/3 games")


@pytest.mark.parametrize(
    ("signum", "status", "words"),
    [
        (signal.SIGINT, 130, "Interrupted"),
        (signal.SIGTERM, 143, "Stopped by SIGTERM"),
        (signal.SIGHUP, 129, "Stopped by SIGHUP"),
    ],
)
def test_a_signal_to_the_whole_group_stops_like_ctrl_c(
    tmp_path: Path, signum: int, status: int, words: str
) -> None:
    """Ctrl-C in a terminal, a closed terminal, or a service manager's stop signal the
    whole process group (coordinator, workers, bots): one line, no traceback, resumable."""
    folder = tmp_path / "stopped"
    scratch = bot_tmpdir()
    c_bots = [arg for name in "abcd" for arg in ("--bot", f"{name}={C_BOT}")]
    args = [*c_bots, "--players", "2", "--deals", "100", "--jobs", "2", "--out", str(folder)]
    child = subprocess.Popen(
        [sys.executable, "-m", "arena", "tournament", *args, "--quiet"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        env={**os.environ, "TMPDIR": str(scratch)},
    )
    wait_for_games(folder, 50)
    os.killpg(child.pid, signum)
    _, stderr = child.communicate(timeout=60)
    assert child.returncode == status, stderr
    assert len(stderr.strip().splitlines()) == 1, stderr
    assert stderr.startswith(f"{words}: ") and "Resume with: arena tournament " in stderr
    assert list(scratch.iterdir()) == [], "no bot's scratch folder outlives the command"
    assert running_in(scratch) == [], "no bot outlives the command"
    scratch.rmdir()
    code, output = run_cli("tournament", *args, "--quiet")
    assert code == 0, output
    assert output.startswith("Done: 1200/1200 games")


def bot_tmpdir() -> Path:
    """A TMPDIR for a run's bots: like /tmp, open to the bots' own uids (pytest's are not)."""
    scratch = Path(tempfile.mkdtemp(prefix="test-scratch-"))
    scratch.chmod(0o1777)
    return scratch


def running_in(scratch: Path, *, settle_s: float = 2.0) -> list[str]:
    """Processes whose environment names a folder under ``scratch`` (bots: TMPDIR, HOME),
    each as ``PID: command line``, once ``settle_s`` has passed with some left.

    A process told to end may still be in the middle of it when the command
    that ended it returns (multiprocessing's resource tracker exits when it
    reads the end of its pipe); one still there after ``settle_s`` is left.
    """
    deadline = time.monotonic() + settle_s
    while True:
        found = []
        for environ in Path("/proc").glob("[0-9]*/environ"):
            try:
                if str(scratch).encode() in environ.read_bytes():
                    command = (environ.parent / "cmdline").read_bytes().replace(b"\0", b" ")
                    found.append(f"{environ.parent.name}: {command.decode(errors='replace')}")
            except OSError:  # gone, or not ours to read
                continue
        if not found or time.monotonic() > deadline:
            return found
        time.sleep(0.05)


def damage(folder: Path, table: str) -> None:
    """Overwrite the root page of ``table`` in the folder's results.sqlite with garbage."""
    path = folder / "results.sqlite"
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        size = db.execute("PRAGMA page_size").fetchone()[0]
        root = db.execute("SELECT rootpage FROM sqlite_master WHERE name = ?", (table,)).fetchone()
    with path.open("r+b") as file:
        file.seek((root[0] - 1) * size)
        file.write(b"\xde\xad\xbe\xef" * (size // 4))


def test_a_damaged_store_is_named_and_never_changed(tmp_path: Path) -> None:
    args = [*BOTS, "--players", "3", "--deals", "2", "--quiet"]
    for name in ("board", "games"):
        assert run_cli("tournament", *args, "--out", str(tmp_path / name))[0] == 0
    damaged = "is damaged (database disk image is malformed): nothing was changed"
    # The leaderboard checks the tables it reads (fast on any folder) ...
    damage(tmp_path / "board", "standings")
    code, output = run_cli("leaderboard", str(tmp_path / "board"))
    assert code == 1 and damaged in output and len(output.strip().splitlines()) == 1, output
    # ... a report and a resume check the whole file, and a resume changes nothing.
    damage(tmp_path / "games", "games")
    before = fingerprint(tmp_path / "games")
    for command in (["report", str(tmp_path / "games")],
                    ["tournament", *args, "--out", str(tmp_path / "games")]):  # fmt: skip
        code, output = run_cli(*command)
        assert code == 1 and damaged in output and len(output.strip().splitlines()) == 1, output
    assert fingerprint(tmp_path / "games") == before
    assert not (tmp_path / "games" / "report.html").exists()


def test_only_a_store_written_since_its_run_closed_it_is_checked_page_by_page(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SQLite's full check reads every page (9.1 s at a million games): a resume or a
    report of a file as the run that closed it left it checks the board tables only; a
    file written since (a mtime that moved), or one no run closed whole, every page."""
    checks: list[bool] = []
    real = Store.check

    def spy(store: Store, *, full: bool) -> None:
        checks.append(full)
        real(store, full=full)

    monkeypatch.setattr(Store, "check", spy)
    folder = tmp_path / "t"
    args = ["tournament", *BOTS, "--players", "3", "--deals", "2", "--quiet", "--out", str(folder)]
    assert run_cli(*args)[0] == 0 and checks == [], "a new store has nothing to check"
    assert untouched(folder)
    for command in (args, ["report", str(folder)]):
        checks.clear()
        assert run_cli(*command)[0] == 0 and checks == [False], command
    path = folder / "results.sqlite"
    later = path.stat().st_mtime_ns + 1_000_000
    os.utime(path, ns=(later, later))
    assert not untouched(folder)
    for command in (["report", str(folder)], args, args):
        checks.clear()
        assert run_cli(*command)[0] == 0 and checks == [True], command
        # The first two see the file written since; the resume marks it closed again,
        # so only a marker gone (a run killed) makes the third check every page.
        if command is args:
            (folder / CLOSED).unlink()


def test_a_signal_while_workers_wait_for_a_swiss_round_stops_cleanly(tmp_path: Path) -> None:
    """Swiss rounds of two tables keep a worker waiting for its next task, holding the pool's
    queue lock: a stop must not kill it there (its lock would hang the coordinator)."""
    c_bots = [arg for n in range(8) for arg in ("--bot", f"b{n}={C_BOT}")]
    args = [*c_bots, "--players", "4", "--deals", "1", "--schedule", "swiss", "--rounds", "3000",
            "--jobs", "2", "--quiet"]  # fmt: skip
    for signum, status in ((signal.SIGHUP, 129), (signal.SIGTERM, 143)):
        # A folder each, and rounds for about 30 s (all 400 took 4.7 s here): the second
        # run, resuming the first's folder, once finished before its signal.
        out = ["--out", str(tmp_path / f"swiss-{signum}")]
        child = subprocess.Popen(
            [sys.executable, "-m", "arena", "tournament", *args, *out],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            start_new_session=True,
        )
        wait_for_games(tmp_path / f"swiss-{signum}", 1)  # rounds under way
        os.killpg(child.pid, signum)
        try:
            _, stderr = child.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(child.pid, signal.SIGKILL)
            raise AssertionError("the stopped tournament hung") from None
        assert child.returncode == status, stderr
        assert len(stderr.strip().splitlines()) == 1, stderr


def test_a_league_cut_short_counts_against_its_whole_plan(tmp_path: Path) -> None:
    """A league schedules a round at a time; what people are told of a run cut short (the
    watch, the report, the resume line) is N of the rounds asked for, not of those
    scheduled so far ("547 of 552 games" of a 3,600-game plan)."""
    folder = tmp_path / "league"
    bots = [arg for name in "abcdef" for arg in ("--bot", f"{name}={C_BOT}")]
    common = [*bots, "--players", "3", "--schedule", "sampled", "--rounds", "40", "--deals", "2"]
    kill_9_during(common, folder, after=30)
    store = open_existing(folder)
    try:
        whole = 40 * 2 * 3 * 2  # rounds x tables x deal sets x seat rotations
        assert store.total() < whole, "killed before the last round was scheduled"
        assert store.planned() == whole
    finally:
        store.close()
    code, page = run_cli("report", str(folder), "-o", str(tmp_path / "r.html"))
    assert code == 0, page
    assert re.search(rf"\b\d+ of {whole} games played\b", (tmp_path / "r.html").read_text())
