"""The events the runner plays: their keys stay what folders hold, their plugins' facts."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from arena.bots.spec import BotSpec, parse_bot
from arena.errors import ArenaError
from arena.events.event import Event
from arena.events.field import Disable, Enable, Enter, FieldChange, Retire
from arena.events.run import Observer, Outcome, Unfinished, run
from arena.execute.local import LocalExecutor
from arena.game import Rules
from arena.match.event import MatchEvent
from arena.match.settings import MatchFlags, resolve_match
from arena.players import RandomPlayer
from arena.protocol import Limits
from arena.results.store import Store, open_existing
from arena.tournament.event import TournamentEvent
from arena.tournament.settings import Flags, resolve

#: The keys main bc0e70d (before events were kinds of their own) stored for these events,
#: one JSON line each, in the order of :func:`events` below.
KEYS = Path(__file__).parent / "data" / "event_keys.jsonl"
ROOT = Path(__file__).resolve().parent.parent


def events() -> list[tuple[Event, tuple[str, ...]]]:
    """A round-robin, a growing league, a match without a field and one with: each with
    the keys a rerun may change."""
    true = "/bin/true"
    round_robin = resolve(
        Flags(
            bots=(f"a={true}", f"b={true}", f"c={true}"),
            players=3,
            deals=2,
            seed=7,
            rules=("dog_life=none",),
            limits=("memory_mb=256",),
        )
    ).tournament
    league = resolve(
        Flags(
            bots=(f"a={true}", f"b={true}", f"c={true}", f"d={true}"),
            players=3,
            seed=9,
            schedule="swiss",
            rounds=5,
            stop_top=2,
            gauntlet="a",
        )
    ).tournament
    match = resolve_match(
        MatchFlags(new=f"n={true}", base=f"b={true}", players=3, sprt=True, seed=4, max_games=100)
    ).event
    paired = resolve_match(
        MatchFlags(
            new=f"n={true}",
            base=f"b={true}",
            field=(f"x={true}", f"y={true}"),
            players=4,
            deals=3,
        )
    ).event
    return [
        (round_robin, ()),
        (league, ("rounds", "stop", "bots")),
        (match, ("rounds",)),
        (paired, ("rounds",)),
    ]


def test_each_event_stores_the_key_folders_made_before_it_hold_byte_for_byte() -> None:
    stored = KEYS.read_text().splitlines()
    made = events()
    assert len(stored) == len(made)
    for line, (event, growable) in zip(stored, made, strict=True):
        assert json.dumps(event.key()) == line, event.kind
        assert event.growable() == growable


def test_each_event_says_its_kind_and_whether_a_failed_bot_stops_it() -> None:
    kinds = [(type(event), event.kind, event.halt_on_disable) for event, _ in events()]
    assert kinds == [
        (TournamentEvent, "tournament", False),
        (TournamentEvent, "tournament", False),
        (MatchEvent, "match", True),
        (MatchEvent, "match", True),
    ]


def test_open_tables_count_what_may_be_played_at_once() -> None:
    round_robin, league, match, paired = (event for event, _ in events())
    # 3 bots at 3 seats: one table of 2 deal sets x 3 rotations, all there at once.
    assert round_robin.open_tables() == (1, 6)
    # A Swiss round (4 bots, 3 seats: one table a round) waits for the one before.
    assert league.open_tables() == (1, 15)
    # A match's round is made while the one before plays: 8 deal sets a round, 2 rounds.
    assert match.open_tables() == (16, 3)
    # With a field NEW's and BASE's tables share each deal set: 3 x 2 tables, 2 rounds.
    assert paired.open_tables() == (12, 4)


def in_process(names: str, players: int = 3) -> TournamentEvent:
    """A round-robin of in-process random players (their commands are never run)."""
    return TournamentEvent(
        bots=tuple(BotSpec(name, ("unused",), "in-process") for name in names),
        players=players,
        deals=1,
        seed=11,
        rules=Rules(players=players),
        limits=Limits(),
    )


class Watching(Observer):
    """Records what a run tells its observer, in order."""

    def __init__(self, stop_at: int | None = None) -> None:
        self.calls: list[tuple[str, Any]] = []
        self.stop_at = stop_at

    def opened(self, store: Store) -> None:
        self.calls.append(("opened", store.done()))

    def progress(self, done: int, total: int, seconds: float) -> None:
        self.calls.append(("progress", (done, total)))
        if self.stop_at is not None and done >= self.stop_at:
            raise KeyboardInterrupt

    def stopped(self, store: Store, how: str) -> None:
        self.calls.append(("stopped", (how, store.done())))

    def finished(self, store: Store, outcome: Outcome) -> None:
        self.calls.append(("finished", (store.done(), outcome.played)))


def random_players(spec: BotSpec) -> RandomPlayer:
    return RandomPlayer(spec.name)


def test_run_plays_an_event_into_its_folder_and_tells_the_observer(tmp_path: Path) -> None:
    watching = Watching()
    executor = LocalExecutor(1, pin=False, make=random_players)
    outcome = run(in_process("abcd"), tmp_path, sandbox=None, observer=watching, executor=executor)
    # 4 tables of 3 from 4 bots, each one deal set in 3 rotations.
    assert (outcome.played, outcome.done, outcome.total) == (12, 12, 12)
    assert watching.calls[0] == ("opened", 0)
    assert watching.calls[-2] == ("progress", (12, 12))
    assert watching.calls[-1] == ("finished", (12, 12))
    again = Watching()
    outcome = run(in_process("abcd"), tmp_path, sandbox=None, observer=again, executor=executor)
    assert outcome.played == 0 and again.calls == [("opened", 12), ("finished", (12, 0))]


def test_a_stop_is_told_with_the_store_open_and_every_finished_game_kept(tmp_path: Path) -> None:
    watching = Watching(stop_at=1)
    executor = LocalExecutor(1, pin=False, make=random_players)
    with pytest.raises(KeyboardInterrupt):
        run(in_process("abcd"), tmp_path, sandbox=None, observer=watching, executor=executor)
    assert watching.calls[-1] == ("stopped", ("Interrupted", 1))
    store = open_existing(tmp_path)
    try:
        assert store.done() == 1
    finally:
        store.close()


def test_an_error_mid_run_names_what_the_folder_kept(tmp_path: Path) -> None:
    def broken(spec: BotSpec) -> RandomPlayer:
        if spec.name == "d":
            raise ArenaError("bot 'd' is broken")
        return RandomPlayer(spec.name)

    executor = LocalExecutor(1, pin=False, make=broken)
    with pytest.raises(Unfinished) as raised:
        run(in_process("abcd"), tmp_path, sandbox=None, executor=executor)
    # The round-robin seats a, b, c first: their 3 games are kept.
    assert str(raised.value) == (
        f"bot 'd' is broken (3 of 12 games are saved in {tmp_path}; run it again to resume)"
    )


def test_each_event_gives_the_status_line_a_progress_display_shows(tmp_path: Path) -> None:
    executor = LocalExecutor(1, pin=False, make=random_players)
    tournament = in_process("abcd")
    run(tournament, tmp_path / "t", sandbox=None, executor=executor)
    match = resolve_match(
        MatchFlags(new="n=/bin/true", base="b=/bin/true", players=2, deals=2, max_games=8)
    ).event
    run(match, tmp_path / "m", sandbox=None, executor=executor)
    for event, folder, pattern in (
        (tournament, tmp_path / "t", r"leader [abcd] \(-?\d+\.\d\d\)"),
        (match, tmp_path / "m", r"diff [+-]\d\.\d{4}, LLR -?\d+\.\d\d \[-?\d+\.\d\d, \d+\.\d\d\]"),
    ):
        store = open_existing(folder)
        try:
            assert re.fullmatch(pattern, event.status()(store)), event.kind
        finally:
            store.close()


class Scripted:
    """A field source: before round ``k`` (its k-th call), the changes listed for ``k``."""

    def __init__(self, plan: dict[int, list[FieldChange]]) -> None:
        self.plan = plan
        self.calls = 0
        self.faulting: list[tuple[str, str]] = []

    def changes(self) -> list[FieldChange]:
        self.calls += 1
        return self.plan.get(self.calls, [])

    def faulted(self, name: str, why: str) -> None:
        self.faulting.append((name, why))


def league(names: str, rounds: int) -> TournamentEvent:
    return replace(in_process(names, players=2), schedule="sampled", rounds=rounds)


def field_changes() -> dict[int, list[FieldChange]]:
    """e enters before round 2; a retires and b is disabled before 3; b is back before 4."""
    return {
        2: [Enter(BotSpec("e", ("unused",), "in-process"))],
        3: [Retire("a"), Disable("b", "its author asked")],
        4: [Enable("b")],
    }


def test_a_league_takes_field_changes_at_round_boundaries(tmp_path: Path) -> None:
    source = Scripted(field_changes())
    executor = LocalExecutor(1, pin=False, make=random_players)
    outcome = run(league("abcd", 5), tmp_path, sandbox=None, executor=executor, field=source)
    assert source.calls >= 5 and outcome.done == outcome.total
    store = open_existing(tmp_path)
    try:
        seated = {number: {bot for table in tables for bot in table} for number, tables in
                  store.scheduled_tables()}  # fmt: skip
        assert "e" not in seated[1] and "e" in seated[2] | seated[3]
        assert "a" in seated[1] | seated[2] and all("a" not in seated[n] for n in (3, 4, 5))
        faults = {
            number: [
                fault
                for game in store.placed(first, last)
                for bot, fault in zip(game.seats, game.faults, strict=True)
                if bot == "b"
            ]
            for number, first, last in store.rounds()
        }
        assert faults[3] and all(fault == "crash" for fault in faults[3]), "b forfeits round 3"
        assert all(fault is None for fault in faults[4] + faults[5]), "b plays again from 4"
        bots = {record.name: record for record in store.bots()}
        assert bots["a"].retired and not bots["e"].retired
        assert store.disabled() == {}
        assert {row["bot"] for row in store.standings()} >= {"a", "b", "c", "d", "e"}
    finally:
        store.close()


def test_a_field_source_hears_of_a_bot_that_faults_games_in_a_row(tmp_path: Path) -> None:
    """b forfeits from round 2 on (2 games a round): its source hears of it at its 5th
    fault in a row and again at its 10th; nobody else faults, and nobody is told of."""
    source = Scripted({2: [Disable("b", "its author asked")]})
    executor = LocalExecutor(1, pin=False, make=random_players)
    run(league("abcd", 8), tmp_path, sandbox=None, executor=executor, field=source)
    store = open_existing(tmp_path)
    try:
        faulted = [game for game in store.placed(1, store.done()) if any(game.faults)]
    finally:
        store.close()
    assert len(faulted) >= 10 and all(game.faults == tuple(
        "crash" if bot == "b" else None for bot in game.seats) for game in faulted)  # fmt: skip
    assert [name for name, _ in source.faulting] == ["b"] * (len(faulted) // 5)
    tenth = faulted[9].id
    assert source.faulting[1][1] == f"faulted in 5 games in a row (the last: crash in game {tenth})"


def test_field_changes_play_the_same_games_with_any_jobs(tmp_path: Path) -> None:
    """The same changes give the same tables and results, in this process or in a pool of
    worker processes (the entered bot is sent to each worker with its first task)."""
    c_bot = str(ROOT / "sample_bots/c/random_bot")
    specs = {name: parse_bot(f"{name}={c_bot}") for name in "abcde"}
    event = replace(league("abcd", 4), bots=tuple(specs[name] for name in "abcd"))
    changes = field_changes()
    changes[2] = [Enter(specs["e"])]
    tables = []
    for jobs in (1, 2):
        folder = tmp_path / f"jobs{jobs}"
        run(event, folder, sandbox=None, jobs=jobs, pin=False, field=Scripted(changes))
        store = open_existing(folder)
        try:
            tables.append((list(store.scheduled_tables()), store.standings()))
        finally:
            store.close()
    assert tables[0] == tables[1]


def test_an_event_whose_field_is_fixed_refuses_an_entry(tmp_path: Path) -> None:
    source = Scripted({2: [Enter(BotSpec("e", ("unused",), "in-process"))]})
    event = in_process("abcd", players=2)  # a round-robin of two blocks (rounds)
    executor = LocalExecutor(1, pin=False, make=random_players)
    with pytest.raises(Unfinished, match="a round-robin keeps its field"):
        run(event, tmp_path, sandbox=None, executor=executor, field=source)


def deal_sets_per_process(tmp_path: Path, *, isolated: bool) -> list[list[int]]:
    """The deal sets each bot process was seated for, in a sampled league of 4 bots at
    tables of 3, 2 deal sets a table, played by one worker of in-process players."""
    made: list[RandomPlayer] = []
    seen: dict[int, list[str]] = {}

    class Remembering(RandomPlayer):
        def start_game(self, message: dict[str, Any], line: bytes) -> None:
            super().start_game(message, line)
            seen.setdefault(id(self), []).append(message["game"])

    def remembering(spec: BotSpec) -> RandomPlayer:
        made.append(Remembering(spec.name))
        return made[-1]

    league = replace(in_process("abcd"), schedule="sampled", rounds=4, deals=2, isolated=isolated)
    run(league, tmp_path, sandbox=None, executor=LocalExecutor(1, pin=False, make=remembering))
    store = open_existing(tmp_path)
    try:
        deal_set = {game["id"]: game["deal_set"] for game in store.games()}
    finally:
        store.close()
    assert len(deal_set) == 4 * 2 * 3
    return [[deal_set[game] for game in seen[id(player)]] for player in made]


def test_an_isolated_league_never_shows_a_process_one_deal_set_twice(tmp_path: Path) -> None:
    """A process that played one seat rotation of a deal set could recognise its hands in
    the next: isolated, every rotation is another process, and the ids say nothing."""
    shared = deal_sets_per_process(tmp_path / "shared", isolated=False)
    assert len(shared) == 4
    assert any(len(set(sets)) < len(sets) for sets in shared), "the test must see a repeat"
    isolated = deal_sets_per_process(tmp_path / "isolated", isolated=True)
    assert len(isolated) == 4 * 3, "a process per bot and rotation"
    assert all(len(set(sets)) == len(sets) for sets in isolated)
    replays = sorted(path.stem for path in (tmp_path / "isolated" / "replays").glob("*.jsonl"))
    assert len(replays) == 24 and all(re.fullmatch(r"g[0-9a-f]{24}", name) for name in replays)
    again = sorted(p.stem for p in (tmp_path / "shared" / "replays").glob("*.jsonl"))
    assert all(re.fullmatch(r"rd\d{5}-t\d{5}-d\d-r\d", name) for name in again)


def test_secret_ids_follow_the_seed_alone() -> None:
    from arena.tournament.schedule import SecretIds  # noqa: PLC0415

    ids = SecretIds(7)
    one = [ids.game_id(1, 0, 0, 0, rotation) for rotation in range(4)]
    assert one == [SecretIds(7).game_id(1, 0, 0, 0, rotation) for rotation in range(4)]
    assert len(set(one)) == 4
    assert SecretIds(8).game_id(1, 0, 0, 0, 0) != one[0]


def test_a_bots_recent_games_come_newest_first_through_the_index(tmp_path: Path) -> None:
    executor = LocalExecutor(1, pin=False, make=random_players)
    run(in_process("abcde"), tmp_path, sandbox=None, executor=executor)
    store = open_existing(tmp_path)
    try:
        order = [game["id"] for game in store.games()]
        with_a = [g["id"] for g in store.games() if "a" in {s["bot"] for s in g["seats"]}]
        recent = store.recent(["a"], 4)
        assert [game["id"] for game in recent] == with_a[::-1][:4]
        assert [game["id"] for game in store.recent(None, 3)] == order[::-1][:3]
        assert len(store.recent(["a", "b"], 100)) == len(order) - 3, "c, d, e: 3 rotations"
        assert store.replay_of(order[0]) == f"replays/{order[0]}.jsonl"
        assert store.replay_of("nothing") is None
        plan = store.db.execute(
            "EXPLAIN QUERY PLAN SELECT s.game FROM seats s JOIN games g ON g.ordinal = s.game "
            "WHERE s.bot = ? AND g.status = 'done' ORDER BY s.game DESC LIMIT ?",
            ("a", 4),
        ).fetchall()
        assert "seats_by_bot" in str(plan)
    finally:
        store.close()


def test_a_league_that_never_ends_is_counted_so_far_not_out_of_its_bound(
    tmp_path: Path,
) -> None:
    """The server's ladder is bounded by 10^9 rounds: "N of" that bound means nothing."""
    from click.testing import CliRunner  # noqa: PLC0415

    from arena.cli import main  # noqa: PLC0415
    from arena.events.schedule import ENDLESS_ROUNDS  # noqa: PLC0415

    executor = LocalExecutor(1, pin=False, make=random_players)
    ladder = replace(in_process("abcd"), schedule="sampled", rounds=ENDLESS_ROUNDS)
    with pytest.raises(KeyboardInterrupt):
        run(ladder, tmp_path, sandbox=None, observer=Watching(stop_at=6), executor=executor)
    store = open_existing(tmp_path)
    try:
        assert store.endless() and store.done() >= 6
        done = store.done()
    finally:
        store.close()
    shown = CliRunner().invoke(main, ["leaderboard", str(tmp_path)]).output
    assert shown.rstrip().endswith(f"({done} games so far, in a league that never ends)")
    assert "of 3" not in shown
    run(in_process("abcd"), tmp_path / "plain", sandbox=None, executor=executor)
    plain = open_existing(tmp_path / "plain")
    try:
        assert not plain.endless()
    finally:
        plain.close()
