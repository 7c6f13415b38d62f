"""A trained agent as a protocol v1 bot: ``python -m arena.bridge PATH/agent.py:CALLABLE``.

The callable is given, at each request, exactly what the PettingZoo
environment (:func:`arena.research.pettingzoo_env`) gives an agent at its
turn: ``{"observation": float32 array, "action_mask": int8 array}`` from
:mod:`arena.research.encode`. It returns an action number (or ``(action,
info)``, the info sent with the move). So a policy trained on the
environment plays unchanged, and enters ``arena tournament`` as any other
sandboxed subprocess bot: a bot folder with a ``bot.toml`` whose ``run`` is
``python -m arena.bridge agent.py:policy``, the weights beside it (the
folder is readable inside the sandbox; load them relative to the agent's
own file, as the working directory is a scratch folder).

Only protocol lines go to stdout: while the callable runs, ``sys.stdout``
points at stderr (the bot's log). An exception in the callable ends the
bot with its traceback in that log, and the arena faults its seat.

Needs the ``research`` extra (numpy).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

if TYPE_CHECKING:
    from arena.research.encode import Policy

JSON = dict[str, Any]


def load_policy(target: str) -> Policy:
    """The callable named by ``PATH/file.py:NAME``.

    Raises:
        SystemExit: with a one-line message, for a target that cannot be loaded.
    """
    path_text, sep, name = target.rpartition(":")
    if not sep or not path_text or not name:
        raise SystemExit(f"arena.bridge: name the callable as PATH/agent.py:NAME, not {target!r}")
    path = Path(path_text)
    if not path.is_file():
        raise SystemExit(f"arena.bridge: no such file: {path}")
    spec = importlib.util.spec_from_file_location(f"arena_bridge_{path.stem}", path)
    if spec is None or spec.loader is None:
        raise SystemExit(f"arena.bridge: {path} is not a Python module")
    sys.path.insert(0, str(path.resolve().parent))  # the agent's own modules, beside it
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    policy = getattr(module, name, None)
    if not callable(policy):
        raise SystemExit(f"arena.bridge: {path} has no callable {name!r}")
    return policy  # type: ignore[no-any-return]


def serve(policy: Policy, name: str, stdin: IO[str], stdout: IO[str]) -> None:
    """Answer ``hello`` and every ``request`` through ``policy`` until ``bye`` or the end.

    Raises:
        ModuleNotFoundError: without the research extra (numpy).
    """
    from arena.research.encode import policy_answer  # noqa: PLC0415 - main() says what is missing

    players = 0
    real_stdout = sys.stdout
    for line in stdin:
        if not line.strip():
            continue
        message: JSON = json.loads(line)
        kind = message.get("type")
        if kind == "hello":
            answer: JSON = {"type": "ready", "name": name}
        elif kind == "game_start":
            players = len(message["players"])
            continue
        elif kind == "request":
            sys.stdout = sys.stderr  # a print() in the policy must not reach the referee
            try:
                move, info = policy_answer(policy, message, players)
            finally:
                sys.stdout = real_stdout
            answer = {"type": "move", "id": message["id"], "move": move}
            if info is not None:
                answer["info"] = info
        elif kind == "bye":
            return
        else:
            continue
        stdout.write(json.dumps(answer) + "\n")
        stdout.flush()


def main(argv: list[str] | None = None) -> None:
    """``python -m arena.bridge PATH/agent.py:CALLABLE [--name NAME]``."""
    parser = argparse.ArgumentParser(
        prog="python -m arena.bridge",
        description="Run a Python callable (observation dict -> action number) as a bot.",
    )
    parser.add_argument("target", help="PATH/agent.py:CALLABLE")
    parser.add_argument("--name", default=None, help="the name in ready (default: the file's)")
    args = parser.parse_args(argv)
    try:
        import arena.research.encode  # noqa: F401, PLC0415 - the extra, checked before the agent
    except ModuleNotFoundError as missing:
        raise SystemExit(f"arena.bridge: {missing}") from None
    policy = load_policy(args.target)
    name = args.name or Path(args.target.rpartition(":")[0]).stem
    serve(policy, name, sys.stdin, sys.stdout)


if __name__ == "__main__":
    main()
