"""Group commit: finished games reach results.sqlite by size, by a timer and on flush."""

from __future__ import annotations

import sqlite3
import time
from contextlib import closing
from pathlib import Path

import pytest

from arena.results import commit
from arena.results.games import ScheduledGame
from arena.results.ratings import Environment
from arena.results.store import BotRecord, Finished, Store, StoreError
from arena.tournament.schedule import round_robin_games

BOTS = ["a", "b", "c"]
SCHEDULE = round_robin_games(BOTS, players=3, deals=4, seed=1)


def make_store(folder: Path, schedule: list[ScheduledGame] = SCHEDULE) -> Store:
    """A store of BOTS with ``schedule`` as its round 1."""
    store = Store.open(
        folder,
        config={"players": 3},
        bots=[BotRecord(name, name, "h") for name in BOTS],
        environment=Environment.for_table(3),
        sandbox=[],
    )
    store.schedule_round(1, [tuple(BOTS)], schedule)
    return store


def finished(ordinal: int) -> Finished:
    return Finished(ordinal, (1, 2, 3), {}, 30, 1.0, f"replays/{ordinal}.jsonl")


def done_in_file(folder: Path) -> int:
    """Games committed, as another process reading the file sees them."""
    with sqlite3.connect(folder / "results.sqlite") as db:
        return int(db.execute("SELECT count(*) FROM games WHERE status = 'done'").fetchone()[0])


def wait_for(folder: Path, games: int, seconds: float = 5.0) -> float:
    """Seconds until ``games`` are committed (fails after ``seconds``)."""
    start = time.monotonic()
    while done_in_file(folder) < games:
        assert time.monotonic() - start < seconds, f"{done_in_file(folder)} of {games} committed"
        time.sleep(0.01)
    return time.monotonic() - start


def test_a_finished_game_is_committed_by_the_timer_alone(tmp_path: Path) -> None:
    """No further game, no flush: the writer's timer commits it (as while --jobs 1 plays a
    long game in the coordinator)."""
    store = make_store(tmp_path)
    store.finish(finished(0), ("a", "b", "c"))
    wait_for(tmp_path, 1)
    store.close()


def test_games_wait_for_the_batch_until_its_size_or_age(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With an hour's timer, games wait (a kill -9 would lose them: they are still pending,
    played again on resume) until the batch is full; a flush commits at once."""
    monkeypatch.setattr(commit, "COMMIT_S", 3600.0)
    monkeypatch.setattr(commit, "COMMIT_GAMES", 4)
    store = make_store(tmp_path)
    for ordinal in range(3):
        store.finish(finished(ordinal))
    time.sleep(0.3)
    assert done_in_file(tmp_path) == 0
    store.finish(finished(3))  # the batch is full
    wait_for(tmp_path, 4)
    store.finish(finished(4))
    store.flush()
    assert done_in_file(tmp_path) == 5
    assert store.meta("rated_through") == 4
    store.close()


def test_a_batch_rates_and_counts_as_games_one_by_one(tmp_path: Path) -> None:
    """Standings, pairwise counts and per-game ratings of one batch equal those of games
    committed one at a time."""
    one, batched = make_store(tmp_path / "one"), make_store(tmp_path / "batched")
    order = [3, 0, 2, 1, 5, 4, 7, 6, 11, 8, 9, 10]
    for ordinal in order:
        places = ((1, 2, 3), (3, 1, 1), (2, 3, 1))[ordinal % 3]
        game = Finished(ordinal, places, {}, 30, 1.0, f"replays/{ordinal}.jsonl")
        one.finish(game)
        one.flush()
        batched.finish(game)
    batched.flush()
    assert one.standings() == batched.standings()
    assert one.pairwise() == batched.pairwise()
    assert one.history() == batched.history()
    # The counts, as the seats of the games say (ties included: a shared place is not above).
    with sqlite3.connect(tmp_path / "batched" / "results.sqlite") as db:
        from_seats = {
            (a, b): (above, games)
            for a, b, above, games in db.execute(
                "SELECT x.bot, y.bot, sum(x.placement < y.placement), count(*) "
                "FROM seats x JOIN seats y ON y.game = x.game AND y.seat != x.seat "
                "WHERE x.placement IS NOT NULL GROUP BY x.bot, y.bot"
            )
        }
    assert batched.pairwise() == from_seats
    assert sum(games for _, games in from_seats.values()) == len(order) * 3 * 2
    one.close()
    batched.close()


def test_the_wal_is_truncated_past_its_limit_while_two_connections_write(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The coordinator schedules on its connection while the writer commits on its own, so
    SQLite seldom finds the WAL idle to start over: past WAL_LIMIT the writer truncates it
    (a million-game league's WAL reached 2.8 GB beside a 0.5 GB store)."""
    monkeypatch.setattr(commit, "COMMIT_GAMES", 16)
    monkeypatch.setattr(commit, "WAL_LIMIT", 32 * 1024)
    games = round_robin_games(BOTS, players=3, deals=300, seed=1)
    store = make_store(tmp_path, games[:30])
    wal = tmp_path / "results.sqlite-wal"
    for number, start in enumerate(range(0, len(games), 30), start=1):
        if number > 1:  # the coordinator's writes between the writer's commits
            store.schedule_round(number, [tuple(BOTS)], games[start : start + 30])
        for game in games[start : start + 30]:
            store.finish(finished(game.ordinal))
    store.flush()
    assert done_in_file(tmp_path) == len(games)
    assert wal.stat().st_size <= commit.WAL_LIMIT
    store.close()


def test_a_reader_keeps_the_wal_without_holding_the_writer_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A reader in a transaction (a server's page) keeps the WAL from being truncated, and
    the writer tries again after each batch, waiting CHECKPOINT_WAIT_MS for it, not the
    connection's 5 s; once the reader is done, the next batch truncates it."""
    monkeypatch.setattr(commit, "COMMIT_GAMES", 16)
    monkeypatch.setattr(commit, "WAL_LIMIT", 32 * 1024)
    games = round_robin_games(BOTS, players=3, deals=40, seed=1)
    store = make_store(tmp_path, games)
    wal = tmp_path / "results.sqlite-wal"
    with closing(sqlite3.connect(tmp_path / "results.sqlite", isolation_level=None)) as reader:
        reader.execute("BEGIN")
        reader.execute("SELECT count(*) FROM games").fetchone()
        start = time.monotonic()
        for game in games[:64]:  # 4 batches, each past the limit
            store.finish(finished(game.ordinal))
        store.flush()
        assert time.monotonic() - start < 3.0, "each checkpoint waited 5 s for the reader"
        assert wal.stat().st_size > commit.WAL_LIMIT
        reader.execute("COMMIT")
    for game in games[64:]:
        store.finish(finished(game.ordinal))
    store.flush()
    assert wal.stat().st_size <= commit.WAL_LIMIT and done_in_file(tmp_path) == len(games)
    store.close()


def test_an_error_of_the_writer_is_raised_in_the_coordinator(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A game another process marked done meanwhile: the writer's commit refuses to count it
    twice, and the coordinator hears of it at its next call, in one line."""
    monkeypatch.setattr(commit, "COMMIT_S", 3600.0)
    store = make_store(tmp_path)
    store.finish(finished(0))
    with sqlite3.connect(tmp_path / "results.sqlite") as db:
        db.execute("UPDATE games SET status = 'done' WHERE ordinal = 0")
    with pytest.raises(StoreError, match="game 0 is not pending: it would count twice"):
        store.flush()
    # Told once; what the run says next (games saved) reads the store as it is.
    assert store.done() == 1
    store.close()


def test_a_new_store_appears_whole_and_a_cut_making_leaves_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A reader (the server's pages) never finds results.sqlite without its tables, and a
    crash while a store is made leaves none behind to refuse the rerun: the tables are
    made under another name, renamed into place once committed."""
    from arena.results import store as store_module  # noqa: PLC0415

    made = store_module._create
    seen: list[bool] = []

    def cut(db: sqlite3.Connection, *args: object) -> None:
        made(db, *args)  # type: ignore[arg-type]
        seen.append((tmp_path / "results.sqlite").exists())
        raise sqlite3.OperationalError("disk I/O error")  # as a crash would cut it

    monkeypatch.setattr(store_module, "_create", cut)
    with pytest.raises(StoreError, match="disk I/O error"):
        make_store(tmp_path)
    assert seen == [False], "the tables were made before the file had its name"
    assert not (tmp_path / "results.sqlite").exists()
    monkeypatch.setattr(store_module, "_create", made)
    make_store(tmp_path).close()  # the rerun makes it, the cut one's leftovers cleared
    left = sorted(path.name for path in tmp_path.iterdir())
    assert left == ["results.sqlite", "results.sqlite.closed"], "and its mark: closed whole"
    with sqlite3.connect(tmp_path / "results.sqlite") as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert db.execute("SELECT count(*) FROM games").fetchone()[0] == len(SCHEDULE)
