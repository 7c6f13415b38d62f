"""The events the runner plays: their keys stay what folders hold, their plugins' facts."""

from __future__ import annotations

import json
from pathlib import Path

from arena.events.event import Event
from arena.match.event import MatchEvent
from arena.match.settings import MatchFlags, resolve_match
from arena.tournament.event import TournamentEvent
from arena.tournament.settings import Flags, resolve

#: The keys main bc0e70d (before events were kinds of their own) stored for these events,
#: one JSON line each, in the order of :func:`events` below.
KEYS = Path(__file__).parent / "data" / "event_keys.jsonl"


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
