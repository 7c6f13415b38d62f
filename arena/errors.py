"""The one error hierarchy of the project.

Every error the project raises on purpose derives from :class:`ArenaError`, so
that each boundary (the CLI above all) can turn it into a one-line message
instead of a traceback. Errors about bad values also subclass ``ValueError``,
the builtin they refine, so callers that know nothing of arena still catch
them naturally.
"""

import string
from collections.abc import Callable, Mapping
from enum import StrEnum
from types import MappingProxyType
from typing import Self


class ArenaError(Exception):
    """Base of every deliberate error raised by arena.

    An error about settings names them as settings (``rounds``), not as one front
    end spells them: someone who wrote ``rounds = 3`` in a TOML file is not helped by
    ``--rounds``. Made by :meth:`about`, it keeps its template, and a front end writes
    each setting as its user gave it (:meth:`spelled`: the CLI writes ``--rounds``
    for a flag typed on the command line).
    """

    #: The message with each setting it names written ``{setting}`` (None: it names none).
    template: str | None = None
    #: The template's other fields: the values the message shows.
    values: Mapping[str, object] = MappingProxyType({})

    @classmethod
    def about(cls, template: str, /, **values: object) -> Self:
        """The error of ``template``, whose fields are settings except those in ``values``.

        ``ScheduleError.about("{rounds} takes a number >= 1, not {value}", value=0)``
        reads "rounds takes a number >= 1, not 0" until a front end spells ``rounds``.
        """
        error = cls(_fill(template, values, str))
        error.template, error.values = template, dict(values)  # a dict pickles (a worker's)
        return error

    def settings(self) -> list[str]:
        """The settings the message names, in order (none for a plain message)."""
        return _settings(self.template, self.values) if self.template else []

    def spelled(self, spell: Callable[[str], str]) -> str:
        """The message with each setting written as ``spell`` says (``"--rounds"``)."""
        return str(self) if self.template is None else _fill(self.template, self.values, spell)


def _settings(template: str, values: Mapping[str, object]) -> list[str]:
    fields = (field for _, field, _, _ in string.Formatter().parse(template) if field)
    return list(dict.fromkeys(field for field in fields if field not in values))


def _fill(template: str, values: Mapping[str, object], spell: Callable[[str], str]) -> str:
    return template.format(**{name: spell(name) for name in _settings(template, values)}, **values)


class UsageProblem(ArenaError):
    """Options that cannot go together, or a command given too little to work on.

    The library finds these where it resolves settings; the CLI shows them
    as click's usage errors (exit status 2), like a flag click itself refuses.
    """


class CardError(ArenaError, ValueError):
    """A text that is not a card, suit or rank in wire form (e.g. ``"1X"``)."""


class RuleError(ArenaError, ValueError):
    """An unknown rule option or a value the option does not accept."""


class IllegalMove(ArenaError, ValueError):
    """A move the rules do not allow in the current position.

    The message is a plain sentence a bot author can act on, such as
    ``"7H is not legal: you must follow spades"``. The game state is left
    untouched when this is raised.
    """


class BotError(ArenaError):
    """A bot that cannot be used at all: bad BOT argument, bad bot.toml, no such file.

    Raised before any game runs; the CLI reports it as a domain error.
    """


class ProtocolError(ArenaError):
    """The protocol's schemas are missing or unreadable (an installation problem)."""


class FaultKind(StrEnum):
    """Why a bot forfeited a game (the ``kind`` of a fault in protocol v1)."""

    TIMEOUT = "timeout"
    CRASH = "crash"
    ILLEGAL = "illegal"
    MALFORMED = "malformed"


#: The kind the results store, the leaderboard and the report count for the fault of a seat
#: whose person left the table. On the wire and in the replay it is ``crash``: protocol
#: v1's kinds are a closed set that every kit decodes. Counted apart, a person who stood up
#: does not pass for a program that crashed.
LEFT_KIND = "left"


class BotFault(ArenaError):
    """A bot broke the protocol during a game: late, dead, illegal or garbled.

    Not an error of the command: the referee records it against the bot's
    seat, plays the seat on by the fallback move and goes on. ``left``: the
    seat's person left the table (``kind`` is then ``crash``, what protocol v1
    can say of it; the results count it as :data:`LEFT_KIND`).
    """

    def __init__(self, kind: FaultKind, detail: str, *, left: bool = False) -> None:
        super().__init__(f"{kind.value}: {detail}")
        self.kind = kind
        self.detail = detail
        self.left = left
