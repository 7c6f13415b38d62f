"""Schedules played through the real feed, store and ratings by in-process executors.

The executors here stand in for worker pools: they take games from the feed
through the same interface as the real ones, keep several running at once,
and hand them back in a shuffled order. The games' results come from hidden
strengths (no bot processes), so whole leagues of hundreds of bots run in
moments. Real-process runs of each schedule are in test_tournament.py.
"""

from __future__ import annotations

import itertools
import random
import sqlite3
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from arena.bots.spec import BotSpec
from arena.events.run import open_store
from arena.events.run import play as play_store
from arena.events.schedule import ScheduleError
from arena.execute.base import Games, Setup
from arena.game import Rules
from arena.protocol import Limits
from arena.results.ratings import StopRule
from arena.results.store import Finished, Store, open_existing
from arena.tournament.event import TournamentEvent
from arena.tournament.schedule import round_robin_games


def bots(n: int) -> tuple[BotSpec, ...]:
    return tuple(BotSpec(f"b{i:03d}", ("true",), "test") for i in range(n))


def tournament(n: int, **kwargs: Any) -> TournamentEvent:
    players = kwargs.pop("players", 4)
    settings: dict[str, Any] = {
        "bots": bots(n),
        "players": players,
        "deals": 1,
        "seed": 11,
        "rules": Rules.from_dict({"players": players}),
        "limits": Limits(),
        **kwargs,
    }
    return TournamentEvent(**settings)


def placements(game_seats: tuple[str, ...], seed: int) -> tuple[int, ...]:
    """Places by hidden strength (the bot's number) plus seeded noise."""
    rng = random.Random(f"{seed}/{game_seats}")
    score = [10 * int(bot[1:4]) + rng.gauss(0, 20) for bot in game_seats]
    order = sorted(range(len(game_seats)), key=lambda seat: -score[seat])
    places = [0] * len(game_seats)
    for place, seat in enumerate(order, start=1):
        places[seat] = place
    return tuple(places)


class Shuffled:
    """Plays ``window`` games at a time and finishes them in a seeded random order."""

    def __init__(self, window: int, *, order_seed: int = 0, stop_after: int | None = None) -> None:
        self.window = window
        self.rng = random.Random(order_seed)
        self.stop_after = stop_after
        self.most_taken = 0

    @contextmanager
    def play(
        self, setup: Setup, games: Games, disabled: Mapping[str, str]
    ) -> Iterator[Iterator[Finished]]:
        yield self._results(games)

    def _results(self, games: Games) -> Iterator[Finished]:
        running: list[Any] = []
        handed = 0
        while True:
            running.extend(games.take(self.window - len(running)))
            if not running:
                return
            game = running.pop(self.rng.randrange(len(running)))
            if self.stop_after is not None and handed >= self.stop_after:
                raise KeyboardInterrupt
            handed += 1
            yield Finished(game.ordinal, placements(game.seats, game.seed), {}, 10, 1.0, "")


def play(event: TournamentEvent, folder: Path, executor: Shuffled) -> Store:
    store = open_store(event, folder, None)
    play_store(event, store, sandbox=None, executor=executor)
    return store


def snapshot(store: Store) -> dict[str, Any]:
    return {
        "tables": list(store.scheduled_tables()),
        "standings": store.standings(),
        "rounds": [store.standings_after(n) for n, _, _ in store.rounds()],
        "ids": [row[0] for row in store.db.execute("SELECT id FROM games ORDER BY ordinal")],
    }


@pytest.mark.parametrize("schedule", ["sampled", "swiss"])
def test_the_same_games_with_any_number_of_workers(tmp_path: Path, schedule: str) -> None:
    event = tournament(13, players=3, schedule=schedule, rounds=6)
    one = snapshot(play(event, tmp_path / "one", Shuffled(1)))
    many = snapshot(play(event, tmp_path / "many", Shuffled(7, order_seed=3)))
    assert one == many
    assert len(one["tables"]) == 6
    assert one["ids"] == sorted(one["ids"])
    assert one["ids"][0] == "rd00001-t00000-d0-r0"


def test_swiss_pairs_round_r_plus_1_from_the_standings_after_round_r_minus_1(
    tmp_path: Path,
) -> None:
    event = tournament(12, schedule="swiss", rounds=5)
    store = play(event, tmp_path, Shuffled(9, order_seed=1))
    tables = dict(store.scheduled_tables())
    again = event.strategy()
    for number in (1, 2):
        again.replay(tables[number])
    assert again.next_round(3, store.standings_after(1)) == tables[3]
    assert again.next_round(3, store.standings_after(2)) != tables[3]


def test_a_resumed_league_plays_what_an_uninterrupted_one_does(tmp_path: Path) -> None:
    event = tournament(10, schedule="swiss", rounds=5, stop=StopRule(2, 0.999))
    whole = snapshot(play(event, tmp_path / "whole", Shuffled(4)))
    folder = tmp_path / "cut"
    for stop_after in (7, 9, 6):
        store = open_store(event, folder, None)
        with pytest.raises(KeyboardInterrupt):
            play_store(event, store, sandbox=None, executor=Shuffled(4, stop_after=stop_after))
        store.close()
    assert snapshot(play(event, folder, Shuffled(2, order_seed=5))) == whole


def test_the_stop_rule_ends_a_league_deterministically(tmp_path: Path) -> None:
    event = tournament(8, schedule="sampled", rounds=40, stop=StopRule(2, 0.8))
    store = play(event, tmp_path / "a", Shuffled(1))
    stopped = store.meta("stopped")
    assert stopped["last_round"] == stopped["after_round"] + 1 < 40
    assert len(store.rounds()) == stopped["last_round"]
    assert event.stop is not None
    assert event.stop.holds(store.standings_after(stopped["after_round"]))
    before = [n for n, _, _ in store.rounds()][: stopped["after_round"] - 1]
    assert not any(event.stop.holds(store.standings_after(n)) for n in before)
    other = play(event, tmp_path / "b", Shuffled(5, order_seed=2))
    assert snapshot(other) == snapshot(store)
    # Rerun as it is: nothing more. With a stricter rule the league goes on.
    assert play_store(event, store, sandbox=None, executor=Shuffled(1)).played == 0
    store.close()
    stricter = tournament(8, schedule="sampled", rounds=40, stop=StopRule(2, 0.99))
    store = play(stricter, tmp_path / "a", Shuffled(1))
    assert len(store.rounds()) > stopped["last_round"]


def test_more_rounds_on_a_rerun_go_on_in_the_same_folder(tmp_path: Path) -> None:
    play(tournament(9, players=3, schedule="sampled", rounds=2), tmp_path, Shuffled(3)).close()
    longer = tournament(9, players=3, schedule="sampled", rounds=5)
    store = play(longer, tmp_path, Shuffled(3))
    assert [n for n, _, _ in store.rounds()] == [1, 2, 3, 4, 5]
    assert store.meta("config")["rounds"] == 5
    assert snapshot(store) == snapshot(play(longer, tmp_path / "fresh", Shuffled(2)))


def test_memory_and_the_store_hold_a_round_or_two_not_the_plan(tmp_path: Path) -> None:
    """A 200-bot round-robin (64 million games) opens at once and stores only what it plays."""
    event = tournament(200)
    assert event.plan().games == 64_684_950 * 4
    store = open_store(event, tmp_path, None)
    feed = event.feed(store)
    taken = feed.take(500)
    assert len(taken) == 500
    assert store.total() <= 500 + 200 * 4  # at most one more block of 200 tables
    assert feed.total() == event.plan().games


def test_a_schema_1_folder_is_read_and_resumed(tmp_path: Path) -> None:
    """A folder written before rounds existed: the whole schedule stored, some games played."""
    event = tournament(5, players=3, deals=1)
    legacy_games = [
        (ordinal, table)
        for ordinal, table in enumerate(
            table
            for table in itertools.combinations([b.name for b in event.bots], 3)
            for _ in range(3)
        )
    ]
    store = open_store(event, tmp_path, None)  # the version 2 layout, then taken back to 1
    store.close()
    db = sqlite3.connect(tmp_path / "results.sqlite")
    db.executescript(
        "DROP TABLE rounds; DROP TABLE tables; DROP TABLE round_standings;"
        "ALTER TABLE games DROP COLUMN round; ALTER TABLE games DROP COLUMN table_no;"
        "ALTER TABLE bots DROP COLUMN base; ALTER TABLE bots DROP COLUMN retired;"
        "UPDATE meta SET value = '1' WHERE key = 'schema_version';"
        "DELETE FROM meta WHERE key = 'schedule_complete';"
    )
    for ordinal, table in legacy_games:
        rotation = ordinal % 3
        db.execute(
            "INSERT INTO games (ordinal, id, deal_set, rotation, seed, status) "
            "VALUES (?, ?, ?, ?, ?, 'pending')",
            (ordinal, f"d{ordinal // 3:02d}-r{rotation}", ordinal // 3, rotation, ordinal // 3),
        )
        seats = [table[(seat + rotation) % 3] for seat in range(3)]
        db.executemany(
            "INSERT INTO seats (game, seat, bot) VALUES (?, ?, ?)",
            [(ordinal, seat, bot) for seat, bot in enumerate(seats)],
        )
    db.commit()
    db.close()
    reader = open_existing(tmp_path)
    assert reader.total() == 30
    assert [row["games"] for row in reader.standings()] == [0] * 5
    reader.close()
    store = play(event, tmp_path, Shuffled(3))
    assert store.meta("schema_version") == 2
    assert store.done() == store.total() == 30
    assert store.rounds() == [(1, 0, 29)]
    assert {row["games"] for row in store.standings()} == {18}


def test_leaderboard_top_and_the_report_of_a_large_field(tmp_path: Path) -> None:
    """40 bots: --top N keeps N rows (and their pairs); the report maps the top 30 and
    charts the top 12, and says so."""
    import json  # noqa: PLC0415

    from click.testing import CliRunner  # noqa: PLC0415

    from arena.cli import main  # noqa: PLC0415

    play(tournament(40, schedule="sampled", rounds=6), tmp_path, Shuffled(4)).close()
    result = CliRunner().invoke(
        main, ["leaderboard", str(tmp_path), "--top", "5", "--pairwise", "--format", "json"]
    )
    assert result.exit_code == 0, result.output
    document = json.loads(result.output)
    top = [row["bot"] for row in document["leaderboard"]]
    assert len(top) == 5 and [row["rank"] for row in document["leaderboard"]] == [1, 2, 3, 4, 5]
    assert document["pairwise"]
    assert all(pair["bot"] in top and pair["other"] in top for pair in document["pairwise"])
    result = CliRunner().invoke(main, ["report", str(tmp_path), "-o", str(tmp_path / "r.html")])
    assert result.exit_code == 0, result.output
    html = (tmp_path / "r.html").read_text()
    assert "The top 30 of the 40 bots (rows and columns)" in html
    assert "The top 12 of the 40 bots (lines)" in html
    assert html.count('<polyline class="line"') == 12


def test_leaderboard_with_pairwise_is_one_document_in_json_and_csv(tmp_path: Path) -> None:
    import csv  # noqa: PLC0415
    import io  # noqa: PLC0415
    import json  # noqa: PLC0415

    from click.testing import CliRunner  # noqa: PLC0415

    from arena.cli import main  # noqa: PLC0415

    play(tournament(5, players=3, schedule="sampled", rounds=3), tmp_path, Shuffled(2)).close()
    result = CliRunner().invoke(
        main, ["leaderboard", str(tmp_path), "--pairwise", "--format", "json"]
    )
    document = json.loads(result.output)
    assert set(document) == {"leaderboard", "pairwise"}
    assert {"bot", "other", "above", "games"} == set(document["pairwise"][0])
    result = CliRunner().invoke(
        main, ["leaderboard", str(tmp_path), "--pairwise", "--format", "csv"]
    )
    table = list(csv.DictReader(io.StringIO(result.output)))
    assert table and set(table[0]) == {"bot", "other", "above", "games"}
    assert len(table) == len(document["pairwise"])


def league_bots(folder: Path, names: list[str]) -> tuple[BotSpec, ...]:
    """Bots whose files are their own (so a bot's files can change between runs)."""
    specs = []
    for name in names:
        program = folder / f"{name}.bin"
        if not program.exists():
            program.write_text(name)
        specs.append(BotSpec(name, (str(program),), "test"))
    return tuple(specs)


def games_of(store: Store) -> dict[str, int]:
    return {row["bot"]: row["games"] for row in store.standings()}


def test_a_league_grows_loses_a_bot_updates_one_and_gets_more_rounds(tmp_path: Path) -> None:
    from arena.results.store import StoreError  # noqa: PLC0415
    from arena.tournament.event import settle  # noqa: PLC0415

    files, folder = tmp_path / "bots", tmp_path / "league"
    files.mkdir()
    first = [f"b{i:03d}" for i in range(8)]

    def league(names: list[str], rounds: int, update: tuple[str, ...] = ()) -> Store:
        event = tournament(0, schedule="sampled", rounds=rounds)
        event = settle(replace(event, bots=league_bots(files, names)), folder, update)
        return play(event, folder, Shuffled(3))

    league(first, 3).close()
    # One bot joins (b008), one leaves (b001); three more rounds.
    store = league([*first[:1], *first[2:], "b008"], 6)
    games = games_of(store)
    rows = {row["bot"]: row for row in store.standings()}
    store.close()
    assert rows["b001"]["retired"] and rows["b001"]["games"] == 3 * 4
    assert not rows["b008"]["retired"]
    # Three rounds at two tables a round while more than a table behind the median.
    assert games["b008"] >= 5 * 4, games
    # b003 changes: refused without --update, entered as b003@2 with it.
    (files / "b003.bin").write_text("b003, version 2")
    with pytest.raises(StoreError, match=r"rerun with update b003 .* as b003@2"):
        settle(replace(tournament(0, schedule="sampled", rounds=8),
                       bots=league_bots(files, first)), folder)  # fmt: skip
    store = league(first, 8, update=("b003",))
    rows = {row["bot"]: row for row in store.standings()}
    store.close()
    assert rows["b003"]["retired"] and rows["b003"]["games"] == games["b003"]
    assert not rows["b003@2"]["retired"] and rows["b003@2"]["games"] > 0
    assert rows["b008"]["retired"], "not given this time"
    assert not rows["b001"]["retired"] and rows["b001"]["games"] > 3 * 4, "back in the league"
    # --update of a bot that did not change, or of no bot given: one clear error.
    with pytest.raises(StoreError, match="update b002: its files did not change"):
        league(first, 9, update=("b002",))
    event = replace(tournament(0, schedule="sampled", rounds=9), bots=league_bots(files, first))
    with pytest.raises(ScheduleError, match="update b999: no bot of that name"):
        settle(event, folder, ("b999",))
    # The version stays b003@2 on the next run, without --update.
    assert [s.name for s in settle(event, folder).bots][3] == "b003@2"


def test_a_lifted_stop_survives_an_interruption_before_the_next_round(tmp_path: Path) -> None:
    """A rerun past a stop, cut before its first new round, resumes as if never cut."""
    stopped = tournament(8, schedule="sampled", rounds=40, stop=StopRule(2, 0.8))
    longer = replace(stopped, rounds=60)
    for name in ("whole", "cut"):
        play(stopped, tmp_path / name, Shuffled(1)).close()
    store = open_store(longer, tmp_path / "cut", None)
    longer.feed(store)  # lifts the stop, then the run dies before any new round
    store.close()
    whole = snapshot(play(longer, tmp_path / "whole", Shuffled(2)))
    assert snapshot(play(longer, tmp_path / "cut", Shuffled(2))) == whole


def test_a_gauntlet_bot_of_a_league_can_be_updated(tmp_path: Path) -> None:
    from arena.tournament.event import settle  # noqa: PLC0415

    files, folder = tmp_path / "bots", tmp_path / "league"
    files.mkdir()
    names = [f"b{i:03d}" for i in range(7)]

    def league(rounds: int, update: tuple[str, ...] = ()) -> Store:
        event = tournament(0, players=3, schedule="sampled", rounds=rounds, gauntlet="b000")
        event = settle(replace(event, bots=league_bots(files, names)), folder, update)
        return play(event, folder, Shuffled(2))

    league(2).close()
    (files / "b000.bin").write_text("b000, version 2")
    store = league(4, update=("b000",))
    tables = dict(store.scheduled_tables())
    store.close()
    assert all(table[0] == "b000@2" for table in tables[3] + tables[4])
    store = league(5)  # and on the next rerun, without --update
    assert all(table[0] == "b000@2" for table in dict(store.scheduled_tables())[5])


def test_a_large_round_is_stored_a_chunk_at_a_time_and_resumes_mid_round(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """5 bots at 4 seats make one round-robin block of 5 tables: with 60 deal sets that is
    1,200 games, stored CHUNK at a time (never the whole plan), killed and resumed mid-round."""
    from arena.events import feed  # noqa: PLC0415

    monkeypatch.setattr(feed, "CHUNK", 100)
    event = tournament(5, deals=60)
    whole = snapshot(play(event, tmp_path / "whole", Shuffled(8, order_seed=2)))
    store = open_store(event, tmp_path / "cut", None)
    with pytest.raises(KeyboardInterrupt):
        play_store(event, store, sandbox=None, executor=Shuffled(8, order_seed=5, stop_after=350))
    assert store.rounds() == [(1, 0, 1199)]
    assert 350 <= store.total() <= 350 + 8 + 100, "stored: what was handed out and one chunk"
    store.close()
    resumed = play(event, tmp_path / "cut", Shuffled(3, order_seed=7))
    assert resumed.done() == 1200
    assert snapshot(resumed) == whole
    reference = round_robin_games([b.name for b in bots(5)], players=4, deals=60, seed=11)
    stored = resumed.db.execute("SELECT ordinal, id, seed, deal_set FROM games ORDER BY ordinal")
    assert [tuple(row) for row in stored] == [
        (g.ordinal, g.game_id, g.seed, g.deal_set) for g in reference
    ]
