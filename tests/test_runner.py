"""The bot runner with real processes: misbehaving bots fault the right way, leave nothing behind.

Every test runs real subprocess bots (tests/bots/misbehave.py) through the
referee. Each misbehaviour must give its seat the right fault kind, the game
must finish for the other seats, and no process carrying the test's marker
may survive.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
import uuid
from dataclasses import replace
from pathlib import Path

import pytest

from arena.bots.player import ProcessPlayer
from arena.bots.process import BotProcess
from arena.bots.spec import parse_bot
from arena.errors import FaultKind
from arena.game import Rules
from arena.players import RandomPlayer
from arena.protocol import Limits
from arena.referee import Player, play_game

HERE = Path(__file__).parent
MISBEHAVE = HERE / "bots" / "misbehave.py"
FAST = Limits(startup_ms=3000, move_ms=300, bank_ms=200)


def leftovers(marker: str) -> list[int]:
    """Pids of live processes whose command line carries ``marker``."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes()
            state = (entry / "stat").read_text().split(") ", 1)[1][0]
        except OSError:
            continue
        if marker.encode() in cmdline and state != "Z":
            found.append(int(entry.name))
    return found


def wait_for_no_leftovers(marker: str, timeout_s: float = 3.0) -> list[int]:
    end = time.monotonic() + timeout_s
    while (pids := leftovers(marker)) and time.monotonic() < end:
        time.sleep(0.05)
    return pids


def misbehaving(
    mode: str, marker: str, limits: Limits = FAST, tmp: Path | None = None
) -> ProcessPlayer:
    spec = parse_bot(f"{mode}={sys.executable} {MISBEHAVE} {mode} {marker}")
    return ProcessPlayer(spec, limits, log_dir=tmp)


@pytest.mark.parametrize(
    ("mode", "kind", "detail"),
    [
        ("hang", FaultKind.TIMEOUT, "did not answer in time"),
        ("ignoreterm", FaultKind.TIMEOUT, "did not answer in time"),
        ("crash", FaultKind.CRASH, "exited with status 3"),
        ("child", FaultKind.CRASH, "exited with status 3"),
        ("garbage", FaultKind.MALFORMED, "not JSON"),
        ("hugeline", FaultKind.MALFORMED, "longer than"),
        ("illegal", FaultKind.ILLEGAL, "is not legal"),
        ("wrongid", FaultKind.MALFORMED, "with id"),
        ("slowstart", FaultKind.TIMEOUT, "handshake failed"),
    ],
)
def test_misbehaving_bot_faults_and_the_game_goes_on(
    mode: str, kind: FaultKind, detail: str, tmp_path: Path
) -> None:
    marker = f"arena-test-{uuid.uuid4().hex}"
    limits = Limits(startup_ms=500, move_ms=300, bank_ms=200) if mode == "slowstart" else FAST
    bad = misbehaving(mode, marker, limits, tmp_path)
    others = [RandomPlayer(f"r{s}") for s in range(1, 4)]
    seats: list[Player] = [bad, *others]
    started = time.monotonic()
    try:
        result = play_game(seats, Rules(), seed=5, game_id="g1", limits=limits)
    finally:
        bad.close()
    assert time.monotonic() - started < 20
    assert set(result.faults) == {0}
    fault = result.faults[0]
    assert fault.kind is kind, fault
    assert detail in fault.detail
    assert result.placements[0] == 4, "a faulted seat is placed below every other"
    assert result.replay[-1]["type"] == "game_end"
    assert result.replay[-1]["faults"] == {"0": {"kind": kind.value, "detail": fault.detail}}
    fallbacks = [r for r in result.replay if r["type"] == "move" and r.get("fallback")]
    assert fallbacks and all(r["seat"] == 0 for r in fallbacks)
    assert wait_for_no_leftovers(marker) == [], f"{mode}: processes left behind"


def test_closed_stdout_is_a_timeout_or_crash_and_nothing_is_left() -> None:
    marker = f"arena-test-{uuid.uuid4().hex}"
    bad = misbehaving("closestdout", marker)
    try:
        result = play_game(
            [bad, RandomPlayer("r1")], Rules(players=2), seed=1, game_id="g", limits=FAST
        )
    finally:
        bad.close()
    assert result.faults[0].kind in (FaultKind.CRASH, FaultKind.TIMEOUT)
    assert wait_for_no_leftovers(marker) == []


def test_stderr_flood_is_capped_and_not_a_fault(tmp_path: Path) -> None:
    marker = f"arena-test-{uuid.uuid4().hex}"
    bot = misbehaving(
        "stderrflood", marker, Limits(startup_ms=3000, move_ms=2000, bank_ms=5000), tmp_path
    )
    try:
        result = play_game(
            [bot, RandomPlayer("r1"), RandomPlayer("r2")],
            Rules(players=3),
            seed=2,
            game_id="g",
            limits=bot.limits,
        )
    finally:
        status = bot.close()
    assert result.faults == {}
    assert status == 0
    log = tmp_path / "stderrflood.stderr.log"
    size = log.stat().st_size
    assert 1 << 20 <= size < (1 << 20) + 200, size
    assert log.read_bytes().endswith(b"[arena: stderr capped at 1048576 bytes]\n")


def test_time_over_move_ms_comes_from_the_bank() -> None:
    """A reply 400 ms late on a 300 ms move limit is fine with a 1 s bank, and costs the bank."""
    marker = f"arena-test-{uuid.uuid4().hex}"
    limits = Limits(startup_ms=3000, move_ms=300, bank_ms=1000)
    bot = misbehaving("lateonce", marker, limits)
    try:
        result = play_game(
            [bot, RandomPlayer("r1")], Rules(players=2), seed=4, game_id="g", limits=limits
        )
    finally:
        bot.close()
    assert result.faults == {}
    requests = [r for r in result.replay if r["type"] == "move" and r["seat"] == 0]
    assert requests[2]["ms"] >= 400
    assert wait_for_no_leftovers(marker) == []


def test_crashed_bot_is_restarted_for_its_next_game() -> None:
    marker = f"arena-test-{uuid.uuid4().hex}"
    bot = misbehaving("crash", marker)
    try:
        for game in range(2):
            result = play_game(
                [bot, RandomPlayer("r1")],
                Rules(players=2),
                seed=game,
                game_id=f"g{game}",
                limits=FAST,
            )
            assert result.faults[0].kind is FaultKind.CRASH
        assert bot.starts == 2
    finally:
        bot.close()
    assert wait_for_no_leftovers(marker) == []


def test_bot_that_cannot_start_faults_its_seat() -> None:
    """A program that disappears between checking and starting is a crash of its seat."""
    script = Path(os.environ.get("TMPDIR", "/tmp")) / f"gone-{uuid.uuid4().hex}.py"
    script.write_text("print('hi')\n")
    spec = parse_bot(f"gone={sys.executable} {script}")
    script.unlink()
    bot = ProcessPlayer(spec, FAST)
    result = play_game(
        [bot, RandomPlayer("r1")], Rules(players=2), seed=1, game_id="g", limits=FAST
    )
    assert result.faults[0].kind is FaultKind.CRASH
    assert "handshake failed" in result.faults[0].detail


def test_persistent_bot_plays_many_games_in_one_process() -> None:
    marker = f"arena-test-{uuid.uuid4().hex}"
    bot = misbehaving("polite", marker)
    try:
        for game in range(5):
            result = play_game(
                [bot, RandomPlayer("r1"), RandomPlayer("r2")],
                Rules(players=3),
                seed=game,
                game_id=f"g{game}",
                limits=FAST,
            )
            assert result.faults == {}
        assert bot.starts == 1
    finally:
        status = bot.close()
    assert status == 0, "a polite bot exits 0 after bye"
    assert wait_for_no_leftovers(marker) == []


def test_a_block_larger_than_the_pipe_is_written_whole() -> None:
    """Writes that the pipe takes in parts arrive whole and in order (no byte twice)."""
    echo = parse_bot(
        f'echo={sys.executable} -c "import sys; sys.stdout.write(sys.stdin.readline())"'
    )
    process = BotProcess(echo)
    process.start()
    try:
        line = b"x" * 300_000 + b"\n"  # several times a pipe's 64 KiB buffer
        process.send(line, time.monotonic() + 10)
        assert process.read_line(time.monotonic() + 10) == line[:-1]
    finally:
        process.stop()


def test_a_worker_keeps_at_most_its_live_bound_of_bot_processes(tmp_path: Path) -> None:
    """Ten real bots seated by a sampled schedule, at most three processes alive at once:
    the least recently used one is told bye (and exits) before another starts."""
    from arena.events.schedule import round_games  # noqa: PLC0415
    from arena.execute.base import Setup  # noqa: PLC0415
    from arena.execute.seats import Seats  # noqa: PLC0415
    from arena.tournament.schedule import GameIds, Sampled  # noqa: PLC0415

    marker = f"lru-{uuid.uuid4().hex}"
    specs = tuple(
        parse_bot(f"p{n}={sys.executable} {MISBEHAVE} plays-first-card {marker}") for n in range(10)
    )
    rules = Rules.from_dict({"players": 2})
    setup = Setup(specs, rules, FAST, {}, None, tmp_path)
    seats = Seats(setup, log_dir=tmp_path, sandbox=None, live=3)
    strategy = Sampled([s.name for s in specs], players=2, deals=1, seed=1, rounds=3)
    ids = GameIds("sampled", deals=1, deal_sets=0)
    most = 0
    ordinal = 0
    try:
        for number in (1, 2, 3):
            tables = strategy.next_round(number, None)
            assert tables is not None
            for game in round_games(
                tables, number=number, first_ordinal=ordinal, first_deal_set=ordinal, deals=1,
                seed=5, ids=ids,
            ):  # fmt: skip
                finished, _ = seats.play(game, {})
                assert not finished.faults
                ordinal += 1
                most = max(most, len(leftovers(marker)))
                assert len(seats.players) <= 3
    finally:
        seats.close()
    assert most <= 3
    assert seats.started >= 15, "every table of a round seats two bots not seen lately"
    assert wait_for_no_leftovers(marker) == []


def test_jobs_are_capped_by_tables_at_once_and_by_memory(monkeypatch: pytest.MonkeyPatch) -> None:
    from arena.bots.spec import BotSpec  # noqa: PLC0415
    from arena.execute import local  # noqa: PLC0415
    from arena.tournament.event import TournamentEvent  # noqa: PLC0415

    bots = tuple(BotSpec(f"b{n}", ("true",), "test") for n in range(40))
    league = TournamentEvent(
        bots=bots, players=4, deals=1, seed=0, rules=Rules(players=4), limits=Limits(),
        schedule="sampled", rounds=3,
    )  # fmt: skip

    def usable(event: TournamentEvent, jobs: int) -> tuple[int, str | None]:
        tables, table_games = event.open_tables()
        return local.usable_jobs(jobs, tables=tables, table_games=table_games, players=4)

    monkeypatch.setattr(local, "_available_mib", lambda: 100_000)
    assert usable(league, 8) == (8, None)
    assert usable(league, 50) == (  # two rounds at once: 20 tables
        20,
        "--jobs 50: 20 tables (or parts of one) can be played at once, so 20 jobs",
    )
    swiss = replace(league, schedule="swiss")  # round r+1 waits: one round at a time
    assert usable(swiss, 50)[0] == 10
    monkeypatch.setattr(local, "_available_mib", lambda: 500)  # 500 // (48 + 4 * 16) = 4
    assert usable(league, 8) == (4, "--jobs 8: 500 MiB of memory available hold 4 jobs")


def test_the_scratch_sweep_removes_only_folders_of_gone_makers_here(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from arena.bots import owner, process  # noqa: PLC0415

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    here = owner.place()
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()  # a pid no process has now
    folders = {
        "gone": f"arena-{gone.pid}.{here}-bot-x1",
        "alive": f"arena-{os.getpid()}.{here}-bot-x2",
        "elsewhere": f"arena-{gone.pid}.{'0' * 8 if here != '0' * 8 else '1' * 8}-bot-x3",
        "other": "arena-canary-x4",
    }
    for name in folders.values():
        (tmp_path / name).mkdir()
    assert process.sweep_scratch() == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        folders[key] for key in ("alive", "elsewhere", "other")
    )
