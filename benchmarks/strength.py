"""Bot strength: one bot against three copies of another, win rate with a 95% interval.

Runs ``arena tournament`` (4 players, duplicate deals, every rotation) with
the challenger and three entries of the opponent under different names,
then reads the leaderboard. Prints JSON and a line with the challenger's
win rate and its 95% Wilson interval (25% is parity), and counts the
challenger's timeouts (faults of kind timeout) over all its decisions.

    .venv/bin/python benchmarks/strength.py --challenger arena/samples/ismcts_bot.py \\
        --opponent arena/samples/greedy_bot.py --deals 100 --move-ms 100
"""

from __future__ import annotations

import argparse
import json
import math
import subprocess
import sys
import tempfile
from pathlib import Path


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate."""
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return centre - half, centre + half


def main() -> None:
    """Run the tournament and print the challenger's figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--challenger", required=True)
    parser.add_argument("--opponent", required=True)
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--move-ms", type=int, default=100)
    parser.add_argument("--bank-ms", type=int, default=1000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", default=None, help="keep the results folder here")
    args = parser.parse_args()
    folder = args.out or tempfile.mkdtemp(prefix="arena-strength-")
    command = [
        sys.executable, "-m", "arena", "tournament",
        "--bot", f"challenger=python3 {args.challenger}"
        if args.challenger.endswith(".py") else f"challenger={args.challenger}",
        *[arg for i in (1, 2, 3) for arg in ("--bot", f"opponent{i}={_command(args.opponent)}")],
        "--players", "4", "--deals", str(args.deals), "--jobs", str(args.jobs),
        "--seed", str(args.seed), "--move-ms", str(args.move_ms), "--bank-ms", str(args.bank_ms),
        "--out", folder, "--quiet",
    ]  # fmt: skip
    subprocess.run(command, check=True)
    rows = json.loads(
        subprocess.run(
            [sys.executable, "-m", "arena", "leaderboard", folder, "--format", "json"],
            check=True,
            capture_output=True,
            text=True,
        ).stdout
    )
    decisions = 0
    for replay in (Path(folder) / "replays").glob("*.jsonl"):
        lines = [json.loads(line) for line in replay.read_text().splitlines()]
        seat = next(p["seat"] for p in lines[0]["players"] if p["name"] == "challenger")
        decisions += sum(1 for r in lines if r["type"] == "move" and r["seat"] == seat)
    challenger = next(row for row in rows if row["bot"] == "challenger")
    low, high = wilson(challenger["wins"], challenger["games"])
    report = {
        "benchmark": "strength",
        "command": " ".join(command),
        "challenger": args.challenger,
        "opponent": args.opponent,
        "games": challenger["games"],
        "wins": challenger["wins"],
        "win_rate": round(challenger["wins"] / challenger["games"], 4),
        "wilson95": [round(low, 4), round(high, 4)],
        "avg_place": challenger["avg_place"],
        "faults": challenger["faults"],
        "leaderboard": rows,
        "challenger_decisions": decisions,
    }
    print(json.dumps(report))
    print(
        f"{args.challenger} vs 3x {args.opponent}: {challenger['wins']}/{challenger['games']} "
        f"wins = {100 * report['win_rate']:.1f}% (95% Wilson {100 * low:.1f}-{100 * high:.1f}%), "
        f"avg place {challenger['avg_place']}; {decisions} decisions, "
        f"faults {challenger['faults'] or 'none'}"
    )


def _command(bot: str) -> str:
    return f"python3 {bot}" if bot.endswith(".py") else bot


if __name__ == "__main__":
    main()
