"""Group commit: finished games reach ``results.sqlite`` in batches, from a thread of their own.

One transaction per game cost the coordinator ~0.3 ms: SQLite's commit and
a statement per row. Here the coordinator only records a game in the
:class:`arena.results.ledger.Ledger` (a few microseconds); a writer
thread commits the open batch, in one transaction on its own connection,
when it holds :data:`COMMIT_GAMES` games or its oldest game is
:data:`COMMIT_S` seconds old, and whenever the store is flushed (a round
to schedule, the end of a run, Ctrl-C, SIGTERM). The timer runs on the
writer, so a finished game is committed within about ``COMMIT_S`` even
while the coordinator plays a long game itself (``--jobs 1``). A ``kill
-9`` loses at most the batches not yet committed: those games are still
``pending`` in the store, and are played again on resume (their replays
are written again, the same), never counted twice.

An error in the writer (a full disk, a game that would count twice) stops
it and is raised in the coordinator at its next call.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from pathlib import Path

from arena.results.ledger import Batch, CountedTwice, Ledger

#: Games in a batch at which it is committed at once.
COMMIT_GAMES = 512
#: Seconds the oldest game of a batch waits for its commit, at most (about).
COMMIT_S = 0.05


#: WAL pages after which a commit copies them back into the database file. SQLite's default
#: (1,000) checkpointed every few seconds of a fast tournament; each checkpoint copies a page
#: once however often it changed since, so fewer cost less (the WAL grows to ~40 MB).
CHECKPOINT_PAGES = 10_000
#: Bytes of WAL past which the writer checkpoints it whole and truncates it. SQLite starts
#: the WAL over only when a write finds it checkpointed and no one reading it; with two
#: connections writing (the coordinator's schedule, this writer's results) that moment
#: rarely comes, and the WAL grew to 2.8 GB in a million-game league of 1,000 bots whose
#: results.sqlite was 0.5 GB. A TRUNCATE checkpoint waits (the busy timeout) for the
#: coordinator's transaction and any reader, then leaves the file empty.
WAL_LIMIT = 64 * 2**20
#: Milliseconds that checkpoint waits for readers, at most: a server's pages read the
#: store all day, and the writer (with the round the coordinator flushes for) must not
#: stand behind them for the connection's 5 s; busy, it tries again after the next batch.
CHECKPOINT_WAIT_MS = 100


def writing(db: sqlite3.Connection) -> None:
    """Settings of a connection that writes the store (the coordinator's, the writer's)."""
    db.execute("PRAGMA synchronous=NORMAL")  # WAL: consistent after a crash; no fsync per commit
    db.execute("PRAGMA foreign_keys=ON")
    db.execute(f"PRAGMA wal_autocheckpoint={CHECKPOINT_PAGES}")


class GroupCommit:
    """A writer thread committing a ledger's batches to ``path`` (see the module)."""

    def __init__(self, path: Path, ledger: Ledger) -> None:
        self.path = path
        self.ledger = ledger
        #: :data:`COMMIT_GAMES` and :data:`COMMIT_S` as they are when the writer starts.
        self.games = COMMIT_GAMES
        self.seconds = COMMIT_S
        #: Guards the ledger (the coordinator records, the writer seals) and the fields below.
        self.lock = threading.Condition()
        self._flushing = 0
        self._writing = False
        self._stopping = False
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, name="arena-commit", daemon=True)
        self._thread.start()

    def raise_error(self) -> None:
        """Raise what stopped the writer, if anything did (the caller holds the lock)."""
        if self._error is not None:
            raise self._error

    def failed(self) -> bool:
        """Whether an error stopped the writer."""
        return self._error is not None

    def added(self) -> None:
        """The caller recorded a game in the ledger (holding the lock): wake the writer
        when the batch is new (to time it) or full."""
        size = self.ledger.size
        if size == 1 or size >= self.games:
            self.lock.notify_all()

    def flush(self) -> None:
        """Commit everything recorded so far; return once it is committed.

        Raises:
            BaseException: what stopped the writer (its error is kept, and raised again).
        """
        with self.lock:
            self.raise_error()
            if not self.ledger.size and not self._writing:
                return
            self._flushing += 1
            self.lock.notify_all()
            try:
                while (self.ledger.size or self._writing) and self._error is None:
                    self.lock.wait()
            finally:
                self._flushing -= 1
            self.raise_error()

    def close(self) -> None:
        """Commit what is left and stop the writer.

        Raises:
            BaseException: what stopped the writer.
        """
        try:
            self.flush()
        finally:
            self.stop()

    def stop(self) -> None:
        """Stop the writer once it has committed what is recorded (a failed one has stopped)."""
        with self.lock:
            self._stopping = True
            self.lock.notify_all()
        self._thread.join()

    # ------------------------------------------------------------------ the writer

    def _due(self) -> float | None:
        """Seconds until the open batch is due (0: now; None: it is empty)."""
        ledger = self.ledger
        if not ledger.size:
            return None
        if self._flushing or self._stopping or ledger.size >= self.games:
            return 0.0
        return max(0.0, ledger.batch.since + self.seconds - time.monotonic())

    def _run(self) -> None:
        db = sqlite3.connect(self.path, isolation_level=None)
        wal = self.path.with_name(self.path.name + "-wal")
        try:
            writing(db)
            while True:
                with self.lock:
                    while (due := self._due()) != 0.0:
                        if due is None and self._stopping:
                            return
                        self.lock.wait(due)
                    batch = self.ledger.seal()
                    self._writing = True
                try:
                    _write(db, batch)
                    _bound_wal(db, wal)
                except BaseException as error:  # raised in the coordinator (raise_error)
                    with self.lock:
                        self._error = error
                        self._writing = False
                        self.lock.notify_all()
                    return
                with self.lock:
                    self._writing = False
                    self.lock.notify_all()
        finally:
            db.close()


def _bound_wal(db: sqlite3.Connection, wal: Path) -> None:
    """Checkpoint the WAL whole and truncate it once it is past :data:`WAL_LIMIT`. Busy
    (a reader that outwaited the timeout) is no error: the next batch tries again."""
    try:
        size = wal.stat().st_size
    except FileNotFoundError:
        return
    if size > WAL_LIMIT:
        (waits,) = db.execute("PRAGMA busy_timeout").fetchone()
        db.execute(f"PRAGMA busy_timeout = {CHECKPOINT_WAIT_MS}")
        try:
            db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()
        finally:
            db.execute(f"PRAGMA busy_timeout = {int(waits)}")


def _write(db: sqlite3.Connection, batch: Batch) -> None:
    """One batch in one transaction: the games, their seats, what they rated."""
    db.execute("BEGIN IMMEDIATE")
    try:
        updated = db.executemany(
            "UPDATE games SET status = 'done', decisions = ?, duration_ms = ?, "
            "finished_at = ?, replay = ? WHERE ordinal = ? AND status = 'pending'",
            batch.games,
        ).rowcount
        if updated != len(batch.games):
            pending = {
                ordinal
                for (ordinal,) in db.execute(
                    "SELECT ordinal FROM games WHERE status = 'pending' AND ordinal IN "
                    f"({','.join('?' * len(batch.games))})",
                    [row[-1] for row in batch.games],
                )
            }
            twice = min(row[-1] for row in batch.games if row[-1] not in pending)
            raise CountedTwice(f"game {twice} is not pending: it would count twice")
        db.executemany(
            "UPDATE seats SET placement = ?, fault_kind = ?, fault_detail = ? "
            "WHERE game = ? AND seat = ?",
            batch.seats,
        )
        db.executemany(
            "INSERT INTO ratings (game, bot, mu, sigma) VALUES (?, ?, ?, ?)", batch.ratings
        )
        db.executemany(
            "UPDATE standings SET mu = ?, sigma = ?, games = ?, wins = ?, place_sum = ?, "
            "faults = ? WHERE bot = ?",
            batch.standings,
        )
        db.executemany(
            "INSERT INTO pairs (a, b, above, games) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (a, b) DO UPDATE SET above = above + excluded.above, "
            "games = games + excluded.games",
            [(a, b, above, games) for (a, b), (above, games) in batch.pairs.items()],
        )
        db.executemany(
            "INSERT INTO round_standings (round, bot, mu, sigma, games) VALUES (?, ?, ?, ?, ?)",
            batch.rounds,
        )
        db.execute(
            "UPDATE meta SET value = ? WHERE key = 'rated_through'", (str(batch.rated_through),)
        )
    except BaseException:
        db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")
