"""OpenSpiel's own IS-MCTS bot playing Knockout Whist against the sample bots: an outside
reference for the arena's search bot.

Each game is the OpenSpiel game ``knockout_whist`` (:mod:`arena.research.openspiel_game`):
chance nodes are sampled uniformly, seat ``game % players`` is OpenSpiel's
Python ``ISMCTSBot`` (``--simulations`` simulations a move, random-rollout
evaluator, UCT c = 2, its deals from ``resample_from_infostate``, all drawn
from a generator seeded by the game number, so a run is repeatable), the other
seats are the sample bot ``--opponent`` (``greedy`` or ``random``), asked
with the protocol request of their seat (its state, legal moves and
action), in-process. Prints the win rate (first places, shared ones
counted) with its 95% Wilson interval, the mean place, the time, and a
JSON line.

    .venv/bin/python benchmarks/openspiel_ismcts.py [--games 200] [--simulations 100] \\
        [--opponent greedy] [--players 4] [--jobs 2]
"""

from __future__ import annotations

import argparse
import json
import random
import time
from multiprocessing import Pool
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts
from search_ab import BOTS, load  # beside this file
from strength import wilson

import arena.research.openspiel_game  # noqa: F401 - registers knockout_whist
from arena.game import request_state
from arena.research.encode import ACTION_OF

SETTINGS: dict[str, Any] = {}


def play(game_number: int) -> tuple[int, int, float]:
    """One game: the IS-MCTS seat, its place, and the seconds it took."""
    players = SETTINGS["players"]
    seat = game_number % players
    game = pyspiel.load_game("knockout_whist", {"players": players})
    rng = np.random.RandomState(game_number)
    bot = ismcts.ISMCTSBot(
        game,
        mcts.RandomRolloutEvaluator(1, rng),
        2.0,
        SETTINGS["simulations"],
        random_state=rng,
        final_policy_type=ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
    )
    # The bot's own resampler draws from an unseeded sampler of OpenSpiel's: the same game
    # then plays otherwise each run. Seeded from the game's generator, a run is repeatable.
    bot.set_resampler(lambda state, player: state.resample_from_infostate(player, rng.uniform))
    opponent = load(BOTS / f"{SETTINGS['opponent']}_bot.py", f"opponent_{game_number}")
    chance = random.Random(game_number)
    state = game.new_initial_state()
    started = time.perf_counter()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = [card for card, _ in state.chance_outcomes()]
            state.apply_action(chance.choice(outcomes))
        elif state.current_player() == seat:
            state.apply_action(bot.step(state))
        else:
            engine = state.engine
            pending = engine.pending
            view = request_state(engine, pending.seat)
            request = {"action": pending.action, "legal": pending.legal, "state": view}
            move = opponent.choose(view, list(pending.legal), request)
            state.apply_action(ACTION_OF[move])
    return seat, int(state.engine.placements[seat]), time.perf_counter() - started


def main() -> None:
    """Play and print."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--simulations", type=int, default=100)
    parser.add_argument("--opponent", choices=("greedy", "random"), default="greedy")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    SETTINGS.update(players=args.players, simulations=args.simulations, opponent=args.opponent)
    started = time.perf_counter()
    with Pool(args.jobs, initializer=SETTINGS.update, initargs=(dict(SETTINGS),)) as pool:
        results = pool.map(play, range(args.games), chunksize=1)
    wall = time.perf_counter() - started
    wins = sum(1 for _, place, _ in results if place == 1)
    low, high = wilson(wins, len(results))
    mean_place = sum(place for _, place, _ in results) / len(results)
    per_game = sum(seconds for _, _, seconds in results) / len(results)
    print(
        f"OpenSpiel IS-MCTS ({args.simulations} simulations a move) against "
        f"{args.players - 1} x {args.opponent}: won {wins}/{len(results)} "
        f"({100 * wins / len(results):.1f}%, 95% {100 * low:.1f}-{100 * high:.1f}%; "
        f"a seat's fair share {100 / args.players:.0f}%), mean place {mean_place:.2f}; "
        f"{per_game:.1f} s a game, {wall:.0f} s wall with --jobs {args.jobs}"
    )
    print(json.dumps({
        "benchmark": "openspiel_ismcts", "games": len(results), "wins": wins,
        "win_rate": round(wins / len(results), 4), "ci95": [round(low, 4), round(high, 4)],
        "mean_place": round(mean_place, 3), "simulations": args.simulations,
        "opponent": args.opponent, "players": args.players, "seconds_per_game": round(per_game, 2),
        "wall_s": round(wall, 1), "jobs": args.jobs,
    }))  # fmt: skip


if __name__ == "__main__":
    main()
