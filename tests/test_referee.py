"""The referee with in-process fake players: messages, faults, fallback, replay."""

from __future__ import annotations

import json
from typing import Any

from arena.errors import BotFault, FaultKind
from arena.game import GameState, Rules
from arena.players import RandomPlayer, ScriptedPlayer, first_legal
from arena.referee import GameResult, Player, play_game

JSON = dict[str, Any]


def random_table(n: int = 4) -> list[RandomPlayer]:
    return [RandomPlayer(f"p{s}") for s in range(n)]


def test_each_player_receives_the_protocol_sequence() -> None:
    players = random_table()
    play_game(players, Rules(), seed=3, game_id="g")
    for seat, player in enumerate(players):
        kinds = [m["type"] for m in player.received]
        assert kinds[0] == "game_start"
        assert player.received[0]["seat"] == seat
        assert player.received[0]["players"] == ["p0", "p1", "p2", "p3"]
        assert player.received[0]["rules"] == Rules().to_dict()
        assert kinds[1] == "event" and player.received[1]["event"] == "cut"
        assert kinds[2] == "hand_start"
        assert kinds[-1] == "game_end"
        assert "request" in kinds
        assert kinds.count("hand_start") == kinds.count("hand_end")


def test_hand_start_shows_only_the_seats_own_cards() -> None:
    players = random_table()
    result = play_game(players, Rules(), seed=8, game_id="g")
    deal = next(r for r in result.replay if r["type"] == "deal")
    for seat, player in enumerate(players):
        start = next(m for m in player.received if m["type"] == "hand_start")
        assert start["cards"] == deal["hands"][seat]
        assert "hands" not in start


def test_requests_carry_the_view_and_remaining_bank() -> None:
    players = random_table(3)
    play_game(players, Rules(players=3), seed=2, game_id="g")
    requests = [m for m in players[0].received if m["type"] == "request"]
    assert requests
    for request in requests:
        assert request["state"]["seat"] == 0
        assert request["time"] == {"move_ms": 1000, "bank_ms": 10000}
        assert request["legal"]
    ids = [m["id"] for p in players for m in p.received if m["type"] == "request"]
    assert len(ids) == len(set(ids)), "request ids are unique within a game"


def test_same_seed_same_replay() -> None:
    first = play_game(random_table(), Rules(), seed=11, game_id="g")
    second = play_game(random_table(), Rules(), seed=11, game_id="g")
    assert json.dumps(first.replay) == json.dumps(second.replay)


def test_move_lines_come_right_before_the_event_they_cause() -> None:
    result = play_game(random_table(5), Rules(players=5), seed=4, game_id="g")
    replay = result.replay
    assert replay[0]["type"] == "game"
    assert replay[1]["event"] == "cut" and replay[1]["purpose"] == "dealer"
    for index, record in enumerate(replay):
        if record["type"] == "move" and record["action"] == "play":
            caused = replay[index + 1]
            assert caused["type"] == "event" and caused["event"] in ("play", "knock")
            assert caused["seat"] == record["seat"]
        if record["type"] == "move" and record["action"] == "trump":
            assert replay[index + 1] == {
                "type": "event",
                "event": "trump",
                "suit": record["move"],
                "seat": record["seat"],
            }


def test_an_illegal_move_faults_the_seat_with_a_plain_reason() -> None:
    def bad(request: JSON) -> str:
        legal: list[str] = request["legal"]
        if request["action"] == "play":
            state = GameState(Rules(), 0)  # any card not in legal will do
            return next(c for c in state.hands[0] + ["AS", "2C", "3D"] if c not in legal)
        return legal[0]

    cheat = ScriptedPlayer("cheat", bad)
    players: list[Player] = [cheat, *random_table(4)[1:]]
    result = play_game(players, Rules(), seed=6, game_id="g")
    assert result.faults[0].kind is FaultKind.ILLEGAL
    assert "is not legal" in result.faults[0].detail
    assert cheat.abandoned and cheat.abandoned[0] is not None
    error = cheat.abandoned[0]
    assert error["type"] == "error" and isinstance(error["id"], int)
    requests_after = cheat.received[
        cheat.received.index(next(m for m in cheat.received if m.get("id") == error["id"])) + 1 :
    ]
    assert requests_after == [], "a faulted seat receives nothing more"
    assert result.placements[0] == 4


def test_faulted_winner_lets_the_last_survivors_share_first() -> None:
    """The seat that would win faults on its very last move: the others share by knock-out."""
    probe = play_game(random_table(), Rules(), seed=21, game_id="g")
    winner = probe.winner
    players = random_table()

    class Saboteur(RandomPlayer):
        def request(self, message: JSON, line: bytes, timeout_s: float) -> tuple[str, float]:
            return "not-a-move", 0.0

    players[winner] = Saboteur(f"p{winner}")
    result = play_game(players, Rules(), seed=21, game_id="g")
    assert result.placements[winner] == max(result.placements)
    assert result.winner != winner
    assert result.placements[result.winner] == 1


def test_fallback_is_the_first_legal_move() -> None:
    class Mute(ScriptedPlayer):
        def request(self, message: JSON, line: bytes, timeout_s: float) -> tuple[str, float]:
            raise BotFault(FaultKind.TIMEOUT, "did not answer in time")

    mute = Mute("mute", first_legal)
    result: GameResult = play_game([mute, *random_table(4)[1:]], Rules(), seed=9, game_id="g")
    assert result.faults[0].kind is FaultKind.TIMEOUT
    state = GameState(Rules(), 9)
    state.record_fault(0, "timeout", "did not answer in time")
    moves = iter(r for r in result.replay if r["type"] == "move")
    for record in moves:
        pending = state.pending
        assert pending is not None and pending.seat == record["seat"]
        if record.get("fallback"):
            assert record["move"] == pending.legal[0]
        state.apply(record["move"])
    assert state.placements == list(result.placements)


def test_replay_lines_encode_the_replay_records_as_they_end() -> None:
    """The lines written as the game went are the records as they stand at its end.

    The referee encodes each record once, when it happens, and writes those
    bytes as the replay; a record changed later (a fault, the game's end)
    would make the two differ.
    """

    class Mute(ScriptedPlayer):
        def request(self, message: JSON, line: bytes, timeout_s: float) -> tuple[str, float]:
            if message["id"] > 20:  # a late fault, with records of the game before it
                raise BotFault(FaultKind.TIMEOUT, "did not answer in time")
            return first_legal(message), 0.0

    for seed, rules in ((5, Rules()), (12, Rules(players=7, dog_life="expanded"))):
        players: list[Player] = [Mute("mute", first_legal), *random_table(rules.players)[1:]]
        result = play_game(players, rules, seed=seed, game_id="g")
        assert result.faults, "the mute seat faults"
        assert result.lines == [
            json.dumps(record, separators=(",", ":")).encode() + b"\n" for record in result.replay
        ]
