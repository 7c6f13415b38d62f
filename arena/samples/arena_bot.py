"""A tiny helper for writing Knockout Whist arena bots in Python (protocol v1).

With this module a bot is one function, ``choose(state, legal) -> str``: it
gets the ``state`` of a request (the seat's whole information set) and the
list of ``legal`` moves, and returns one of them. :func:`run` does the rest:

- it reads the referee's messages from stdin, one JSON object per line;
- it answers ``hello`` with ``ready`` and each ``request`` with a ``move``
  carrying the request's ``id``, writing one line and flushing at once;
- it never answers anything else (``game_start``, ``hand_start``, ``event``,
  ``hand_end``, ``game_end``, ``error`` and any message type it does not
  know); pass ``on_info`` to see those messages;
- it returns on ``bye`` or at the end of input, so the bot exits with
  status 0.

Only protocol lines go to stdout. While :func:`run` is running,
``sys.stdout`` points at stderr, so a stray ``print()`` in your code ends up
in the log the referee keeps for you instead of breaking the protocol. Use
``print(..., file=sys.stderr)`` or :func:`log` for logging.

If ``choose`` takes a third positional parameter it also receives the whole
request, for its ``action`` (``"play"``, ``"trump"``, ``"rainbow"``,
``"no_picture"``) and ``time`` (``move_ms``, ``bank_ms``).

To say what it was thinking, ``choose`` returns ``(move, info)`` instead of
the move alone: ``info`` is any JSON value (an estimate, the rollouts, a
line of play), sent with the move and kept in the replay beside it, where
``arena replay`` and the replay viewer show it. Keep it under 4096 bytes of
compact JSON: the arena keeps a larger one as its size only. An ``info``
that is not JSON (a set, an object) is logged and left out; the move is
sent all the same.

If ``choose`` raises, or returns something that is not in ``legal``, the
problem is logged to stderr and the first legal move is played (the same
move the arena would play for a faulted seat); pass ``fallback=False`` to
let the exception propagate and send whatever ``choose`` returned.

Standard library only; copy this file next to your bot. Example::

    #!/usr/bin/env python3
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from arena_bot import run

    def choose(state, legal):
        # Play the highest card in the canonical order, knock or pass when possible.
        return legal[0] if legal[0] in ("knock", "pass") else legal[-1]

    run(choose, name="greedy")

The bot's working directory is not its own folder, hence the ``sys.path``
line. See ``protocol/README.md`` for the messages and the ``state`` fields.
"""

from __future__ import annotations

import inspect
import json
import os
import sys
import traceback
from collections.abc import Callable
from typing import IO, Any, cast

__all__ = ["Answer", "Choose", "InfoHandler", "Message", "log", "run"]

Message = dict[str, Any]
"""A decoded protocol message (a JSON object)."""

Answer = str | tuple[str, Any]
"""A move, or ``(move, info)``: the move and what the bot was thinking (any JSON value)."""

ChooseTwo = Callable[[Message, list[str]], Answer]
ChooseThree = Callable[[Message, list[str], Message], Answer]
Choose = ChooseTwo | ChooseThree
"""``choose(state, legal)`` or ``choose(state, legal, request)``, returning an :data:`Answer`."""

InfoHandler = Callable[[Message], None]
"""Called with every message the bot must not answer (``game_start``, ``event``, ...)."""

PROTOCOL = 1


def log(*parts: object) -> None:
    """Write one line to stderr, the bot's free-form log (the referee never parses it)."""
    print(*parts, file=sys.stderr, flush=True)


def _wants_request(choose: Callable[..., Answer]) -> bool:
    """Whether ``choose`` accepts a third positional argument (the whole request)."""
    try:
        parameters = inspect.signature(choose).parameters.values()
    except (TypeError, ValueError):  # some builtins have no signature
        return False
    positional = 0
    for parameter in parameters:
        if parameter.kind is inspect.Parameter.VAR_POSITIONAL:
            return True
        if parameter.kind in (
            inspect.Parameter.POSITIONAL_ONLY,
            inspect.Parameter.POSITIONAL_OR_KEYWORD,
        ):
            positional += 1
    return positional >= 3


def run(
    choose: Choose,
    *,
    name: str,
    version: str | None = None,
    author: str | None = None,
    on_info: InfoHandler | None = None,
    fallback: bool = True,
    stdin: IO[bytes] | None = None,
    stdout: IO[bytes] | None = None,
) -> None:
    """Play a whole session: answer ``hello`` and every ``request`` until ``bye``.

    ``name``, ``version`` and ``author`` go into the ``ready`` reply (the
    arena shows its own name for the bot, given on its command line).
    ``on_info`` is called with every message that must not be answered,
    e.g. ``game_start`` to learn the game id and your seat. ``stdin`` and
    ``stdout`` default to the process's binary streams (they exist for
    tests). Returns on ``bye`` or at end of input.
    """
    read_line = (stdin if stdin is not None else sys.stdin.buffer).readline
    out = stdout if stdout is not None else sys.stdout.buffer
    with_request = _wants_request(choose)
    choose_any = cast(Callable[..., Answer], choose)

    def send(message: Message) -> None:
        out.write(json.dumps(message, allow_nan=False).encode() + b"\n")
        out.flush()

    def answer(request_id: Any, move: str, info: Any) -> None:
        reply: Message = {"type": "move", "id": request_id, "move": move}
        if info is not None:
            try:  # not JSON: a set, an object, NaN or infinity (JSON has no such numbers)
                json.dumps(info, allow_nan=False)
            except (TypeError, ValueError) as error:
                log(f"arena_bot: info is not JSON ({error}); sending the move without it")
            else:
                reply["info"] = info
        send(reply)

    real_stdout = sys.stdout
    sys.stdout = sys.stderr  # a stray print() must not reach the referee
    try:
        while True:
            line = read_line()
            if not line:
                return  # end of input: the referee is gone
            if line.isspace():
                continue
            try:
                message = json.loads(line)
            except ValueError:
                log(f"arena_bot: ignoring a line that is not JSON: {line[:200]!r}")
                continue
            if not isinstance(message, dict):
                log(f"arena_bot: ignoring a message that is not an object: {line[:200]!r}")
                continue
            kind = message.get("type")
            if kind == "request":
                legal = message.get("legal")
                if "id" not in message or not isinstance(legal, list) or not legal:
                    log(f"arena_bot: no id or no legal move, cannot answer: {line[:200]!r}")
                    continue
                move, info = _decide(
                    choose_any, message, with_request=with_request, fallback=fallback
                )
                answer(message["id"], move, info)
            elif kind == "hello":
                protocol = message.get("protocol")
                if protocol != PROTOCOL:
                    log(f"arena_bot: written for protocol {PROTOCOL}, got {protocol!r}")
                ready: Message = {"type": "ready", "name": name}
                if version is not None:
                    ready["version"] = version
                if author is not None:
                    ready["author"] = author
                send(ready)
            elif kind == "bye":
                return
            elif on_info is not None:
                on_info(message)
    except BrokenPipeError:
        # The referee closed our stdout: nobody is listening any more. Point
        # fd 1 at /dev/null so that the flush at interpreter exit stays quiet.
        if stdout is None:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, out.fileno())
        return
    finally:
        sys.stdout = real_stdout


def _decide(
    choose: Callable[..., Answer], request: Message, *, with_request: bool, fallback: bool
) -> tuple[str, Any]:
    """Ask ``choose`` for a move (and its info, None if none); with ``fallback``, never
    return a move outside ``legal``."""
    state = request.get("state", {})
    legal: list[str] = request["legal"]
    try:
        answer = choose(state, legal, request) if with_request else choose(state, legal)
    except Exception:
        if not fallback:
            raise
        log(f"arena_bot: choose() raised; playing {legal[0]!r}\n{traceback.format_exc()}")
        return legal[0], None
    move, info = answer if isinstance(answer, tuple) and len(answer) == 2 else (answer, None)
    if fallback and move not in legal:
        log(f"arena_bot: choose() returned {move!r}, not in {legal}; playing {legal[0]!r}")
        return legal[0], info
    return move, info
