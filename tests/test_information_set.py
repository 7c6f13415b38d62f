"""A request's ``state`` is the seat's whole information set: what the seat saw, rebuilt.

Random games through the real referee, every rule option among them: for
each seat, everything it was told (hand starts, events, hand ends) is
replayed into the tricks, knocks, leaders and winners it has seen, and each
of its requests' ``state`` must say the same from the state alone:
``history`` (completed tricks, knocks included), ``knocked`` (the trick in
progress), ``blind`` (against the replay's all-seeing deal records),
``played`` and ``trick``. Then the meanings the guide spells out for bot
authors (protocol/README.md, "Questions bot authors ask").
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

import pytest

from arena.bots.player import ProcessPlayer
from arena.bots.spec import parse_bot
from arena.errors import BotFault, FaultKind
from arena.game import GameState, Rules, request_state
from arena.game.state import DOG, PLAY
from arena.players import ScriptedPlayer
from arena.protocol import Limits
from arena.referee import play_game
from tests.engine_digest import RULE_SETS, rebuild

JSON = dict[str, Any]


def random_players(n: int, seed: int) -> list[ScriptedPlayer]:
    rng = random.Random(seed)
    return [ScriptedPlayer(f"p{s}", lambda request: rng.choice(request["legal"])) for s in range(n)]


class Seen:
    """What one seat has been told of the current hand, from its messages alone."""

    def __init__(self) -> None:
        self.history: list[JSON] = []
        self.turns: list[list[Any]] = []  # the trick in progress: [seat, card or "knock"]
        self.played: list[list[Any]] = []

    def take(self, message: JSON) -> None:
        if message["type"] == "hand_start":
            self.__init__()  # type: ignore[misc]
        elif message["type"] == "event":
            event = message["event"]
            if event == "play":
                self.turns.append([message["seat"], message["card"]])
                self.played.append([message["seat"], message["card"]])
            elif event == "knock":
                self.turns.append([message["seat"], "knock"])
            elif event == "trick":
                cards = [turn for turn in self.turns if turn[1] != "knock"]
                assert cards == message["cards"]
                self.history.append(
                    {"leader": cards[0][0], "moves": self.turns, "winner": message["winner"]}
                )
                self.turns = []


class Counts:
    """How often the cases the guide answers came up (so that none went untested)."""

    def __init__(self) -> None:
        self.requests = 0
        self.knocks_seen = 0
        self.blind_plays_seen = 0
        self.played_dog_cards_listed = 0
        self.dogs_that_won_still_dogs = 0


def check_seat(messages: list[JSON], deals: list[JSON], counts: Counts) -> None:
    """Compare each request's state with what the seat saw before it."""
    seen = Seen()
    deal: JSON = {}
    start: JSON = {}
    hands = 0
    for message in messages:
        if message["type"] == "hand_start":  # every seat is sent every deal
            start, deal = message, deals[hands]
            hands += 1
        if message["type"] != "request":
            seen.take(message)
            continue
        state = message["state"]
        # Everything a seat saw, from the state alone; knocks included (question 7).
        assert state["history"] == seen.history
        assert state["played"] == seen.played
        in_progress = [turn for turn in seen.turns if turn[1] != "knock"]
        assert state["trick"] == in_progress
        assert state["knocked"] == [seat for seat, move in seen.turns if move == "knock"]
        if in_progress:
            assert state["leader"] == in_progress[0][0]
        counts.knocks_seen += sum(
            1 for trick in seen.history for _, move in trick["moves"] if move == "knock"
        ) + len(state["knocked"])
        # The blind dogs are the all-seeing deal record's; their cards show once played (3).
        assert state["blind"] == deal["blind"]
        assert all(state["statuses"][seat] == DOG for seat in state["blind"])
        blind_plays = [card for seat, card in state["played"] if seat in state["blind"]]
        assert all(card in deal["hands"][seat] for seat, card in state["played"])
        counts.blind_plays_seen += len(blind_plays)
        # dog_cards: the face-up dog cards as dealt, played or not (4).
        assert state.get("dog_cards") == start.get("dog_cards")
        played_cards = {card for _, card in state["played"]}
        counts.played_dog_cards_listed += sum(
            1 for card in state.get("dog_cards", {}).values() if card in played_cards
        )
        # statuses: as dealt, a dog that won a trick still a dog until hand_end (5).
        assert state["statuses"] == start["statuses"]
        counts.dogs_that_won_still_dogs += sum(
            1 for trick in seen.history if start["statuses"][trick["winner"]] == DOG
        )
        counts.requests += 1


@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda rules: f"{rules.players}p")
def test_each_request_state_rebuilds_what_the_seat_saw(rules: Rules) -> None:
    counts = Counts()
    for seed in range(40):
        players = random_players(rules.players, seed)
        result = play_game(players, rules, seed=seed, game_id=f"g{seed}")
        deals = [line for line in result.replay if line["type"] == "deal"]
        for player in players:
            check_seat(player.received, deals, counts)
    assert counts.requests > 1000
    if rules.dogs:
        assert counts.knocks_seen, "no knock was seen: the history of knocks went untested"
        assert counts.dogs_that_won_still_dogs, "no dog won a trick: untested"
    if rules.blind_dog:
        assert counts.blind_plays_seen, "no blind dog played its card: untested"
    if rules.upside_dog and rules.dogs:
        assert counts.played_dog_cards_listed, "no played dog card was seen listed: untested"


@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda rules: f"{rules.players}p")
def test_a_rebuilt_position_shows_the_same_state(rules: Rules) -> None:
    """A search bot rebuilding a position from a request (history included) sees what the
    seat saw."""
    for seed in range(20):
        rng = random.Random(seed)
        state = GameState(rules, seed)
        while (pending := state.pending) is not None:
            if pending.action == PLAY and rng.random() < 0.2:
                assert request_state(rebuild(state), pending.seat) == request_state(
                    state, pending.seat
                )
            state.apply(rng.choice(pending.legal))


SLOW_READY = """
import json, sys, time
time.sleep(0.8)  # before reading hello: the clock is already running
sys.stdin.readline()
print(json.dumps({"type": "ready", "name": "slow"}), flush=True)
sys.stdin.read()
"""


def test_startup_ms_runs_from_the_process_start_not_from_reading_hello(tmp_path: Path) -> None:
    """The guide's first question: the time before a bot reads ``hello`` counts."""
    script = tmp_path / "slow.py"
    script.write_text(SLOW_READY)
    spec = parse_bot(f"slow={sys.executable} {script}")
    late = ProcessPlayer(spec, Limits(startup_ms=400, move_ms=1000, bank_ms=1))
    with pytest.raises(BotFault) as caught:
        late.launch()
    late.close()
    assert caught.value.kind is FaultKind.TIMEOUT
    patient = ProcessPlayer(spec, Limits(startup_ms=8000, move_ms=1000, bank_ms=1))
    try:
        patient.launch()
        assert patient.ready is not None and patient.ready["name"] == "slow"
    finally:
        patient.close()
