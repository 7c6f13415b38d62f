"""A trained agent entering tournaments through the bridge: the legal move of highest value.

The values, one per action, are ``value.npy`` beside this file, saved by the
README's training loop. ``bot.toml`` runs ``python -m arena.bridge
agent.py:policy``; inside the sandbox the bot may read its own folder, and
its working directory is a scratch folder, so the weights are found from
this file's own path.
"""

from pathlib import Path

import numpy as np

VALUE = np.load(Path(__file__).with_name("value.npy"))


def policy(seen: dict[str, np.ndarray]) -> int:
    """The legal action with the highest learned value."""
    legal = np.flatnonzero(seen["action_mask"])
    return int(legal[np.argmax(VALUE[legal])])
