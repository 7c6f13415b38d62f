"""The protocol loop the test bots share: ready on hello, a reply to each request, exit on bye.

A test bot is then only its ``answer``: the request in, the whole ``move``
reply out (written as compact JSON, one line, flushed). ``seen``, if given,
is called with every line received first.
"""

import json
import sys
from collections.abc import Callable
from typing import Any

Message = dict[str, Any]


def compact(value: object) -> str:
    """``value`` as compact JSON (what the arena measures an info's size by)."""
    return json.dumps(value, separators=(",", ":"))


def serve(
    answer: Callable[[Message], Message], name: str, seen: Callable[[str], None] | None = None
) -> None:
    """Play a whole session on stdin and stdout."""
    for line in sys.stdin:
        if seen is not None:
            seen(line)
        message = json.loads(line)
        if message["type"] == "hello":
            print(compact({"type": "ready", "name": name}), flush=True)
        elif message["type"] == "bye":
            return
        elif message["type"] == "request":
            print(compact(answer(message)), flush=True)
