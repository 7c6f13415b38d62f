"""A tournament as an event of the runner: its schedule, its key, its league's versions.

A round-robin plays every table; a sampled or Swiss league plays rounds and
takes new bots, retired ones and new versions (``NAME@2``) between runs
(:func:`settle`). :func:`describe_plan` is ``--dry-run``'s text.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, ClassVar

from arena.bots.fingerprint import files_hash
from arena.bots.health import Broken, BrokenBots
from arena.bots.spec import BotSpec
from arena.events.event import common_key
from arena.events.feed import Feed
from arena.events.schedule import Plan, ScheduleError, Strategy
from arena.execute.calibrate import Pace
from arena.game import Rules
from arena.protocol import Limits
from arena.results.ratings import Environment, StopRule
from arena.results.store import DATABASE, Store, StoreError, base_name, open_existing
from arena.tournament.schedule import GameIds, RoundRobin, Sampled, SecretIds, Swiss

#: The largest plan played without --max-games saying more.
MAX_GAMES = 200_000


#: Rounds of a sampled or Swiss tournament when --rounds is not given.
DEFAULT_ROUNDS = 10


#: --stop-confidence when only --stop-top is given.
DEFAULT_CONFIDENCE = 0.95


@dataclass(frozen=True)
class TournamentEvent:
    """Everything that defines a tournament (and so must match when it is resumed); an
    :class:`~arena.events.event.Event` of the runner."""

    kind: ClassVar[str] = "tournament"
    #: A bot that cannot start forfeits its games; the others play on.
    halt_on_disable: ClassVar[bool] = False

    bots: tuple[BotSpec, ...]
    players: int
    deals: int
    seed: int
    rules: Rules
    limits: Limits
    resources: tuple[tuple[str, int], ...] = ()
    gauntlet: str | None = None
    #: round-robin, sampled or swiss (see :mod:`arena.tournament.schedule`).
    schedule: str = "round-robin"
    #: Sampled and Swiss: the most rounds (the total, not additional ones).
    rounds: int | None = None
    #: Sampled and Swiss: end early once the top is ordered (checked at round boundaries).
    stop: StopRule | None = None
    #: A round-robin's bots left out when its folder started, broken: (name, why). They
    #: stay out for the folder's life (its tables are fixed); a league just plays on
    #: without a broken bot, which enters when it works.
    skipped: tuple[tuple[str, str], ...] = ()
    #: Each seat rotation of a deal set played by other processes of its bots, and game
    #: ids that say nothing (:class:`~arena.tournament.schedule.SecretIds`): for fields of
    #: strangers, whose bots must not recognise a deal they played in another seat.
    isolated: bool = False

    def key(self) -> dict[str, Any]:
        """The configuration as stored, and compared on resume.

        A round-robin's key is what schema version 1 stored, so such folders
        resume; the schedule's keys come in with the other schedules.
        """
        key = common_key(
            self,
            deals=self.deals,
            # The name it entered under: a league's gauntlet bot may be updated to NAME@2.
            gauntlet=base_name(self.gauntlet) if self.gauntlet else None,
        )
        if self.schedule != "round-robin":
            key["schedule"] = self.schedule
            key["rounds"] = self.rounds
            key["stop"] = [self.stop.top, self.stop.confidence] if self.stop else None
        if self.skipped:  # only then: the keys of folders made before stay as they were
            key["skipped"] = [list(pair) for pair in self.skipped]
        if self.isolated:  # likewise
            key["isolated"] = True
        return key

    def growable(self) -> tuple[str, ...]:
        """Keys of :meth:`key` that a rerun may change (a league goes on with more rounds,
        with other bots, with another stop rule)."""
        return () if self.schedule == "round-robin" else ("rounds", "stop", "bots")

    def strategy(self) -> Strategy:
        """A fresh schedule strategy for this tournament.

        Raises:
            ScheduleError: for an unknown schedule, a field that cannot fill a
                table, bad rounds, or a stop rule where none applies.
        """
        names = [spec.name for spec in self.bots]
        if self.schedule == "round-robin":
            if self.stop is not None:
                raise ScheduleError.about(
                    "a stop rule needs {schedule} sampled or swiss "
                    "(a round-robin plays every table)"
                )
            if self.rounds is not None:
                raise ScheduleError.about(
                    "{rounds} needs {schedule} sampled or swiss (a round-robin plays every table)"
                )
            return RoundRobin(names, players=self.players, deals=self.deals, gauntlet=self.gauntlet)
        kinds: dict[str, type[Sampled]] = {"sampled": Sampled, "swiss": Swiss}
        if self.schedule not in kinds:
            raise ScheduleError(
                f"unknown schedule {self.schedule!r}: choose round-robin, sampled or swiss"
            )
        if self.stop is not None and self.stop.top < 1:
            raise ScheduleError.about("{stop_top} takes a number >= 1, not {n}", n=self.stop.top)
        if self.stop is not None and not 0.5 <= self.stop.confidence < 1.0:
            raise ScheduleError.about(
                "{stop_confidence} takes a probability in [0.5, 1), not {p}", p=self.stop.confidence
            )
        return kinds[self.schedule](
            names,
            players=self.players,
            deals=self.deals,
            seed=self.seed,
            rounds=DEFAULT_ROUNDS if self.rounds is None else self.rounds,
            gauntlet=self.gauntlet,
        )

    def plan(self) -> Plan:
        """What the schedule will play (see :class:`arena.tournament.schedule.Plan`).

        Raises:
            ScheduleError: as :meth:`strategy`.
        """
        return self.strategy().plan()

    def with_bots(self, bots: tuple[BotSpec, ...]) -> TournamentEvent:
        """A league with another field (see :class:`arena.events.field.FieldSource`).

        Raises:
            ScheduleError: for a round-robin, which keeps its field.
        """
        if "bots" not in self.growable():
            raise ScheduleError(
                "a round-robin keeps its field: bots enter and retire in a sampled or swiss league"
            )
        return replace(self, bots=bots)

    def open_tables(self) -> tuple[int, int]:
        """The tables whose games may be played at once, and the games of one table.

        A round-robin's plan is all there at once; an ungated schedule makes
        the next round while one plays; a Swiss round, or any round under a
        stop rule, waits for the ratings of the one before.
        """
        plan = self.plan()
        table = self.deals * self.players
        gated = self.schedule == "swiss" or self.stop is not None
        rounds = 1 if gated or plan.per_round is None else 2
        return (plan.per_round or plan.games) // table * rounds, table

    def status(self) -> Leader:
        """The progress line's "leader NAME (score)"."""
        return Leader()

    def check_size(self, max_games: int) -> Plan:
        """The plan, refused when it has more than ``max_games`` games.

        Raises:
            ScheduleError: for a plan too large (the message suggests a sampled
                schedule whose bots each play about as many tables as in a
                round-robin of ``players + 4`` bots, within the cap), or as
                :meth:`strategy`.
        """
        plan = self.plan()
        if plan.games <= max_games:
            return plan
        one = replace(self, schedule="sampled", rounds=1, stop=None).plan()
        rounds = max(1, min(math.comb(self.players + 3, self.players - 1), max_games // one.games))
        sampled = replace(self, schedule="sampled", rounds=rounds, stop=None).plan()
        raise ScheduleError.about(
            "the {plan} plan has {games:,} games, more than {max_games} {most:,}: try "
            "{schedule} sampled {rounds} {n} ({sampled:,} games, {each} per bot), "
            "or raise {max_games}",
            plan=plan.schedule,
            games=plan.games,
            most=max_games,
            n=rounds,
            sampled=sampled.games,
            each=per_bot(sampled),
        )

    def feed(self, store: Store) -> Feed:
        """The games of ``store`` to play, the next rounds made as they are needed."""
        environment = Environment.for_table(self.players)
        strategy = self.strategy()
        # A round-robin's ids are as wide as its count of deal sets (its games / seats).
        deal_sets = strategy.plan().games // self.players
        return Feed(
            strategy,
            store,
            deals=self.deals,
            seed=self.seed,
            ids=(
                SecretIds(self.seed)
                if self.isolated
                else GameIds(self.schedule, deals=self.deals, deal_sets=deal_sets)
            ),
            stop=self.stop,
            field=[spec.name for spec in self.bots],
            newcomer=(environment.mu, environment.sigma),
        )


class Leader:
    """A tournament's status, "leader NAME (score)": read from the store at most every
    :attr:`EVERY_S` seconds (the standings of a large field are not read per game)."""

    EVERY_S = 2.0

    def __init__(self) -> None:
        self.read_at = -self.EVERY_S
        self.text = ""

    def __call__(self, store: Store) -> str:
        now = time.monotonic()
        if now - self.read_at >= self.EVERY_S:
            self.read_at = now
            rows = store.standings()
            if rows:
                self.text = f"leader {rows[0]['bot']} ({rows[0]['score']:.2f})"
        return self.text


def describe_plan(
    tournament: TournamentEvent,
    plan: Plan,
    folder: Path,
    *,
    jobs: int = 1,
    pace: Callable[[], Pace] | None = None,
) -> str:
    """``--dry-run``'s text: the schedule, its games, games per bot, and a time estimate.

    The estimate uses the pace of the latest games finished in ``folder``
    (the same bots on the same machine, usually); without any, ``pace``
    times the bots' first moves (:func:`arena.execute.calibrate.calibrate`),
    and the plan's decisions at that pace, ``jobs`` games at once, are the
    estimate; with neither it is unknown.
    """
    bots = len(tournament.bots)
    lines = [
        f"Plan: {plan.schedule}, {bots:,} bots, {tournament.players} per table, "
        f"{tournament.deals} deal set{'s' * (tournament.deals != 1)} per table, each in "
        f"{tournament.players} seat rotations",
        f"  games: {plan.games:,} ({per_bot(plan)} per bot)",
    ]
    if plan.rounds is not None:
        lines.append(f"  rounds: {plan.rounds:,}, {plan.per_round:,} games each")
    if tournament.gauntlet:
        lines.append(f"  gauntlet: {tournament.gauntlet} sits at every table")
    if tournament.schedule == "swiss":
        lines.append(
            "  swiss: rounds 1 and 2 are seated as sampled; each later round from the "
            "standings after the round before the last (not known yet)"
        )
    if tournament.stop is not None:
        lines.append(
            f"  stop rule: once the top {tournament.stop.top} are in order with probability "
            f">= {tournament.stop.confidence} (checked each round; the games above are the most)"
        )
    done, measured = 0, None
    if (folder / DATABASE).is_file():
        store = open_existing(folder)
        try:
            done, measured = store.done(), store.games_per_second()
        finally:
            store.close()
        lines.append(f"  {folder}: {done:,} games done")
    if measured is not None:
        seconds = max(plan.games - done, 0) / measured
        lines.append(
            f"  time: about {duration(seconds)} at {measured:.1f} games/s, as measured there"
        )
    elif pace is not None:
        lines += _estimated(tournament, plan, pace(), jobs)
    else:
        lines.append(f"  time: unknown ({folder} has no finished games to measure the pace)")
    return "\n".join(lines)


def _estimated(tournament: TournamentEvent, plan: Plan, pace: Pace, jobs: int) -> list[str]:
    """The time lines of a plan at the bots' measured pace, and its bound when every seat
    spends its whole move time and bank (which a search bot does)."""
    at_once = max(1, min(jobs, tournament.open_tables()[0]))  # a worker plays a table
    limits, players = tournament.limits, tournament.players
    lines = []
    if pace.move_ms:  # each worker starts each bot once (it keeps up to 24 alive)
        seconds = (plan.games * pace.game_seconds(players) / at_once) + pace.starts_seconds()
        slowest = max(pace.move_ms, key=lambda name: pace.move_ms[name])
        lines.append(
            f"  time: about {duration(seconds)} at the bots' pace, {at_once} game"
            f"{'s' * (at_once != 1)} at once ({len(pace.move_ms)} timed over their first "
            f"moves; slowest {slowest}, {pace.move_ms[slowest]:.1f} ms a move)"
        )
    else:
        seconds = 0.0
        lines.append("  time: unknown (no bot could be timed)")
    if pace.untimed:
        shown = ", ".join(pace.untimed[:5]) + (", ..." if len(pace.untimed) > 5 else "")
        lines.append(f"  not timed: {shown} (not built yet, no answer, or past the 3 s budget)")
    worst = (
        plan.games * players * (pace.decisions * limits.move_ms + limits.bank_ms) / 1000.0 / at_once
    )
    if worst > 2 * seconds:
        lines.append(
            f"  at most {duration(worst)} if every seat spends move_ms ({limits.move_ms:,} ms) "
            f"on each move and its bank (bank_ms, {limits.bank_ms:,} ms) in each game, as a "
            "search bot does: the banks can dominate"
        )
    return lines


def per_bot(plan: Plan) -> str:
    """A plan's games per bot: ``12`` or ``10-12``."""
    low, high = plan.per_bot
    return f"{low:,}" if low == high else f"{low:,}-{high:,}"


def duration(seconds: float) -> str:
    """A duration for people: 45s, 12m05s, 3h20m, 4d06h."""
    seconds = int(seconds + 0.5)
    if seconds < 60:
        return f"{seconds}s"
    minutes, seconds = divmod(seconds, 60)
    if minutes < 60:
        return f"{minutes}m{seconds:02d}s"
    hours, minutes = divmod(minutes, 60)
    if hours < 48:
        return f"{hours}h{minutes:02d}m"
    days, hours = divmod(hours, 24)
    return f"{days}d{hours:02d}h"


def settle(
    tournament: TournamentEvent, folder: Path, update: Collection[str] = ()
) -> TournamentEvent:
    """The tournament as it goes on in ``folder``: each bot under the name it plays as there.

    A sampled or Swiss league takes new bots (they enter at the default
    rating), drops bots no longer given (they retire, and stay on the
    leaderboard) and takes back retired ones. A bot whose files changed is
    refused unless ``update`` names it: then its old version retires, and the
    new one plays as ``NAME@2`` (``@3``, ...) with a fresh rating. Nothing is
    written here (:func:`open_store` does that).

    Raises:
        ScheduleError: for ``update`` in a round-robin, or naming no bot given.
        StoreError: for a changed bot not named in ``update``, or one named
            that did not change.
    """
    names = {spec.name for spec in tournament.bots}
    for name in sorted(set(update) - names):
        raise ScheduleError.about("{update} {name}: no bot of that name is given", name=name)
    if tournament.schedule != "round-robin":
        for name in sorted(name for name in names if "@" in name):
            raise ScheduleError(
                f"bot name {name!r}: in a league '@' marks a bot's versions (NAME@2)"
            )
    if tournament.schedule == "round-robin":
        if update:
            raise ScheduleError.about(
                "{update} is for sampled and swiss leagues: a round-robin keeps its bots"
            )
        return kept_out(tournament, folder)
    if not (folder / DATABASE).is_file():
        for name in sorted(update):
            raise StoreError.about(
                "{update} {name}: {folder} holds no league yet to update", name=name, folder=folder
            )
        return tournament
    store = open_existing(folder)
    try:
        records = store.bots()
    finally:
        store.close()
    latest = {base_name(record.name): record for record in records}  # later versions win
    versions = {base: sum(base_name(r.name) == base for r in records) for base in latest}
    playing = []
    for spec in tournament.bots:
        record = latest.get(spec.name)
        if record is None:
            playing.append(spec)
        elif record.files_hash == files_hash(spec):
            if spec.name in update:
                raise StoreError.about(
                    "{update} {name}: its files did not change since {version} entered the league",
                    name=spec.name,
                    version=record.name,
                )
            playing.append(replace(spec, name=record.name))
        elif spec.name in update:
            playing.append(replace(spec, name=f"{spec.name}@{versions[spec.name] + 1}"))
        else:
            raise StoreError.about(
                "bot {name!r} changed since {folder} was started (its files differ): "
                "rerun with {update} {name} to enter the new version as "
                "{name}@{version} (the old one retires), or choose another {out}",
                name=spec.name,
                folder=folder,
                version=versions[spec.name] + 1,
            )
    gauntlet = tournament.gauntlet
    if gauntlet is not None:  # the gauntlet bot plays under its latest version's name too
        gauntlet = next((s.name for s in playing if base_name(s.name) == gauntlet), gauntlet)
    return replace(tournament, bots=tuple(playing), gauntlet=gauntlet)


def kept_out(tournament: TournamentEvent, folder: Path) -> TournamentEvent:
    """A round-robin as it goes on in ``folder``: the bots left out broken when the folder
    started stay out, working or not (its tables were made without them)."""
    if tournament.schedule != "round-robin" or not (folder / DATABASE).is_file():
        return tournament
    store = open_existing(folder)
    try:
        skipped = store.meta("config").get("skipped") or []
    finally:
        store.close()
    names = {name for name, _ in skipped}
    return replace(
        tournament,
        bots=tuple(spec for spec in tournament.bots if spec.name not in names),
        skipped=tuple((name, reason) for name, reason in skipped),
    )


def without_broken(
    tournament: TournamentEvent, folder: Path, broken: Sequence[Broken], *, skip: bool
) -> TournamentEvent:
    """The tournament without its broken bots, where ``skip`` (``skip_broken``) says so:
    they play no games. A new round-robin records them, to keep them out for the folder's
    life; a league just goes on without them (one that played before retires), and they
    enter when they work.

    Raises:
        BrokenBots: broken bots and no ``skip``, naming every one.
        BrokenBots: a round-robin resumed with a broken bot of its field (its tables are
            fixed), or a broken gauntlet bot (it sits at every table).
        ScheduleError: too few bots left to fill a table.
    """
    if not broken:
        return tournament
    names = {bot.bot for bot in broken}
    total = len(tournament.bots)
    if not skip:
        raise BrokenBots.refused(broken, total, BrokenBots.SKIPPABLE)
    if tournament.schedule == "round-robin" and (folder / DATABASE).is_file():
        raise BrokenBots.refused(
            broken,
            total,
            "fix them: the round-robin in {folder} started with them, and its tables are fixed",
            folder=folder,
        )
    if tournament.gauntlet is not None and tournament.gauntlet in names:
        raise BrokenBots.refused(
            [bot for bot in broken if bot.bot == tournament.gauntlet],
            total,
            "fix it: the {gauntlet} bot sits at every table",
        )
    kept = tuple(spec for spec in tournament.bots if spec.name not in names)
    if len(kept) < 2:
        raise ScheduleError(
            f"{len(broken)} of {total} bots are broken: too few are left to play "
            f"(the first: {broken[0]})"
        )
    skipped = tournament.skipped
    if tournament.schedule == "round-robin":
        skipped += tuple((bot.bot, bot.reason) for bot in broken)
    playing = replace(tournament, bots=kept, skipped=skipped)
    playing.plan()  # a field too small for a table says so now
    return playing
