"""What one seat knows of the game, kept from the messages it was sent: a person's table.

A person's seat is sent exactly what a bot's is (protocol v1), and this is
all it keeps: so the terminal and the page, which draw from it, can show
nothing a bot in that seat could not see. It is bookkeeping only, as the
replay viewer's: a play puts a card on the trick, a trick event names its
winner, a request's ``state`` is taken as it is. Every rule stays in the
engine.
"""

from __future__ import annotations

from collections import deque
from typing import Any

from arena.report.narrate import Narrator

JSON = dict[str, Any]

#: Lines of the game's story kept for the table (older ones are dropped: memory stays flat).
LOG_LINES = 40


class SeatView:
    """The table as one seat sees it, updated by each message that seat receives."""

    def __init__(self) -> None:
        self._reset()

    def _reset(self) -> None:
        """Forget everything: a new game carries nothing over."""
        self.names: list[str] = []
        self.seat = 0
        self.rules: JSON = {}
        self.hand = 0
        self.hand_size = 0
        self.dealer: int | None = None
        self.trump: str | None = None
        self.turn_up: str | None = None
        self.cards: list[str] = []
        self.statuses: list[str] = []
        self.tricks: list[int] = []
        #: The trick in progress, every turn in order: ``[seat, card or "knock"]``.
        self.trick: list[list[Any]] = []
        self.leader: int | None = None
        #: The last completed trick and its winner, while the next one is empty.
        self.last_trick: JSON | None = None
        self.blind: list[int] = []
        self.dog_cards: dict[str, str] = {}
        self.placements: list[int] | None = None
        self.winner: int | None = None
        self.faults: dict[str, JSON] = {}
        #: Why this seat was stopped, if it was (the referee's ``error``).
        self.stopped: str | None = None
        self.log: deque[str] = deque(maxlen=LOG_LINES)
        self._narrator = Narrator([])

    def update(self, message: JSON) -> list[str]:
        """Take one message the seat was sent; return the lines of story it adds."""
        kind = message.get("type")
        lines: list[str] = []
        if kind == "game_start":
            self._reset()
            self.seat = message["seat"]
            self.names = [str(name) for name in message["players"]]
            self.rules = dict(message["rules"])
            self._narrator = Narrator(
                [f"{name} (you)" if s == self.seat else name for s, name in enumerate(self.names)],
                show_hands=False,
            )
        elif kind == "hand_start":
            lines = self._hand_start(message)
        elif kind == "event":
            self._event(message)
            lines = self._narrator.lines(message)
        elif kind == "request":
            self._request(message["state"])
        elif kind == "hand_end":
            self.statuses = list(message["statuses"])
            self.tricks = list(message["tricks"])
            lines = self._narrator.lines(message)
        elif kind == "game_end":
            self.placements = list(message["placements"])
            self.winner = message["winner"]
            self.faults = dict(message.get("faults", {}))
            self.trick = []
            lines = self._narrator.lines(message)
        elif kind == "error":
            self.stopped = str(message.get("message", ""))
        self.log.extend(lines)
        return lines

    @property
    def finished(self) -> bool:
        """Whether the game is over (``game_end`` was received)."""
        return self.placements is not None

    def name(self, seat: int) -> str:
        """A seat's name as this seat's person reads it: ``You`` for their own."""
        return "You" if seat == self.seat else self.names[seat]

    def to_json(self) -> JSON:
        """Everything the seat knows, for its page (never more than its messages held).

        A snapshot: nothing in it changes as the game goes on (the page's
        server encodes it in another thread).
        """
        last = self.last_trick
        return {
            "seat": self.seat,
            "names": list(self.names),
            "rules": dict(self.rules),
            "hand": self.hand,
            "hand_size": self.hand_size,
            "dealer": self.dealer,
            "trump": self.trump,
            "turn_up": self.turn_up,
            "cards": list(self.cards),
            "statuses": list(self.statuses),
            "tricks": list(self.tricks),
            "trick": [list(turn) for turn in self.trick],
            "leader": self.leader,
            "last_trick": None if last is None else {**last, "moves": list(last["moves"])},
            "blind": list(self.blind),
            "dog_cards": dict(self.dog_cards),
            "placements": None if self.placements is None else list(self.placements),
            "winner": self.winner,
            "faults": dict(self.faults),
            "stopped": self.stopped,
            "log": list(self.log),
        }

    def _hand_start(self, message: JSON) -> list[str]:
        self.hand = message["hand"]
        self.hand_size = message["hand_size"]
        self.dealer = message["dealer"]
        self.cards = list(message["cards"])
        self.turn_up = message["turn_up"]
        self.statuses = list(message["statuses"])
        self.dog_cards = dict(message.get("dog_cards", {}))
        self.tricks = [0] * len(self.statuses)
        self.trick = []
        self.last_trick = None
        self.trump = None
        self.blind = []
        self.leader = None
        return self._narrator.lines(message)

    def _event(self, message: JSON) -> None:
        event = message["event"]
        if event == "trump":
            self.trump = message["suit"]
        elif event in ("play", "knock"):
            if not self.trick:
                self.last_trick = None
            seat = message["seat"]
            self.trick.append([seat, message["card"] if event == "play" else "knock"])
            if event == "play" and seat == self.seat and message["card"] in self.cards:
                self.cards.remove(message["card"])
            if event == "play" and seat == self.seat and self.seat in self.blind:
                self.cards = []
        elif event == "trick":
            winner = message["winner"]
            self.tricks[winner] += 1
            self.last_trick = {"moves": self.trick, "winner": winner}
            self.trick = []
            self.leader = winner

    def _request(self, state: JSON) -> None:
        self.cards = list(state["cards"])
        self.trump = state["trump"]
        self.tricks = list(state["tricks"])
        self.statuses = list(state["statuses"])
        self.leader = state["leader"]
        self.blind = list(state["blind"])
        self.dog_cards = dict(state.get("dog_cards", {}))
