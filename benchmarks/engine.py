"""Engine speed: random play in-process, complete games per second.

Plays complete games of uniformly random legal moves (the choice included in
the timing, as a search bot's rollouts would pay it) with the event log off,
as simulations run, and once more with it on, as the referee runs. Each
figure is the best of several rounds, since the machines are shared and
noisy. Prints one JSON object and one human line.

    .venv/bin/python benchmarks/engine.py [--players 4 7] [--games 3000] [--rounds 5]
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import sys
import time
from pathlib import Path

from arena.game import GameState, Rules

sys.path.insert(0, str(Path(__file__).resolve().parent))
from naive_engine import play as naive_play


def play_games(rules: Rules, games: int, seed: int, record: bool) -> tuple[float, int]:
    """Play ``games`` random games; return the seconds taken and the decisions made."""
    # random() * len is a uniform choice without random.choice's rejection
    # loop, which would cost a third of the engine's own time per decision.
    uniform = random.Random(seed).random
    decisions = 0
    start = time.perf_counter()
    for game in range(games):
        state = GameState(rules, seed * 1_000_003 + game, record=record)
        while (pending := state.pending) is not None:
            legal = pending.legal
            state.apply(legal[int(uniform() * len(legal))])
            decisions += 1
    return time.perf_counter() - start, decisions


def measure(rules: Rules, games: int, rounds: int, record: bool) -> dict[str, float]:
    """Best-of-``rounds`` games/s and decisions/s."""
    best = None
    for round_no in range(rounds):
        seconds, decisions = play_games(rules, games, round_no + 1, record)
        if best is None or seconds < best[0]:
            best = (seconds, decisions)
    assert best is not None
    seconds, decisions = best
    return {
        "games_per_s": round(games / seconds, 1),
        "decisions_per_s": round(decisions / seconds, 1),
        "decisions_per_game": round(decisions / games, 2),
    }


def measure_naive(players: int, games: int, rounds: int) -> dict[str, float]:
    """Best-of-``rounds`` games/s of the naive floor engine."""
    best = float("inf")
    decisions = 0
    for round_no in range(rounds):
        rng = random.Random(round_no)
        start = time.perf_counter()
        decisions = sum(naive_play(rng, players) for _ in range(games))
        best = min(best, time.perf_counter() - start)
    return {
        "games_per_s": round(games / best, 1),
        "decisions_per_game": round(decisions / games, 2),
    }


def main() -> None:
    """Run the benchmark and print its figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, nargs="+", default=[4, 7])
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    results = {}
    for players in args.players:
        rules = Rules(players=players)
        results[f"{players}p"] = {
            "simulation": measure(rules, args.games, args.rounds, record=False),
            "recorded": measure(rules, args.games, args.rounds, record=True),
            "naive_floor": measure_naive(players, args.games, args.rounds),
        }
    report = {
        "benchmark": "engine",
        "python": platform.python_version(),
        "machine": platform.machine(),
        "games": args.games,
        "rounds": args.rounds,
        "results": results,
    }
    print(json.dumps(report))
    for key, figures in results.items():
        sim, rec, naive = figures["simulation"], figures["recorded"], figures["naive_floor"]
        print(
            f"engine {key}: {sim['games_per_s']:.0f} games/s "
            f"({sim['decisions_per_s']:.0f} decisions/s) without the log, "
            f"{rec['games_per_s']:.0f} games/s with it; naive standard-rules floor "
            f"{naive['games_per_s']:.0f} games/s (engine/naive "
            f"{sim['games_per_s'] / naive['games_per_s']:.2f})"
        )


if __name__ == "__main__":
    main()
