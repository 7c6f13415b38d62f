#!/usr/bin/env python3
"""The bot program: the session loop of protocol v1, and a --roundtrip mode.

    python3 bot.py              play: the referee's lines on stdin, answers on stdout
    python3 bot.py --eps E      play a random legal move with probability E (0 to 1)
    python3 bot.py --roundtrip  read each line into the typed model and print it back

The strategy lives in ``strategy.py`` (``Strategy.choose``); nothing here needs
changing. stdout carries protocol lines only: while the bot plays, ``sys.stdout``
is stderr, so a stray ``print()`` lands in the log the arena keeps for the bot
instead of garbling a reply. Standard library only; Python 3.11 or newer.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import traceback
from collections.abc import Iterable
from pathlib import Path
from typing import TextIO

# The modules beside this file, however Python was started (PYTHONSAFEPATH leaves the
# script's folder off the path; the arena starts bots in a scratch folder).
sys.path.insert(0, str(Path(__file__).resolve().parent))

from messages import (
    Bye,
    Decision,
    ErrorMessage,
    Hello,
    Message,
    MoveReply,
    ProtocolError,
    Ready,
    Request,
    decode_line,
    encode,
)
from strategy import Strategy

#: What the bot calls itself in ``ready`` (the arena shows its own name for it).
NAME = "python-greedy"
VERSION = "1.0"
PROTOCOL = 1
#: The largest ``info`` the arena keeps as sent (bytes of compact JSON); a larger one is
#: kept as ``{"truncated": true, "bytes": N}``, never a fault.
MAX_INFO_BYTES = 4096


def log(text: str) -> None:
    """A line for the bot's log (stderr), which the arena keeps and never reads."""
    print(f"bot.py: {text}", file=sys.stderr, flush=True)


class Session:
    """One session, ``hello`` to ``bye``: answers ``hello`` and each ``request``, and
    shows the strategy everything else."""

    def __init__(self, strategy: Strategy, out: TextIO) -> None:
        self.strategy = strategy
        self.out = out
        self.ignored: set[str] = set()
        self.warned_big_info = False

    def handle(self, line: str) -> bool:
        """Handles one line; False once the session is over (``bye``)."""
        if not line.strip():
            return True
        try:
            message = decode_line(line)
        except ProtocolError as error:
            self.recover(line, error)
            return True
        match message:
            case Hello(protocol=protocol):
                if protocol != PROTOCOL:
                    log(f"written for protocol {PROTOCOL}, got {protocol}")
                self.send(encode(Ready(NAME, VERSION)))
            case Request():
                self.send(encode(self.answer(message)))
            case Bye():
                return False
            case ErrorMessage(message=text):
                log(f"the referee refused a reply: {text}")
                self.observe(message)
            case _:  # game_start, hand_start, events, hand_end, game_end: news, never answered
                self.observe(message)
        return True

    def observe(self, message: Message) -> None:
        """Shows the strategy a message it need not answer. A bug in ``observe`` is logged
        and costs nothing more: the next request is still answered."""
        try:
            self.strategy.observe(message)
        except Exception:
            log(f"observe() raised on {type(message).__name__}\n{traceback.format_exc()}")

    def answer(self, request: Request) -> MoveReply:
        """The strategy's move with its ``info``, or ``legal[0]`` (the arena's own fallback
        move) if the strategy fails or picks a move that is not legal."""
        legal = request.legal
        try:
            chosen = self.strategy.choose(request.state, legal, request)
        except Exception:  # a bug in the strategy costs this move, not the game
            log(f"choose() raised; playing {legal[0]}\n{traceback.format_exc()}")
            return MoveReply(request.id, legal[0])
        decision = chosen if isinstance(chosen, Decision) else Decision(chosen)
        if decision.move not in legal:
            log(f"choose() returned {decision.move!r}, not in {[str(m) for m in legal]}; "
                f"playing {legal[0]}")  # fmt: skip
            return MoveReply(request.id, legal[0])
        reply = MoveReply(request.id, decision.move, decision.info)
        if decision.info is None:
            return reply
        try:  # a set, an object, NaN or a loop in it is no JSON
            info = json.dumps(reply.to_json()["info"], separators=(",", ":"), allow_nan=False)
        except (TypeError, ValueError, RecursionError) as error:
            log(f"info is not JSON ({error!r}); sending the move without it")
            return MoveReply(request.id, decision.move)
        if len(info.encode()) > MAX_INFO_BYTES and not self.warned_big_info:
            self.warned_big_info = True
            log(f"an info of {len(info.encode())} bytes: the arena keeps only its size (at "
                f"most {MAX_INFO_BYTES})")  # fmt: skip
        return reply

    def recover(self, line: str, error: ProtocolError) -> None:
        """A line the typed model refused. A request still gets its first legal move and a
        hello its ready, so that a referee newer than this model costs no game; a message
        of a type this version does not know is ignored, as protocol v1 asks."""
        shown = line.strip()[:200]
        try:
            value = json.loads(line)
        except ValueError:
            log(f"ignoring a line that is not JSON ({error}): {shown}")
            return
        kind = value.get("type") if isinstance(value, dict) else None
        if kind == "request":
            legal, id_ = value.get("legal"), value.get("id")
            if type(id_) is int and isinstance(legal, list) and legal and type(legal[0]) is str:
                log(f"cannot read this request ({error}); playing {legal[0]}: {shown}")
                self.send(json.dumps({"type": "move", "id": id_, "move": legal[0]}))
            else:
                log(f"cannot answer a request without an id or a legal move: {shown}")
        elif kind == "hello":
            log(f"cannot read hello ({error}); answering anyway")
            self.send(encode(Ready(NAME, VERSION)))
        elif error.unknown:
            if str(kind) not in self.ignored:  # once per type: it may come often
                self.ignored.add(str(kind))
                log(f"ignoring messages I do not know ({error}), e.g. {shown}")
        else:
            log(f"ignoring a message I cannot read ({error}): {shown}")

    def send(self, line: str) -> None:
        """One line out, flushed: an unflushed reply is a late reply."""
        self.out.write(line + "\n")
        self.out.flush()


def play(strategy: Strategy, lines: Iterable[str], out: TextIO) -> None:
    """A whole session: until ``bye`` or the end of input (the referee is gone)."""
    session = Session(strategy, out)
    for line in lines:
        if not session.handle(line):
            return


def roundtrip(lines: Iterable[str], out: TextIO) -> int:
    """Each line through the typed model and back, one line each, in order (a test of the
    model). The first line that does not fit stops it: a message on stderr, status 1."""
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            out.write(encode(decode_line(line)) + "\n")
        except ProtocolError as error:
            print(f"--roundtrip: line {number}: {error}", file=sys.stderr)
            return 1
    out.flush()
    return 0


def main(argv: list[str] | None = None) -> int:
    """Play (or round-trip); the exit status."""
    parser = argparse.ArgumentParser(description="A Knockout Whist bot (protocol v1).")
    parser.add_argument("--eps", type=float, default=0.0, help="share of random moves (0..1)")
    parser.add_argument("--roundtrip", action="store_true", help="echo lines through the model")
    args = parser.parse_args(argv)
    if not 0.0 <= args.eps <= 1.0:
        parser.error(f"--eps takes a share from 0 to 1, not {args.eps}")
    out = sys.stdout
    if args.roundtrip:
        return roundtrip(sys.stdin, out)
    sys.stdout = sys.stderr  # a stray print() goes to the log, not into the protocol
    try:
        play(Strategy(args.eps), sys.stdin, out)
    except BrokenPipeError:  # the referee closed our stdout: nobody is listening any more
        os.dup2(os.open(os.devnull, os.O_WRONLY), out.fileno())  # no error at exit's flush
    finally:
        sys.stdout = out
    return 0


if __name__ == "__main__":
    sys.exit(main())
