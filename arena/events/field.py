"""Changes to an event's field while it runs: a bot enters, retires, is disabled or enabled.

A league that never stops (the competition server's ladder) takes its
field from outside while it plays: uploads enter, authors retire their
bots, organizers disable and re-enable them. The caller of
:func:`arena.events.run.run` hands a :class:`FieldSource`; the runner asks
it for changes at each round boundary, just before the next round is made,
and applies them there, so every round is seated from one field and the
games stay a function of the seed, the rounds before and the changes (a
command line run passes no source: its field is what it was given).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from arena.bots.spec import BotSpec


@dataclass(frozen=True)
class Enter:
    """A bot joins the field (a new one at the default rating, or a retired one back)."""

    bot: BotSpec


@dataclass(frozen=True)
class Retire:
    """A bot leaves the field; it stays on the leaderboard."""

    name: str


@dataclass(frozen=True)
class Disable:
    """A bot stays in the field, but forfeits its games (why: ``reason``)."""

    name: str
    reason: str


@dataclass(frozen=True)
class Enable:
    """A disabled bot plays again."""

    name: str


FieldChange = Enter | Retire | Disable | Enable


class FieldSource(Protocol):
    """Where a run takes changes to its field from (the server: its database)."""

    def changes(self) -> Sequence[FieldChange]:
        """The changes since the last call, in the order they are to be applied (asked at
        each round boundary; none: an empty sequence)."""
        ...

    def faulted(self, name: str, why: str) -> None:
        """Bot ``name`` faulted in :data:`arena.events.run.FAULTS_IN_A_ROW` games in a row
        (``why``: how many, and the last fault's kind and game, in one line). The source
        may take it out of the field by its next changes (the server's ladder disables it:
        a bot that cannot play would fault on in every game it is seated in)."""
        ...
