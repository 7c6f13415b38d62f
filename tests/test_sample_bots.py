"""The search bot's models of the other players, checked against the real thing.

The search bot simulates every seat with :func:`ismcts_bot.model_move`, a
fast copy of the greedy bot working on the engine's state, and weighs
sampled deals by how well that model explains the others' play
(:func:`ismcts_bot.surprises`). Both are only worth anything if they agree
with ``greedy_bot.choose`` exactly, under every rule option.
"""

from __future__ import annotations

import importlib.util
import random
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

from arena.game import GameState, Rules, hand_start, request_state
from arena.game.state import Decision
from tests.system import E2E

pytestmark = E2E

Turn = tuple[GameState, Decision]

BOTS = Path(__file__).resolve().parent.parent / "arena" / "samples"

RULES = [
    Rules(),
    Rules(players=3),
    Rules(players=5, dog_life="expanded", blind_dog=True),
    Rules(players=2, upside_dog=True, trumps_broken=True),
    Rules(players=6, blind_dog=True, upside_dog=True, eliminated_deals=True),
    Rules(players=7, dog_life="none", sweep_wins=True),
]


def load(name: str) -> ModuleType:
    """Import a sample bot module by file, as the arena would find it."""
    sys.path.insert(0, str(BOTS))
    try:
        spec = importlib.util.spec_from_file_location(f"sample_{name}", BOTS / f"{name}.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(BOTS))
    return module


@pytest.fixture(scope="module")
def greedy() -> ModuleType:
    return load("greedy_bot")


@pytest.fixture(scope="module")
def search() -> ModuleType:
    return load("ismcts_bot")


def greedy_move(greedy: ModuleType, game: GameState) -> str:
    pending = game.pending
    assert pending is not None
    move: str = greedy.choose(
        request_state(game, pending.seat), list(pending.legal), {"action": pending.action}
    )
    return move


@pytest.mark.parametrize("rules", RULES, ids=lambda r: f"{r.players}p")
def test_the_rollout_model_plays_exactly_as_the_greedy_bot(
    greedy: ModuleType, search: ModuleType, rules: Rules
) -> None:
    checked = 0
    for seed in range(150):
        game = GameState(rules, seed, record=False)
        rng = random.Random(seed)
        while (pending := game.pending) is not None:
            expected = greedy_move(greedy, game)
            if pending.action == "play":
                assert search.model_move(game) == expected, request_state(game, pending.seat)
                checked += 1
            # Off the greedy path now and then, to reach positions greedy play never makes.
            legal = pending.legal
            game.apply(expected if rng.random() < 0.7 else legal[int(rng.random() * len(legal))])
    assert checked > 1000


def turns(search: ModuleType, rules: Rules, seed: int, me: int) -> Iterator[Turn]:
    """A game's decisions, the search bot's tracker fed first what seat ``me`` is told.

    The caller makes each move on the ``game`` it is given.
    """
    game = GameState(rules, seed, game_id=f"g{seed}")
    search.TRACKER.see(
        {"type": "game_start", "game": f"g{seed}", "seat": me, "rules": rules.to_dict()}
    )
    cursor = 0
    while (pending := game.pending) is not None:
        for record in game.log[cursor:]:
            search.TRACKER.see(hand_start(record, me) if record["type"] == "deal" else record)
        cursor = len(game.log)
        yield game, pending


def test_greedy_play_never_surprises_the_search_bot_on_the_true_deal(
    greedy: ModuleType, search: ModuleType
) -> None:
    """With the real hidden cards, the replay of every hand explains every move,
    and no seat holds a card the search bot has ruled out from its way of following suit."""
    replays = 0
    for seed in range(40):
        rules = RULES[seed % len(RULES)]
        me = seed % rules.players
        for game, pending in turns(search, rules, seed, me):
            if pending.seat == me and pending.action == "play":
                state = request_state(game, me)
                hands = [list(held) for held in game.hands]
                assert search.surprises(state, hands, 99) == 0
                for seat, held in enumerate(hands):
                    if seat != me:
                        assert not set(held) & search.TRACKER.unlikely[seat], (seat, held)
                replays += 1
            game.apply(greedy_move(greedy, game))
    assert replays > 100


def test_a_wrong_deal_surprises_the_search_bot(greedy: ModuleType, search: ModuleType) -> None:
    """Inference has teeth: swapping the others' cards around breaks the replay somewhere."""
    surprised = 0
    for seed in range(40):
        for game, pending in turns(search, Rules(), seed, 0):
            if pending.seat == 0 and pending.action == "play" and len(game.played) >= 8:
                hands = [list(held) for held in game.hands]
                hands[1], hands[2] = hands[2], hands[1]
                if len(hands[1]) == len(hands[2]) and game.statuses[1:3] == ["active"] * 2:
                    surprised += search.surprises(request_state(game, 0), hands, 99) > 0
            game.apply(greedy_move(greedy, game))
    assert surprised > 10


def test_the_deal_chain_walks_to_deals_that_explain_the_play(
    greedy: ModuleType, search: ModuleType
) -> None:
    """Late in a hand, independent samples rarely explain the others' play; the chain's do.

    The chain only swaps hidden cards: every card stays somewhere, this bot's
    own hand stays as dealt, and no seat is given a suit it has shown out of.
    """
    chained = independent = positions = 0
    for seed in range(30):
        rules = RULES[seed % len(RULES)]
        me = seed % rules.players
        rng = random.Random(seed)
        for game, pending in turns(search, rules, seed, me):
            if pending.seat == me and pending.action == "play" and len(game.played) >= 8:
                state = request_state(game, me)
                deal = search.sample_hands(state, rng)
                assert deal is not None
                hands, pool, hidden = deal
                cards = sorted([card for held in hands for card in held] + pool)
                independent += search.surprises(state, hands, 99)
                chain = search.Chain(state, deal, rng)
                for _ in range(150):
                    chain.step()
                chained += search.surprises(state, chain.hands, 99)
                assert chain.misses == search.surprises(state, chain.hands, 99)
                assert chain.hands[me] == list(state["cards"]) or me in hidden
                assert cards == sorted([c for held in chain.hands for c in held] + chain.pool)
                for seat in hidden:
                    voids = search.TRACKER.voids[seat]
                    assert not [card for card in chain.hands[seat] if card[1] in voids]
                positions += 1
            game.apply(greedy_move(greedy, game))
    assert positions > 30
    assert chained * 4 < independent, (chained, independent)


def test_the_search_bot_searches_trumps_and_rainbows(
    greedy: ModuleType, search: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every trump and rainbow decision of the search bot comes from its search, not a fallback."""

    def fail(*parts: object) -> None:
        raise AssertionError(" ".join(map(str, parts)))

    monkeypatch.setattr(search, "log", fail)
    asked: dict[str, int] = {"trump": 0, "rainbow": 0}
    rules = Rules(rainbow=True)
    for seed in range(60):
        me = seed % rules.players
        for game, pending in turns(search, rules, seed, me):
            if pending.seat == me and pending.action in asked:
                # 50 ms: enough to find a consistent deal on a loaded machine (10 ms was not,
                # with other builds running), still short for 60 games.
                request = {"action": pending.action, "time": {"move_ms": 50, "bank_ms": 0}}
                answer = search.choose(request_state(game, me), list(pending.legal), request)
                # A searched move comes with what the search found (sent as the move's info).
                assert isinstance(answer, tuple), answer
                move, info = answer
                assert move in pending.legal
                assert info["deals"] > 0 and info["rollouts"] >= info["deals"]
                assert 0.0 <= info["win"] <= 1.0 and set(info["moves"]) <= set(pending.legal)
                asked[pending.action] += 1
                game.apply(move)
            else:
                game.apply(greedy_move(greedy, game))
    assert asked["trump"] > 5 and asked["rainbow"] > 0, asked
