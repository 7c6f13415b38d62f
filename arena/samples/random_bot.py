#!/usr/bin/env python3
"""A bot that plays a uniformly random legal move: the simplest correct bot.

Its choices are reproducible: the generator is seeded at each ``game_start``
from the game id and the bot's seat, so the same game (same arena command,
same seed) gets the same moves, whatever games the process played before.

Run it alone and type messages by hand::

    python3 arena/samples/random_bot.py
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

if not __package__:  # run as a file, not with -m: find the arena package above this one
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from arena.samples.arena_bot import Message, run

rng = random.Random(0)


def on_info(message: Message) -> None:
    """Reseed at each new game: the moves depend only on the game id and the seat."""
    if message["type"] == "game_start":
        rng.seed(f"{message['game']}/{message['seat']}")


def choose(state: Message, legal: list[str]) -> str:
    """Any legal move, uniformly at random."""
    return rng.choice(legal)


if __name__ == "__main__":
    run(choose, name="random-python", version="1.0", on_info=on_info)
