"""The seats of ``arena play``: which BOT arguments are people, their table, and the game's
settings resolved once (:func:`resolve_play`).

A BOT argument ``human`` or ``human:NAME`` seats a person (a bot folder
named human is written ``./human``). One person plays at the terminal; with
``--web`` any number play in their browsers, each on a page of their own.
What they need at the table is :mod:`arena.human.table`'s (imported only
when a person sits down: every other command starts without its web server
and terminal).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from arena.bots.sandbox import SandboxRequest
from arena.bots.spec import PERSON, BotSpec, check_name, is_person, parse_bot, unique_names
from arena.errors import BotError, UsageProblem
from arena.events.settings import BotFlags
from arena.files import check_makeable
from arena.game.rules import Rules, rules_from
from arena.protocol import Limits


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
        flag = "{port}" if port is not None else "{open_pages}"
        raise UsageProblem.about(flag + " is for the pages of {web}")
    people = [seat for seat in seats if isinstance(seat, HumanSeat)]
    if len(people) > 1 and not web:
        raise UsageProblem.about(
            "{n} people at one terminal: one human seat plays at the terminal; "
            "with {web} each person gets a page of their own",
            n=len(people),
        )
    if web and not people:
        raise UsageProblem.about("{web} shows a person's table: seat one with human or human:NAME")
    return people


def default_replay(game_id: str) -> Path:
    """Where a game with people keeps its replay when ``--replay`` is not given."""
    return Path("results") / "play" / f"{game_id}.jsonl"


@dataclass(frozen=True, kw_only=True)
class PlayFlags(BotFlags):
    """What ``arena play``'s command line said; ``None``: not given."""

    bots: tuple[str, ...]
    seed: int | None = None
    replay_path: Path | None = None
    log_dir: Path | None = None
    rules: tuple[str, ...] = ()
    web: bool = False
    port: int | None = None
    open_pages: bool | None = None


@dataclass(frozen=True)
class PlaySettings:
    """One game of ``arena play``, resolved and checked before any bot is built."""

    seats: list[BotSpec | HumanSeat]
    people: list[HumanSeat]
    rules: Rules
    limits: Limits
    sandbox: SandboxRequest
    seed: int
    game_id: str
    #: Where the replay goes (a game with people keeps one even when not asked).
    replay_path: Path | None
    log_dir: Path | None
    #: The people's pages: in a browser (else one person at the terminal), on this port
    #: (0: any free one), opened for them.
    web: bool = False
    port: int = 0
    open_pages: bool = True


def resolve_play(flags: PlayFlags) -> PlaySettings:
    """The settings of one game: its seats, rules, limits and sandbox, a seed drawn when
    none is given, and the replay's and logs' places checked.

    Raises:
        UsageProblem: for fewer than 2 seats, or people who cannot sit as asked.
        ArenaError: for a bad seat, rule option, limit, or a replay or log place that
            cannot be made.
    """
    if len(flags.bots) < 2:
        raise UsageProblem("a game needs at least 2 bots")
    seats = parse_seats(list(flags.bots))
    people = check_people(seats, web=flags.web, port=flags.port, open_pages=flags.open_pages)
    rules = rules_from(
        flags.rules,
        players=len(seats),
        seats="the number of players is the number of bots given",
    )
    limits = Limits.given(startup_ms=flags.startup_ms, move_ms=flags.move_ms, bank_ms=flags.bank_ms)
    sandbox = flags.sandbox_request()
    seed = random.SystemRandom().randrange(2**31) if flags.seed is None else flags.seed
    game_id = f"play-{seed}"
    replay_path = flags.replay_path
    if replay_path is None and people:
        replay_path = default_replay(game_id)
    if replay_path is not None:  # before the game: its replay must have a place to go
        check_makeable(replay_path, "{replay}", folder=False)
    if flags.log_dir is not None:
        check_makeable(flags.log_dir, "{logs}", folder=True)
    return PlaySettings(
        seats,
        people,
        rules,
        limits,
        sandbox,
        seed,
        game_id,
        replay_path,
        flags.log_dir,
        web=flags.web,
        port=flags.port or 0,
        open_pages=flags.open_pages is not False,
    )
