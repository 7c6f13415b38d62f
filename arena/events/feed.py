"""The games of a tournament as they may be played: rounds made and stored only when needed.

The executors pull games (:meth:`Feed.take`) as their workers free up; the
feed hands out the stored, unplayed games first, and asks the schedule for
the next round only when those run short, writing it to the store in one
transaction before any of its games is handed out. So memory and
``results.sqlite`` hold only the rounds needed to fill the executors'
queues: a round or two for a pool; for a Dask cluster, whose batches hold
up to 2,000 games, as many small rounds as one batch needs.

Determinism: a round's tables are a function of the seed, the rounds before
it and, where the schedule reads standings (Swiss) or a stop rule is set,
the ratings after every game of the round before the previous one: round
r+1 waits until rounds <= r-1 are rated (never for round r, so workers keep
playing). Ratings follow schedule order, so that snapshot is the same
whichever games finished first, with any number of workers, after a resume.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from arena.bots.spec import BotSpec
from arena.events.schedule import (
    ENDLESS_ROUNDS,
    Ids,
    ScheduledGame,
    Standings,
    Strategy,
    round_games,
)
from arena.results.store import Store

#: Games left in the queue below which the next round is made ahead of need (when it may be).
AHEAD = 32
#: Most games stored (and queued in memory) at once: a round larger than this (a block of a
#: round-robin with many deal sets) is stored a chunk at a time as it is played.
CHUNK = 4096


class RoundStop(Protocol):
    """A rule that may end the schedule at a round boundary: a league's ordered top
    (:class:`arena.results.ratings.StopRule`), a match's sequential test."""

    def settings(self, rounds: int | None) -> dict[str, Any]:
        """What a stop is kept with (``rounds``: the plan's); a rerun whose settings differ
        lifts the stop and goes on."""
        ...

    def reached(self, boundary: int, standings: Standings, store: Store) -> dict[str, Any] | None:
        """None to go on after round ``boundary`` (every game of rounds <= ``boundary`` is
        finished and rated; ``standings`` are the ratings then), else what the stop is
        recorded with."""
        ...


@dataclass
class _Partial:
    """A round whose games are stored a chunk at a time: where it stands."""

    number: int
    tables: list[tuple[str, ...]]
    first_ordinal: int
    first_deal_set: int
    size: int
    stored: int


class Feed:
    """Hands out a tournament's games in schedule order, scheduling rounds as they are needed."""

    def __init__(
        self,
        strategy: Strategy,
        store: Store,
        *,
        deals: int,
        seed: int,
        ids: Ids,
        stop: RoundStop | None = None,
        tables_per_deal: int = 1,
        field: Sequence[str] = (),
        newcomer: tuple[float, float] = (25.0, 25.0 / 3),
    ) -> None:
        self.strategy = strategy
        self.store = store
        self.deals = deals
        self.seed = seed
        self.ids = ids
        #: Consecutive tables that play the same deal sets (see round_games).
        self.tables_per_deal = tables_per_deal
        self.stop = stop
        #: The bots playing now; pairing and the stop rule read only theirs.
        self.field = list(field)
        #: The rating of a bot that joined after the snapshot read (the default one).
        self.newcomer = newcomer
        # The store keeps the stored ids; the ids sent are the event's to give.
        #: Called with a round's number just before it is made (a run applies field
        #: changes there).
        self.before_round: Callable[[int], None] | None = None
        #: Called before the first game of a round is handed out, by round: a change that
        #: must not touch the games of earlier rounds still queued (a bot disabled).
        self.at_round: dict[int, list[Callable[[], None]]] = {}
        #: The round of the latest game handed out.
        self.handing = 0
        #: Bots that entered while this run plays, in order, for the executors' workers.
        self.entered: list[BotSpec] = []
        self.queue: deque[ScheduledGame] = deque(
            game._replace(sent_id=ids.sent_id(game.game_id)) for game in store.pending()
        )
        #: Games handed out and not yet finished, by ordinal.
        self.handed: dict[int, ScheduledGame] = {}
        #: Games in the store (scheduled so far), and the next deal set's number.
        self.scheduled = store.total()
        self.deal_set = store.next_deal_set()
        rounds = store.rounds()
        self.number = rounds[-1][0] if rounds else 0
        #: The last round, while only part of its games is stored.
        self.partial: _Partial | None = None
        #: Round boundaries up to this one were checked by the stop rule already (kept in
        #: the store: a resume must not check again a boundary where a lifted stop held).
        self.checked = int(store.meta("stop_checked", 0))
        self.complete = bool(store.meta("schedule_complete", False))
        stopped = store.meta("stopped", None)
        if stopped is not None:
            if stopped.get("settings") == self._stop_settings():
                self.complete = True
            else:  # more rounds, or another rule: the league goes on past where it stopped
                self.checked = int(stopped["after_round"])
                store.set_meta("stop_checked", self.checked)
                store.set_meta("stopped", None)
        last_tables: list[tuple[str, ...]] = []
        for _, tables in store.scheduled_tables():
            last_tables = tables
            if not self.complete:
                strategy.replay(tables)
        if rounds and rounds[-1][2] >= self.scheduled:  # the last round is partly stored
            number, first, last = rounds[-1]
            self.partial = _Partial(
                number, last_tables, first, store.first_deal_set(first), last - first + 1,
                self.scheduled - first,
            )  # fmt: skip
            self.deal_set = self.partial.first_deal_set + self._deal_sets(last_tables)

    def take(self, count: int) -> list[ScheduledGame]:
        """Up to ``count`` games that may be played now, in schedule order (maybe none yet)."""
        while len(self.queue) < count and self._schedule_next():
            pass
        games = []
        for _ in range(min(count, len(self.queue))):
            game = self.queue.popleft()
            if game.round != self.handing:
                self._round_starts(game.round)
            self.handed[game.ordinal] = game
            games.append(game)
        return games

    def take_table(self, most: int) -> list[ScheduledGame]:
        """The next games of one table (at most ``most``), or none that may start now.

        A worker given a table's games in one piece starts its bots once for
        them, where games handed out one at a time would start them in every
        worker: with a large field nearly every table seats bots that no
        worker has alive.
        """
        if not self.queue and not self._schedule_next():
            return []
        first = self.queue[0]
        if first.round != self.handing:
            self._round_starts(first.round)
        games: list[ScheduledGame] = []
        while self.queue and len(games) < most:
            game = self.queue[0]
            if (game.round, game.table) != (first.round, first.table):
                break
            games.append(self.queue.popleft())
            self.handed[game.ordinal] = game
        if len(self.queue) < AHEAD:
            # Make the next round while the workers still have games queued: a round of a
            # small field can take the coordinator as long as its games take the workers.
            self._schedule_next()
        return games

    def _round_starts(self, number: int) -> None:
        """The first game of round ``number`` is about to be handed out."""
        self.handing = number
        for call in self.at_round.pop(number, ()):
            call()

    def newcomers(self) -> list[BotSpec]:
        """The bots that entered while this run plays, in order (their workers may not know
        them yet)."""
        return self.entered

    def reseat(self, strategy: Strategy, field: Sequence[str]) -> None:
        """Go on with ``strategy`` over ``field`` (a field changed at a round boundary): the
        new strategy takes in every round scheduled so far, as it would on a resume."""
        for _, tables in self.store.scheduled_tables():
            strategy.replay(tables)
        self.strategy = strategy
        self.field = list(field)

    def finished(self, ordinal: int) -> ScheduledGame:
        """The game handed out as ``ordinal``, now finished."""
        return self.handed.pop(ordinal)

    def total(self) -> int:
        """Games in the plan as far as it is known: scheduled ones, and the rest of the plan."""
        if self.complete:
            return self.scheduled
        return max(self.scheduled, self.strategy.plan().games)

    def endless(self) -> bool:
        """Whether the plan has no end people should be told of (:data:`ENDLESS_ROUNDS`)."""
        return not self.complete and (self.strategy.plan().rounds or 0) >= ENDLESS_ROUNDS

    def left(self) -> int:
        """Games not handed out yet (the plan's rest, for a stop rule an upper bound)."""
        return self.total() - self.scheduled + len(self.queue)

    def stopped(self) -> dict[str, Any] | None:
        """Why the stop rule ended the schedule, if it did."""
        value: dict[str, Any] | None = self.store.meta("stopped", None)
        return value

    # ------------------------------------------------------------------ internals

    def _stop_settings(self) -> dict[str, Any]:
        rounds = self.strategy.plan().rounds
        if self.stop is None:
            return {"rounds": rounds, "stop": None}
        return self.stop.settings(rounds)

    def _schedule_next(self) -> bool:
        """Store the next chunk of a round, or make and store the next round; False when
        none may be made now (or ever)."""
        if self.partial is not None:
            self._stored(self.partial, self.store.add_games(self._chunk(self.partial)))
            return True
        if self.complete:
            return False
        number = self.number + 1
        standings = None
        gated = self.strategy.reads_standings or self.stop is not None
        if gated and number - 2 > self.store.rated_rounds():
            return False  # round number - 2 is still being played or rated
        if self.before_round is not None:  # once a round, just before it is made
            self.before_round(number)
        if gated:
            boundary = number - 2
            if boundary >= 1:
                rated = self.store.standings_after(boundary)
                # Bots that left are no rival of anyone's; one that joined since is new.
                standings = {bot: rated.get(bot, self.newcomer) for bot in self.field}
                if self.stop is not None and boundary > self.checked:
                    self.checked = boundary
                    reached = self.stop.reached(boundary, standings, self.store)
                    if reached is not None:
                        self._end(
                            stopped={
                                "after_round": boundary,
                                "last_round": self.number,
                                **reached,
                                "settings": self._stop_settings(),
                            }
                        )
                        return False
        tables = self.strategy.next_round(
            number, standings if self.strategy.reads_standings else None
        )
        if tables is None:
            self._end()
            return False
        size = len(tables) * self.deals * len(tables[0])
        partial = _Partial(number, tables, self.scheduled, self.deal_set, size, 0)
        made = self.store.schedule_round(number, tables, self._chunk(partial), size=size)
        self._stored(partial, made)
        self.deal_set += self._deal_sets(tables)
        self.number = number
        return True

    def _chunk(self, partial: _Partial) -> list[ScheduledGame]:
        """The next games of ``partial``'s round to store (at most :data:`CHUNK`)."""
        return list(
            round_games(
                partial.tables,
                number=partial.number,
                first_ordinal=partial.first_ordinal,
                first_deal_set=partial.first_deal_set,
                deals=self.deals,
                seed=self.seed,
                ids=self.ids,
                start=partial.stored,
                stop=partial.stored + CHUNK,
                tables_per_deal=self.tables_per_deal,
            )
        )

    def _deal_sets(self, tables: Sequence[tuple[str, ...]]) -> int:
        """The deal sets a round of ``tables`` plays."""
        return len(tables) // self.tables_per_deal * self.deals

    def _stored(self, partial: _Partial, made: list[ScheduledGame]) -> None:
        """Queue games just stored; the round is partial until all of it is stored."""
        self.queue.extend(made)
        self.scheduled += len(made)
        partial.stored += len(made)
        self.partial = partial if partial.stored < partial.size else None

    def _end(self, *, stopped: dict[str, Any] | None = None) -> None:
        self.complete = True
        if stopped is None:
            return  # a plan played out: a rerun with more rounds goes on from here
        self.store.set_meta("stopped", stopped)
