"""The research environments' overhead: environment steps/s against the engine's decisions/s.

Random legal play of 4-seat games in one process: the engine alone
(:class:`arena.game.GameState`, ``apply`` of a random legal move), the
PettingZoo AEC environment (``last`` for the acting agent's observation and
mask, ``step`` with a random legal action), and the OpenSpiel game (random
legal actions, chance drawn uniformly: a card a step), on the same seeds,
rounds alternated; the best round of each is kept. Prints one line a figure and a
JSON line.

    .venv/bin/python benchmarks/research_speed.py [--games 200] [--rounds 3]
"""

from __future__ import annotations

import argparse
import json
import random
import time

import numpy as np

from arena.game import GameState, Rules
from arena.research import pettingzoo_env


def engine_round(games: int) -> tuple[int, float]:
    """Decisions and seconds of ``games`` random games on the engine alone."""
    decisions = 0
    started = time.perf_counter()
    for seed in range(games):
        rng = random.Random(seed)
        state = GameState(Rules(), seed)
        while (pending := state.pending) is not None:
            state.apply(pending.legal[int(rng.random() * len(pending.legal))])
            decisions += 1
    return decisions, time.perf_counter() - started


def environment_round(games: int) -> tuple[int, float]:
    """Steps and seconds of ``games`` random games in the PettingZoo environment."""
    env = pettingzoo_env(players=4)
    steps = 0
    started = time.perf_counter()
    for seed in range(games):
        rng = random.Random(seed)
        env.reset(seed=seed)
        for _agent in env.agent_iter():
            observation, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            legal = np.flatnonzero(observation["action_mask"])
            env.step(int(legal[int(rng.random() * len(legal))]))
            steps += 1
    return steps, time.perf_counter() - started


def openspiel_round(games: int) -> tuple[int, int, float]:
    """Player steps, chance steps and seconds of ``games`` random games in OpenSpiel."""
    import pyspiel  # noqa: PLC0415 - only this figure needs it

    import arena.research.openspiel_game  # noqa: F401, PLC0415 - registers knockout_whist

    game = pyspiel.load_game("knockout_whist", {"players": 4})
    steps = chance = 0
    started = time.perf_counter()
    for seed in range(games):
        rng = random.Random(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[int(rng.random() * len(outcomes))][0])
                chance += 1
            else:
                legal = state.legal_actions()
                state.apply_action(legal[int(rng.random() * len(legal))])
                steps += 1
    return steps, chance, time.perf_counter() - started


def main() -> None:
    """Measure and print."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    engine, environment, spiel, spiel_all = 0.0, 0.0, 0.0, 0.0
    for _ in range(args.rounds):
        decisions, seconds = engine_round(args.games)
        engine = max(engine, decisions / seconds)
        steps, seconds = environment_round(args.games)
        environment = max(environment, steps / seconds)
        steps, chance, seconds = openspiel_round(args.games)
        spiel = max(spiel, steps / seconds)
        spiel_all = max(spiel_all, (steps + chance) / seconds)
    print(f"engine: {engine:,.0f} decisions/s")
    print(
        f"OpenSpiel game: {spiel:,.0f} player steps/s ({engine / spiel:.1f}x slower; "
        f"{spiel_all:,.0f} steps/s counting each card chance draws)"
    )
    print(
        f"PettingZoo environment: {environment:,.0f} steps/s ({engine / environment:.1f}x slower)"
    )
    print(json.dumps({"benchmark": "research_speed", "games": args.games, "rounds": args.rounds,
                      "engine_decisions_per_s": round(engine),
                      "pettingzoo_steps_per_s": round(environment),
                      "openspiel_player_steps_per_s": round(spiel),
                      "openspiel_steps_per_s_with_chance": round(spiel_all)}))  # fmt: skip


if __name__ == "__main__":
    main()
