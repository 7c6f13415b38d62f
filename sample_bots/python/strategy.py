"""YOUR BOT: ``Strategy.choose`` is the one function to write; ``bot.py`` does the rest.

The sample plays arena's greedy strategy (``greedy.py``: read it, call it, or delete it).
Helpers are in ``helpers.py``: ``sort_legal`` (the legal moves by kind), ``winning``
(who holds the trick), ``beats``, ``unseen``, ``to_play``, ``budget_ms``; cards, suits and
ranks in ``cards.py``; every message in ``messages.py``. If ``choose`` raises or returns
a move not in ``legal``, the bot logs it and plays ``legal[0]``: a bug costs one move,
not the game. Log with ``print(..., file=sys.stderr)`` (stdout carries the protocol).
"""

from __future__ import annotations

from cards import Move
from greedy import greedy
from helpers import seeded_random
from messages import Decision, GameStart, Message, Request, State


class Strategy:
    """The bot's player. Keep whatever it should remember across requests here."""

    def __init__(self, eps: float = 0.0) -> None:
        #: The share of random moves (``--eps``; 0 plays the greedy moves only).
        self.eps = eps
        #: The ``game_start`` of the game in progress, once seen.
        self.game: GameStart | None = None
        #: Reseeded at each ``game_start`` from the game id and the seat: draw from it, and
        #: the same game gets the same moves.
        self.random = seeded_random("", 0)

    def choose(self, state: State, legal: tuple[Move, ...], request: Request) -> Decision:
        """The move for ``request``, one of ``legal`` (never empty), and its ``info``.

        ``state`` is the seat's whole information set; ``request.action`` says what is
        asked (a card, trumps, a declaration), ``request.time`` how long it may take (think
        for at most ``budget_ms(request.time, state)``). ``info`` is any JSON value, kept
        in the replay beside the move (under 4096 bytes); ``Decision(move)`` sends none.
        """
        if self.eps > 0 and self.random.random() < self.eps:
            return Decision(self.random.choice(legal), {"rule": "random"})
        move, rule = greedy(state, legal, request.action)
        return Decision(move, {"rule": rule})

    def observe(self, message: Message) -> None:
        """Sees every message that gets no reply: ``game_start``, ``hand_start``, the
        events, ``hand_end``, ``game_end``, ``error``."""
        if isinstance(message, GameStart):
            self.game = message
            self.random = seeded_random(message.game, message.seat)
