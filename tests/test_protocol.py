"""The protocol's schemas: the referee's messages and replays conform; validators agree.

The schema files under protocol/schemas/ are the single source of truth; the
referee checks replies with a fastjsonschema validator compiled from them,
so the tests check that it agrees with the reference jsonschema validator.
"""

from __future__ import annotations

import random
from typing import Any

import fastjsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arena.errors import BotFault, FaultKind
from arena.game import Rules
from arena.players import ScriptedPlayer
from arena.protocol import (
    BYE,
    Limits,
    decode_move,
    decode_reply,
    encode,
    full_validator,
    hello_message,
    reply_validator,
)
from arena.referee import play_game

JSON = dict[str, Any]

RULES = [
    Rules(),
    Rules(players=2),
    Rules(players=7, dog_life="expanded", blind_dog=True, upside_dog=True),
    Rules(players=5, rainbow=True, no_picture=True, tie_break="random", trumps_broken=True),
    Rules(players=3, dog_life="none", sweep_wins=True, eliminated_deals=True),
]


def capture_games(rules: Rules, games: int = 3) -> tuple[list[JSON], list[JSON]]:
    """Every message the referee sent to any seat, and every replay line."""
    rng = random.Random(1)
    players = [
        ScriptedPlayer(f"p{s}", lambda request: rng.choice(request["legal"]))
        for s in range(rules.players)
    ]
    replay: list[JSON] = []
    for game in range(games):
        result = play_game(players, rules, seed=game, game_id=f"g-{game}")
        replay.extend(result.replay)
    return [m for p in players for m in p.received], replay


@pytest.mark.parametrize("rules", RULES, ids=lambda r: f"{r.players}p-{r.dog_life}")
def test_every_message_the_referee_sends_is_valid(rules: Rules) -> None:
    messages, _ = capture_games(rules)
    validator = full_validator("referee_to_bot")
    kinds = set()
    for message in messages:
        errors = list(validator.iter_errors(message))
        assert not errors, (message, errors[0].message)
        kinds.add(message["type"])
    assert {"game_start", "hand_start", "event", "request", "hand_end", "game_end"} <= kinds
    for extra in (hello_message(Limits()), BYE, {"type": "error", "message": "x", "id": 3}):
        assert validator.is_valid(extra), extra


@pytest.mark.parametrize("rules", RULES, ids=lambda r: f"{r.players}p-{r.dog_life}")
def test_every_replay_line_is_valid(rules: Rules) -> None:
    _, replay = capture_games(rules)
    validator = full_validator("replay_line")
    for line in replay:
        errors = list(validator.iter_errors(line))
        assert not errors, (line, errors[0].message)


VALID_REPLIES = [
    {"type": "move", "id": 7, "move": "TD"},
    {"type": "move", "id": 0, "move": "knock", "comment": "extra fields are ignored"},
    {"type": "ready", "name": "bot"},
    {"type": "ready", "name": "bot", "version": "1.2", "author": "me"},
]
INVALID_REPLIES = [
    {"type": "move", "id": "7", "move": "TD"},
    {"type": "move", "move": "TD"},
    {"type": "move", "id": 7},
    {"type": "move", "id": 7, "move": 12},
    {"type": "move", "id": True, "move": "TD"},
    {"type": "ready"},
    {"type": "ready", "name": 5},
    {"type": "hello"},
    {"id": 7, "move": "TD"},
    ["move"],
    "move",
]


@pytest.mark.parametrize("reply", VALID_REPLIES + INVALID_REPLIES)
def test_fast_and_reference_validators_agree(reply: Any) -> None:
    reference = full_validator("bot_to_referee").is_valid(reply)
    kind = reply.get("type") if isinstance(reply, dict) else None
    fast = kind in ("move", "ready")
    if fast:
        try:
            reply_validator(str(kind))(reply)
        except fastjsonschema.JsonSchemaValueException:
            fast = False
    assert fast == reference
    assert reference == (reply in VALID_REPLIES)


@pytest.mark.parametrize(
    ("line", "detail"),
    [
        (b"not json", "not JSON"),
        (b"[1, 2]", "not a JSON object"),
        (b'{"type": "ready", "name": "x"}', "expected a 'move' message"),
        (b'{"type": "move", "id": "1", "move": "TD"}', "not a valid reply"),
    ],
)
def test_decode_reply_faults_are_malformed(line: bytes, detail: str) -> None:
    with pytest.raises(BotFault) as caught:
        decode_reply(line, "move")
    assert caught.value.kind is FaultKind.MALFORMED
    assert detail in caught.value.detail


def test_encode_is_one_compact_line() -> None:
    line = encode({"type": "event", "event": "play", "seat": 1, "card": "TD"})
    assert line == b'{"type":"event","event":"play","seat":1,"card":"TD"}\n'
    assert decode_reply(encode({"type": "move", "id": 1, "move": "TD"}), "move")["move"] == "TD"


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**63), 2**63 - 1)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(), inner, max_size=3),
    max_leaves=8,
)


@settings(max_examples=300, deadline=None)
@given(
    request_id=st.integers(0, 2**40),
    move=st.text(max_size=10),
    extra=st.dictionaries(st.text(), json_values, max_size=3),
)
def test_decode_move_fast_path_accepts_only_schema_valid_replies(
    request_id: int, move: str, extra: JSON
) -> None:
    """Whatever decode_move accepts, the schema accepts: the schema stays the authority."""
    reply = {**extra, "type": "move", "id": request_id, "move": move}
    line = encode(reply)
    assert decode_move(line, request_id) == move
    assert full_validator("bot_to_referee").is_valid(reply)


@settings(max_examples=300, deadline=None)
@given(reply=st.dictionaries(st.sampled_from(["type", "id", "move", "x"]), json_values))
def test_decode_move_rejects_what_the_schema_rejects(reply: JSON) -> None:
    valid = full_validator("bot_to_referee").is_valid(reply) and reply.get("type") == "move"
    try:
        decode_move(encode(reply), 5)
        accepted = True
    except BotFault as fault:
        assert fault.kind is FaultKind.MALFORMED
        accepted = False
    assert accepted == (valid and reply["id"] == 5)
