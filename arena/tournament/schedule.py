"""Who meets whom, and in what order: schedules generated round by round as they are played.

A tournament's schedules, each a strategy behind the one interface every
event's schedule has (:class:`arena.events.schedule.Strategy`), which says
what they share: each table plays ``deals`` deal sets, each in every seat
rotation (duplicate deals), numbered and seeded by
:func:`arena.events.schedule.round_games`.

- :class:`RoundRobin`: every set of ``players`` bots meets, ``deals`` deal
  sets each. The sets are generated lazily in *blocks*, the orbits of the
  cyclic shift ``i -> i + 1 (mod N)`` over the bots' indices: a block of
  size d holds every bot in exactly ``players * d / N`` of its tables, so
  at the end of every block every bot has played the same number of games,
  and inside one no bot is more than ``players`` tables ahead of another.
  The game count is a formula; no list of the plan is ever built.
- :class:`Sampled`: each round seats every bot at one table (the bots left
  over sit out, those with the most games first), spreading opponents:
  known designs where they exist (affine planes, the circle method for
  pairs), else a greedy social-golfer assignment with a local search.
- :class:`Swiss`: like :class:`Sampled` until standings are known, then
  bots of adjacent standing share tables, avoiding repeat meetings.

With ``gauntlet`` one bot sits at every table; the others are scheduled
among themselves as above, ``players - 1`` to a table.

This module is pure: no IO, no clock; randomness comes from seeds.
"""

from __future__ import annotations

import hashlib
import itertools
import math
import random
from collections.abc import Callable, Iterator, Sequence

from arena.events.schedule import Plan, ScheduledGame, ScheduleError, Standings, round_games, seeded

#: Greedy assignments tried for a round of a small field (the one with the fewest repeats stays).
GREEDY_TRIES = 20
#: Swaps a round's improvement passes may try, per bot of the pool. Before every pair has
#: met, few bots meet again and a round tries far fewer; after, every bot meets someone
#: again, and unbounded passes (8 sweeps of every bot against every table, in each of up
#: to GREEDY_TRIES assignments) cost 23 ms of CPU a game in a league of 100 bots and grew
#: with the field. In a 400-bot league past saturation (250 rounds; 32 looks), 64 a bot took 57-67
#: ms a round and 8 took 14-18, for a spread of meetings a pair (stdev) of 0.417 against
#: 0.439 (its floor: 0.325): the leaderboard does not feel the difference, the CPU does.
SWAPS_PER_BOT = 8
#: Swaps a round may try however small the field: a small field is cheap to schedule and
#: keeps its fewest repeats (30 bots, 5 a table, 9 rounds: 115, against 122 with 8 a bot
#: alone; the lower bound is 105).
SWAPS_PER_ROUND = 2048
#: Free bots a seat weighs, at most, once none is new to the table. They are in random
#: order, so these are a fair sample; weighing them all took that 400-bot league 44 ms a
#: round (spread 0.374), 64 took 20-23 ms (0.403), 32 took 14-21 ms (0.439).
FILL_LOOKS = 64
#: The schedules ``--schedule`` knows.
SCHEDULES = ("round-robin", "sampled", "swiss")


def check_field(
    bots: Sequence[str], *, players: int, deals: int, gauntlet: str | None = None
) -> None:
    """Check that ``bots`` can be scheduled at tables of ``players``.

    Raises:
        ScheduleError: for fewer bots than seats, a bad table size or deal
            count, or a gauntlet challenger that is not among the bots.
    """
    if not 2 <= players <= 7:
        raise ScheduleError.about("{players} takes 2..7, not {n}", n=players)
    if len(bots) < players:
        raise ScheduleError(f"{len(bots)} bots cannot fill a {players}-seat table")
    if deals < 1:
        raise ScheduleError.about("{deals} takes a number >= 1, not {n}", n=deals)
    if gauntlet is not None and gauntlet not in bots:
        raise ScheduleError(f"gauntlet bot {gauntlet!r} is not among the bots")


class GameIds:
    """Game ids that sort in schedule order (``results/README.md`` documents both forms).

    Round-robin: ``d<deal set>-r<rotation>``, the deal set zero-padded to
    the width of the plan's count (as folders of schema version 1 name
    them). Sampled and Swiss: ``rd<round>-t<table>-d<deal>-r<rotation>``,
    round and table five digits wide, the deal as wide as ``deals - 1``.
    """

    def __init__(self, schedule: str, *, deals: int, deal_sets: int) -> None:
        self.by_round = schedule != "round-robin"
        self.deal_width = len(str(max(deals - 1, 0)))
        self.set_width = len(str(deal_sets))

    def game_id(self, number: int, table: int, deal: int, deal_set: int, rotation: int) -> str:
        """The id of one game."""
        if self.by_round:
            return f"rd{number:05d}-t{table:05d}-d{deal:0{self.deal_width}d}-r{rotation}"
        return f"d{deal_set:0{self.set_width}d}-r{rotation}"

    def sent_id(self, game_id: str) -> str:
        """A tournament's bots are sent the stored id."""
        return ""


class SecretIds:
    """Game ids that say nothing (``g`` and 24 hex digits): a keyed hash of a game's
    place in the schedule, for events whose bots must not learn which seat rotation
    of a deal set they play, nor which games share a deal set.

    Readable ids (:class:`GameIds`) end in the rotation, and the games of one table
    share their round and table: a bot that remembered the hands of ``-r0`` would
    know it now plays them again. 96 bits keep a ladder's billions of ids apart.
    """

    def __init__(self, seed: int) -> None:
        self.key = hashlib.blake2b(f"{seed}/game-ids".encode(), digest_size=32).digest()

    def game_id(self, number: int, table: int, deal: int, deal_set: int, rotation: int) -> str:
        """The id of one game."""
        place = f"{number}/{table}/{deal}/{deal_set}/{rotation}".encode()
        return "g" + hashlib.blake2b(place, key=self.key, digest_size=12).hexdigest()

    def sent_id(self, game_id: str) -> str:
        """The bots are sent the stored id."""
        return ""


# ---------------------------------------------------------------------- round-robin


def cyclic_orbits(n: int, k: int) -> Iterator[tuple[tuple[int, ...], int]]:
    """Every k-subset of ``0..n-1``, as orbits under ``i -> i + 1 (mod n)``: (representative, size).

    The representative is the orbit's lexicographically smallest member
    (it holds 0); the orbit is ``rep + s`` for s in ``range(size)``. Only
    subsets holding 0 are looked at, each in O(k^2 log k), so producing
    the orbits costs about one such check per table of the plan.
    """
    for rest in itertools.combinations(range(1, n), k - 1):
        subset = (0, *rest)
        size = n
        canonical = True
        for shift in rest:
            rotated = tuple(sorted((x - shift) % n for x in subset))
            if rotated < subset:
                canonical = False
                break
            if rotated == subset:  # invariant under this shift: the orbit is that short
                size = min(size, shift)
        if canonical:
            yield subset, size


class RoundRobin:
    """Every set of ``players`` bots, a block of the cyclic shift at a time (see the module)."""

    reads_standings = False

    def __init__(
        self, bots: Sequence[str], *, players: int, deals: int, gauntlet: str | None = None
    ) -> None:
        check_field(bots, players=players, deals=deals, gauntlet=gauntlet)
        self.players = players
        self.deals = deals
        self.gauntlet = gauntlet
        self.others = [bot for bot in bots if bot != gauntlet]
        self.size = players - 1 if gauntlet else players
        self._orbits = cyclic_orbits(len(self.others), self.size)

    def tables(self) -> int:
        """Tables of the whole plan: a binomial coefficient."""
        return math.comb(len(self.others), self.size)

    def next_round(self, number: int, standings: Standings | None) -> list[tuple[str, ...]] | None:
        """The next block of tables (``standings`` are not read)."""
        orbit = next(self._orbits, None)
        if orbit is None:
            return None
        subset, size = orbit
        n = len(self.others)
        fixed = (self.gauntlet,) if self.gauntlet else ()
        return [
            (*fixed, *(self.others[i] for i in sorted((x + shift) % n for x in subset)))
            for shift in range(size)
        ]

    def replay(self, tables: Sequence[tuple[str, ...]]) -> None:
        """Skip the block already scheduled."""
        self.next_round(0, None)

    def plan(self) -> Plan:
        """The plan's counts, from formulas."""
        per_table = self.deals * self.players
        tables = self.tables()
        n = len(self.others)
        each = math.comb(n - 1, self.size - 1) * per_table
        if self.gauntlet:
            per_bot = (each, tables * per_table) if n > 1 or self.size > 1 else (each, each)
        else:
            per_bot = (each, each)
        return Plan("round-robin", tables * per_table, per_bot, None, None)


def round_robin_games(
    bots: Sequence[str], *, players: int, deals: int, seed: int, gauntlet: str | None = None
) -> list[ScheduledGame]:
    """Every game of a round-robin, in schedule order: a list, for tests and small plans."""
    strategy = RoundRobin(bots, players=players, deals=deals, gauntlet=gauntlet)
    ids = GameIds("round-robin", deals=deals, deal_sets=strategy.tables() * deals)
    games: list[ScheduledGame] = []
    number = 1
    while (tables := strategy.next_round(number, None)) is not None:
        games.extend(
            round_games(
                tables,
                number=number,
                first_ordinal=len(games),
                first_deal_set=len(games) // players,
                deals=deals,
                seed=seed,
                ids=ids,
            )
        )
        number += 1
    return games


# ---------------------------------------------------------------------- sampled rounds


def _field_order(field: Sequence[str], rng: random.Random) -> list[str]:
    order = list(field)
    rng.shuffle(order)
    return order


class Sampled:
    """Rounds in which every bot plays one table (see the module's docstring).

    Balance: the bots left over sit out, those with the most games first;
    then the bots with the fewest games (the *low* ones) are seated together
    first, so that at most one table mixes them with the others, and tables
    play fewest-games-first. Game counts of the bots then stay within one
    table's games of each other at every point of the schedule.
    """

    reads_standings = False
    name = "sampled"

    def __init__(
        self,
        bots: Sequence[str],
        *,
        players: int,
        deals: int,
        seed: int,
        rounds: int,
        gauntlet: str | None = None,
    ) -> None:
        check_field(bots, players=players, deals=deals, gauntlet=gauntlet)
        if rounds < 1:
            raise ScheduleError.about("{rounds} takes a number >= 1, not {n}", n=rounds)
        self.players = players
        self.deals = deals
        self.seed = seed
        self.rounds = rounds
        self.gauntlet = gauntlet
        self.pool = [bot for bot in bots if bot != gauntlet]
        self.size = players - 1 if gauntlet else players
        #: Tables played (or scheduled) by each bot of the pool.
        self.tables: dict[str, int] = dict.fromkeys(self.pool, 0)
        #: Meetings so far: ``met[a][b]`` (and ``met[b][a]``) times a and b shared a table.
        #: By bot, not by pair: a round weighs millions of (bot, table) costs, and a lookup
        #: by two names makes no tuple (a 400-bot league past saturation: 281 ms a round
        #: keyed by sorted pairs, 106 by bot, the same tables).
        self.met: dict[str, dict[str, int]] = {}
        self.played = 0
        #: Rounds of a known design with no repeats, used first (None: no design is known).
        self.design = Design.find(self.pool, self.size, seeded(seed, "design"))
        #: Swaps the round being made may still try (:data:`SWAPS_PER_BOT`).
        self.swaps_left = self._swaps()

    # -- the interface

    def next_round(self, number: int, standings: Standings | None) -> list[tuple[str, ...]] | None:
        """Round ``number``'s tables, or None past ``rounds``."""
        if number > self.rounds:
            return None
        rng = seeded(self.seed, f"round/{number}")
        self.swaps_left = self._swaps()
        groups = self._pair(number, standings, rng)
        return self._finish(groups)

    def _swaps(self) -> int:
        """The swaps a round may try (:data:`SWAPS_PER_BOT`, :data:`SWAPS_PER_ROUND`)."""
        return max(SWAPS_PER_ROUND, SWAPS_PER_BOT * len(self.pool))

    def replay(self, tables: Sequence[tuple[str, ...]]) -> None:
        """Count a scheduled round's tables and meetings."""
        groups = [tuple(bot for bot in table if bot != self.gauntlet) for table in tables]
        if self.design is not None and (
            self.played >= len(self.design)
            or {frozenset(g) for g in groups}
            != {frozenset(g) for g in self.design.round(self.played)}
        ):
            self.design = None  # the field changed since: the design no longer applies
        self._count(groups)

    def plan(self) -> Plan:
        """Rounds times the games of a round; per bot, the sit-outs spread evenly."""
        per_table = self.deals * self.players
        tables_per_round = len(self.pool) // self.size
        seats = self.rounds * tables_per_round * self.size
        low, high = seats // len(self.pool), -(-seats // len(self.pool))
        per_bot = (low * per_table, high * per_table)
        if self.gauntlet:
            per_bot = (per_bot[0], max(per_bot[1], self.rounds * tables_per_round * per_table))
        per_round = tables_per_round * per_table
        return Plan(self.name, self.rounds * per_round, per_bot, self.rounds, per_round)

    # -- pairing

    def _pair(
        self, number: int, standings: Standings | None, rng: random.Random
    ) -> list[list[str]]:
        if self.design is not None and self.played < len(self.design):
            return self.design.round(self.played)
        return self._catching_up(rng, lambda catch_up: self._assign(rng, catch_up=catch_up))

    def _catching_up(
        self, rng: random.Random, arrange: Callable[[bool], list[list[str]]]
    ) -> list[list[str]]:
        """``arrange(True)``'s tables (late bots take two seats); where that leaves a bot
        twice at one table, ``arrange(False)``'s from the same draws, nobody catching up."""
        state = rng.getstate()
        groups = arrange(True)
        if all(len(set(group)) == self.size for group in groups):
            return groups
        rng.setstate(state)
        return arrange(False)

    def _assign(self, rng: random.Random, *, catch_up: bool) -> list[list[str]]:
        _, lows, highs = self._seated(rng, catch_up=catch_up)
        # A few greedy tries from other orders where the field is small; the best one stays.
        best = self._greedy(list(lows), list(highs))
        best_cost = self._round_cost(best)
        for _ in range(1, max(1, min(GREEDY_TRIES, 2000 // len(self.pool)))):
            if best_cost == 0 or self.swaps_left <= 0:
                break
            rng.shuffle(lows)
            rng.shuffle(highs)
            groups = self._greedy(list(lows), list(highs))
            cost = self._round_cost(groups)
            if cost < best_cost:
                best, best_cost = groups, cost
        return best

    def _round_cost(self, groups: Sequence[Sequence[str]]) -> int:
        """Earlier meetings of the pairs these tables seat (0: no repeat)."""
        return sum(self._cost(bot, group[:i]) for group in groups for i, bot in enumerate(group))

    def _seated(self, rng: random.Random, *, catch_up: bool = True) -> tuple[list[str], ...]:
        """Who plays this round, split into low and high (fewest tables or not), shuffled.

        The bots left over sit out, those with the most tables first. A bot
        more than one table behind the field's median (one that joined a
        league late) takes two seats, at two tables, until it has caught up.
        """
        order = _field_order(self.pool, rng)
        counts = sorted(self.tables.get(bot, 0) for bot in self.pool)
        median = counts[len(counts) // 2]
        seats = list(order)
        if catch_up and len(order) // self.size >= 2:
            # More than one table behind: a sit-out leaves a bot one behind, not more.
            seats += [bot for bot in order if self.tables.get(bot, 0) < median - 1]
        left_over = len(seats) % self.size
        # Most tables first; the shuffle breaks ties. Those sit out (never a bot catching up).
        by_tables = sorted(order, key=lambda bot: -self.tables.get(bot, 0))
        sitting = set(by_tables[:left_over])
        seated = [bot for bot in seats if bot not in sitting]
        fewest = min(self.tables.get(bot, 0) for bot in seated)
        lows = [bot for bot in seated if self.tables.get(bot, 0) == fewest]
        highs = [bot for bot in seated if self.tables.get(bot, 0) != fewest]
        return seated, lows, highs

    def _cost(self, bot: str, group: Sequence[str]) -> int:
        met = self.met.get(bot)
        if met is None:
            return 0
        cost = 0
        for other in group:
            cost += met.get(other, 0)
        return cost

    def _greedy(self, lows: list[str], highs: list[str]) -> list[list[str]]:
        """Fill tables one at a time, lows first, each seat with the bot met least by the table.

        The lows fill tables of their own but one, so game counts stay level.
        """
        free = [(bot, 0) for bot in lows] + [(bot, 1) for bot in highs]
        groups: list[list[str]] = []
        while free:
            group = [free.pop(0)[0]]
            self._fill(group, free)
            groups.append(group)
        return self._improve(groups, set(lows))

    def _fill(self, group: list[str], free: list[tuple[str, int]]) -> None:
        while len(group) < self.size:
            best: tuple[tuple[int, int], int] | None = None
            looked = 0
            for index, (bot, kind) in enumerate(free):
                if bot in group:
                    continue  # a bot catching up takes two seats, never at one table
                looked += 1
                if best is not None and (looked > FILL_LOOKS or kind > best[0][0]):
                    break  # enough seen (they are in random order), or none better left
                key = (kind, self._cost(bot, group))
                if best is None or key < best[0]:
                    best = (key, index)
                    if key[1] == 0:
                        break  # free is in order of kind: nothing later is better
            if best is None:
                return  # only this table's own bots are left: the caller sees it short
            group.append(free.pop(best[1])[0])

    def _improve(self, groups: list[list[str]], lows: set[str]) -> list[list[str]]:
        """Swap two bots of the same kind (low or not) between tables while that cuts repeats.

        Only bots that meet someone again are moved, so a round without a
        repeat costs one pass over the field; the sweeps are bounded.
        """
        for _ in range(8):
            better = False
            for a, group in enumerate(groups):
                for i in range(len(group)):
                    bot = group[i]
                    rest = group[:i] + group[i + 1 :]
                    here = self._cost(bot, rest)
                    if here == 0:
                        continue
                    for b, other in enumerate(groups):
                        if b == a:
                            continue
                        swapped = False
                        for j, swap in enumerate(other):
                            if (swap in lows) != (bot in lows):
                                continue
                            there = other[:j] + other[j + 1 :]
                            if swap in rest or bot in there:
                                continue  # a bot catching up would sit twice at one table
                            self.swaps_left -= 1
                            if self.swaps_left < 0:
                                return groups  # the round's bound: the tables as they stand
                            before = here + self._cost(swap, there)
                            after = self._cost(swap, rest) + self._cost(bot, there)
                            if after < before:
                                group[i], other[j] = swap, bot
                                better = swapped = True
                                break
                        if swapped:
                            break
            if not better:
                break
        return groups

    def _finish(self, groups: list[list[str]]) -> list[tuple[str, ...]]:
        """Order the tables fewest-games-first, count them, and seat the gauntlet bot."""
        groups.sort(
            key=lambda group: (
                min(self.tables[b] for b in group),
                max(self.tables[b] for b in group),
            )
        )
        self._count([tuple(group) for group in groups])
        fixed = (self.gauntlet,) if self.gauntlet else ()
        return [(*fixed, *group) for group in groups]

    def _count(self, groups: Sequence[tuple[str, ...]]) -> None:
        for group in groups:
            for bot in group:
                self.tables[bot] = self.tables.get(bot, 0) + 1
            for a, b in itertools.combinations(group, 2):
                for one, other in ((a, b), (b, a)):
                    met = self.met.setdefault(one, {})
                    met[other] = met.get(other, 0) + 1
        self.played += 1

    def repeats(self) -> int:
        """Meetings of pairs that had met before, so far."""
        return sum(count - 1 for met in self.met.values() for count in met.values()) // 2


class Swiss(Sampled):
    """Rounds seating bots of adjacent standing together (see the module's docstring)."""

    reads_standings = True
    name = "swiss"

    def _pair(
        self, number: int, standings: Standings | None, rng: random.Random
    ) -> list[list[str]]:
        if standings is None:  # nothing rated yet: as sampled
            return super()._pair(number, standings, rng)
        return self._catching_up(
            rng, lambda catch_up: self._ranked(standings, rng, catch_up=catch_up)
        )

    def _ranked(
        self, standings: Standings, rng: random.Random, *, catch_up: bool
    ) -> list[list[str]]:
        """Tables of adjacent standing (mu), untangled; a bot's second seat a table apart."""
        seated, _, _ = self._seated(rng, catch_up=catch_up)
        order = {bot: index for index, bot in enumerate(dict.fromkeys(seated))}
        ranked = sorted(seated, key=lambda bot: (-standings.get(bot, (0.0, 0.0))[0], order[bot]))
        groups = [ranked[i : i + self.size] for i in range(0, len(ranked), self.size)]
        for a, group in enumerate(groups):  # the two seats of a bot catching up: apart
            for i, bot in enumerate(group):
                if group.count(bot) < 2:
                    continue
                for b in sorted(range(len(groups)), key=lambda b: (abs(b - a), b)):
                    other = groups[b]
                    j = next((j for j, x in enumerate(other) if x not in group), None)
                    if b != a and bot not in other and j is not None:
                        group[i], other[j] = other[j], bot
                        break
        return self._untangle(groups)

    def _untangle(self, groups: list[list[str]]) -> list[list[str]]:
        """Swap a bot with one of the next table down (or up) where that cuts repeat meetings."""
        for a, group in enumerate(groups):
            for i, bot in enumerate(group):
                rest = group[:i] + group[i + 1 :]
                here = self._cost(bot, rest)
                if here == 0:
                    continue
                best: tuple[int, int, int] | None = None
                for b in (a + 1, a - 1):
                    if not 0 <= b < len(groups):
                        continue
                    other = groups[b]
                    for j, swap in enumerate(other):
                        there = other[:j] + other[j + 1 :]
                        if swap in rest or bot in there:
                            continue
                        gain = (here + self._cost(swap, there)) - (
                            self._cost(swap, rest) + self._cost(bot, there)
                        )
                        if gain > 0 and (best is None or gain > best[0]):
                            best = (gain, b, j)
                if best is not None:
                    _, b, j = best
                    group[i], groups[b][j] = groups[b][j], bot
        return groups


# ---------------------------------------------------------------------- known designs

#: Multiplication in GF(4) = {0, 1, a, a+1} as 0..3 (addition is xor; a*a = a+1).
_GF4_TIMES = ((0, 0, 0, 0), (0, 1, 2, 3), (0, 2, 3, 1), (0, 3, 1, 2))


def _field_arithmetic(q: int) -> tuple[Callable[[int, int], int], Callable[[int, int], int]] | None:
    """Addition and multiplication of GF(q) on 0..q-1, for q = 2, 3, 4, 5, 7."""
    if q == 4:
        return (lambda a, b: a ^ b), (lambda a, b: _GF4_TIMES[a][b])
    if q in (2, 3, 5, 7):
        return (lambda a, b: (a + b) % q), (lambda a, b: (a * b) % q)
    return None


def _power_of(n: int, base: int) -> int | None:
    """The exponent m >= 2 with base**m == n, if there is one."""
    if base < 2:
        return None  # a gauntlet of pairs seats one other bot a table
    exponent, value = 1, base
    while value < n:
        value *= base
        exponent += 1
    return exponent if value == n and exponent >= 2 else None


class Design:
    """Rounds with no repeat meeting, where a construction is known; each made when asked.

    Pairs (``size`` 2, an even pool of n): the circle method, n - 1 rounds.
    ``size`` q and a pool of q**m (m >= 2, q a prime power up to 7): the
    parallel classes of the affine space AG(m, q), (q**m - 1) / (q - 1)
    rounds. A line is ``{p + t*d : t in GF(q)}``; the lines of one direction
    d part the points, and every two points share exactly one line (16 bots
    at 4 seats: 5 rounds; 64: 21; 27 at 3: 13). The bots are placed on the
    points, and the rounds ordered, by ``rng``. Only the field and the order
    of the rounds are kept: a round is made when it is asked for.
    """

    def __init__(self, pool: Sequence[str], size: int, rng: random.Random) -> None:
        n = len(pool)
        self.points = list(pool)
        self.size = size
        self.dimension = _power_of(n, size)
        arithmetic = _field_arithmetic(size)
        if size == 2 and n % 2 == 0:
            count = n - 1
            self.arithmetic = None
        elif self.dimension is not None and arithmetic is not None:
            count = (n - 1) // (size - 1)
            self.arithmetic = arithmetic
        else:
            raise ValueError(f"no design is known for {n} bots at {size} seats")
        rng.shuffle(self.points)
        self.order = list(range(count))
        rng.shuffle(self.order)

    @classmethod
    def find(cls, pool: Sequence[str], size: int, rng: random.Random) -> Design | None:
        """The design for this field, if one is known."""
        known = (size == 2 and len(pool) % 2 == 0) or (
            _power_of(len(pool), size) is not None and _field_arithmetic(size) is not None
        )
        return cls(pool, size, rng) if known else None

    def __len__(self) -> int:
        return len(self.order)

    def round(self, index: int) -> list[list[str]]:
        """The tables of the design's round ``index`` (in the shuffled order)."""
        number = self.order[index]
        n = len(self.points)
        if self.arithmetic is None or self.dimension is None:
            # The circle method: one fixed point, the rest rotate.
            ring = [n - 1, *((number + i) % (n - 1) for i in range(n - 1))]
            groups = [[ring[i], ring[n - 1 - i]] for i in range(n // 2)]
        else:
            groups = _parallel_class(self.size, self.dimension, self.arithmetic, number)
        return [[self.points[i] for i in group] for group in groups]


def _parallel_class(
    q: int,
    m: int,
    arithmetic: tuple[Callable[[int, int], int], Callable[[int, int], int]],
    number: int,
) -> list[list[int]]:
    """The lines of AG(m, q) along its ``number``-th direction (first non-zero coordinate
    1), as point numbers in base q."""
    add, times = arithmetic
    directions = (
        p for p in itertools.product(range(q), repeat=m) if any(p) and next(x for x in p if x) == 1
    )
    direction = next(itertools.islice(directions, number, None))
    seen: set[int] = set()
    lines = []
    for point in itertools.product(range(q), repeat=m):
        line = []
        for t in range(q):
            coords = [add(x, times(t, d)) for x, d in zip(point, direction, strict=True)]
            line.append(sum(c * q ** (m - 1 - i) for i, c in enumerate(coords)))
        if line[0] in seen:
            continue
        seen.update(line)
        lines.append(line)
    return lines


def repeat_lower_bound(field: int, size: int, rounds: int) -> int:
    """The fewest repeat meetings (meetings of a pair past its first) ``rounds`` rounds allow.

    Two bounds, the larger holds: all the meetings of the rounds against the
    pairs there are; and each bot's own meetings (it plays at least
    ``floor(rounds * seated / field)`` rounds) against the ``field - 1``
    others it can meet.
    """
    seated = field - field % size
    meetings = rounds * (seated // size) * math.comb(size, 2)
    by_pairs = meetings - math.comb(field, 2)
    played = rounds * seated // field
    by_bot = field * (played * (size - 1) - (field - 1)) // 2
    return max(0, by_pairs, by_bot)
