"""A tiny scripted policy for the bridge: the legal action with the highest number.

It plays what a learned policy would return, from what the environment
gives an agent. With ``ARENA_POLICY_LOG`` set, it appends each observation
it was given (as lists) to that file, one JSON line each, for a test.
"""

import json
import os

import numpy as np


def policy(seen: dict[str, np.ndarray]) -> tuple[int, dict[str, int]]:
    legal = np.flatnonzero(seen["action_mask"])
    log = os.environ.get("ARENA_POLICY_LOG")
    if log:
        with open(log, "a", encoding="utf-8") as out:
            record = {key: value.tolist() for key, value in seen.items()}
            out.write(json.dumps(record) + "\n")
    return int(legal[-1]), {"legal": len(legal)}
