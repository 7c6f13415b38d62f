"""Fields of any size: a thousand real bots, and how fast each schedule's leaderboard converges.

``scale`` (real processes): the start cost of one sandboxed C bot under each
sandbox layer, added one at a time; then ``arena tournament`` with N C random
bots (default 1,000), ``--schedule sampled --rounds 3 --players 4 --deals 1
--jobs 2`` (3,000 games, 12 per bot), run as a user runs it. A sampler reads
/proc every 0.1 s for the coordinator's peak RSS (VmHWM) and the bot
processes alive at once; the tournament itself reports its bot starts. The
same number of games by a 4-bot tournament in the same run gives the pace
without starts: the distance between the two should be the starts' cost.

``convergence``: fields of known strength (the greedy sample bot playing a
random legal move with probability eps), 16 bots (8 strengths x 2) and 64
(8 x 8). For each schedule that fits, and each seed, the games played until
Kendall's tau-b between the leaderboard (after each round, or each block of
a round-robin) and the true order reaches 0.9 and stays there; median and
spread over the seeds. The players are in-process (real processes would
take hours on 2 CPUs) but everything else is arena's own: the schedule, the
feed, the store and the ratings, through :func:`arena.events.run.run`.
It also measures how often the stop rule's top K is the true top K, on 8
bots of the 8 strengths, and first shows that the eps values order the
bots' strength (their mean places in mixed tables).

    .venv/bin/python benchmarks/field.py scale [--bots 1000] [--rounds 3]
    .venv/bin/python benchmarks/field.py convergence [--seeds 10] [--jobs 2]
    .venv/bin/python benchmarks/field.py agree [--schedule sampled] [--games 1920]
    .venv/bin/python benchmarks/field.py repeats
    .venv/bin/python benchmarks/field.py board [--bots 1000] [--rounds 100]
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import os
import platform
import re
import resource
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

from arena.bots.player import ProcessPlayer
from arena.bots.sandbox import Capabilities, become_subreaper, detect
from arena.bots.spec import parse_bot
from arena.protocol import Limits

ROOT = Path(__file__).resolve().parent.parent
C_BOT = ROOT / "sample_bots/c/random_bot"
ARENA = Path(sys.executable).with_name("arena")
JSON = dict[str, Any]


# ---------------------------------------------------------------------- scale


def layer_steps(full: Capabilities) -> list[tuple[str, Capabilities | None]]:
    """The sandbox built up one layer at a time, up to everything ``full`` has."""
    base = Capabilities(
        root=full.root,
        raise_limits=full.raise_limits,
        drop_capabilities=full.drop_capabilities,
        subreaper=full.subreaper,
    )
    steps: list[tuple[str, Capabilities | None]] = [
        ("none", None),
        ("trampoline: rlimits, no-new-privs, no-capabilities", base),
    ]
    for name, change in (
        ("+ separate uid", {"own_uids": full.own_uids, "uid_python": full.uid_python}),
        ("+ cgroups", {"cgroups": full.cgroups}),
        ("+ bubblewrap", {"bwrap": full.bwrap, "unshare": full.unshare}),
        ("+ landlock", {"landlock_abi": full.landlock_abi}),
        ("+ seccomp", {"seccomp": full.seccomp}),
    ):
        if any(change.values()):
            base = replace(base, **change)
            steps.append((name, base))
    return steps


def start_cost(sandbox: Capabilities | None, times: int) -> JSON:
    """Mean wall and CPU milliseconds (ours and the bots') to start a C bot, hello, and stop it."""
    spec = parse_bot(f"c={C_BOT}")
    if sandbox is not None and sandbox.subreaper:
        become_subreaper()  # a bot's orphans are reaped here, and their CPU counted here

    def cpu() -> float:
        own = resource.getrusage(resource.RUSAGE_SELF)
        children = resource.getrusage(resource.RUSAGE_CHILDREN)
        return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime

    wall, used = time.perf_counter(), cpu()
    for _ in range(times):
        player = ProcessPlayer(spec, Limits(), sandbox=sandbox)
        player.launch()
        player.close()
    return {
        "wall_ms": round((time.perf_counter() - wall) / times * 1000, 1),
        "cpu_ms": round((cpu() - used) / times * 1000, 1),
    }


class Sampler(threading.Thread):
    """Every ``period_s``: the coordinator's peak RSS and the bot processes alive."""

    def __init__(self, pid: int, marker: str, period_s: float = 0.1) -> None:
        super().__init__(daemon=True)
        self.pid, self.marker, self.period_s = pid, marker.encode(), period_s
        self.peak_kib = 0
        self.most_bots = 0
        self.done = threading.Event()

    def run(self) -> None:
        while not self.done.is_set():
            try:
                status = Path(f"/proc/{self.pid}/status").read_text()
                found = re.search(r"VmHWM:\s+(\d+)", status)
                if found:
                    self.peak_kib = max(self.peak_kib, int(found.group(1)))
            except OSError:
                pass
            bots = 0
            for entry in os.scandir("/proc"):
                if entry.name.isdigit():
                    try:
                        with open(f"/proc/{entry.name}/cmdline", "rb") as cmdline:
                            if cmdline.read().startswith(self.marker):
                                bots += 1
                    except OSError:
                        continue
            self.most_bots = max(self.most_bots, bots)
            self.done.wait(self.period_s)


def tournament(
    bots: int, rounds: int, deals: int, schedule: str, folder: Path, *, idle: bool = False
) -> JSON:
    """Run ``arena tournament`` on ``bots`` C bots; its figures and the sampler's.

    ``idle``: also the share of the two workers' time not spent in a game
    (1 - the games' summed durations / (2 x the run's span, first game's
    start to last game's end)): Swiss against sampled shows what its round
    barrier costs.
    """
    command = [str(ARENA), "tournament", "--players", "4", "--deals", str(deals),
               "--jobs", "2", "--seed", "1", "--out", str(folder), "--quiet",
               "--max-games", "9999999"]  # fmt: skip
    if schedule != "round-robin":
        command += ["--schedule", schedule, "--rounds", str(rounds)]
    for n in range(bots):
        command += ["--bot", f"b{n:04d}={C_BOT}"]
    start = time.perf_counter()
    child = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
    sampler = Sampler(child.pid, str(C_BOT))
    sampler.start()
    output, _ = child.communicate()
    seconds = time.perf_counter() - start
    sampler.done.set()
    sampler.join()
    if child.returncode != 0:
        raise SystemExit(f"arena tournament failed: {output}")
    found = re.search(
        r"Done: (\d+)/\d+ games .* in ([\d.]+) s, ([\d.]+) games/s, (\d+) bot", output
    )
    if found is None:
        raise SystemExit(f"unexpected output: {output}")
    games, played_s, rate, starts = found.groups()
    extra: JSON = {}
    if idle:
        import sqlite3  # noqa: PLC0415

        with sqlite3.connect(folder / "results.sqlite") as db:
            busy_ms, first, last, first_ms = db.execute(
                "SELECT sum(duration_ms), min(finished_at), max(finished_at), "
                "(SELECT duration_ms FROM games WHERE status = 'done' ORDER BY finished_at "
                "LIMIT 1) FROM games WHERE status = 'done'"
            ).fetchone()
        span_s = last - first + first_ms / 1000
        extra = {"idle_share": round(1 - busy_ms / 1000 / (2 * span_s), 3)}
    return {
        "bots": bots,
        "schedule": schedule,
        "games": int(games),
        "wall_s": round(seconds, 1),
        "play_s": float(played_s),
        "games_per_s": float(rate),
        "bot_starts": int(starts),
        "coordinator_peak_mib": round(sampler.peak_kib / 1024, 1),
        "most_bot_processes_seen": sampler.most_bots,
        **extra,
    }


def scale(args: argparse.Namespace) -> None:
    """The scale figures (see the module's docstring)."""
    subprocess.run(["make", "-s", "-C", str(ROOT / "sample_bots/c")], check=True)
    full = detect()
    costs = [
        {"layers": name, **start_cost(sandbox, args.starts)} for name, sandbox in layer_steps(full)
    ]
    # Two workers start bots at once in the tournament: the same measure, two processes at once.
    with multiprocessing.get_context("spawn").Pool(2) as pool:
        pair = pool.starmap(start_cost, [(full, args.starts)] * 2)
    costs.append(
        {
            "layers": "everything, two processes starting bots at once",
            "wall_ms": round(sum(c["wall_ms"] for c in pair) / 2, 1),
            "cpu_ms": round(sum(c["cpu_ms"] for c in pair) / 2, 1),
        }
    )
    with tempfile.TemporaryDirectory(prefix="arena-field-") as folder:
        big = tournament(args.bots, args.rounds, 1, "sampled", Path(folder) / "big")
        per_bot_tables = args.rounds
        small = tournament(4, 0, big["games"] // 4, "round-robin", Path(folder) / "small")
        idle = {
            schedule: tournament(
                args.idle_bots, args.idle_rounds, 1, schedule, Path(folder) / schedule, idle=True
            )
            for schedule in ("sampled", "swiss")
        }
    # Each start holds its worker for its wall time (the bot's sandbox is set up meanwhile),
    # two workers starting at once, as measured: that is what the starts add to the run.
    sandboxed = costs[-1]["wall_ms"]
    expected_s = big["games"] / small["games_per_s"] + big["bot_starts"] * sandboxed / 1000 / 2
    print(
        json.dumps(
            {
                "benchmark": "field_scale",
                "python": platform.python_version(),
                "cpus": multiprocessing.cpu_count(),
                "sandbox": list(full.layers),
                "start_cost": costs,
                "field": big,
                "four_bots": small,
                "ratio": round(big["games_per_s"] / small["games_per_s"], 3),
                "expected_play_s": round(expected_s, 1),
                "idle": idle,
            }
        )
    )
    for cost in costs:
        print(f"start + hello + stop, {cost['layers']}: {cost['cpu_ms']} ms CPU, "
              f"{cost['wall_ms']} ms wall")  # fmt: skip
    print(
        f"{big['bots']:,} C bots, sampled, {per_bot_tables} rounds, --jobs 2: {big['games']:,} "
        f"games in {big['play_s']} s ({big['games_per_s']} games/s), {big['bot_starts']:,} bot "
        f"starts, coordinator peak RSS {big['coordinator_peak_mib']} MiB, at most "
        f"{big['most_bot_processes_seen']} bot processes seen at once"
    )
    print(
        f"4 C bots, the same {small['games']:,} games: {small['games_per_s']} games/s "
        f"(ratio {big['games_per_s'] / small['games_per_s']:.3f}); the 4-bot pace plus "
        f"{big['bot_starts']:,} starts at {sandboxed} ms each, two at once, predicts "
        f"{expected_s:.1f} s against {big['play_s']} s measured"
    )
    for schedule, figures in idle.items():
        print(
            f"{figures['bots']} C bots, {schedule}, {args.idle_rounds} rounds, --jobs 2: "
            f"{figures['games']:,} games at {figures['games_per_s']} games/s; workers idle "
            f"{100 * figures['idle_share']:.1f}% of the time"
        )


# ---------------------------------------------------------------------- convergence

#: The strengths: the share of random moves of each level (0: the greedy bot, 1: random).
EPS = tuple(round(level / 7, 3) for level in range(8))
#: Games a run may play at most (a 16-bot round-robin at 4 seats, 1 deal: 7,280).
BUDGET = {16: 7280, 64: 12800}
#: The stop rule measured (top K, confidence) on the 8 strengths, one bot each, and its budget.
STOP_RULE = (2, 0.9)
STOP_BUDGET = 2400
#: Kendall's tau-b the leaderboard must reach and keep: the issue's 0.9, and lower marks.
TARGETS = (0.9, 0.8, 0.7)


def settled(curve: list[tuple[int, float]], target: float) -> int | None:
    """Games played at the first check from which tau-b never falls below ``target``."""
    for index, (played, _) in enumerate(curve):
        if all(tau >= target for _, tau in curve[index:]):
            return played
    return None


def greedy_module() -> Any:
    """The greedy sample bot's module, imported from its file as the arena would find it."""
    import importlib.util  # noqa: PLC0415

    folder = ROOT / "arena/samples"
    sys.path.insert(0, str(folder))
    try:
        spec = importlib.util.spec_from_file_location("sample_greedy", folder / "greedy_bot.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(folder))
    return module


def noisy_player(name: str, eps: float, module: Any) -> Any:
    """An in-process greedy player with the strength knob at ``eps``."""
    from arena.players import ScriptedPlayer  # noqa: PLC0415

    noisy = module.Noisy(eps)

    class Noisy(ScriptedPlayer):
        def start_game(self, message: JSON, line: bytes) -> None:
            self.received.clear()  # flat memory across games
            noisy.start(message)
            super().start_game(message, line)

    return Noisy(name, lambda request: noisy.choose(request["state"], request["legal"], request))


class InProcess:
    """An executor playing the feed's games one at a time with in-process players."""

    def __init__(self, players: dict[str, Any], rules: Any, limits: Limits) -> None:
        self.players, self.rules, self.limits = players, rules, limits

    def play(self, setup: Any, games: Any, disabled: Any) -> Any:
        from contextlib import nullcontext  # noqa: PLC0415

        return nullcontext(self._results(games))

    def _results(self, games: Any) -> Any:
        from arena.referee import play_game  # noqa: PLC0415
        from arena.results.store import Finished  # noqa: PLC0415

        while batch := games.take(1):
            game = batch[0]
            result = play_game(
                [self.players[name] for name in game.seats],
                self.rules,
                seed=game.seed,
                game_id=game.game_id,
                limits=self.limits,
            )
            faults = {seat: (f.kind.value, f.detail) for seat, f in result.faults.items()}
            yield Finished(game.ordinal, result.placements, faults, result.decisions, 0.0, "")


def tau_b(truth: dict[str, float], measured: dict[str, float]) -> float:
    """Kendall's tau-b of two scorings of the same bots (ties in either handled)."""
    names = sorted(truth)
    concordant = discordant = ties_truth = ties_measured = 0
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            x = truth[a] - truth[b]
            y = measured[a] - measured[b]
            if x == 0 and y == 0:
                continue
            if x == 0:
                ties_truth += 1
            elif y == 0:
                ties_measured += 1
            elif (x > 0) == (y > 0):
                concordant += 1
            else:
                discordant += 1
    pairs = len(names) * (len(names) - 1) // 2
    both = math.sqrt((pairs - ties_truth) * (pairs - ties_measured)) if pairs else 0.0
    return (concordant - discordant) / both if both else 0.0


def field_of(strengths: list[float]) -> dict[str, float]:
    """Bot name -> eps."""
    return {f"e{eps:.2f}-{n:02d}": eps for n, eps in enumerate(strengths)}


def league(
    field: dict[str, float],
    schedule: str,
    seed: int,
    budget: int,
    stop: tuple[int, float] | None = None,
) -> JSON:
    """One in-process league: tau-b after each round, and the games until it stays >= 0.9."""
    from arena.bots.spec import BotSpec  # noqa: PLC0415
    from arena.events.run import open_store, play  # noqa: PLC0415
    from arena.game import Rules  # noqa: PLC0415
    from arena.results.ratings import StopRule  # noqa: PLC0415
    from arena.tournament.event import TournamentEvent  # noqa: PLC0415

    module = greedy_module()
    players = {name: noisy_player(name, eps, module) for name, eps in field.items()}
    per_round = len(field) // 4 * 4
    event = TournamentEvent(
        bots=tuple(BotSpec(name, ("true",), "benchmark") for name in field),
        players=4,
        deals=1,
        seed=seed,
        rules=Rules(players=4),
        limits=Limits(),
        schedule=schedule,
        rounds=None if schedule == "round-robin" else budget // per_round,
        stop=StopRule(*stop) if stop else None,
    )
    truth = {name: -eps for name, eps in field.items()}
    with tempfile.TemporaryDirectory(prefix="arena-converge-") as folder:
        store = open_store(event, Path(folder), None)
        start = time.perf_counter()
        outcome = play(
            event, store, sandbox=None, executor=InProcess(players, event.rules, event.limits)
        )
        seconds = time.perf_counter() - start
        curve = curve_of(store, truth)
        final = {row["bot"]: row["rank"] for row in store.standings()}
        rated = {row["bot"]: (row["mu"], row["sigma"]) for row in store.standings()}
        stopped = outcome.stopped
        games = store.done()
        store.close()
    return {
        "schedule": schedule,
        "bots": len(field),
        "seed": seed,
        "games": games,
        "games_to_tau": {str(target): settled(curve, target) for target in TARGETS},
        "final_tau": round(curve[-1][1], 3) if curve else None,
        "curve": [(played, round(tau, 3)) for played, tau in curve],
        "seconds": round(seconds, 1),
        "stopped": stopped,
        "top": sorted(final, key=final.__getitem__)[:3],
        "ratings": rated,
    }


def curve_of(store: Any, truth: dict[str, float]) -> list[tuple[int, float]]:
    """(games played, tau-b of the leaderboard to ``truth``) after each rated round."""
    curve = []
    for number, _, last in store.rounds():
        standings = store.standings_after(number)
        scores = {bot: mu - 3 * sigma for bot, (mu, sigma) in standings.items()}
        curve.append((last + 1, tau_b(truth, scores)))
    return curve


def _league(job: tuple[Any, ...]) -> JSON:
    return league(*job)


def calibrate(games: int, seed: int) -> dict[float, float]:
    """Mean place of each eps level in ``games`` random four-level tables (lower is stronger)."""
    from arena.game import Rules  # noqa: PLC0415
    from arena.referee import play_game  # noqa: PLC0415

    module = greedy_module()
    rng = random_module().Random(seed)
    places: dict[float, list[int]] = {eps: [] for eps in EPS}
    for index in range(games):
        levels = rng.sample(EPS, 4)
        players = [noisy_player(f"p{seat}", eps, module) for seat, eps in enumerate(levels)]
        result = play_game(
            players, Rules(players=4), seed=seed * 100_000 + index, game_id=f"cal{index}",
            limits=Limits(),
        )  # fmt: skip
        for eps, place in zip(levels, result.placements, strict=True):
            places[eps].append(place)
    return {eps: round(sum(p) / len(p), 3) for eps, p in places.items()}


def random_module() -> Any:
    import random  # noqa: PLC0415

    return random


def first_reached(curve: list[tuple[int, float]], target: float) -> int | None:
    """Games played at the first check where tau-b is >= ``target``."""
    return next((played for played, tau in curve if tau >= target), None)


def spread_of(games: list[int | None]) -> JSON:
    """Median, min and max; runs that never got there count as more than any that did."""
    reached = sorted(g for g in games if g is not None)
    ordered: list[int | None] = [*reached, *([None] * (len(games) - len(reached)))]
    return {
        "reached": len(reached),
        "median": ordered[len(ordered) // 2] if ordered else None,
        "min": reached[0] if reached else None,
        "max": ordered[-1] if ordered else None,
    }


def summary(runs: list[JSON], target: float) -> JSON:
    """Over the seeds: games until tau-b first reaches ``target``, games until it stays there
    (to the end of the budget), and the plateau (median tau-b over each run's second half)."""
    plateaus = sorted(
        sorted(tau for _, tau in run["curve"][len(run["curve"]) // 2 :])[
            len(run["curve"][len(run["curve"]) // 2 :]) // 2
        ]
        for run in runs
    )
    return {
        "target": target,
        "runs": len(runs),
        "first": spread_of([first_reached(run["curve"], target) for run in runs]),
        "stays": spread_of([settled(run["curve"], target) for run in runs]),
        "plateau_median": plateaus[len(plateaus) // 2],
        "budget": max(run["games"] for run in runs),
    }


def convergence(args: argparse.Namespace) -> None:
    """The convergence figures (see the module's docstring)."""
    if args.runs_from is not None:  # summarise the runs a (cut-short) run printed
        text = args.runs_from.read_text().splitlines()
        lines = [json.loads(line) for line in text if line.startswith("{")]  # not a traceback
        saved: JSON = next(line["calibration"] for line in lines if "calibration" in line)
        runs = [line["run"] for line in lines if "run" in line]
        args.fields = sorted({run["bots"] for run in runs if run["seed"] < 1000})
        args.stop = any(run["seed"] >= 1000 for run in runs)
        report_convergence(args, saved, runs)
        return
    calibration: JSON = {str(eps): place for eps, place in calibrate(args.calibration, 1).items()}
    print(json.dumps({"calibration": calibration}), flush=True)
    copies = {16: 2, 64: 8}
    fields = {size: field_of([eps for eps in EPS for _ in range(copies[size])])
              for size in args.fields}  # fmt: skip
    budget = {16: BUDGET[16], 64: args.budget64}
    jobs: list[tuple[Any, ...]] = []
    for size, field in fields.items():
        schedules = ["round-robin", "sampled", "swiss"] if size == 16 else ["sampled", "swiss"]
        for schedule in schedules:
            for seed in range(args.seeds):
                jobs.append((field, schedule, seed, budget[size]))
    distinct = field_of(list(EPS))
    if args.stop:
        for schedule in ("sampled", "swiss"):
            for seed in range(args.seeds):
                jobs.append((distinct, schedule, 1000 + seed, STOP_BUDGET, STOP_RULE))
    runs = []
    with multiprocessing.get_context("spawn").Pool(args.jobs) as pool:
        for result in pool.imap_unordered(_league, jobs):
            runs.append(result)  # each run as it ends: a cut-short benchmark keeps them
            print(json.dumps({"run": result}), flush=True)
    report_convergence(args, calibration, runs)


def report_convergence(args: argparse.Namespace, calibration: JSON, runs: list[JSON]) -> None:
    """The convergence table and the stop rule's record, from the runs."""
    table = []
    distinct = field_of(list(EPS))
    for size in args.fields:
        for schedule in ("round-robin", "sampled", "swiss"):
            group = [r for r in runs if r["bots"] == size and r["schedule"] == schedule
                     and r["stopped"] is None and r["seed"] < 1000]  # fmt: skip
            for target in TARGETS if group else ():
                table.append({"bots": size, "schedule": schedule, **summary(group, target)})
    stops = []
    top = STOP_RULE[0]
    truth_top = sorted(distinct, key=lambda bot: distinct[bot])[:top]
    for schedule in ("sampled", "swiss") if args.stop else ():
        group = [r for r in runs if r["seed"] >= 1000 and r["schedule"] == schedule]
        right_set = sum(r["top"][:top] == truth_top for r in group)
        fired = [r for r in group if r["stopped"]]
        fired_right = sum(r["top"][:top] == truth_top for r in fired)
        stops.append(
            {
                "schedule": schedule,
                "runs": len(group),
                "fired": len(fired),
                "top_right_in_order": right_set,
                "fired_and_right": fired_right,
                "games_median": sorted(r["games"] for r in group)[len(group) // 2],
            }
        )
    print(json.dumps({"benchmark": "field_convergence", "calibration": calibration,
                      "table": table, "stop_rule": stops}))  # fmt: skip
    print("mean place by eps (4 levels a table):", calibration)
    print("| bots | schedule | tau-b | games to reach it: median (min-max) | games until it "
          "stays: median (min-max) | plateau |")  # fmt: skip
    print("|---|---|---|---|---|---|")

    def shown(part: JSON, runs: int) -> str:
        if not part["reached"]:
            return "not in the budget"
        high = part["max"] if part["max"] is not None else "not reached"
        note = f", {part['reached']}/{runs} runs" if part["reached"] < runs else ""
        median = part["median"] if part["median"] is not None else "not reached"
        return f"{median} ({part['min']}-{high}{note})"

    for row in table:
        print(
            f"| {row['bots']} | {row['schedule']} | {row['target']} | "
            f"{shown(row['first'], row['runs'])} | {shown(row['stays'], row['runs'])} | "
            f"{row['plateau_median']} |"
        )
    for row in stops:
        print(
            f"stop rule top {STOP_RULE[0]} at {STOP_RULE[1]}, the 8 strengths one bot each, "
            f"{row['schedule']}: fired in {row['fired']}/{row['runs']} runs (right and in order "
            f"when it fired: {row['fired_and_right']}/{row['fired']}), top "
            f"{STOP_RULE[0]} right and in order at the end in {row['top_right_in_order']}/"
            f"{row['runs']}, median games {row['games_median']} (budget {STOP_BUDGET})"
        )


def agree(args: argparse.Namespace) -> None:
    """One league of real processes against the in-process league of the same seed.

    The real one is ``arena tournament`` as a user runs it: 16 greedy Python
    bots (``greedy_bot.py --eps E``, 8 strengths x 2), sandboxed, ``--jobs
    2``. The noisy bot draws its random moves from the game id and its seat,
    so both leagues play the same games; agreeing means the same tau-b
    curve and the same ratings, bot for bot.
    """
    from arena.results.store import open_existing  # noqa: PLC0415

    field = field_of([eps for eps in EPS for _ in range(2)])
    truth = {name: -eps for name, eps in field.items()}
    rounds = args.games // 16
    start = time.perf_counter()
    inside = league(field, args.schedule, args.seed, rounds * 16)
    inside_s = time.perf_counter() - start
    greedy = ROOT / "arena/samples/greedy_bot.py"
    with tempfile.TemporaryDirectory(prefix="arena-agree-") as folder:
        command = [str(ARENA), "tournament", "--players", "4", "--deals", "1", "--jobs", "2",
                   "--seed", str(args.seed), "--out", folder, "--quiet",
                   "--schedule", args.schedule, "--rounds", str(rounds)]  # fmt: skip
        for name, eps in field.items():
            command += ["--bot", f"{name}={sys.executable} {greedy} --eps {eps}"]
        start = time.perf_counter()
        subprocess.run(command, check=True, capture_output=True)
        real_s = time.perf_counter() - start
        store = open_existing(Path(folder))
        curve = curve_of(store, truth)
        rated = {row["bot"]: (row["mu"], row["sigma"]) for row in store.standings()}
        games = store.done()
        store.close()
    theirs = inside["ratings"]
    differs = max(abs(a - b) for bot in rated for a, b in zip(rated[bot], theirs[bot], strict=True))
    same_curve = [(played, round(tau, 3)) for played, tau in curve] == inside["curve"]
    figures = {"benchmark": "field_agree", "schedule": args.schedule, "seed": args.seed,
               "games": games, "in_process_games": inside["games"],
               "in_process_s": round(inside_s, 1), "real_s": round(real_s, 1),
               "same_tau_curve": same_curve, "largest_rating_difference": differs,
               "final_tau": round(curve[-1][1], 3),
               "games_until_tau_stays_0.9": settled(curve, 0.9)}  # fmt: skip
    print(json.dumps(figures))
    print(
        f"{args.schedule}, 16 bots, seed {args.seed}: real processes {games:,} games in "
        f"{real_s:.1f} s, in-process {inside['games']:,} in {inside_s:.1f} s; same tau-b curve: "
        f"{same_curve}; largest rating difference {differs:.3g}; tau-b stays >= 0.9 from game "
        f"{settled(curve, 0.9)}, final {curve[-1][1]:.3f}"
    )


# ---------------------------------------------------------------------- leaderboards


class Drawn:
    """An executor that plays nothing: each game's places are drawn from its seed (for
    building large results folders quickly; the feed, store and ratings are arena's own)."""

    def play(self, setup: Any, games: Any, disabled: Any) -> Any:
        from contextlib import nullcontext  # noqa: PLC0415

        return nullcontext(self._results(games))

    def _results(self, games: Any) -> Any:
        import random  # noqa: PLC0415

        from arena.results.store import Finished  # noqa: PLC0415

        while batch := games.take(64):
            for game in batch:
                places = list(range(1, len(game.seats) + 1))
                random.Random(game.seed + game.rotation).shuffle(places)
                yield Finished(game.ordinal, tuple(places), {}, 80, 5.0, "")


def timed(command: list[str]) -> tuple[float, int]:
    """Seconds a command takes, and the bytes it prints."""
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, check=True)
    return time.perf_counter() - start, len(done.stdout)


def board(args: argparse.Namespace) -> None:
    """``arena leaderboard`` and ``arena report`` on a large field's folder."""
    from arena.bots.spec import BotSpec  # noqa: PLC0415
    from arena.events.run import open_store, play  # noqa: PLC0415
    from arena.game import Rules  # noqa: PLC0415
    from arena.tournament.event import TournamentEvent  # noqa: PLC0415

    event = TournamentEvent(
        bots=tuple(BotSpec(f"b{n:04d}", ("true",), "benchmark") for n in range(args.bots)),
        players=4, deals=1, seed=3, rules=Rules(players=4), limits=Limits(),
        schedule="sampled", rounds=args.rounds,
    )  # fmt: skip
    with tempfile.TemporaryDirectory(prefix="arena-board-") as folder:
        store = open_store(event, Path(folder), None)
        start = time.perf_counter()
        outcome = play(event, store, sandbox=None, executor=Drawn())
        build_s = time.perf_counter() - start
        store.close()
        figures: JSON = {"bots": args.bots, "games": outcome.done, "build_s": round(build_s, 1)}
        for label, extra in (
            ("leaderboard", []),
            ("leaderboard_json", ["--format", "json"]),
            ("leaderboard_top30_pairwise", ["--top", "30", "--pairwise"]),
        ):
            seconds, _ = timed([str(ARENA), "leaderboard", folder, *extra])
            figures[f"{label}_s"] = round(seconds, 2)
        report = Path(folder) / "report.html"
        seconds, _ = timed([str(ARENA), "report", folder, "-o", str(report)])
        figures["report_s"] = round(seconds, 2)
        figures["report_mib"] = round(report.stat().st_size / 2**20, 1)
        if args.keep:
            import shutil  # noqa: PLC0415

            shutil.copy(report, args.keep)
    start = time.perf_counter()
    # What `arena leaderboard` imports (a command imports its own module only).
    subprocess.run([sys.executable, "-c", "import arena.cli.results"], check=True)
    figures["import_floor_s"] = round(time.perf_counter() - start, 2)
    print(json.dumps({"benchmark": "field_board", **figures}))
    print(
        f"{figures['bots']:,} bots, {figures['games']:,} games: arena leaderboard "
        f"{figures['leaderboard_s']} s (json {figures['leaderboard_json_s']} s, --top 30 "
        f"--pairwise {figures['leaderboard_top30_pairwise_s']} s; starting Python and importing "
        f"arena.cli.results alone {figures['import_floor_s']} s); arena report "
        f"{figures['report_s']} s, {figures['report_mib']} MiB"
    )


# ---------------------------------------------------------------------- repeats

#: (bots, seats, rounds) cases: designs (16-4-5, 9-3-4, 25-5-6, 12-2-11), greedy ones, a field.
REPEAT_CASES = (
    (16, 4, 5), (9, 3, 4), (25, 5, 6), (12, 2, 11), (10, 4, 6), (13, 3, 6), (20, 4, 8),
    (30, 5, 9), (64, 4, 21), (100, 4, 12), (1000, 4, 3), (1000, 4, 40), (5000, 4, 10),
)  # fmt: skip


def repeats(args: argparse.Namespace) -> None:
    """Repeat meetings of sampled rounds against the lower bound, from the pure scheduler."""
    from arena.tournament.schedule import Sampled, repeat_lower_bound  # noqa: PLC0415

    rows = []
    for bots, seats, rounds in REPEAT_CASES:
        strategy = Sampled([f"b{i}" for i in range(bots)], players=seats, deals=1, seed=args.seed,
                           rounds=rounds)  # fmt: skip
        start = time.perf_counter()
        for number in range(1, rounds + 1):
            strategy.next_round(number, None)
        seconds = time.perf_counter() - start
        rows.append({"bots": bots, "seats": seats, "rounds": rounds,
                     "repeats": strategy.repeats(),
                     "lower_bound": repeat_lower_bound(bots, seats, rounds),
                     "ms_per_round": round(seconds / rounds * 1000, 1)})  # fmt: skip
    print(json.dumps({"benchmark": "field_repeats", "seed": args.seed, "rows": rows}))
    print("| bots | seats | rounds | repeat meetings | lower bound | ms a round |")
    print("|---|---|---|---|---|---|")
    for row in rows:
        print(f"| {row['bots']} | {row['seats']} | {row['rounds']} | {row['repeats']} | "
              f"{row['lower_bound']} | {row['ms_per_round']} |")  # fmt: skip


def main() -> None:
    """Run the part asked for."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parts = parser.add_subparsers(dest="part", required=True)
    scale_args = parts.add_parser("scale", help="a thousand real bots")
    scale_args.add_argument("--bots", type=int, default=1000)
    scale_args.add_argument("--rounds", type=int, default=3)
    scale_args.add_argument("--starts", type=int, default=40, help="starts per layer measured")
    scale_args.add_argument("--idle-bots", type=int, default=16, help="sampled vs swiss field")
    scale_args.add_argument("--idle-rounds", type=int, default=60)
    converge = parts.add_parser("convergence", help="fields of known strength, in-process")
    converge.add_argument("--seeds", type=int, default=10)
    converge.add_argument("--jobs", type=int, default=2, help="leagues run at once")
    converge.add_argument("--calibration", type=int, default=4000, help="games to order eps")
    converge.add_argument("--fields", type=int, nargs="*", default=[16, 64], choices=[16, 64])
    converge.add_argument("--budget64", type=int, default=BUDGET[64], help="64-bot games at most")
    converge.add_argument("--stop", action=argparse.BooleanOptionalAction, default=True)
    converge.add_argument("--from", dest="runs_from", type=Path, default=None,
                          help="summarise the run lines a convergence run printed")  # fmt: skip
    agree_args = parts.add_parser("agree", help="a real-process league against an in-process one")
    agree_args.add_argument("--schedule", choices=["sampled", "swiss"], default="sampled")
    agree_args.add_argument("--games", type=int, default=1920, help="a multiple of 16")
    agree_args.add_argument("--seed", type=int, default=0)
    board_args = parts.add_parser("board", help="leaderboard and report of a large field")
    board_args.add_argument("--bots", type=int, default=1000)
    board_args.add_argument("--rounds", type=int, default=100, help="100: 100,000 games")
    board_args.add_argument("--keep", type=Path, default=None, help="copy the report here")
    repeat_args = parts.add_parser("repeats", help="repeat meetings against the lower bound")
    repeat_args.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if args.part == "scale":
        scale(args)
    elif args.part == "repeats":
        repeats(args)
    elif args.part == "board":
        board(args)
    elif args.part == "agree":
        agree(args)
    else:
        convergence(args)


if __name__ == "__main__":
    main()
