"""The referee: plays one game between players with the rules engine.

It sends each player what protocol v1 says it receives (``game_start``,
``hand_start``, events, ``request``, ``hand_end``, ``game_end``), checks every
answer (the player checks the wire format, the referee checks legality) and
handles faults: the faulted seat is told why, stopped, played on by the
fixed fallback (the first legal move) and placed below every seat that did
not fault. It writes the replay as it goes.

Players are anything with the :class:`Player` interface, so most tests use
in-process fake players; :class:`arena.bots.player.ProcessPlayer` is the
real thing.
"""

# arena: compiled with mypyc
from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any, Protocol

from mypy_extensions import mypyc_attr

from arena.errors import LEFT_KIND, BotFault, FaultKind
from arena.game import OUT, DeckSource, GameState, Rules, hand_start, request_state
from arena.protocol import PROTOCOL_VERSION, Limits, encode

JSON = dict[str, Any]


class Player(Protocol):
    """What the referee needs of a seat's player."""

    name: str
    description: str

    def start_game(self, message: JSON, line: bytes) -> None:
        """Get ready for a game (start a process, handshake) and take ``game_start``."""

    def deliver(self, message: JSON, line: bytes) -> None:
        """Take an information message (no answer).

        Raises:
            BotFault: the player stopped (a person who left between turns): its seat
                faults at once.
        """

    def request(self, message: JSON, line: bytes, timeout_s: float) -> tuple[str, float]:
        """Answer a request: the move and the milliseconds it took.

        A player whose answers carry what it was thinking has it in an
        attribute ``thought`` after each answer: None, or a dict holding
        protocol v1's optional ``info`` of a move and/or ``log``, the stderr
        lines it wrote while deciding; the referee adds them to the replay's
        move.
        """

    def end_game(self) -> None:
        """The game is over for this player (``game_end`` has been delivered)."""

    def abandon(self, error_line: bytes | None) -> None:
        """The player faulted: tell it why (``error_line``) if possible and stop it."""


# The results stay plain Python classes where this module is compiled (a compiled frozen
# dataclass cannot be unpickled, nor subclassed by Python code); only _Game runs per decision.
@mypyc_attr(native_class=False)
@dataclass(frozen=True)
class Fault:
    """A fault of one seat in one game."""

    kind: FaultKind
    detail: str
    #: The seat's person left the table: ``kind`` (``crash``) is what the players and the
    #: replay are told, :attr:`counted_as` what the results count.
    left: bool = False

    @property
    def counted_as(self) -> str:
        """The kind the results store, the leaderboard and the report count: ``left`` for a
        person who left the table, where protocol v1 can only say ``crash``."""
        return LEFT_KIND if self.left else self.kind.value


@mypyc_attr(native_class=False)
@dataclass(frozen=True)
class GameResult:
    """The outcome of one refereed game, and its replay."""

    game_id: str
    seed: int
    names: tuple[str, ...]
    placements: tuple[int, ...]
    winner: int
    faults: dict[int, Fault]
    replay: list[JSON] = field(repr=False)
    decisions: int = 0
    #: For each replay record, the line its players were sent (None for records
    #: no player received as they are: moves, deals, the header).
    sent: list[bytes | None] = field(default_factory=list, repr=False)

    @cached_property
    def lines(self) -> list[bytes]:
        """The replay as JSON lines, what :func:`write_replay` writes.

        Events are encoded once, for the players, and those bytes are reused;
        the rest is encoded here, only when a replay is wanted, so the
        per-decision path pays nothing for it.
        """
        sent = self.sent or [None] * len(self.replay)
        return [
            line if line is not None else encode(record)
            for record, line in zip(self.replay, sent, strict=True)
        ]


def play_game(
    players: Sequence[Player],
    rules: Rules,
    *,
    seed: int,
    game_id: str,
    limits: Limits | None = None,
    header_extra: JSON | None = None,
    decks: DeckSource | None = None,
) -> GameResult:
    """Referee one complete game and return its result and replay.

    Never raises for a misbehaving player: every failure of a player is a
    fault of its seat. ``decks`` replaces the decks derived from ``seed``
    (hand-built positions for tests and ``check-bot``).
    """
    return _Game(players, rules, seed, game_id, limits or Limits(), header_extra, decks).run()


class _Game:
    def __init__(
        self,
        players: Sequence[Player],
        rules: Rules,
        seed: int,
        game_id: str,
        limits: Limits,
        header_extra: JSON | None,
        decks: DeckSource | None,
    ) -> None:
        if len(players) != rules.players:
            raise ValueError(f"{len(players)} players for a {rules.players}-seat game")
        self.players = players
        self.rules = rules
        self.seed = seed
        self.game_id = game_id
        self.limits = limits
        self.move_ms = limits.move_ms  # read every decision: an attribute of our own is cheaper
        self.state = GameState(rules, seed if decks is None else decks, game_id=game_id)
        self.faults: dict[int, Fault] = {}
        #: (seat, player) of every seat that has not faulted: who still gets messages.
        self.listening = list(enumerate(players))
        self.bank = [limits.bank_ms] * rules.players
        self.cursor = 0
        self.request_id = 0
        self.decisions = 0
        header: JSON = {
            "type": "game",
            "game": game_id,
            "seed": seed,
            "rules": rules.to_dict(),
            "limits": limits.to_dict(),
            "players": [
                {"seat": seat, "name": p.name, "bot": p.description}
                for seat, p in enumerate(players)
            ],
            "protocol": PROTOCOL_VERSION,
        }
        if header_extra:
            header.update(header_extra)
        self.replay: list[JSON] = [header]
        self.sent: list[bytes | None] = [None]

    def run(self) -> GameResult:
        names = [p.name for p in self.players]
        rules = self.rules.to_dict()
        for seat, player in enumerate(self.players):
            message = {
                "type": "game_start",
                "game": self.game_id,
                "seat": seat,
                "players": names,
                "rules": rules,
            }
            try:
                player.start_game(message, encode(message))
            except BotFault as fault:
                self._fault(seat, fault, None)
        self._publish()
        state = self.state
        replay = self.replay
        sent = self.sent
        ask = self._ask
        publish = self._publish
        while (pending := state.pending) is not None:
            seat, action, legal = pending
            move, ms, thought = ask(seat, action, legal)
            record: JSON = {
                "type": "move",
                "seat": seat,
                "action": action,
                "move": move,
                "ms": 0 if ms is None else round(ms),
            }
            if ms is None:
                record["fallback"] = True
            elif thought:
                record.update(thought)
            replay.append(record)
            sent.append(None)
            state.apply(move)
            self.decisions += 1
            publish()
        for seat, player in enumerate(self.players):
            if seat not in self.faults:
                player.end_game()
        placements = state.placements
        assert placements is not None  # the game is over
        return GameResult(
            game_id=self.game_id,
            seed=self.seed,
            names=tuple(names),
            placements=tuple(placements),
            winner=placements.index(1),
            faults=dict(self.faults),
            replay=self.replay,
            decisions=self.decisions,
            sent=self.sent,
        )

    def _ask(self, seat: int, action: str, legal: list[str]) -> tuple[str, float | None, Any]:
        """The seat's move and its thought (info, log), or the fallback (``None`` ms) for a
        faulted seat."""
        if seat in self.faults:
            return legal[0], None, None
        self.request_id += 1
        request = {
            "type": "request",
            "id": self.request_id,
            "action": action,
            "legal": legal,
            "state": request_state(self.state, seat),
            "time": {"move_ms": self.move_ms, "bank_ms": self.bank[seat]},
        }
        timeout_s = (self.move_ms + self.bank[seat]) / 1000.0
        try:
            # Untyped until checked: an in-process player may answer anything, which must
            # be its fault, not a TypeError of the compiled referee (which checks what a
            # call through the Player protocol returns, so the player is taken as Any).
            player: Any = self.players[seat]
            move, ms = player.request(request, encode(request), timeout_s)
            if move not in legal:
                raise BotFault(FaultKind.ILLEGAL, self.state.explain(move, seat))
        except BotFault as fault:
            self._fault(seat, fault, self.request_id)
            return legal[0], None, None
        ms = float(ms)
        # The bank is charged the whole milliseconds the replay records (round(ms)), so a
        # replay alone gives every request's bank_ms again (arena replay --ask).
        over = round(ms) - self.move_ms
        if over > 0:
            self.bank[seat] = max(0, self.bank[seat] - over)
        return move, ms, getattr(player, "thought", None)

    def _fault(self, seat: int, fault: BotFault, request_id: int | None) -> None:
        self.faults[seat] = Fault(fault.kind, fault.detail, fault.left)
        self.state.record_fault(seat, fault.kind.value, fault.detail)
        error: JSON = {"type": "error", "message": f"{fault.kind.value}: {fault.detail}"}
        if request_id is not None:
            error["id"] = request_id
        self._let_go(seat, encode(error))

    def _let_go(self, seat: int, error_line: bytes | None) -> None:
        """The seat's player hears nothing more of this game and is stopped."""
        self.listening = [(s, p) for s, p in self.listening if s != seat]
        self.players[seat].abandon(error_line)

    def _publish(self) -> None:
        """Send the engine's new records to the players and into the replay."""
        log = self.state.log
        end = len(log)
        listening = self.listening
        append = self.replay.append
        append_sent = self.sent.append
        for index in range(self.cursor, end):
            record = log[index]
            append(record)
            if record["type"] == "deal":
                append_sent(None)
                for seat, player in listening:
                    message = hand_start(record, seat)
                    try:
                        player.deliver(message, encode(message))
                    except BotFault as fault:
                        self._stopped(seat, fault)
            else:
                line = encode(record)
                append_sent(line)
                for seat, player in listening:
                    try:
                        player.deliver(record, line)
                    except BotFault as fault:
                        self._stopped(seat, fault)
            listening = self.listening  # less a seat that stopped
        self.cursor = end

    def _stopped(self, seat: int, fault: BotFault) -> None:
        """A player stopped as it took a message (a person who left between turns): its seat
        faults. A seat knocked out, or any once the game is decided (its last records going
        out), has no decision left to lose: its place stands, and the player is only let go."""
        state = self.state
        if state.pending is not None and state.statuses[seat] != OUT:
            self._fault(seat, fault, None)
        else:
            self._let_go(seat, None)


def write_replay(path: Path, lines: Sequence[bytes]) -> None:
    """Write a replay's JSON lines (a :class:`GameResult`'s ``lines``) to ``path``."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"".join(lines))


def read_replay(path: Path) -> list[JSON]:
    """Read a replay written by :func:`write_replay`.

    Raises:
        OSError, ValueError: when the file cannot be read or a line is not JSON.
    """
    with path.open(encoding="utf-8") as lines:
        return [json.loads(line) for line in lines if line.strip()]
