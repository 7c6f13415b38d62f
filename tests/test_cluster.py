"""Tournaments on a real Dask cluster: LocalClusters of 2 worker processes, real bots.

The same seed must give the leaderboard (and the replays, timings aside) of
the local executor; a worker killed with SIGKILL while it plays a batch must
cost no game and count none twice; a worker that cannot start a bot stops the
tournament before any game, with a one-line error naming both.
"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from distributed import Client, LocalCluster

import arena.execute
import arena.results.replays
from arena.bots.player import ProcessPlayer
from arena.bots.spec import BotSpec, parse_bot, parse_bots
from arena.events.field import Enter, FieldChange
from arena.events.run import Unfinished, open_store, play, run
from arena.events.schedule import ScheduledGame
from arena.execute import cluster as cluster_module
from arena.execute.base import Setup
from arena.execute.cluster import (
    BatchSizer,
    ClusterError,
    Origin,
    WorkerInfo,
    WorkerUnfit,
    _plan_cpus,
    pack_games,
    portable_hash,
    reap_idle,
    unpack_games,
)
from arena.game import Rules
from arena.protocol import Limits
from arena.results.store import Finished
from arena.tournament.event import TournamentEvent
from tests.system import E2E
from tests.test_events import Scripted, league
from tests.test_tournament import AFFINITY_BOT, BOTS, ROOT, leaderboard, logged_cpus, run_cli

pytestmark = E2E

COMMON = [*BOTS, "--players", "3", "--seed", "21", "--quiet"]


def replays(folder: Path) -> dict[str, list[dict[str, object]]]:
    """Every replay of a results folder, without its timing fields."""
    return {
        path.name: [
            {key: value for key, value in json.loads(line).items() if key != "ms"}
            for line in path.read_text().splitlines()
        ]
        for path in (folder / "replays").glob("*.jsonl")
    }


def done_games(database: Path) -> int:
    try:
        with sqlite3.connect(database) as db:
            return int(db.execute("SELECT count(*) FROM games WHERE status = 'done'").fetchone()[0])
    except sqlite3.Error:
        return 0


@pytest.fixture
def cluster() -> Iterator[tuple[LocalCluster, Client]]:
    """A LocalCluster of 2 worker processes (one thread each), as `dask worker` would run."""
    local = LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        dashboard_address=None,
        silence_logs=40,
    )
    client = Client(local)
    try:
        yield local, client
    finally:
        client.close()
        local.close()


def test_a_swiss_league_on_a_local_cluster_is_the_league_of_jobs_1(tmp_path: Path) -> None:
    """Swiss pairs from the standings: the same rounds, games and leaderboard on a cluster."""
    league = [*COMMON, "--bot", f"e={BOTS[1].split('=', 1)[1]}", "--schedule", "swiss",
              "--rounds", "5", "--deals", "1"]  # fmt: skip
    code, output = run_cli("tournament", *league, "--out", str(tmp_path / "one"))
    assert code == 0, output
    code, output = run_cli("tournament", *league, "--dask", "local:2", "--out", str(tmp_path / "d"))
    assert code == 0, output
    assert leaderboard(tmp_path / "d") == leaderboard(tmp_path / "one")
    assert replays(tmp_path / "d") == replays(tmp_path / "one")
    with (
        sqlite3.connect(tmp_path / "one" / "results.sqlite") as one,
        sqlite3.connect(tmp_path / "d" / "results.sqlite") as dask,
    ):
        query = "SELECT round, table_no, bots FROM tables ORDER BY round, table_no"
        assert dask.execute(query).fetchall() == one.execute(query).fetchall()


def test_a_local_cluster_gives_the_leaderboard_and_replays_of_jobs_2(tmp_path: Path) -> None:
    local, dask = tmp_path / "local", tmp_path / "dask"
    code, output = run_cli(
        "tournament", *COMMON, "--deals", "3", "--jobs", "2", "--out", str(local)
    )
    assert code == 0, output
    code, output = run_cli(
        "tournament", *COMMON, "--deals", "3", "--dask", "local:2", "--out", str(dask)
    )
    assert code == 0, output
    assert output.startswith("Done: 36/36 games (36 played now"), output
    assert leaderboard(dask) == leaderboard(local)
    assert replays(dask) == replays(local)
    assert len(replays(dask)) == 36
    assert sorted(p.name for p in (dask / "logs").iterdir()) == [
        f"{bot}.stderr.log" for bot in ("a", "b", "d", "py")
    ], "workers that share the results folder write the bot logs there"
    assert not (dask / ".arena-run").exists()


def test_a_killed_worker_costs_no_game_and_counts_none_twice(
    tmp_path: Path, cluster: tuple[LocalCluster, Client]
) -> None:
    _, client = cluster
    common = [*COMMON, "--deals", "60"]
    code, output = run_cli("tournament", *common, "--jobs", "2", "--out", str(tmp_path / "whole"))
    assert code == 0, output
    folder = tmp_path / "killed"
    address = str(client.scheduler_info()["address"])
    child = subprocess.Popen(
        [sys.executable, "-m", "arena", "tournament", *common, "--dask", address,
         "--out", str(folder)],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip
    pids: dict[str, int] = client.run(os.getpid)
    deadline = time.monotonic() + 60
    victim = None
    while victim is None and time.monotonic() < deadline and child.poll() is None:
        time.sleep(0.05)
        if done_games(folder / "results.sqlite") < 100:
            continue
        busy = client.processing()
        victim = next(
            (w for w, keys in busy.items() if any(str(k).startswith("arena-batch") for k in keys)),
            None,
        )
    assert victim is not None, "no batch was running to be cut short"
    before = done_games(folder / "results.sqlite")
    os.kill(pids[victim], signal.SIGKILL)
    out, _ = child.communicate(timeout=120)
    assert child.returncode == 0, out
    assert before < 720, "the kill came after the last game"
    assert "Done: 720/720 games" in out, out
    with sqlite3.connect(folder / "results.sqlite") as db:
        assert db.execute("SELECT count(*) FROM games WHERE status = 'done'").fetchone()[0] == 720
        assert db.execute("SELECT count(*) FROM ratings").fetchone()[0] == 720 * 3
    assert len(list((folder / "replays").glob("*.jsonl"))) == 720
    assert not list((folder / "replays").glob(".*"))
    assert leaderboard(folder) == leaderboard(tmp_path / "whole")


def test_a_run_cut_short_resumes_on_either_executor(tmp_path: Path) -> None:
    common = [*COMMON, "--deals", "20"]
    code, output = run_cli("tournament", *common, "--jobs", "2", "--out", str(tmp_path / "whole"))
    assert code == 0, output
    folder = tmp_path / "cut"
    child = subprocess.Popen(
        [sys.executable, "-m", "arena", "tournament", *common, "--dask", "local:2",
         "--out", str(folder)],
        start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and done_games(folder / "results.sqlite") < 30:
        time.sleep(0.05)
    os.killpg(child.pid, signal.SIGKILL)  # the coordinator and its LocalCluster
    child.wait()
    cut = done_games(folder / "results.sqlite")
    assert 30 <= cut < 240, f"the kill came at {cut} games"
    code, output = run_cli("tournament", *common, "--jobs", "2", "--out", str(folder))
    assert code == 0, output
    assert output.startswith(f"Done: 240/240 games ({240 - cut} played now"), output
    assert leaderboard(folder) == leaderboard(tmp_path / "whole")


def test_a_bot_a_worker_cannot_start_stops_the_tournament_before_any_game(
    tmp_path: Path,
) -> None:
    # The broken bot starts once, where the coordinator checks the field, then sleeps 30 s
    # before its hello (as a bot a worker's machine cannot run); 3 s to answer is plenty for
    # the others (a Python bot among them) on a loaded machine (300 ms was not).
    once = tmp_path / "started"
    broken = f"broken=python3 {ROOT / 'tests/bots/misbehave.py'} startsonce {once}"
    code, output = run_cli(
        "tournament", *BOTS, "--bot", broken, "--players", "3", "--startup-ms", "3000",
        "--dask", "local:2", "--out", str(tmp_path / "out"), "--quiet",
        "--no-sandbox",  # the bot writes its marker
    )  # fmt: skip
    assert code == 1, output
    lines = output.strip().splitlines()
    assert len(lines) == 1, output
    assert "Error: worker tcp://127.0.0.1:" in lines[0]
    assert "cannot start bot 'broken': handshake failed" in lines[0]
    assert not (tmp_path / "out").exists(), "nothing is written before the check passes"


@pytest.mark.parametrize(
    ("address", "message"),
    [
        ("local:0", "--dask local:N takes a number of workers >= 1, not '0'"),
        ("local:two", "--dask local:N takes a number of workers >= 1, not 'two'"),
        ("tcp://127.0.0.1:9", "cannot reach the Dask scheduler at tcp://127.0.0.1:9"),
    ],
)
def test_a_bad_cluster_address_is_one_line(tmp_path: Path, address: str, message: str) -> None:
    code, output = run_cli("tournament", *COMMON, "--dask", address, "--out", str(tmp_path / "out"))
    assert code == 1, output
    assert len(output.strip().splitlines()) == 1, output
    assert message in output


def test_without_dask_the_flag_says_how_to_install_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed now fails
    monkeypatch.delitem(sys.modules, "arena.execute.cluster")
    monkeypatch.delattr(arena.execute, "cluster")
    code, output = run_cli("tournament", *COMMON, "--dask", "local:2", "--out", str(tmp_path))
    assert code == 1, output
    assert output.strip() == (
        "Error: --dask needs Dask distributed, an optional extra: pip install 'arena[dask]' "
        "(in a checkout of arena: pip install '.[dask]')"
    )


def test_jobs_and_dask_exclude_each_other(tmp_path: Path) -> None:
    code, output = run_cli(
        "tournament", *COMMON, "--dask", "local:2", "--jobs", "2", "--out", str(tmp_path)
    )
    assert code == 2, output
    assert "--jobs and --dask exclude each other" in output


def info(address: str, machine: str, threads: int, cpus: tuple[int, ...]) -> WorkerInfo:
    return WorkerInfo(address=address, machine=machine, nthreads=threads, cpus=cpus, layers=())


def test_each_worker_thread_gets_a_cpu_of_its_own_where_its_host_has_enough() -> None:
    plan = _plan_cpus(
        [
            info("tcp://a:2", "a", 1, (0, 1, 2, 3)),
            info("tcp://a:1", "a", 2, (0, 1, 2, 3)),
            info("tcp://b:1", "b", 3, (0, 1)),  # more threads than CPUs: left to the OS
            info("tcp://c:1", "c", 1, (5,)),  # one CPU: nothing to choose
        ]
    )
    assert plan == {"tcp://a:1": (0, 1), "tcp://a:2": (2,)}


def finished(ms: float, starts: int = 0) -> Finished:
    return Finished(0, (1, 2), {}, 10, ms, "replays/x.jsonl", starts)


def test_batches_hold_a_few_seconds_of_games_and_shrink_at_the_end() -> None:
    sizer = BatchSizer(2.0)
    assert sizer.size(1000, 2) == 2, "the first tasks measure: a cold game, then a warm one"
    assert not sizer.paced
    sizer.observe([finished(200.0, starts=4)])  # a bot's start makes the first game slow
    assert sizer.size(1000, 2) == 2, "a game that started bots does not set the pace"
    assert sizer.size(1, 2) == 1, "a probe takes no more games than are left"
    sizer.observe([finished(10.0)])
    assert sizer.paced
    assert sizer.size(1000, 2) == 200, "2 s at 10 ms a game, from the first warm game"
    for _ in range(8):
        sizer.observe([finished(20.0, starts=1)] + [finished(20.0)] * 49)
    assert 100 <= sizer.size(1000, 2) <= 101, "the pace follows the latest batches"
    assert sizer.size(100, 2) == 50, "the last games are spread over the threads"
    assert sizer.size(30, 2) == 15
    assert sizer.size(1, 2) == 12, "down to an eighth of a full batch, not to one game"


def test_bots_that_start_every_game_set_the_pace_after_a_few_batches() -> None:
    sizer = BatchSizer(2.0)
    for _ in range(3):
        sizer.observe([finished(100.0, starts=4)])
        assert sizer.size(1000, 2) == 2
    sizer.observe([finished(100.0, starts=4)])
    assert sizer.size(1000, 2) == 20


def test_a_batch_travels_as_one_record_and_comes_back_the_same() -> None:
    games = [
        ScheduledGame(7, "g7", 1, 2, 99, ("a", "b", "c"), round=3, table=1),
        ScheduledGame(8, "g8", 1, 3, 100, ("b", "c", "a")),
    ]
    record = pack_games(games)
    assert isinstance(record, bytes)
    assert unpack_games(record) == games
    assert all(type(game) is ScheduledGame for game in unpack_games(record))


def test_each_dask_worker_and_its_bots_run_on_a_cpu_of_their_own(tmp_path: Path) -> None:
    everything = sorted(os.sched_getaffinity(0))
    bots = [arg for n in range(3) for arg in ("--bot", f"x{n}={AFFINITY_BOT}")]
    common = [*bots, "--players", "3", "--deals", "4", "--dask", "local:2", "--quiet"]
    code, output = run_cli("tournament", *common, "--out", str(tmp_path / "pinned"))
    assert code == 0, output
    pinned = logged_cpus(tmp_path / "pinned")
    assert len(pinned) >= 3
    if len(everything) >= 2:
        assert all(len(cpus) == 1 for cpus in pinned), pinned
        assert {cpus[0] for cpus in pinned} <= set(everything[:2])
    else:
        assert all(cpus == everything for cpus in pinned)
    code, output = run_cli("tournament", *common, "--no-pin", "--out", str(tmp_path / "free"))
    assert code == 0, output
    assert all(cpus == everything for cpus in logged_cpus(tmp_path / "free"))


def descendants() -> int:
    """How many live processes descend from this one (on a worker: its bots)."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if fields[0] != "Z":
            parents[int(entry.name)] = int(fields[1])
    found, frontier = 0, {os.getpid()}
    while frontier:
        frontier = {pid for pid, parent in parents.items() if parent in frontier}
        found += len(frontier)
    return found


def bot_processes(client: Client) -> dict[str, int]:
    """How many processes each worker has started and not yet reaped (its bots)."""
    return dict(client.run(descendants))


def test_ctrl_c_on_a_cluster_tells_every_bot_bye_and_resumes(
    tmp_path: Path, cluster: tuple[LocalCluster, Client]
) -> None:
    _, client = cluster
    folder = tmp_path / "interrupted"
    args = [*COMMON, "--deals", "40", "--dask", str(client.scheduler_info()["address"])]
    child = subprocess.Popen(
        [sys.executable, "-m", "arena", "tournament", *args, "--out", str(folder)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and done_games(folder / "results.sqlite") < 30:
        time.sleep(0.05)
    assert any(bot_processes(client).values()), "the workers run the bots"
    child.send_signal(signal.SIGINT)
    _, stderr = child.communicate(timeout=60)
    assert child.returncode == 130, stderr
    last = stderr.strip().splitlines()[-1]
    assert last.startswith("Interrupted: ") and "Resume with: arena tournament " in last
    deadline = time.monotonic() + 10  # a batch that was running closes its bots when it ends
    while any(bot_processes(client).values()) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not any(bot_processes(client).values()), "no bot is left running on a worker"
    code, output = run_cli("tournament", *args, "--out", str(folder))
    assert code == 0, output
    assert "Done: 480/480 games" in output


def test_a_worker_closes_the_bots_of_a_tournament_left_idle(tmp_path: Path) -> None:
    spec = parse_bot(f"c={ROOT / 'sample_bots/c/random_bot'}")
    event = TournamentEvent(
        bots=(spec,), players=2, deals=1, seed=0, rules=Rules(), limits=Limits()
    )
    setup = Setup.of(event, None, tmp_path)
    origin = Origin("idle-test", arena.__version__, sys.executable, ())
    run = cluster_module._Run(origin, setup, "tcp://test:1")
    seats, _ = run.enter()
    player = seats.player("c", {})
    assert isinstance(player, ProcessPlayer)
    player.launch()
    run.leave()
    cluster_module._RUNS["idle-test"] = run
    assert reap_idle(time.monotonic()) == [], "a tournament in use is kept"
    assert reap_idle(time.monotonic() + cluster_module.IDLE_S + 1) == ["idle-test"]
    assert player.process is None, "its bot was told bye"
    assert "idle-test" not in cluster_module._RUNS


def unfit_reason(spec: BotSpec, origin_python: str, hashes: dict[str, str]) -> str:
    """What a worker says of ``spec`` when the coordinator reports ``hashes``."""
    event = TournamentEvent(
        bots=(spec,), players=2, deals=1, seed=0, rules=Rules(), limits=Limits()
    )
    origin = Origin("check-test", arena.__version__, origin_python, tuple(hashes.items()))
    run = cluster_module._Run(origin, Setup.of(event, None, Path("/nonexistent")), "tcp://w:1")
    try:
        run.check_bots()
    except WorkerUnfit as error:
        return str(error)
    return "fit"


def test_a_worker_checks_each_bot_is_the_coordinators() -> None:
    bot = ROOT / "arena/samples/random_bot.py"
    # The coordinator's Python lives elsewhere: the worker runs the bot with its own.
    theirs = "/opt/coordinator/bin/python3"
    spec = BotSpec(name="py", argv=(theirs, str(bot)), source="py")
    mine = BotSpec(name="py", argv=(sys.executable, str(bot)), source="py")
    assert portable_hash(spec, theirs) == portable_hash(mine, sys.executable)
    assert unfit_reason(spec, theirs, {"py": portable_hash(spec, theirs)}) == "fit"
    assert unfit_reason(spec, theirs, {"py": "0" * 32}) == (
        "worker tcp://w:1 cannot run bot 'py': its files differ from the coordinator's "
        "(bots must be at the same path, with the same files, on every worker)"
    )
    gone = BotSpec(name="gone", argv=(theirs, "/nonexistent/bot.py"), source="gone")
    assert unfit_reason(gone, theirs, {"gone": "0" * 32}).startswith(
        "worker tcp://w:1 cannot run bot 'gone': /nonexistent/bot.py does not exist here"
    )


def test_a_config_file_can_name_the_cluster(tmp_path: Path) -> None:
    config = tmp_path / "club.toml"
    bots = "\n".join(
        f'[[bots]]\nname = "{name}"\ncommand = "{ROOT / "sample_bots/c/random_bot"}"'
        for name in "abc"
    )
    config.write_text(f'players = 3\ndeals = 2\ndask = "local:2"\n{bots}\n')
    code, output = run_cli("tournament", str(config), "--out", str(tmp_path / "out"))
    assert code == 0, output
    assert "Dask cluster tcp://127.0.0.1:" in output and ": 2 workers, 2 threads;" in output
    assert "Done: 6/6 games" in output
    code, output = run_cli(
        "tournament", str(config), "--jobs", "1", "--out", str(tmp_path / "here")
    )
    assert code == 0, output
    assert "Dask" not in output, "--jobs on the command line plays here"
    assert "Done: 6/6 games" in output


def on_thread_workers(
    bots: list[str],
    players: int,
    deals: int,
    seed: int,
    folder: Path,
    *,
    workers: int,
    notice: Callable[[str], None] = lambda text: None,
) -> Any:
    """A tournament of ``bots`` on a local cluster whose workers are threads of this
    process (so that a test can make their view of the folder fail): its outcome."""
    local = LocalCluster(n_workers=workers, threads_per_worker=1, processes=False,
                         dashboard_address=None, silence_logs=40)  # fmt: skip
    executor = cluster_module.DaskExecutor(Client(local), local, notice=notice)
    try:
        event = TournamentEvent(
            bots=tuple(parse_bots(bots)),
            players=players,
            deals=deals,
            seed=seed,
            rules=Rules(players=players),
            limits=Limits(),
        )
        store = open_store(event, folder, None)
        outcome = play(event, store, sandbox=None, executor=executor)
        store.close()
    finally:
        executor.close()
    return outcome


def test_workers_that_cannot_see_the_results_folder_send_the_replays_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A worker that shares the folder writes its replays there (as local workers do); one
    that cannot see it (its logs elsewhere) sends them back, and the coordinator writes
    them: the same replays and leaderboard either way. The workers here are threads of this
    process, so that the folder check can be made to fail."""
    local_folder = tmp_path / "local"
    code, output = run_cli(
        "tournament",
        *COMMON,
        "--deals",
        "2",
        "--jobs",
        "2",
        "--no-sandbox",
        "--out",
        str(local_folder),
    )
    assert code == 0, output
    elsewhere = tmp_path / "worker-logs"
    monkeypatch.setattr(cluster_module, "_log_dir", lambda folder, token: elsewhere)
    written: list[bool] = []  # by the coordinator's thread (the workers are threads here)
    save = arena.results.replays.save_replay

    def saved(folder: Path, finished: Finished, lines: list[bytes]) -> None:
        written.append(threading.current_thread() is threading.main_thread())
        save(folder, finished, lines)

    monkeypatch.setattr(cluster_module, "save_replay", saved)
    notices: list[str] = []
    folder = tmp_path / "dask"
    outcome = on_thread_workers(BOTS[1::2], 3, 2, 21, folder, workers=2, notice=notices.append)
    assert outcome.played == 24
    assert written == [True] * 24, "the coordinator wrote every replay the workers sent back"
    assert any("cannot see the results folder" in notice for notice in notices), notices
    assert replays(folder) == replays(local_folder)
    assert leaderboard(folder) == leaderboard(local_folder)


def test_a_workers_games_bring_their_stderr_lines_back_with_their_replays(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A Dask worker that cannot see the results folder sends each replay back, and with it
    the lines its bots wrote while deciding each move (they travel in the replay)."""
    monkeypatch.setattr(cluster_module, "_log_dir", lambda folder, token: tmp_path / "elsewhere")
    thinking = f"thinking={sys.executable} {ROOT / 'tests/bots/thinking.py'} stderr"
    folder = tmp_path / "dask"
    outcome = on_thread_workers([thinking, BOTS[1]], 2, 1, 3, folder, workers=1)
    assert outcome.played == 2
    for path in sorted((folder / "replays").glob("*.jsonl")):
        records = [json.loads(line) for line in path.read_text().splitlines()]
        header = records[0]
        seat = next(p["seat"] for p in header["players"] if p["name"] == "thinking")
        logs = [r["log"] for r in records if r["type"] == "move" and r["seat"] == seat]
        assert logs and all(log[-1].startswith("</script><b>") for log in logs), path


def test_a_bot_entering_a_league_on_a_cluster_stops_it_in_one_line(tmp_path: Path) -> None:
    """A cluster's workers check their bots before the first game, so an entry cannot join
    there: the run stops, keeps what it played, and says to play on this machine."""
    c_bot = str(ROOT / "sample_bots/c/random_bot")
    specs = {name: parse_bot(f"{name}={c_bot}") for name in "abcde"}
    event = replace(league("abcd", 4), bots=tuple(specs[name] for name in "abcd"))
    changes: dict[int, list[FieldChange]] = {2: [Enter(specs["e"])]}
    with pytest.raises(Unfinished) as stopped:
        run(event, tmp_path, sandbox=None, dask="local:1", field=Scripted(changes))
    assert isinstance(stopped.value.error, ClusterError)
    assert str(stopped.value).startswith("a bot entered the field while the games play on a ")
    assert "play such a league on this machine (jobs) (" in str(stopped.value)
    assert stopped.value.spelled(lambda setting: f"--{setting}").count("(--jobs)") == 1


def _flat(tree: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    flat: dict[str, Any] = {}
    for key, value in tree.items():
        if isinstance(value, dict):
            flat.update(_flat(value, f"{prefix}{key}."))
        else:
            flat[f"{prefix}{key}"] = value
    return flat


def test_the_quiet_dask_settings_reach_a_local_clusters_workers_and_the_deploy_file() -> None:
    import dask.config  # noqa: PLC0415
    import yaml  # noqa: PLC0415

    shipped = _flat(yaml.safe_load((ROOT / "deploy" / "dask.yaml").read_text()))
    assert shipped == cluster_module.QUIET, "deploy/dask.yaml says what local:N uses"
    executor = cluster_module.connect("local:1")
    try:
        seen = executor.client.run(lambda: {key: dask.config.get(key) for key in shipped})
        assert list(seen.values()) == [shipped], "each worker process runs with them"
        assert executor.local is not None
        scheduler = executor.local.scheduler
        assert scheduler is not None
        assert scheduler.periodic_callbacks["monitor"].callback_time == 5000
    finally:
        executor.close()
    assert dask.config.get("distributed.worker.profile.enabled") is True, "only while starting"
