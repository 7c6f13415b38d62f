"""Fields of any size: a thousand real bots, and how fast each schedule's leaderboard converges.

``scale`` (real processes): the start cost of one sandboxed C bot under each
sandbox layer, added one at a time; then ``arena tournament`` with N C random
bots (default 1,000), ``--schedule sampled --rounds 3 --players 4 --deals 1
--jobs 2`` (3,000 games, 12 per bot), run as a user runs it. A sampler reads
/proc every 0.1 s for the coordinator's peak RSS (VmHWM) and the bot
processes alive at once; the tournament itself reports its bot starts. The
same number of games by a 4-bot tournament in the same run gives the pace
without starts: the distance between the two should be the starts' cost.

``convergence`` (in-process players, see its own docstring below).

    .venv/bin/python benchmarks/field.py scale [--bots 1000] [--rounds 3]
    .venv/bin/python benchmarks/field.py convergence [--seeds 10]
"""

from __future__ import annotations

import argparse
import json
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
from arena.bots.sandbox import Capabilities, detect
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
        ("+ separate uid", {"uid_python": full.uid_python}),
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


def tournament(bots: int, rounds: int, deals: int, schedule: str, folder: Path) -> JSON:
    """Run ``arena tournament`` on ``bots`` C bots; its figures and the sampler's."""
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
    }


def scale(args: argparse.Namespace) -> None:
    """The scale figures (see the module's docstring)."""
    subprocess.run(["make", "-s", "-C", str(ROOT / "sample_bots/c")], check=True)
    full = detect()
    costs = [
        {"layers": name, **start_cost(sandbox, args.starts)} for name, sandbox in layer_steps(full)
    ]
    with tempfile.TemporaryDirectory(prefix="arena-field-") as folder:
        big = tournament(args.bots, args.rounds, 1, "sampled", Path(folder) / "big")
        per_bot_tables = args.rounds
        small = tournament(4, 0, big["games"] // 4, "round-robin", Path(folder) / "small")
    sandboxed = costs[-1]["cpu_ms"]
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
        f"{big['bot_starts']:,} starts at {sandboxed} ms CPU on 2 CPUs predicts "
        f"{expected_s:.1f} s against {big['play_s']} s measured"
    )


def main() -> None:
    """Run the part asked for."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parts = parser.add_subparsers(dest="part", required=True)
    scale_args = parts.add_parser("scale", help="a thousand real bots")
    scale_args.add_argument("--bots", type=int, default=1000)
    scale_args.add_argument("--rounds", type=int, default=3)
    scale_args.add_argument("--starts", type=int, default=40, help="starts per layer measured")
    args = parser.parse_args()
    if args.part == "scale":
        scale(args)


if __name__ == "__main__":
    main()
