"""Seats for people in ``arena play``: which BOT arguments are people, and their table.

A BOT argument ``human`` or ``human:NAME`` seats a person (a bot folder
named human is written ``./human``). One person plays at the terminal; with
``--web`` any number play in their browsers, each on a page of their own.
What they need at the table is :mod:`arena.human.table`'s (imported only
when a person sits down: every other command starts without its web server
and terminal).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from arena.bots.spec import PERSON, BotSpec, check_name, is_person, parse_bot, unique_names
from arena.errors import BotError, UsageProblem


@dataclass(frozen=True)
class HumanSeat:
    """A seat for a person: their name, and whether it was given (``human:NAME``)."""

    name: str
    named: bool = False


def parse_seat(text: str, base: Path | None = None) -> BotSpec | HumanSeat:
    """One BOT argument of ``arena play``: a person, or a bot as :func:`parse_bot` reads it.

    Raises:
        BotError: for ``human:`` without a name, a bad name, or a bad bot.
    """
    if not is_person(text):
        return parse_bot(text, base)
    if text == PERSON:
        return HumanSeat(PERSON)
    name = text.partition(":")[2]
    if not name:
        raise BotError(f"{text!r}: write human:NAME with a name, or human alone")
    return HumanSeat(check_name(name, repr(text)), named=True)


def parse_seats(texts: Sequence[str], base: Path | None = None) -> list[BotSpec | HumanSeat]:
    """Every BOT argument of ``arena play``, each seat with a name of its own.

    Raises:
        BotError: as :func:`parse_seat`, or for one name given to two seats.
    """
    seats = [parse_seat(text, base) for text in texts]
    entries = [(seat.name, seat.named) for seat in seats]
    if any(isinstance(seat, HumanSeat) for seat in seats):
        advice = "give each its own name (NAME=COMMAND for a bot, human:NAME for a person)"
        names = unique_names(entries, advice, "seats")
    else:
        names = unique_names(entries)
    return [replace(seat, name=name) for seat, name in zip(seats, names, strict=True)]


def check_people(
    seats: Sequence[BotSpec | HumanSeat],
    *,
    web: bool,
    port: int | None = None,
    open_pages: bool | None = None,
) -> list[HumanSeat]:
    """The people among ``seats``, if they can sit there (``port``, ``open_pages``: the
    ``--port`` and ``--open/--no-open`` given, None when not given).

    Raises:
        UsageProblem: two people at one terminal, ``--web`` with nobody to show it to,
            or a web option without ``--web``.
    """
    if not web and (port is not None or open_pages is not None):
        flag = "--port" if port is not None else "--open/--no-open"
        raise UsageProblem(f"{flag} is for the pages of --web")
    people = [seat for seat in seats if isinstance(seat, HumanSeat)]
    if len(people) > 1 and not web:
        raise UsageProblem(
            f"{len(people)} people at one terminal: one human seat plays at the terminal; "
            "with --web each person gets a page of their own"
        )
    if web and not people:
        raise UsageProblem("--web shows a person's table: seat one with human or human:NAME")
    return people


def default_replay(game_id: str) -> Path:
    """Where a game with people keeps its replay when ``--replay`` is not given."""
    return Path("results") / "play" / f"{game_id}.jsonl"
