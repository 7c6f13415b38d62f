"""The results store of a tournament: one SQLite file (WAL), safe to kill at any moment.

Everything a leaderboard needs is here, and is written as games finish: the
configuration, the bots, every scheduled game and its seats, placements,
faults and timings, and the ratings. Games are written a round at a time as
the schedule makes them (never the whole plan). Finished games are committed
in groups (:mod:`arena.results.commit`: within about 50 ms of finishing),
each group in one transaction together with the rating of every game it
completes in the schedule's finished prefix, so after a ``kill -9`` the
store holds whole games only (the last group's are pending again, played
on resume), and the ratings are a function of the games in schedule order
whatever order they finished in. The tables are documented in
``results/README.md``.
"""

from __future__ import annotations

import itertools
import json
import os
import sqlite3
import time
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple, TypeVar

from arena.errors import ArenaError
from arena.results.commit import GroupCommit, writing
from arena.results.games import ScheduledGame
from arena.results.ledger import CountedTwice, Ledger, Result, Standing
from arena.results.ratings import Environment, tiers

if TYPE_CHECKING:
    from arena.referee import GameResult

#: 2: games are written a round at a time, with their round and table; rounds, tables and
#: each round's standings have tables of their own. Folders of version 1 are read as
#: they are, and migrated when resumed.
SCHEMA_VERSION = 2
T = TypeVar("T")
#: SQLite's primary result codes for a damaged file: SQLITE_CORRUPT and SQLITE_NOTADB.
CORRUPT = (11, 26)

DATABASE = "results.sqlite"
#: The tables ``arena leaderboard`` reads: small, so a quick check of them costs little.
BOARD_TABLES = ("meta", "bots", "standings", "pairs")
#: Written beside results.sqlite when a run closes it whole (no WAL left): the file's size,
#: mtime and inode then. A resume or a report that finds the file as that run left it
#: checks the board tables only (:meth:`Store.check`), not every page: SQLite's full
#: check grows with the games (9.1 s at a million, the resume 10.4 s in all). A file
#: written since by anything (a crash mid-run, a copy, a program that damaged it) gets the
#: full check; damage that leaves size and mtime alone (a failing disk) is met by the
#: reads that touch it (:meth:`Store.guarded`).
CLOSED = "results.sqlite.closed"

SCHEMA = """
CREATE TABLE meta (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL                  -- JSON
);
CREATE TABLE bots (
    name TEXT PRIMARY KEY,
    command TEXT NOT NULL,
    files_hash TEXT NOT NULL,
    disabled_reason TEXT,                -- NULL while the bot plays
    base TEXT,                           -- the name it was entered under (NAME of NAME@2)
    retired INTEGER NOT NULL DEFAULT 0   -- 1: left the league (or replaced by a new version)
);
CREATE TABLE games (
    ordinal INTEGER PRIMARY KEY,         -- schedule order
    id TEXT NOT NULL UNIQUE,
    deal_set INTEGER NOT NULL,
    rotation INTEGER NOT NULL,
    seed INTEGER NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('pending', 'done')),
    decisions INTEGER,
    duration_ms REAL,
    finished_at REAL,                    -- unix time
    replay TEXT,                         -- path relative to the results folder
    round INTEGER NOT NULL DEFAULT 1,
    table_no INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE seats (
    game INTEGER NOT NULL REFERENCES games(ordinal),
    seat INTEGER NOT NULL,
    bot TEXT NOT NULL REFERENCES bots(name),
    placement INTEGER,
    fault_kind TEXT,
    fault_detail TEXT,
    PRIMARY KEY (game, seat)
) WITHOUT ROWID;
CREATE INDEX seats_faulted ON seats (bot, game) WHERE fault_kind IS NOT NULL;
CREATE TABLE ratings (                   -- each bot's rating after each rated game
    game INTEGER NOT NULL REFERENCES games(ordinal),
    bot TEXT NOT NULL REFERENCES bots(name),
    mu REAL NOT NULL,
    sigma REAL NOT NULL,
    PRIMARY KEY (game, bot)
) WITHOUT ROWID;
CREATE TABLE standings (                 -- the leaderboard as of the rated prefix
    bot TEXT PRIMARY KEY REFERENCES bots(name),
    mu REAL NOT NULL,
    sigma REAL NOT NULL,
    games INTEGER NOT NULL,
    wins INTEGER NOT NULL,
    place_sum INTEGER NOT NULL,
    faults TEXT NOT NULL                 -- JSON: kind -> count
);
CREATE TABLE pairs (                     -- how often a placed above b, in games of both
    a TEXT NOT NULL,
    b TEXT NOT NULL,
    above INTEGER NOT NULL,
    games INTEGER NOT NULL,
    PRIMARY KEY (a, b)
);
"""

#: What version 2 adds (also run when a version 1 folder is migrated).
SCHEMA_V2 = """
CREATE TABLE rounds (                    -- a round (a block of a round-robin) as scheduled
    round INTEGER PRIMARY KEY,
    first_game INTEGER NOT NULL,
    last_game INTEGER NOT NULL,
    tables INTEGER NOT NULL,
    scheduled_at REAL NOT NULL
);
CREATE UNIQUE INDEX rounds_last ON rounds (last_game);
CREATE TABLE tables (                    -- the bots of each table, in seat order of rotation 0
    round INTEGER NOT NULL,
    table_no INTEGER NOT NULL,
    bots TEXT NOT NULL,                  -- JSON list
    PRIMARY KEY (round, table_no)
);
CREATE TABLE round_standings (           -- each bot's rating once every game of a round is rated
    round INTEGER NOT NULL,
    bot TEXT NOT NULL,
    mu REAL NOT NULL,
    sigma REAL NOT NULL,
    games INTEGER NOT NULL,
    PRIMARY KEY (round, bot)
);
"""


#: The faulted seats, for each bot's first faults (Store.fault_details); made for new
#: folders by the schema, and when an older folder is opened to be written.
FAULTED_INDEX = (
    "CREATE INDEX IF NOT EXISTS seats_faulted ON seats (bot, game) WHERE fault_kind IS NOT NULL"
)
#: Each bot's games, newest first (Store.recent: a server's "recent games" of a bot with
#: a million games reads its last N); made for a folder when it is opened to be written.
BOT_GAMES_INDEX = "CREATE INDEX IF NOT EXISTS seats_by_bot ON seats (bot, game)"
#: ``Store.meta``'s default: the key must be there.
_REQUIRED: Any = object()


#: How far back (times the games asked for) a list of games that leaves some out looks.
RECENT_WINDOW = 50


class StoreError(ArenaError):
    """A results folder that cannot be used: unreadable, or from another tournament."""


class StoreDamaged(StoreError):
    """SQLite finds ``results.sqlite`` damaged: no retry mends it (a lock or an I/O error
    may pass; this does not)."""


def base_name(name: str) -> str:
    """The name a bot was entered under: ``alice`` for ``alice@2`` (a second version)."""
    return name.split("@", 1)[0]


@dataclass(frozen=True)
class BotRecord:
    """A bot as the store keeps it."""

    name: str
    command: str
    files_hash: str
    #: The name it was entered under: ``name`` is ``base@2`` for a second version.
    base: str | None = None
    retired: bool = False


class Finished(NamedTuple):
    """What a worker reports of a finished game (a tuple: pickled back by the thousand a
    second)."""

    ordinal: int
    placements: tuple[int, ...]
    faults: dict[int, tuple[str, str]]
    decisions: int
    duration_ms: float
    replay: str
    #: Bot processes the worker started for this game (not stored; for the run's figures).
    starts: int = 0

    @classmethod
    def of(
        cls,
        ordinal: int,
        result: GameResult,
        duration_ms: float,
        replay: str,
        starts: int = 0,
    ) -> Finished:
        """What the store is told of game ``ordinal``'s ``result``: each fault as the results
        count it (:attr:`~arena.referee.Fault.counted_as`: ``left`` for a person who left
        the table, whom the replay, like protocol v1, calls ``crash``)."""
        return cls(
            ordinal=ordinal,
            placements=result.placements,
            faults={seat: (f.counted_as, f.detail) for seat, f in result.faults.items()},
            decisions=result.decisions,
            duration_ms=duration_ms,
            replay=replay,
            starts=starts,
        )


class Placed(NamedTuple):
    """A finished game as a match's test reads it (:meth:`Store.placed`)."""

    ordinal: int
    deal_set: int
    id: str
    #: The bots, placements and fault kinds (None: no fault), in seat order.
    seats: tuple[str, ...]
    placements: tuple[int, ...]
    faults: tuple[str | None, ...]


class Store:
    """A tournament's ``results.sqlite``."""

    def __init__(self, folder: Path, connection: sqlite3.Connection) -> None:
        self.folder = folder
        self.db = connection
        #: The writer of finished games, with the rated prefix in memory (its ledger):
        #: started at the first finished game.
        self._commit: GroupCommit | None = None
        self._environment = Environment(**self.meta("environment"))
        #: Whether closing marks the file as left whole (:data:`CLOSED`): a run's store.
        self.closes_clean = False

    # ------------------------------------------------------------------ opening

    @classmethod
    def open(
        cls,
        folder: Path,
        *,
        config: dict[str, Any],
        bots: Sequence[BotRecord],
        environment: Environment,
        sandbox: Sequence[str],
        growable: Collection[str] = (),
        kind: str = "tournament",
    ) -> Store:
        """Open the store of ``folder``, creating it for a new tournament.

        An existing store must hold the same tournament (same configuration,
        except the keys in ``growable``, which are stored anew, and the same
        bot files); it is then resumed. ``kind`` names the event in messages. A
        store of schema version 1 is migrated (its whole schedule becomes round 1,
        complete).

        Raises:
            StoreError: for an unreadable store or one of another tournament.
        """
        path = folder / DATABASE
        exists = path.exists()
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise StoreError(f"cannot make the results folder {folder}: {error.strerror}") from None
        try:
            if not exists:
                _make(path, config, bots, environment, sandbox)
            db = sqlite3.connect(path, isolation_level=None)
            db.execute("PRAGMA journal_mode=WAL")
            writing(db)
            store = cls(folder, db)
        except (sqlite3.Error, json.JSONDecodeError, KeyError, TypeError) as error:
            raise StoreError(f"{path}: not a usable results store: {error}") from None
        if exists:
            # A damaged store is refused before anything is written.
            store.check(full=not untouched(folder))
            (folder / CLOSED).unlink(missing_ok=True)  # until this run closes it whole
            store._check_same(config, bots, growable, kind)
            store.db.execute(FAULTED_INDEX)  # a folder made before it: built once, here
            store.db.execute(BOT_GAMES_INDEX)  # likewise
            if store.meta("schema_version") == 1:
                store._migrate_v1()
            store.grow(config, bots, environment, growable)
        store.closes_clean = True
        return store

    def grow(
        self,
        config: dict[str, Any],
        bots: Sequence[BotRecord],
        environment: Environment,
        growable: Collection[str],
    ) -> None:
        """Take what a rerun (or a field change at a round boundary) may change: the keys
        of ``config`` in ``growable`` are stored anew, and where ``bots`` is one of them,
        newcomers enter at the default rating, bots no longer given retire and bots given
        again come back."""
        if "bots" in growable:
            self._join(bots, environment)
        changed = {key: config.get(key) for key in growable}
        stored = self.meta("config")
        if any(stored.get(key) != value for key, value in changed.items()):
            self.set_meta("config", {**stored, **changed})

    def _check_same(
        self,
        config: dict[str, Any],
        bots: Sequence[BotRecord],
        growable: Collection[str],
        kind: str,
    ) -> None:
        stored = self.meta("config")
        # The schedule first: a league rerun as a round-robin differs in its bots too.
        for key in sorted(set(stored) | set(config), key=lambda key: (key != "schedule", key)):
            if key in growable:
                continue
            round_robin = stored.get("schedule") is None and config.get("schedule") is None
            if key == "bots" and round_robin and stored.get(key) != config.get(key):
                raise StoreError.about(
                    "{folder} holds a round-robin of other bots, and a round-robin keeps its "
                    "field (a sampled or swiss league takes new bots): choose another {out}",
                    folder=self.folder,
                )
            if stored.get(key) != config.get(key):
                raise StoreError.about(
                    "{folder} holds another {kind} ({difference}): choose another {out}, "
                    "or remove that folder",
                    folder=self.folder,
                    kind=kind,
                    difference=_difference(key, stored.get(key), config.get(key)),
                )
        known = {row[0]: row[1] for row in self.db.execute("SELECT name, files_hash FROM bots")}
        for bot in bots:
            if bot.name not in known and "bots" in growable:
                continue  # a league's newcomer
            if known.get(bot.name) != bot.files_hash:
                raise StoreError.about(
                    "bot {name!r} changed since {folder} was started (its files differ): "
                    "choose another {out} to rate the new version",
                    name=bot.name,
                    folder=self.folder,
                )

    def _join(self, bots: Sequence[BotRecord], environment: Environment) -> None:
        """A league's field as given now: newcomers enter at the default rating, bots no
        longer given retire (their rows stay), bots given again come back."""
        present = {bot.name for bot in bots}
        known = {row[0] for row in self.db.execute("SELECT name FROM bots")}
        newcomers = [bot for bot in bots if bot.name not in known]
        with self._transaction():
            _enter(self.db, newcomers, environment)
            self.db.executemany(
                "UPDATE bots SET retired = ? WHERE name = ?",
                [(int(name not in present), name) for name in known],
            )
        commit = self._commit
        if commit is not None and newcomers:  # entered while games are rated: rate them too
            with commit.lock:
                for bot in newcomers:
                    commit.ledger.standings[bot.name] = Standing(environment.mu, environment.sigma)

    def bots(self) -> list[BotRecord]:
        """Every bot ever entered, in the order they were."""
        if self.meta("schema_version") < 2:
            return [
                BotRecord(name, command, files_hash, name)
                for name, command, files_hash in self.db.execute(
                    "SELECT name, command, files_hash FROM bots ORDER BY rowid"
                )
            ]
        return [
            BotRecord(name, command, files_hash, base, bool(retired))
            for name, command, files_hash, base, retired in self.db.execute(
                "SELECT name, command, files_hash, base, retired FROM bots ORDER BY rowid"
            )
        ]

    def _migrate_v1(self) -> None:
        """Bring a version 1 store to version 2: its whole (lexicographic) schedule is round 1."""
        with self._transaction():
            self.db.execute("ALTER TABLE bots ADD COLUMN base TEXT")
            self.db.execute("ALTER TABLE bots ADD COLUMN retired INTEGER NOT NULL DEFAULT 0")
            self.db.execute("ALTER TABLE games ADD COLUMN round INTEGER NOT NULL DEFAULT 1")
            self.db.execute("ALTER TABLE games ADD COLUMN table_no INTEGER NOT NULL DEFAULT 0")
            run_script(self.db, SCHEMA_V2)
            last = self.db.execute("SELECT max(ordinal) FROM games").fetchone()[0]
            if last is not None:
                self.db.execute(
                    "INSERT INTO rounds (round, first_game, last_game, tables, scheduled_at) "
                    "VALUES (1, 0, ?, 0, ?)",
                    (last, time.time()),
                )
            self._put_meta("schema_version", SCHEMA_VERSION)
            self._put_meta("schedule_complete", True)

    # ------------------------------------------------------------------ reading

    def meta(self, key: str, default: Any = _REQUIRED) -> Any:
        """A value of the ``meta`` table; ``default`` where the key is absent (a key a
        later version added, or one set only sometimes).

        Raises:
            KeyError: for an absent key without a default.
        """
        self.flush()
        row = self.db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        if row is None:
            if default is _REQUIRED:
                raise KeyError(key)
            return default
        return json.loads(row[0])

    def total(self) -> int:
        """Number of scheduled games."""
        return int(self.db.execute("SELECT count(*) FROM games").fetchone()[0])

    def planned(self) -> int:
        """Games in the whole plan as its last run knew it (the rounds asked for, not only
        those scheduled so far: a league schedules a round at a time), at least those
        scheduled. What people are told a run is "N of"."""
        return max(self.total(), int(self.meta("planned", 0)))

    def endless(self) -> bool:
        """Whether the event never ends (a server's ladder): its "N of" is no plan."""
        return bool(self.meta("endless", False))

    def done(self) -> int:
        """Number of finished games."""
        self.flush()
        return int(
            self.db.execute("SELECT count(*) FROM games WHERE status = 'done'").fetchone()[0]
        )

    def pending(self) -> list[ScheduledGame]:
        """The games still to play, in schedule order."""
        self.flush()
        seats: dict[int, list[str]] = {}
        for game, bot in self.db.execute(
            "SELECT s.game, s.bot FROM seats s JOIN games g ON g.ordinal = s.game "
            "WHERE g.status = 'pending' ORDER BY s.game, s.seat"
        ):
            seats.setdefault(game, []).append(bot)
        return [
            ScheduledGame(
                ordinal, game_id, deal_set, rotation, seed, tuple(seats[ordinal]), number, table
            )
            for ordinal, game_id, deal_set, rotation, seed, number, table in self.db.execute(
                "SELECT ordinal, id, deal_set, rotation, seed, round, table_no FROM games "
                "WHERE status = 'pending' ORDER BY ordinal"
            )
        ]

    def rounds(self) -> list[tuple[int, int, int]]:
        """The rounds scheduled so far: (round, first game, last game), in order."""
        return [
            (int(number), int(first), int(last))
            for number, first, last in self.db.execute(
                "SELECT round, first_game, last_game FROM rounds ORDER BY round"
            )
        ]

    def round_span(self, number: int) -> tuple[int, int] | None:
        """Round ``number``'s first and last game (None: not scheduled)."""
        row = self.db.execute(
            "SELECT first_game, last_game FROM rounds WHERE round = ?", (number,)
        ).fetchone()
        return None if row is None else (int(row[0]), int(row[1]))

    def scheduled_tables(self) -> Iterator[tuple[int, list[tuple[str, ...]]]]:
        """Each scheduled round's tables (bots in seat order), round by round."""
        number, tables = 0, list[tuple[str, ...]]()
        for row_round, bots in self.db.execute(
            "SELECT round, bots FROM tables ORDER BY round, table_no"
        ):
            if row_round != number and tables:
                yield number, tables
                tables = []
            number = row_round
            tables.append(tuple(json.loads(bots)))
        if tables:
            yield number, tables

    def next_deal_set(self) -> int:
        """The index the next scheduled deal set gets."""
        last = self.db.execute("SELECT max(deal_set) FROM games").fetchone()[0]
        return 0 if last is None else int(last) + 1

    def rated_rounds(self) -> int:
        """The last round every game of which is rated (0: none)."""
        self.flush()
        last = self.db.execute("SELECT max(round) FROM round_standings").fetchone()[0]
        return 0 if last is None else int(last)

    def standings_after(self, number: int) -> dict[str, tuple[float, float]]:
        """Each bot's (mu, sigma) once every game of round ``number`` was rated."""
        self.flush()
        return {
            bot: (mu, sigma)
            for bot, mu, sigma in self.db.execute(
                "SELECT bot, mu, sigma FROM round_standings WHERE round = ?", (number,)
            )
        }

    def games_per_second(self, sample: int = 1000) -> float | None:
        """The pace of the latest ``sample`` finished games (None: fewer than two)."""
        self.flush()
        times = [
            row[0]
            for row in self.db.execute(
                "SELECT finished_at FROM games WHERE status = 'done' "
                "ORDER BY finished_at DESC LIMIT ?",
                (sample,),
            )
        ]
        if len(times) < 2 or times[0] <= times[-1]:
            return None
        return float((len(times) - 1) / (times[0] - times[-1]))

    def disabled(self) -> dict[str, str]:
        """Disabled bots and why."""
        self.flush()
        return dict(
            self.db.execute(
                "SELECT name, disabled_reason FROM bots WHERE disabled_reason IS NOT NULL"
            )
        )

    def standings(self) -> list[dict[str, Any]]:
        """The leaderboard rows, best first (score = mu - 3 sigma)."""
        self.flush()
        rows = []
        retired = self._retired()
        for bot, mu, sigma, games, wins, place_sum, faults in self.db.execute(
            "SELECT bot, mu, sigma, games, wins, place_sum, faults FROM standings"
        ):
            rows.append(
                {
                    "bot": bot,
                    "mu": round(mu, 3),
                    "sigma": round(sigma, 3),
                    "score": round(mu - 3 * sigma, 3),
                    "games": games,
                    "wins": wins,
                    "win_pct": round(100.0 * wins / games, 1) if games else 0.0,
                    "avg_place": round(place_sum / games, 3) if games else None,
                    "faults": json.loads(faults),
                    "retired": bot in retired,
                }
            )
        rows.sort(key=lambda row: (-row["score"], row["bot"]))
        ranked = tiers([(row["mu"], row["sigma"]) for row in rows])
        for rank, (row, tier) in enumerate(zip(rows, ranked, strict=True), start=1):
            row["rank"] = rank
            row["tier"] = tier
        return rows

    def fault_details(self, per_bot: int = 3) -> dict[str, list[dict[str, str]]]:
        """The first ``per_bot`` faults of each bot that faulted, in schedule order: the
        game, the kind and the detail (why: the line it sent, its exit status). Read
        through a partial index of the faulted seats, so it costs what the faults do,
        not what the games do (a folder opened read-only before the index existed is
        scanned)."""
        found: dict[str, list[dict[str, str]]] = {}
        for bot, game, kind, detail in self.db.execute(
            "SELECT bot, id, fault_kind, fault_detail FROM (SELECT s.bot, g.id, s.fault_kind, "
            "s.fault_detail, ROW_NUMBER() OVER (PARTITION BY s.bot ORDER BY s.game) AS n "
            "FROM seats s JOIN games g ON g.ordinal = s.game WHERE s.fault_kind IS NOT NULL) "
            "WHERE n <= ? ORDER BY bot, n",
            (per_bot,),
        ):
            found.setdefault(bot, []).append({"game": game, "kind": kind, "detail": detail or ""})
        return found

    def recent(
        self, bots: Collection[str] | None, limit: int, apart: Collection[str] = ()
    ) -> list[dict[str, Any]]:
        """The last ``limit`` finished games, newest first, of any of ``bots`` (None:
        of all), each with its id, replay and seats (bot, placement, fault kind and
        detail). Read backwards through an index, so it costs ``limit`` games, not a
        bot's million (a folder opened read-only before the index existed is scanned).
        Of all, ``apart`` leaves out the games of those bots alone (a server's hidden
        house bots), looking back :data:`RECENT_WINDOW` times ``limit`` games at most."""
        self.flush()
        done = "SELECT ordinal FROM games WHERE status = 'done' ORDER BY ordinal DESC LIMIT ?"
        if bots is None and apart:
            marks = ",".join("?" * len(apart))
            ordinals = [
                row[0]
                for row in self.db.execute(
                    f"SELECT g.ordinal FROM ({done}) g WHERE EXISTS (SELECT 1 FROM seats s "
                    f"WHERE s.game = g.ordinal AND s.bot NOT IN ({marks})) "
                    "ORDER BY g.ordinal DESC LIMIT ?",
                    (limit * RECENT_WINDOW, *apart, limit),
                )
            ]
        elif bots is None:
            ordinals = [row[0] for row in self.db.execute(done, (limit,))]
        else:
            ordinals = sorted(
                {
                    row[0]
                    for bot in bots
                    for row in self.db.execute(
                        "SELECT s.game FROM seats s JOIN games g ON g.ordinal = s.game "
                        "WHERE s.bot = ? AND g.status = 'done' ORDER BY s.game DESC LIMIT ?",
                        (bot, limit),
                    )
                },
                reverse=True,
            )[:limit]
        games: dict[int, dict[str, Any]] = {}
        marks = ",".join("?" * len(ordinals))
        for ordinal, game_id, replay, bot, placement, kind, detail in self.db.execute(
            "SELECT g.ordinal, g.id, g.replay, s.bot, s.placement, s.fault_kind, s.fault_detail "
            f"FROM games g JOIN seats s ON s.game = g.ordinal WHERE g.ordinal IN ({marks}) "
            "ORDER BY g.ordinal DESC, s.seat",
            ordinals,
        ):
            game = games.setdefault(ordinal, {"id": game_id, "replay": replay, "seats": []})
            game["seats"].append(
                {"bot": bot, "placement": placement, "fault": kind, "detail": detail or ""}
            )
        return list(games.values())

    def replay_of(self, game_id: str) -> str | None:
        """The replay of finished game ``game_id``, relative to the folder (None: no such
        game finished)."""
        self.flush()
        row = self.db.execute(
            "SELECT replay FROM games WHERE id = ? AND status = 'done'", (game_id,)
        ).fetchone()
        return None if row is None else str(row[0])

    def _retired(self) -> set[str]:
        """Bots that left the league (a store of schema version 1 has none)."""
        if self.meta("schema_version") < 2:
            return set()
        return {row[0] for row in self.db.execute("SELECT name FROM bots WHERE retired = 1")}

    def pairwise(
        self, bots: Collection[str] | None = None
    ) -> dict[tuple[str, str], tuple[int, int]]:
        """(a, b) -> (games where a placed above b, games of both); only among ``bots`` if given."""
        self.flush()
        if bots is None:
            rows = self.db.execute("SELECT a, b, above, games FROM pairs")
        else:  # a few bots of a large field: the primary key finds their pairs
            names = sorted(bots)
            marks = ",".join("?" * len(names))
            rows = self.db.execute(
                f"SELECT a, b, above, games FROM pairs WHERE a IN ({marks}) AND b IN ({marks})",
                [*names, *names],
            )
        return {(a, b): (above, games) for a, b, above, games in rows}

    def games(self, ordinals: Sequence[int] | None = None) -> list[dict[str, Any]]:
        """Every finished game (or those of ``ordinals``) in schedule order, with its seats
        (bot, placement, fault kind)."""
        self.flush()
        keys = ("ordinal", "id", "deal_set", "rotation", "decisions", "duration_ms", "replay")
        games: list[dict[str, Any]] = []
        among = "" if ordinals is None else "AND g.ordinal IN (SELECT value FROM json_each(?)) "
        for *game, bot, place, fault in self.db.execute(
            "SELECT g.ordinal, g.id, g.deal_set, g.rotation, g.decisions, g.duration_ms, "
            "g.replay, s.bot, s.placement, s.fault_kind FROM games g "
            f"JOIN seats s ON s.game = g.ordinal WHERE g.status = 'done' {among}"
            "ORDER BY g.ordinal, s.seat",
            () if ordinals is None else (json.dumps(list(ordinals)),),
        ):
            if not games or games[-1]["ordinal"] != game[0]:
                games.append({**dict(zip(keys, game, strict=True)), "seats": []})
            games[-1]["seats"].append({"bot": bot, "placement": place, "fault": fault})
        return games

    def sample(self, most: int) -> list[int]:
        """At most ``most`` finished games' ordinals, for a page that cannot list them all:
        the earliest games with a fault first, then games spread evenly over the schedule.
        A bot's first faults may come after ``most`` faulted games: the faults table then
        says how to show their games."""
        self.flush()
        faulted = [
            int(ordinal)
            for (ordinal,) in self.db.execute(
                "SELECT DISTINCT game FROM seats WHERE fault_kind IS NOT NULL ORDER BY game "
                "LIMIT ?",
                (most,),
            )
        ]
        room = most - len(faulted)
        if room <= 0:
            return faulted
        step = max(1, -(-self.done() // room))
        spread = [
            int(ordinal)
            for (ordinal,) in self.db.execute(
                "SELECT ordinal FROM games WHERE status = 'done' AND ordinal % ? = 0 LIMIT ?",
                (step, room),
            )
        ]
        return sorted(set(faulted) | set(spread))

    def placed(self, first: int, last: int) -> Iterator[Placed]:
        """The finished games of ordinals ``first`` .. ``last``, in schedule order (a
        match's test reads its units from them a round at a time)."""
        self.flush()
        rows = self.db.execute(
            "SELECT g.ordinal, g.deal_set, g.id, s.bot, s.placement, s.fault_kind FROM games g "
            "JOIN seats s ON s.game = g.ordinal "
            "WHERE g.ordinal BETWEEN ? AND ? AND g.status = 'done' ORDER BY g.ordinal, s.seat",
            (first, last),
        )
        for (ordinal, deal_set, game_id), seats in itertools.groupby(rows, key=lambda r: r[:3]):
            bots, places, faults = zip(*(row[3:] for row in seats), strict=True)
            yield Placed(int(ordinal), int(deal_set), game_id, bots, places, faults)

    def history(
        self, points: int = 200, bots: Collection[str] | None = None, since: int = 0
    ) -> dict[str, list[tuple[int, float, float]]]:
        """Each bot's rating, ``(game, mu, sigma)``, after its rated games: at most ``points``
        of them, evenly spread, the last one always kept; only ``bots``' if given, and only
        after game ``since`` (the table's key starts with the game: a server's chart of a
        ladder's last games reads those, not its millions).

        Sigma comes with mu so that a chart can show how sure each rating is (the score,
        mu - 3 sigma, alone made every line climb together as sigma shrank). Every
        schema version's ``ratings`` table holds both.
        """
        series: dict[str, list[tuple[int, float, float]]] = {}
        query, names = (
            "SELECT game, bot, mu, sigma FROM ratings WHERE game >= ?",
            sorted(bots or ()),
        )
        if bots is not None:
            query += f" AND bot IN ({','.join('?' * len(names))})"
        for game, bot, mu, sigma in self.db.execute(f"{query} ORDER BY game", [since, *names]):
            series.setdefault(bot, []).append((int(game), round(mu, 3), round(sigma, 3)))
        for bot, scores in series.items():
            if len(scores) > points:
                step = len(scores) / points
                kept = [scores[int(i * step)] for i in range(points - 1)]
                series[bot] = [*kept, scores[-1]]
        return series

    # ------------------------------------------------------------------ writing

    def finish(self, result: Finished, seats: Sequence[str] | None = None) -> None:
        """Record a finished game, and rate the schedule's finished prefix as far as it goes.

        The game is committed with its group, within about 50 ms (see
        :mod:`arena.results.commit`); :meth:`flush` commits at once.
        ``seats``: its bots in seat order (read from the store when not given).

        Raises:
            StoreError: for a game finished already (it would count twice), or
                what stopped the writer.
        """
        commit = self._commit or self._start_commit()
        if seats is None:
            seats = [
                bot
                for (bot,) in self.db.execute(
                    "SELECT bot FROM seats WHERE game = ? ORDER BY seat", (result.ordinal,)
                )
            ]
        with self._writing(), commit.lock:
            commit.raise_error()
            commit.ledger.record(
                result.ordinal,
                seats,
                result.placements,
                faults=result.faults,
                decisions=result.decisions,
                duration_ms=result.duration_ms,
                replay=result.replay,
            )
            commit.added()

    def flush(self) -> None:
        """Commit every game recorded so far (a no-op when there is none).

        Raises:
            StoreError: for a game that would count twice; or what else stopped
                the writer (an I/O error).
        """
        if self._commit is not None:
            with self._writing():
                self._commit.flush()

    @contextmanager
    def _writing(self) -> Iterator[None]:
        """A game counted twice (found by the ledger or by the writer) as a StoreError; a
        writer stopped by an error is told once, then left (its games stay pending)."""
        try:
            yield
        except BaseException as error:
            commit = self._commit
            if commit is not None and commit.failed():
                self._commit = None
                commit.stop()
            if isinstance(error, CountedTwice):
                raise StoreError(str(error)) from None
            raise

    def _start_commit(self) -> GroupCommit:
        """Load the rated prefix into a ledger, and start its writer."""
        rated = int(self.meta("rated_through"))
        standings = {
            bot: Standing(mu, sigma, games, wins, place_sum, json.loads(faults))
            for bot, mu, sigma, games, wins, place_sum, faults in self.db.execute(
                "SELECT bot, mu, sigma, games, wins, place_sum, faults FROM standings"
            )
        }
        seated: dict[int, list[tuple[str, int, str | None]]] = {}
        for game, bot, place, fault in self.db.execute(
            "SELECT s.game, s.bot, s.placement, s.fault_kind FROM games g "
            "JOIN seats s ON s.game = g.ordinal WHERE g.status = 'done' AND g.ordinal > ? "
            "ORDER BY s.game, s.seat",
            (rated,),
        ):
            seated.setdefault(game, []).append((bot, place, fault))
        waiting = {
            game: Result(*(tuple(column) for column in zip(*rows, strict=True)))
            for game, rows in seated.items()
        }
        ends = {
            int(last): int(number)
            for number, last in self.db.execute(
                "SELECT round, last_game FROM rounds WHERE last_game > ?", (rated,)
            )
        }
        ledger = Ledger(
            self._environment.free_for_all(),
            standings,
            rated_through=rated,
            waiting=waiting,
            round_ends=ends,
        )
        self._commit = GroupCommit(self.folder / DATABASE, ledger)
        return self._commit

    def schedule_round(
        self,
        number: int,
        tables: Sequence[tuple[str, ...]],
        games: Iterable[ScheduledGame],
        *,
        size: int | None = None,
    ) -> list[ScheduledGame]:
        """Write round ``number``: its tables and its first games (one transaction).

        ``size``: the round's games in all, when ``games`` is only its first
        chunk (the rest follow with :meth:`add_games`); the round's extent is
        stored whole, so it counts as rated only once all its games are.
        Returns the games written.
        """
        made = list(games)
        last = made[0].ordinal + (size or len(made)) - 1
        with self._transaction():
            self.db.execute(
                "INSERT INTO rounds (round, first_game, last_game, tables, scheduled_at) "
                "VALUES (?, ?, ?, ?, ?)",
                (number, made[0].ordinal, last, len(tables), time.time()),
            )
            self.db.executemany(
                "INSERT INTO tables (round, table_no, bots) VALUES (?, ?, ?)",
                [(number, index, json.dumps(list(table))) for index, table in enumerate(tables)],
            )
            self._insert(made)
        if self._commit is not None:
            with self._commit.lock:
                self._commit.ledger.round_scheduled(number, last)
        return made

    def add_games(self, games: Iterable[ScheduledGame]) -> list[ScheduledGame]:
        """Write the next chunk of the last round's games (one transaction); return them."""
        made = list(games)
        with self._transaction():
            self._insert(made)
        return made

    def _insert(self, games: Sequence[ScheduledGame]) -> None:
        self.db.executemany(
            "INSERT INTO games (ordinal, id, deal_set, rotation, seed, status, round, "
            "table_no) VALUES (?, ?, ?, ?, ?, 'pending', ?, ?)",
            [
                (g.ordinal, g.game_id, g.deal_set, g.rotation, g.seed, g.round, g.table)
                for g in games
            ],
        )
        self.db.executemany(
            "INSERT INTO seats (game, seat, bot) VALUES (?, ?, ?)",
            [(g.ordinal, seat, bot) for g in games for seat, bot in enumerate(g.seats)],
        )

    def first_deal_set(self, ordinal: int) -> int:
        """The deal set of game ``ordinal`` (a round's first game: where its deal sets start)."""
        return int(
            self.db.execute("SELECT deal_set FROM games WHERE ordinal = ?", (ordinal,)).fetchone()[
                0
            ]
        )

    def set_meta(self, key: str, value: Any) -> None:
        """Write a value of the ``meta`` table (None: remove the key), committed at once."""
        with self._transaction():
            if value is None:
                self.db.execute("DELETE FROM meta WHERE key = ?", (key,))
            else:
                self._put_meta(key, value)

    def _put_meta(self, key: str, value: Any) -> None:
        self.db.execute(
            "INSERT INTO meta (key, value) VALUES (?, ?) "
            "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            (key, json.dumps(value, sort_keys=True)),
        )

    def disable(self, bot: str, reason: str) -> None:
        """Mark a bot disabled (its remaining games are forfeits)."""
        with self._transaction():
            self.db.execute("UPDATE bots SET disabled_reason = ? WHERE name = ?", (reason, bot))

    def enable(self, bot: str) -> None:
        """A disabled bot plays again (the games it forfeited stay as they were)."""
        with self._transaction():
            self.db.execute("UPDATE bots SET disabled_reason = NULL WHERE name = ?", (bot,))

    def check(self, *, full: bool) -> None:
        """Refuse a damaged ``results.sqlite``.

        ``full``: SQLite's integrity check of the whole file (a resume, a
        report). Otherwise a quick check of the small tables a leaderboard
        reads, so that it stays fast on a folder of a million games; what
        it does not cover, its reads meet (see :meth:`guarded`).

        Raises:
            StoreError: naming the first problem SQLite found.
        """
        pragmas = (
            ["PRAGMA integrity_check(4)"]
            if full
            else [f"PRAGMA quick_check({table})" for table in BOARD_TABLES]
        )
        for pragma in pragmas:
            found = self.guarded(partial(self._problems, pragma))
            if found != ["ok"]:
                raise self._damaged("; ".join(found))

    def _problems(self, pragma: str) -> list[str]:
        """The lines of an integrity check, less its headings (``*** in database main ***``)."""
        lines = [line for (text,) in self.db.execute(pragma) for line in str(text).splitlines()]
        return [line for line in lines if not line.startswith("***")] or lines

    def guarded(self, read: Callable[[], T]) -> T:
        """``read()``, with SQLite's errors turned into one clear line.

        Raises:
            StoreError: "damaged" when SQLite finds the file malformed or not a
                database; its own words for any other error (locked, I/O).
        """
        try:
            return read()
        except sqlite3.DatabaseError as error:
            if getattr(error, "sqlite_errorcode", 0) & 0xFF in CORRUPT:
                raise self._damaged(str(error)) from None
            raise StoreError(f"{self.folder / DATABASE}: {error}") from None  # locked, I/O...

    def _damaged(self, problem: str) -> StoreDamaged:
        return damaged_store(self.folder / DATABASE, problem)

    def close(self) -> None:
        """Commit what is recorded, and close the database (a run's store, closed whole:
        marked so, :data:`CLOSED`)."""
        whole = False
        try:
            if self._commit is not None:
                with self._writing():
                    self._commit.close()
            whole = True
        finally:
            self._commit = None
            self.db.close()
        if whole and self.closes_clean:
            _mark_closed(self.folder)

    @contextmanager
    def _transaction(self) -> Iterator[None]:
        self.db.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        self.db.execute("COMMIT")


def _as_mapping(value: Any) -> Any:
    """A list of [name, value] pairs (bots, resource limits) as a mapping; others as they are."""
    if isinstance(value, list) and all(
        isinstance(item, list) and len(item) == 2 and isinstance(item[0], str) for item in value
    ):
        return dict(value)
    return value


def _difference(key: str, there: Any, now: Any) -> str:
    """The first difference of two settings, in words: ``rules.dog_life: 'expanded' there,
    'standard' now``, not two whole dictionaries."""
    there, now = _as_mapping(there), _as_mapping(now)
    if isinstance(there, dict) and isinstance(now, dict):
        for sub in sorted(set(there) | set(now)):
            if there.get(sub) != now.get(sub):
                return _difference(f"{key}.{sub}", there.get(sub), now.get(sub))
    if isinstance(there, list) and isinstance(now, list):
        if len(there) != len(now):
            return f"{key}: {len(there)} there, {len(now)} now"
        for index, (a, b) in enumerate(zip(there, now, strict=True)):
            if a != b:
                return _difference(f"{key}[{index + 1}]", a, b)

    def shown(value: Any) -> str:
        return "not set" if value is None else repr(value)

    return f"{key}: {shown(there)} there, {shown(now)} now"


def open_existing(folder: Path) -> Store:
    """Open a results folder for reading (``arena leaderboard``).

    Raises:
        StoreError: when there is no readable store in ``folder``.
    """
    path = folder / DATABASE
    if not path.is_file():
        raise StoreError(f"{folder} holds no {DATABASE}: not a tournament results folder")
    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, isolation_level=None)
        return Store(folder, db)
    except sqlite3.DatabaseError as error:
        if getattr(error, "sqlite_errorcode", 0) & 0xFF in CORRUPT:
            raise damaged_store(path, str(error)) from None
        raise StoreError(f"{path}: not a usable results store: {error}") from None
    except (sqlite3.Error, json.JSONDecodeError, KeyError, TypeError) as error:
        raise StoreError(f"{path}: not a usable results store: {error}") from None


def _fingerprint(path: Path) -> dict[str, int]:
    """What says a file was written since: its size, mtime and inode."""
    found = path.stat()
    return {"size": found.st_size, "mtime_ns": found.st_mtime_ns, "inode": found.st_ino}


def _wal_pending(folder: Path) -> bool:
    """Whether ``folder``'s results.sqlite has a WAL with anything in it."""
    wal = folder / (DATABASE + "-wal")
    return wal.exists() and wal.stat().st_size > 0


def _mark_closed(folder: Path) -> None:
    """Write :data:`CLOSED` for ``folder``'s results.sqlite, where its WAL is gone (a
    reader still open keeps it: the next open checks the whole file, as it must)."""
    if _wal_pending(folder):
        return
    marker = folder / CLOSED
    partial = marker.with_name(marker.name + ".partial")
    partial.write_text(json.dumps(_fingerprint(folder / DATABASE)))
    partial.replace(marker)


def untouched(folder: Path) -> bool:
    """Whether ``folder``'s results.sqlite is as the run that closed it last left it
    (:data:`CLOSED`), with nothing in a WAL since."""
    try:
        left = json.loads((folder / CLOSED).read_text())
        return not _wal_pending(folder) and bool(left == _fingerprint(folder / DATABASE))
    except (OSError, ValueError):
        return False


def damaged_store(path: Path, problem: str) -> StoreDamaged:
    """The one line for a results.sqlite that SQLite finds damaged."""
    first = problem.splitlines()[0] if problem else "unknown"
    return StoreDamaged(
        f"{path} is damaged ({first}): nothing was changed; restore it from a copy, or start "
        "a new folder"
    )


def run_script(db: sqlite3.Connection, script: str) -> None:
    """Run each statement of ``script`` (the schema), one at a time."""
    for statement in script.split(";"):
        if statement.strip():
            db.execute(statement)


def _make(
    path: Path,
    config: dict[str, Any],
    bots: Sequence[BotRecord],
    environment: Environment,
    sandbox: Sequence[str],
) -> None:
    """Make a new store at ``path``, whole: its tables are made in a file of another name,
    renamed into place once they are committed, so that no reader (the server's pages,
    ``arena leaderboard``) and no resume after a crash ever finds the file without them."""
    making = path.with_name(f"{path.name}.making")
    for suffix in ("", "-wal", "-shm", "-journal"):  # what a crash while making one left
        Path(f"{making}{suffix}").unlink(missing_ok=True)
    db = sqlite3.connect(making, isolation_level=None)
    try:
        db.execute("PRAGMA journal_mode=WAL")
        writing(db)
        _create(db, config, bots, environment, sandbox)
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # all of it in the file renamed
    finally:
        db.close()
    os.replace(making, path)
    handle = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(handle)
    finally:
        os.close(handle)


def _create(
    db: sqlite3.Connection,
    config: dict[str, Any],
    bots: Sequence[BotRecord],
    environment: Environment,
    sandbox: Sequence[str],
) -> None:
    db.execute("BEGIN IMMEDIATE")
    run_script(db, SCHEMA)
    run_script(db, SCHEMA_V2)
    db.execute(BOT_GAMES_INDEX)
    meta = {
        "schema_version": SCHEMA_VERSION,
        "config": config,
        "environment": environment.to_dict(),
        "sandbox": list(sandbox),
        "rated_through": -1,
        "created_at": time.time(),
        "schedule_complete": False,
    }
    db.executemany(
        "INSERT INTO meta (key, value) VALUES (?, ?)",
        [(key, json.dumps(value, sort_keys=True)) for key, value in meta.items()],
    )
    _enter(db, bots, environment)
    db.execute("COMMIT")


def _enter(db: sqlite3.Connection, bots: Sequence[BotRecord], environment: Environment) -> None:
    """New bots, at the default rating."""
    db.executemany(
        "INSERT INTO bots (name, command, files_hash, base) VALUES (?, ?, ?, ?)",
        [(b.name, b.command, b.files_hash, b.base) for b in bots],
    )
    db.executemany(
        "INSERT INTO standings (bot, mu, sigma, games, wins, place_sum, faults) "
        "VALUES (?, ?, ?, 0, 0, 0, '{}')",
        [(b.name, environment.mu, environment.sigma) for b in bots],
    )
