"""A trained agent entering tournaments through the bridge: the legal move of highest value.

The values, one per action, are ``value.npy`` beside this file, saved by the
training loop of arena's research guide (docs/research.md); before it is
trained every action is worth 0, and the agent plays its first legal move.
``bot.toml`` runs ``python -m arena.bridge agent.py:policy``; inside the
sandbox the bot may read its own folder, and its working directory is a
scratch folder, so the weights are found from this file's own path.
"""

from pathlib import Path

import numpy as np

from arena.research import MOVES

WEIGHTS = Path(__file__).with_name("value.npy")
VALUE = np.load(WEIGHTS) if WEIGHTS.is_file() else np.zeros(len(MOVES))  # one per action


def policy(seen: dict[str, np.ndarray]) -> int:
    """The legal action with the highest learned value."""
    legal = np.flatnonzero(seen["action_mask"])
    return int(legal[np.argmax(VALUE[legal])])
