"""Put a recorded game's positions to a bot again: ``arena replay GAME --ask BOT --seat S``.

The game is refereed again from its replay: the same rules, seed and game
id, every seat playing exactly its recorded moves (a seat that faulted
faults at the same request, and the referee plays it out as before). The
asked bot sits in seat S: it is sent exactly the messages that seat
received (``game_start`` with the original game id, each ``hand_start``,
the events, and each request with its original id and time fields) and
answers each request, but the game goes on with the RECORDED move whatever
it answered (the events tell it what was played), so every later decision
is the recorded position. Its answers are compared with the recorded moves.
Where seat S faulted at a request (a timeout, an illegal move, a garbled
reply), the bot is asked that request too, and its answer compared with the
fault; an answer that is not legal is said as the fault it would be.

The referee is the arena's own (:func:`arena.execute.game.play_one`) and the
players here only play back what the replay says, so the messages the bot
gets are built by the same code that built the original ones. Time: the
referee charges a bank the whole milliseconds a replay records, so each
request's ``bank_ms`` comes out as it was.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, field
from typing import Any

from arena.errors import ArenaError, BotFault, FaultKind
from arena.execute.game import play_one
from arena.game import Rules, explain_request
from arena.protocol import PROTOCOL_VERSION, Limits, full_validator
from arena.referee import Player

JSON = dict[str, Any]


class AskError(ArenaError, ValueError):
    """A replay that cannot be asked again (another protocol, no such seat or decision,
    a replay its own seed and rules do not rebuild)."""


@dataclass(frozen=True)
class Answer:
    """One decision put to the bot: what was recorded and what the bot answered."""

    decision: int
    hand: int
    action: str
    recorded: str
    #: The bot's move (None: it faulted, see ``problem``).
    asked: str | None
    info: Any = None
    problem: str | None = None
    #: Whether the seat faulted at this decision in the recording (``recorded`` says how).
    faulted: bool = False

    @property
    def differs(self) -> bool:
        """Whether the bot answered otherwise than the recording: a fault differs from a
        move; where the recording faulted, a move differs and a fault is the same."""
        if self.faulted:
            return self.asked is not None
        return self.asked != self.recorded


@dataclass
class Asked:
    """The answers to the decisions asked, and how many decisions the seat had."""

    seat: int
    name: str
    decisions: int
    answers: list[Answer] = field(default_factory=list)
    #: Why the bot could not be asked at all (it failed to start), if so.
    problem: str | None = None

    @property
    def differing(self) -> list[Answer]:
        """The answers that differ from the recording."""
        return [answer for answer in self.answers if answer.differs]


def seat_decisions(records: list[JSON], seat: int) -> int:
    """How many requests ``seat`` had in a replay: those it answered, and the one it
    faulted at (not the arena's fallbacks after it, nor any after a fault at the start)."""
    moves = [r for r in records if r["type"] == "move" and r["seat"] == seat]
    answered = sum(1 for move in moves if not move.get("fallback"))
    fault = _faults(records).get(str(seat))
    return answered + (answered < len(moves) and not _at_start(moves, fault))


def _faults(records: list[JSON]) -> dict[str, JSON]:
    """The faults by seat key of a replay's ``game_end`` (none, when it has none)."""
    end = records[-1] if records and records[-1].get("type") == "game_end" else {}
    faults: dict[str, JSON] = end.get("faults", {})
    return faults


def _at_start(moves: list[JSON], fault: JSON | None) -> bool:
    """Whether a seat faulted at its game's start, before any request (it could not start,
    failed its handshake, or was disabled): known by the fault's wording."""
    return (
        fault is not None
        and bool(moves)
        and bool(moves[0].get("fallback"))
        and str(fault["detail"]).startswith(START_FAULTS)
    )


def check_replay(records: list[JSON], seat: int, at: int | None) -> JSON:
    """The replay's header, once the replay, the seat and the decision can be asked.

    Raises:
        AskError: for a replay of another protocol version, a seat or a decision that
            does not exist.
    """
    header = records[0]
    if header.get("type") != "game":
        raise AskError("the replay's first line is not its game header")
    version = header.get("protocol")
    if version != PROTOCOL_VERSION:
        raise AskError(
            f"this replay is of protocol {version!r}: arena asks bots in protocol "
            f"{PROTOCOL_VERSION} only"
        )
    validate = full_validator("replay_line")
    for number, record in enumerate(records, 1):
        problem = next(iter(validate.iter_errors(record)), None)
        if problem is not None:
            raise AskError(f"line {number} of the replay is not a replay line: {problem.message}")
    if records[-1].get("type") != "game_end":
        raise AskError("the replay ends before its game_end: an unfinished game cannot be asked")
    seats = len(header["players"])
    if not 0 <= seat < seats:
        raise AskError.about("{seat} {n}: the game has seats 0 to {last}", n=seat, last=seats - 1)
    decisions = seat_decisions(records, seat)
    if at is not None and not 1 <= at <= decisions:
        name = header["players"][seat]["name"]
        raise AskError.about(
            "{at} {n}: seat {seat_number} ({name}) had {decisions} requests in this game "
            "(decisions 1 to {decisions})"
            if decisions
            else "{at} {n}: seat {seat_number} ({name}) had no request in this game",
            n=at,
            seat_number=seat,
            name=name,
            decisions=decisions,
        )
    return header


def game_settings(header: JSON) -> tuple[Rules, Limits]:
    """The rules and time limits a replay's header records.

    Raises:
        AskError: when they cannot be read.
    """
    try:
        return Rules.from_dict(header["rules"]), Limits(**header["limits"])
    except (KeyError, TypeError, ValueError) as error:
        raise AskError(f"the replay's rules or limits cannot be read: {error}") from None


class _Done(Exception):
    """The decision asked for has been answered: the rest of the game is not needed."""


#: How the details of faults at a game's start begin (the seat never got a request):
#: a bot that could not start, failed its handshake, or was disabled in its tournament.
START_FAULTS = ("handshake failed", "cannot start", "disabled")


class _Recorded:
    """A seat that plays its recorded moves, and faults where it faulted."""

    def __init__(self, name: str, moves: list[JSON], fault: JSON | None) -> None:
        self.name = name
        self.description = "the replay's moves"
        self.moves = moves
        self.fault = fault
        self.next = 0

    def start_game(self, message: JSON, line: bytes) -> None:
        if self.fault is not None and _at_start(self.moves, self.fault):
            raise BotFault(FaultKind(self.fault["kind"]), str(self.fault["detail"]))

    def deliver(self, message: JSON, line: bytes) -> None:
        """Nothing: a recording needs no news."""

    def recorded(self, message: JSON) -> JSON:
        """The recorded move for ``message``, checked against the rebuilt position.

        Raises:
            BotFault: where the seat faulted in the recording.
            AskError: when the recording does not fit the position rebuilt from its seed.
        """
        if self.next >= len(self.moves):
            raise AskError(f"the replay has no more moves of {self.name}: it does not fit "
                           "its own seed and rules")  # fmt: skip
        move = self.moves[self.next]
        self.next += 1
        fallback = bool(move.get("fallback"))
        # The arena's fallback is the first legal move; any other recorded move, a legal one.
        fits = move["move"] == message["legal"][0] if fallback else move["move"] in message["legal"]
        if move["action"] != message["action"] or not fits:
            raise AskError(
                f"the replay's move {move['move']!r} of {self.name} ({move['action']}) does not "
                f"fit the position its seed and rules rebuild ({message['action']}, legal "
                f"{', '.join(message['legal'])}): it cannot be asked again"
            )
        if fallback:
            assert self.fault is not None
            raise BotFault(FaultKind(self.fault["kind"]), str(self.fault["detail"]))
        return move

    def request(self, message: JSON, line: bytes, timeout_s: float) -> tuple[str, float]:
        move = self.recorded(message)
        return move["move"], float(move["ms"])

    def end_game(self) -> None:
        """Nothing to end."""

    def abandon(self, error_line: bytes | None) -> None:
        """Nothing to stop."""


class _Asking(_Recorded):
    """The asked seat: its messages go to the bot, the recorded moves to the game."""

    def __init__(
        self, name: str, moves: list[JSON], fault: JSON | None, bot: Player, at: int | None
    ) -> None:
        super().__init__(name, moves, fault)
        self.bot = bot
        self.at = at
        self.decision = 0
        self.answers: list[Answer] = []
        self.hand = 0
        self.broken = False
        #: Why the bot could not be asked at all (it failed to start), if so.
        self.problem: str | None = None

    def start_game(self, message: JSON, line: bytes) -> None:
        super().start_game(message, line)
        try:
            self.bot.start_game(message, line)
        except BotFault as fault:  # the recording goes on; the bot is asked nothing
            self.broken = True
            self.problem = f"{fault.kind.value}: {fault.detail}"

    def deliver(self, message: JSON, line: bytes) -> None:
        if message.get("type") == "hand_start":
            self.hand = message["hand"]
        if not self.broken:
            try:
                self.bot.deliver(message, line)
            except BotFault:  # its session is over: later decisions are not asked
                self.broken = True

    def request(self, message: JSON, line: bytes, timeout_s: float) -> tuple[str, float]:
        try:
            move = self.recorded(message)
        except BotFault as fault:  # the seat faulted here: the bot is asked this one too
            self.decision += 1
            if not self.broken:
                said = f"a fault ({fault.kind.value}: {fault.detail})"
                self._ask(message, line, timeout_s, said, faulted=True)
            if self.at is not None and self.decision >= self.at:
                raise _Done from None
            raise
        self.decision += 1
        if not self.broken:
            self._ask(message, line, timeout_s, move["move"])
        if self.at is not None and self.decision >= self.at:
            raise _Done
        return move["move"], float(move["ms"])

    def _ask(
        self, message: JSON, line: bytes, timeout_s: float, recorded: str, *, faulted: bool = False
    ) -> None:
        asked: str | None
        info = problem = None
        try:
            asked, _ = self.bot.request(message, line, timeout_s)
        except BotFault as fault:
            self.broken = True  # its session is over: later decisions are not asked
            asked, problem = None, f"{fault.kind.value}: {fault.detail}"
        else:
            info = (getattr(self.bot, "thought", None) or {}).get("info")
            if asked not in message["legal"]:  # a fault in a game: said as one (it goes on here)
                asked, problem = None, f"illegal: {explain_request(message, asked)}"
        answer = Answer(self.decision, self.hand, message["action"], recorded, asked,
                        info=info, problem=problem, faulted=faulted)  # fmt: skip
        if self.at is None or self.decision == self.at:
            self.answers.append(answer)

    def end_game(self) -> None:
        if not self.broken:
            self.bot.end_game()


def ask_again(records: list[JSON], seat: int, bot: Player, at: int | None = None) -> Asked:
    """Put the recorded decisions of ``seat`` (all, or decision ``at``) to ``bot``.

    ``bot`` is started by the game's ``game_start`` (a process player starts its
    process then) and is not closed here.

    Raises:
        AskError: as :func:`check_replay`, or when the replay does not fit its own seed
            and rules.
    """
    header = check_replay(records, seat, at)
    players_info = sorted(header["players"], key=lambda player: player["seat"])
    faults = _faults(records)
    moves: list[list[JSON]] = [[] for _ in players_info]
    for record in records:
        if record["type"] == "move":
            moves[record["seat"]].append(record)
    players: list[Player] = []
    for index, info in enumerate(players_info):
        fault = faults.get(str(index))
        if index == seat:
            asking = _Asking(str(info["name"]), moves[index], fault, bot, at)
            players.append(asking)
        else:
            players.append(_Recorded(str(info["name"]), moves[index], fault))
    rules, limits = game_settings(header)
    with contextlib.suppress(_Done):  # the decision asked for is answered: stop there
        play_one(players, rules, seed=header["seed"], game_id=str(header["game"]), limits=limits)
    return Asked(seat, str(players_info[seat]["name"]), seat_decisions(records, seat),
                 asking.answers, asking.problem)  # fmt: skip
