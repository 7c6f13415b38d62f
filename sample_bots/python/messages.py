"""The typed model of protocol v1: every message, both directions, as a dataclass.

``decode_line(line)`` reads one JSON line into its message (a :class:`Request`,
a :class:`TrickEvent`, ...); ``encode(message)`` writes it back as one line.
The fields are named as on the wire (see ``protocol/README.md`` in
the arena repository), and typed: cards are :class:`~cards.Card`, suits
:class:`~cards.Suit`, moves :data:`~cards.Move`, seat maps ``dict[int, ...]``
(``{"2": "7S"}`` on the wire is ``{2: Card.parse("7S")}``), lists are tuples.
Every message is frozen, and matches by its class::

    match decode_line(line):
        case Request(id=id, legal=legal, state=state): ...
        case GameStart(game=game, seat=seat): ...

Two kinds of "missing" are kept apart, as on the wire:

- a field that may be null is always there: ``trump``, ``turn_up``,
  ``chooser``, the trump event's ``seat`` (``None`` is written ``null``);
- an optional field may be absent: ``dog_cards``, ``knocked``, ``error.id``,
  ``ready.version``, ``ready.author``, ``move.info``. ``None`` means absent
  and is not written at all (so an ``info`` of ``null`` is no info).

Fields this model does not know (a later arena may add some) are kept in
each object's ``extra`` and written back after the known ones, so decoding
and encoding a line gives the same JSON back. A line that does not fit the
model raises :class:`ProtocolError` naming the field, e.g.
``request.state.trick[0][1]: expected a card like "TD", got "1X"``.

Standard library only.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from enum import StrEnum
from typing import Any, ClassVar, NamedTuple, Self, TypeAlias, TypeVar

from cards import Card, Move, Suit, Word, parse_move

#: Any JSON value (the free-form ``info`` of a move, an unknown field).
JsonValue: TypeAlias = "bool | int | float | str | list[JsonValue] | dict[str, JsonValue] | None"
JsonObject: TypeAlias = dict[str, JsonValue]
T = TypeVar("T")
U = TypeVar("U")
E = TypeVar("E", bound=StrEnum)
#: Reads one JSON value (as ``json.loads`` made it) into the model, or raises ``_Invalid``.
Decoder: TypeAlias = Callable[[object], T]


class ProtocolError(ValueError):
    """A line that is not a message of the model. ``unknown``: its ``type`` (or ``event``)
    is one this version does not know, which a v1 bot ignores."""

    def __init__(self, message: str, *, unknown: bool = False) -> None:
        super().__init__(message)
        self.unknown = unknown


class _Invalid(Exception):
    """A value that does not fit, on its way out to :func:`decode`: each list and object
    it passes through adds where it was (``[2]``, ``.cards``), so that nothing is spent
    on paths while every value fits."""

    def __init__(self, problem: str) -> None:
        super().__init__(problem)
        self.problem = problem
        self.where: list[str] = []  # innermost first

    def inside(self, where: str) -> _Invalid:
        """This error, one level further out."""
        self.where.append(where)
        return self


def _show(value: object) -> str:
    text = json.dumps(value)
    return text if len(text) <= 60 else f"{text[:57]}..."


def _expected(what: str, value: object) -> _Invalid:
    return _Invalid(f"expected {what}, got {_show(value)}")


# ---- decoders of values ----------------------------------------------------------------


def _integer(value: object) -> int:
    if type(value) is not int:  # not isinstance: JSON's true is no number
        raise _expected("an integer", value)
    return value


def _count(value: object) -> int:
    """An integer >= 0: a seat, a number of tricks, milliseconds."""
    if type(value) is not int or value < 0:
        raise _expected("an integer >= 0", value)
    return value


def _string(value: object) -> str:
    if type(value) is not str:
        raise _expected("a string", value)
    return value


def _boolean(value: object) -> bool:
    if type(value) is not bool:
        raise _expected("true or false", value)
    return value


def _card(value: object) -> Card:
    try:
        return Card.parse(value)  # type: ignore[arg-type]  # anything not a card raises
    except (ValueError, TypeError):
        raise _expected('a card like "TD"', value) from None


def _suit(value: object) -> Suit:
    try:
        return Suit.parse(value)  # type: ignore[arg-type]  # anything not a suit raises
    except (ValueError, TypeError):
        raise _expected("a suit (C, H, D or S)", value) from None


def _move(value: object) -> Move:
    try:
        return parse_move(value)  # type: ignore[arg-type]  # anything not a move raises
    except (ValueError, TypeError):
        raise _expected("a move (a card, a suit, knock, blind, pass or declare)", value) from None


def _card_or_knock(value: object) -> Card | Word:
    return Word.KNOCK if value == Word.KNOCK else _card(value)


def _json(value: object) -> JsonValue:
    """Any JSON value, kept as it is."""
    return value  # type: ignore[return-value]  # json.loads makes nothing else


def _one_of(kind: type[E]) -> Decoder[E]:
    values = {member.value: member for member in kind}

    def decode(value: object) -> E:
        member = values.get(value) if type(value) is str else None
        if member is None:
            raise _expected(f"one of {', '.join(values)}", value)
        return member

    return decode


def _nullable(decode: Decoder[T]) -> Decoder[T | None]:
    return lambda value: None if value is None else decode(value)


def _list(decode: Decoder[T], at_least: int = 0) -> Decoder[tuple[T, ...]]:
    def decode_list(value: object) -> tuple[T, ...]:
        if type(value) is not list or len(value) < at_least:
            raise _expected(f"a list of at least {at_least}" if at_least else "a list", value)
        try:
            return tuple([decode(item) for item in value])
        except _Invalid:  # find the item again, to say which
            for index, item in enumerate(value):
                try:
                    decode(item)
                except _Invalid as error:
                    raise error.inside(f"[{index}]") from None
            raise

    return decode_list


def _pair(make: Callable[[int, U], T], second: Decoder[U]) -> Decoder[T]:
    """``[seat, x]`` on the wire, made into ``make(seat, x)``."""

    def decode(value: object) -> T:
        if type(value) is not list or len(value) != 2:
            raise _expected("a pair [seat, ...]", value)
        seat, other = value
        if type(seat) is not int or seat < 0:
            raise _expected("a seat (an integer >= 0)", seat).inside("[0]")
        try:
            return make(seat, second(other))
        except _Invalid as error:
            raise error.inside("[1]") from None

    return decode


def _by_seat(decode: Decoder[T]) -> Decoder[dict[int, T]]:
    """An object keyed by seat numbers written as strings (``{"2": "7S"}``)."""

    def decode_map(value: object) -> dict[int, T]:
        if type(value) is not dict:
            raise _expected("an object", value)
        out: dict[int, T] = {}
        for key, item in value.items():
            if not (key.isascii() and key.isdigit() and str(int(key)) == key):
                raise _expected("a seat number as a string", key).inside(f" key {key!r}")
            try:
                out[int(key)] = decode(item)
            except _Invalid as error:
                raise error.inside(f".{key}") from None
        return out

    return decode_map


# ---- the model -------------------------------------------------------------------------


def wire(decode: Decoder[Any], *, optional: bool = False) -> Any:
    """A field of the model, read from JSON by ``decode``. An ``optional`` field may be
    absent on the wire: ``None`` then, and not written back (a field that may be null,
    such as ``trump``, is not optional: it is always there)."""
    if optional:
        return field(default=None, metadata={"decode": decode, "optional": True})
    return field(metadata={"decode": decode})


@dataclass(frozen=True)
class _Wire:
    """What every object of the model shares: its fields as read from JSON and written
    back, and ``extra``, the fields of its JSON object that this model does not know."""

    #: The message's ``type`` (empty for the objects inside messages).
    TYPE: ClassVar[str] = ""
    #: An event's ``event``.
    EVENT: ClassVar[str] = ""
    extra: JsonObject = field(default_factory=dict, kw_only=True)

    @classmethod
    def from_json(cls, value: object) -> Self:
        """The object a JSON object (from ``json.loads``) holds.

        Raises:
            ProtocolError: it does not fit the model.
        """
        try:
            return cls._read(value)
        except _Invalid as error:
            where = "".join(reversed(error.where))
            raise ProtocolError(f"{cls.TYPE or cls.__name__}{where}: {error.problem}") from None

    @classmethod
    def _read(cls, value: object) -> Self:
        if type(value) is not dict:
            raise _expected("an object", value)
        known, wired = _wired(cls)
        args: dict[str, Any] = {}
        for name, decode, optional in wired:
            if name in value:
                try:
                    args[name] = decode(value[name])
                except _Invalid as error:
                    raise error.inside(f".{name}") from None
            elif not optional:
                raise _Invalid(f"missing field {name!r}")
        extra = {key: item for key, item in value.items() if key not in known}
        return cls(**args, extra=extra)

    def to_json(self) -> JsonObject:
        """The object as a JSON object: ``type`` (and ``event``) first, then its fields in
        order (but absent optional ones), then ``extra``."""
        out: JsonObject = {}
        if self.TYPE:
            out["type"] = self.TYPE
        if self.EVENT:
            out["event"] = self.EVENT
        for name, _, optional in _wired(type(self))[1]:
            value = getattr(self, name)
            if value is not None or not optional:
                out[name] = _to_json(value)
        for key, item in self.extra.items():
            out.setdefault(key, item)
        return out


#: A class's JSON keys (``type`` and ``event`` too), and each field's name, decoder and
#: whether it is optional.
_Wired: TypeAlias = tuple[frozenset[str], tuple[tuple[str, Decoder[Any], bool], ...]]
_WIRED: dict[type[_Wire], _Wired] = {}


def _wired(cls: type[_Wire]) -> _Wired:
    """What :data:`_Wired` says of ``cls``, read from its fields once."""
    found = _WIRED.get(cls)
    if found is None:
        wired = tuple(
            (each.name, each.metadata["decode"], bool(each.metadata.get("optional")))
            for each in fields(cls)
            if "decode" in each.metadata
        )
        found = _WIRED[cls] = (frozenset({"type", "event", *(w[0] for w in wired)}), wired)
    return found


def _to_json(value: object) -> JsonValue:
    """A value of the model in its JSON form."""
    if isinstance(value, _Wire):
        return value.to_json()
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, StrEnum):
        return value.value
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, list | tuple):
        return [_to_json(item) for item in value]
    if isinstance(value, Mapping):
        return {str(key): _to_json(item) for key, item in value.items()}
    raise TypeError(f"not a JSON value: {value!r}")


W = TypeVar("W", bound=_Wire)


def _model(kind: type[W]) -> Decoder[W]:
    """The decoder of an object inside a message."""
    return kind._read


# ---- values ----------------------------------------------------------------------------


class Status(StrEnum):
    """A seat's status in a hand."""

    ACTIVE = "active"
    DOG = "dog"
    OUT = "out"


class Action(StrEnum):
    """What a request asks for."""

    #: A card (or, for a dog, ``knock``; for a blind dog, ``blind``).
    PLAY = "play"
    #: A suit, as trumps for the hand.
    TRUMP = "trump"
    #: ``pass`` or ``declare`` a rainbow (one card of each suit on the 4-card hand).
    RAINBOW = "rainbow"
    #: ``pass`` or ``declare`` a hand with no card above a ten (voids the hand).
    NO_PICTURE = "no_picture"


class DogLife(StrEnum):
    """Who gets a Dog's Life (the rule option ``dog_life``)."""

    STANDARD = "standard"
    EXPANDED = "expanded"
    NONE = "none"


class TieBreak(StrEnum):
    """How a tie for naming trumps is settled (``tie_break``)."""

    CUT = "cut"
    RANDOM = "random"


class Declaration(StrEnum):
    """What a seat declared."""

    RAINBOW = "rainbow"
    NO_PICTURE = "no_picture"


class CutPurpose(StrEnum):
    """What a cut decided."""

    DEALER = "dealer"
    TRUMP = "trump"


class FaultKind(StrEnum):
    """Why a seat forfeited a game."""

    TIMEOUT = "timeout"
    CRASH = "crash"
    ILLEGAL = "illegal"
    MALFORMED = "malformed"


class SeatCard(NamedTuple):
    """``[seat, card]`` on the wire: who played (or drew) which card."""

    seat: int
    card: Card


class Turn(NamedTuple):
    """``[seat, card or "knock"]`` on the wire: one turn of a completed trick."""

    seat: int
    move: Card | Word


_cards = _list(_card)
_seat_cards = _list(_pair(SeatCard, _card))
_statuses = _list(_one_of(Status))
_counts = _list(_count)


@dataclass(frozen=True)
class Limits(_Wire):
    """The session's time limits, in milliseconds."""

    startup_ms: int = wire(_count)
    move_ms: int = wire(_count)
    bank_ms: int = wire(_count)


@dataclass(frozen=True)
class Time(_Wire):
    """This move's clock: ``move_ms`` free, then the game's ``bank_ms`` is drawn on."""

    move_ms: int = wire(_count)
    bank_ms: int = wire(_count)


@dataclass(frozen=True)
class Rules(_Wire):
    """Every rule option in force (see the guide's rules in brief)."""

    players: int = wire(_count)
    dog_life: DogLife = wire(_one_of(DogLife))
    dog_first_hand_only: bool = wire(_boolean)
    blind_dog: bool = wire(_boolean)
    upside_dog: bool = wire(_boolean)
    rainbow: bool = wire(_boolean)
    no_picture: bool = wire(_boolean)
    trumps_broken: bool = wire(_boolean)
    eliminated_deals: bool = wire(_boolean)
    sweep_wins: bool = wire(_boolean)
    tie_break: TieBreak = wire(_one_of(TieBreak))


@dataclass(frozen=True)
class CompletedTrick(_Wire):
    """A completed trick of this hand, as ``state.history`` lists it."""

    #: The seat whose card led (a dog that knocked before it comes first in ``moves``).
    leader: int = wire(_count)
    #: Every turn taken, in order, knocks included.
    moves: tuple[Turn, ...] = wire(_list(_pair(Turn, _card_or_knock), at_least=1))
    winner: int = wire(_count)


@dataclass(frozen=True)
class State(_Wire):
    """The ``state`` of a request: everything this seat may know, nothing else."""

    seat: int = wire(_count)
    #: The hand's number, 1 to 7.
    hand: int = wire(_count)
    #: Cards dealt to a seat that is not a dog.
    hand_size: int = wire(_count)
    dealer: int = wire(_count)
    #: ``None`` only while trumps are being named.
    trump: Suit | None = wire(_nullable(_suit))
    #: The cards this seat still holds; ``()`` for a blind dog.
    cards: tuple[Card, ...] = wire(_cards)
    #: The seat leading the current trick.
    leader: int = wire(_count)
    #: The current trick so far.
    trick: tuple[SeatCard, ...] = wire(_seat_cards)
    #: Every card played this hand, in order (the current trick's too).
    played: tuple[SeatCard, ...] = wire(_seat_cards)
    #: Tricks taken this hand, by seat.
    tricks: tuple[int, ...] = wire(_counts)
    #: By seat, as dealt: a dog that wins its trick stays a dog until ``hand_end``.
    statuses: tuple[Status, ...] = wire(_statuses)
    #: The card turned up for trumps on hand 1 (out of play); ``None`` later.
    turn_up: Card | None = wire(_nullable(_card))
    #: The completed tricks of this hand, in order.
    history: tuple[CompletedTrick, ...] = wire(_list(_model(CompletedTrick)))
    #: Seats playing a blind dog this hand.
    blind: tuple[int, ...] = wire(_counts)
    #: Face-up dog cards (``upside_dog``), played or not; absent when none is face up.
    dog_cards: dict[int, Card] | None = wire(_by_seat(_card), optional=True)
    #: Seats that knocked in the trick in progress (this arena always sends it).
    knocked: tuple[int, ...] | None = wire(_counts, optional=True)


@dataclass(frozen=True)
class Fault(_Wire):
    """Why a seat forfeited a game."""

    kind: FaultKind = wire(_one_of(FaultKind))
    detail: str = wire(_string)


# ---- referee -> bot --------------------------------------------------------------------


@dataclass(frozen=True)
class Hello(_Wire):
    """Session start: answer :class:`Ready` within ``limits.startup_ms``."""

    TYPE = "hello"
    protocol: int = wire(_integer)
    limits: Limits = wire(_model(Limits))


@dataclass(frozen=True)
class GameStart(_Wire):
    """A new game: its id, your seat, the players' names in seat order, the rules."""

    TYPE = "game_start"
    game: str = wire(_string)
    seat: int = wire(_count)
    players: tuple[str, ...] = wire(_list(_string))
    rules: Rules = wire(_model(Rules))


@dataclass(frozen=True)
class HandStart(_Wire):
    """A new deal; ``cards`` is ``()`` for a seat that holds none or may not look (a blind
    dog)."""

    TYPE = "hand_start"
    hand: int = wire(_count)
    dealer: int = wire(_count)
    cards: tuple[Card, ...] = wire(_cards)
    hand_size: int = wire(_count)
    turn_up: Card | None = wire(_nullable(_card))
    statuses: tuple[Status, ...] = wire(_statuses)
    dog_cards: dict[int, Card] | None = wire(_by_seat(_card), optional=True)


@dataclass(frozen=True)
class TrumpEvent(_Wire):
    """Trumps for this hand; ``seat`` named them, or ``None`` for the turned-up card."""

    TYPE = "event"
    EVENT = "trump"
    suit: Suit = wire(_suit)
    seat: int | None = wire(_nullable(_count))


@dataclass(frozen=True)
class PlayEvent(_Wire):
    """A card played to the current trick."""

    TYPE = "event"
    EVENT = "play"
    seat: int = wire(_count)
    card: Card = wire(_card)


@dataclass(frozen=True)
class KnockEvent(_Wire):
    """A dog let its turn go by."""

    TYPE = "event"
    EVENT = "knock"
    seat: int = wire(_count)


@dataclass(frozen=True)
class TrickEvent(_Wire):
    """A trick is complete: its winner, and its cards in play order."""

    TYPE = "event"
    EVENT = "trick"
    winner: int = wire(_count)
    cards: tuple[SeatCard, ...] = wire(_seat_cards)


@dataclass(frozen=True)
class DeclareEvent(_Wire):
    """A declaration that ended or voided the hand, with the declarer's cards."""

    TYPE = "event"
    EVENT = "declare"
    seat: int = wire(_count)
    what: Declaration = wire(_one_of(Declaration))
    cards: tuple[Card, ...] = wire(_cards)


@dataclass(frozen=True)
class CutEvent(_Wire):
    """Cards drawn to choose the first dealer or to break a tie for naming trumps."""

    TYPE = "event"
    EVENT = "cut"
    purpose: CutPurpose = wire(_one_of(CutPurpose))
    draws: tuple[SeatCard, ...] = wire(_seat_cards)
    winner: int = wire(_count)


@dataclass(frozen=True)
class Request(_Wire):
    """Your turn: answer a :class:`MoveReply` with this ``id`` and one of ``legal``, in time."""

    TYPE = "request"
    id: int = wire(_integer)
    action: Action = wire(_one_of(Action))
    #: Every allowed move, in the canonical order; never empty (the fallback is ``legal[0]``).
    legal: tuple[Move, ...] = wire(_list(_move, at_least=1))
    state: State = wire(_model(State))
    time: Time = wire(_model(Time))


@dataclass(frozen=True)
class ErrorMessage(_Wire):
    """Your reply was refused, and the game is forfeit; ``id`` is the request's, when the
    error is about a reply."""

    TYPE = "error"
    message: str = wire(_string)
    id: int | None = wire(_integer, optional=True)


@dataclass(frozen=True)
class HandEnd(_Wire):
    """A deal is over: tricks and statuses (after this hand) by seat; ``chooser`` names
    trumps next (``None`` when the game is over)."""

    TYPE = "hand_end"
    hand: int = wire(_count)
    tricks: tuple[int, ...] = wire(_counts)
    statuses: tuple[Status, ...] = wire(_statuses)
    chooser: int | None = wire(_nullable(_count))


@dataclass(frozen=True)
class GameEnd(_Wire):
    """A game is over: placements by seat (1 = winner; equal numbers share a place), the
    lowest seat placed 1st, and the faults by seat."""

    TYPE = "game_end"
    game: str = wire(_string)
    placements: tuple[int, ...] = wire(_list(_integer))
    winner: int = wire(_count)
    faults: dict[int, Fault] = wire(_by_seat(_model(Fault)))


@dataclass(frozen=True)
class Bye(_Wire):
    """The session is over: exit with status 0."""

    TYPE = "bye"


# ---- bot -> referee --------------------------------------------------------------------


@dataclass(frozen=True)
class Ready(_Wire):
    """The answer to :class:`Hello`: the name the bot gives itself."""

    TYPE = "ready"
    name: str = wire(_string)
    version: str | None = wire(_string, optional=True)
    author: str | None = wire(_string, optional=True)


@dataclass(frozen=True)
class MoveReply(_Wire):
    """The answer to a :class:`Request`; ``info`` (any JSON value, kept in the replay beside
    the move) says what the bot was thinking."""

    TYPE = "move"
    id: int = wire(_integer)
    move: Move = wire(_move)
    info: JsonValue = wire(_json, optional=True)


@dataclass(frozen=True)
class Decision:
    """What ``Strategy.choose`` returns, in every starter kit: the move and the ``info`` to
    send with it (what the bot was thinking: an estimate, rollouts, a line of play), e.g.
    ``Decision(card, {"value": 0.6})``. No ``info`` (``None``) sends no ``info`` key.
    (``bot.py`` also takes a bare move, as this kit's first version asked.)"""

    move: Move
    info: JsonValue = None


Event: TypeAlias = TrumpEvent | PlayEvent | KnockEvent | TrickEvent | DeclareEvent | CutEvent
RefereeMessage: TypeAlias = (
    Hello | GameStart | HandStart | Event | Request | ErrorMessage | HandEnd | GameEnd | Bye
)
BotMessage: TypeAlias = Ready | MoveReply
Message: TypeAlias = RefereeMessage | BotMessage

_EVENTS: dict[str, type[Event]] = {
    kind.EVENT: kind
    for kind in (TrumpEvent, PlayEvent, KnockEvent, TrickEvent, DeclareEvent, CutEvent)
}
_MESSAGES: dict[str, type[Message]] = {
    kind.TYPE: kind
    for kind in (
        Hello, GameStart, HandStart, Request, ErrorMessage, HandEnd, GameEnd, Bye,
        Ready, MoveReply,
    )
}  # fmt: skip


def decode(value: object) -> Message:
    """The message a JSON object (from ``json.loads``) is, by its ``type`` (and an event's
    ``event``): one of the referee's, or a bot's reply (``ready``, ``move``).

    Raises:
        ProtocolError: it is not a message of protocol v1 (``unknown`` set when only its
            ``type`` or ``event`` is new: a later version's message, to ignore).
    """
    if type(value) is not dict:
        raise ProtocolError(f"message: expected an object, got {_show(value)}")
    kind = value.get("type")
    if kind == "event":
        event = value.get("event")
        if event in _EVENTS:
            return _EVENTS[event].from_json(value)
        known = type(event) is str
        raise ProtocolError(f"event.event: unknown event {_show(event)}", unknown=known)
    if kind in _MESSAGES:
        return _MESSAGES[kind].from_json(value)
    known = type(kind) is str
    raise ProtocolError(f"message.type: unknown message type {_show(kind)}", unknown=known)


def decode_line(line: str) -> Message:
    """The message one JSON line holds (see :func:`decode`).

    Raises:
        ProtocolError: the line is not JSON, or not a message of protocol v1.
    """
    try:
        value = json.loads(line)
    except ValueError as error:  # json.JSONDecodeError, or bad UTF-8
        raise ProtocolError(f"not JSON: {error}") from None
    return decode(value)


def encode(message: Message) -> str:
    """``message`` as its JSON line, compact, without the newline.

    Raises:
        TypeError: it holds something JSON cannot write (a set in ``info``).
        ValueError: it holds a number JSON cannot write (NaN), or a circular ``info``.
    """
    return json.dumps(message.to_json(), separators=(",", ":"), allow_nan=False)
