"""Knockout Whist for researchers' libraries, checked by those libraries' own tests.

PettingZoo's API test (and its seed and render tests) run against the AEC
environment; the environment must deal what ``arena play --seed`` deals,
and an agent's observation must be its seat's information set exactly.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any, cast

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, render_test, seed_test

from arena.game import Rules, request_state
from arena.players import ScriptedPlayer
from arena.referee import play_game
from arena.research import gym_env, pettingzoo_env
from arena.research.encode import (
    ACTION_OF,
    ACTIONS,
    STATUSES,
    encode,
    move_of,
    observation_layout,
    observation_of,
    observation_size,
)
from tests.engine_digest import RULE_SETS
from tests.system import E2E
from tests.test_tournament import C_BOT, run_cli

pytestmark = E2E

ROOT = Path(__file__).resolve().parent.parent


def options_of(rules: Rules) -> dict[str, object]:
    """A rule set as the environment's keywords."""
    options = rules.to_dict()
    options.pop("players")
    return options


@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda rules: f"{rules.players}p")
def test_pettingzoos_api_test_passes_under_every_rule_option(rules: Rules) -> None:
    env = pettingzoo_env(players=rules.players, seed=7, **options_of(rules))
    api_test(env, num_cycles=400, verbose_progress=False)


def test_pettingzoos_seed_and_render_tests_pass() -> None:
    seed_test(lambda render_mode=None: pettingzoo_env(players=4), num_cycles=200)
    render_test(lambda render_mode=None: pettingzoo_env(players=3, render_mode=render_mode))


def play_out(env: object, rng: random.Random) -> list[str]:
    """Random legal moves to the end of the game; the moves played, in order."""
    moves = []
    for _agent in env.agent_iter():  # type: ignore[attr-defined]
        observation, _, terminated, truncated, _ = env.last()  # type: ignore[attr-defined]
        if terminated or truncated:
            env.step(None)  # type: ignore[attr-defined]
            continue
        legal = np.flatnonzero(observation["action_mask"])
        action = int(rng.choice(list(legal)))
        moves.append(move_of(action))
        env.step(action)  # type: ignore[attr-defined]
    return moves


def test_a_seeded_episode_deals_what_arena_play_deals(tmp_path: Path) -> None:
    """The same seed, the same seating, the same moves: the game arena play records."""
    env = pettingzoo_env(players=3, rainbow=True)
    env.reset(seed=11)
    moves = play_out(env, random.Random(1))
    assert env.game is not None
    deals = [r for r in env.game.log if r["type"] == "deal"]
    path = tmp_path / "g.jsonl"
    code, output = run_cli("play", C_BOT, C_BOT, C_BOT, "--seed", "11", "--rule", "rainbow=true",
                           "--replay", str(path), "--quiet", "--no-sandbox")  # fmt: skip
    assert code == 0, output
    played = [json.loads(line) for line in path.read_text().splitlines()]
    first = next(r for r in played if r["type"] == "deal")
    assert first == deals[0], "the first deal, from the seed alone"
    # Replayed move by move, the environment's game is the recorded one.
    recorded = [r["move"] for r in played if r["type"] == "move"]
    again = pettingzoo_env(players=3, rainbow=True)
    again.reset(seed=11)
    for move in recorded:
        again.step(ACTION_OF[move])
    assert again.game is not None
    assert [r for r in again.game.log if r["type"] != "move"] == [
        r for r in played[1:] if r["type"] != "move"
    ]
    assert moves, "the random episode played"


def test_an_observation_is_the_seats_information_set() -> None:
    """At every decision, each agent's observation encodes its seat's request state."""
    env = pettingzoo_env(players=4, blind_dog=True, upside_dog=True)
    env.reset(seed=5)
    rng = random.Random(5)
    assert env.game is not None
    while env.game.pending is not None:
        pending = env.game.pending
        for seat, agent in enumerate(env.possible_agents):
            seen = env.observe(agent)
            state = request_state(env.game, seat)
            action = pending.action if seat == pending.seat else None
            assert np.array_equal(seen["observation"], encode(state, 4, action))
            assert seen["observation"].shape == (observation_size(4),)
            assert seen["action_mask"].sum() == (len(pending.legal) if action else 0)
        env.step(ACTION_OF[rng.choice(pending.legal)])
    assert abs(sum(env.rewards.values())) < 1e-9, "the rewards of a game sum to zero"


def decoded(vector: np.ndarray, players: int, seat: int) -> dict[str, object]:
    """The request state's facts read back from an observation, by its layout."""
    from arena.game.cards import CARD_TEXT  # noqa: PLC0415

    part = {name: vector[place] for name, place in observation_layout(players).items()}

    def rows(name: str, width: int) -> list[np.ndarray]:
        return list(part[name].reshape(-1, width))

    def cards(row: np.ndarray) -> list[str]:
        return [CARD_TEXT[i] for i in np.flatnonzero(row)]

    def seats(row: np.ndarray) -> list[int]:
        return [(seat + int(i)) % players for i in np.flatnonzero(row)]

    def absolute(values: list[object]) -> list[object]:  # relative rows in seat order
        return [values[(s - seat) % players] for s in range(players)]

    return {
        "cards": cards(part["cards"]),
        "blind_card": bool(part["blind_card"][0]),
        "played": absolute([cards(row) for row in rows("played", 52)]),
        "trick": absolute([cards(row) for row in rows("trick", 52)]),
        "knocked": sorted(seats(part["knocked"])),
        "history": [
            (cards(c), sorted(seats(k)))
            for c, k in zip(rows("history_cards", 52), rows("history_knocks", players), strict=True)
        ],
        "trump": "CHDS"[int(np.argmax(part["trump"]))] if part["trump"].any() else None,
        "turn_up": next(iter(cards(part["turn_up"])), None),
        "dog_cards": absolute([cards(row) for row in rows("dog_cards", 52)]),
        "statuses": absolute([STATUSES[int(np.argmax(r))] for r in rows("statuses", 3)]),
        "blind": sorted(seats(part["blind"])),
        "tricks": absolute([round(float(t) * 7) for t in part["tricks"]]),
        "hand": int(np.argmax(part["hand"])) + 1,
        "hand_size": int(np.argmax(part["hand_size"])) + 1,
        "dealer": seats(part["dealer"])[0],
        "leader": seats(part["leader"])[0],
    }


def facts(state: Any, players: int) -> dict[str, object]:
    """The same facts from the request state itself."""
    from arena.game.cards import CARD_INDEX  # noqa: PLC0415

    def ordered(texts: Any) -> list[str]:
        return sorted(texts, key=CARD_INDEX.__getitem__)

    def by_seat(pairs: list[list[Any]]) -> list[list[str]]:
        return [ordered(card for s, card in pairs if s == seat) for seat in range(players)]

    history = [
        (
            ordered(move for _, move in done["moves"] if move != "knock"),
            sorted(s for s, move in done["moves"] if move == "knock"),
        )
        for done in state["history"]
    ]
    same = ("trump", "turn_up", "statuses", "tricks", "hand", "hand_size", "dealer", "leader")
    return {
        "cards": ordered(state["cards"]),
        "blind_card": state["seat"] in state["blind"],
        "played": by_seat(state["played"]),
        "trick": by_seat(state["trick"]),
        "knocked": sorted(state["knocked"]),
        "history": history + [([], [])] * (7 - len(history)),
        "dog_cards": [
            [state["dog_cards"][str(seat)]] if str(seat) in state.get("dog_cards", {}) else []
            for seat in range(players)
        ],
        "blind": sorted(state["blind"]),
        **{key: state[key] for key in same},
    }


@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda rules: f"{rules.players}p")
def test_an_observation_holds_every_fact_of_the_request_state(rules: Rules) -> None:
    """Every fact of a seat's request state (but the order of a trick's cards, which its
    leader gives) is read back from the observation, by the layout, at every decision."""
    from arena.game import GameState, SeededDecks  # noqa: PLC0415

    rng = random.Random(17)
    n = rules.players
    for seed in range(3):
        game = GameState(rules, SeededDecks(seed))
        while game.pending is not None:
            for seat in range(n):
                state = request_state(game, seat)
                assert decoded(encode(state, n), n, seat) == facts(state, n)
            game.apply(rng.choice(game.pending.legal))


def test_an_illegal_action_is_refused_in_a_sentence() -> None:
    env = pettingzoo_env(players=2, seed=1)
    env.reset()
    mask = env.observe(env.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(ValueError, match=f"action {illegal} .* is not legal now"):
        env.step(illegal)
    assert ACTIONS == 60


#: Python run as if the research extra were not installed: its libraries cannot be found.
WITHOUT_THE_EXTRA = (
    "import sys\n"
    "class Block:\n"
    "    def find_spec(self, name, path=None, target=None):\n"
    "        if name.split('.')[0] in ('pettingzoo', 'gymnasium', 'numpy', 'pyspiel'):\n"
    "            raise ModuleNotFoundError(f'No module named {name!r}', name=name)\n"
    "sys.meta_path.insert(0, Block())\n"
)


def without_the_extra(script: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", WITHOUT_THE_EXTRA + script], capture_output=True,
                          text=True, cwd=ROOT, timeout=60, check=False)  # fmt: skip


def test_the_core_install_never_imports_the_research_libraries() -> None:
    """Without the extra the arena works: its commands import none of them."""
    done = without_the_extra(
        "import arena.cli, arena.referee, arena.events.run, arena.report.tournament_report\n"
        "from click.testing import CliRunner\n"
        "result = CliRunner().invoke(arena.cli.main, ['simulate', '--seed', '3', '--quiet'])\n"
        "assert result.exit_code == 0, result.output\n"
        "print('ok')\n"
    )
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr


EXTRA = (
    "arena.research needs the research extra (numpy is missing): in the arena's folder, "
    "pip install '.[research]' (pettingzoo, gymnasium, numpy, open-spiel)"
)


def test_without_the_extra_the_research_parts_say_what_to_install() -> None:
    done = without_the_extra("import arena.research\n")
    assert done.returncode == 1, done.stderr
    assert done.stderr.strip().splitlines()[-1] == "ModuleNotFoundError: " + EXTRA
    done = without_the_extra(
        "import runpy\n"
        f"sys.argv = ['arena.bridge', '{POLICY}:policy']\n"
        "runpy.run_module('arena.bridge', run_name='__main__')\n"
    )
    assert (done.returncode, done.stderr) == (1, f"arena.bridge: {EXTRA}\n")


def test_gymnasiums_check_env_passes() -> None:
    env = gym_env(players=3, seat=1)
    try:
        check_env(env, skip_render_check=True)
    finally:
        env.close()


def test_one_seat_learns_against_real_bot_processes(tmp_path: Path) -> None:
    """The opponents are the arena's players: a competitor's real bot, started as a
    subprocess; the learner is asked what a bot in its seat is asked, and the game is the
    one arena play plays with the same seed and moves."""
    greedy = f"{sys.executable} {ROOT / 'arena/samples/greedy_bot.py'}"
    env = gym_env(players=3, seat=2, opponents=[C_BOT, greedy])
    try:
        observation, info = env.reset(seed=9)
        done, steps, reward = False, 0, 0.0
        while not done:
            assert observation["action_mask"].any() and info["action"] in ("play", "trump")
            action = int(np.flatnonzero(observation["action_mask"])[-1])
            observation, reward, done, truncated, info = env.step(action)
            assert not truncated
            steps += 1
        assert steps > 0 and "fault" not in info
        # (K - place) / (K - 1) - 1/2, a shared place taking the mean of the places it spans.
        assert reward in {1: (0.5, 0.25), 2: (0.0, 0.25, -0.25), 3: (-0.5,)}[info["placement"]]
        # An action the mask forbids is an illegal move: the seat forfeits, as a bot's would.
        observation, _ = env.reset(seed=9)
        forbidden = int(np.flatnonzero(observation["action_mask"] == 0)[0])
        _, reward, done, _, info = env.step(forbidden)
        assert done and reward == -0.5 and info["fault"].startswith("illegal: ")
    finally:
        env.close()


POLICY = ROOT / "tests" / "bots" / "policy.py"


def test_opponents_can_be_policies_in_process_for_self_play() -> None:
    """A frozen policy in the other seats: asked with an agent's observation, its moves
    played; one that raises stops the episode with its error, and the next one plays."""
    asked: list[int] = []

    def highest(seen: dict[str, np.ndarray]) -> int:
        legal = np.flatnonzero(seen["action_mask"])
        asked.append(int(seen["observation"].size))
        return int(legal[-1])

    def play(env: Any, seed: int) -> tuple[list[int], dict[str, object]]:
        observation, info = env.reset(seed=seed)
        actions, done = [], False
        while not done:
            actions.append(highest(observation))
            observation, _, done, _, info = env.step(actions[-1])
        return actions, info

    env = gym_env(players=3, seat=1, opponents=[highest, highest])
    try:
        first, info = play(env, 4)
        assert "fault" not in info and set(asked) == {observation_size(3)}
        again, same = play(env, 4)
        assert again == first and same == info, "self-play is deterministic"
    finally:
        env.close()
    env = gym_env(players=3, seat=1, opponents=["random", "random"])
    try:
        assert play(env, 4)[0] != first, "the policies' moves were played, not random ones"
    finally:
        env.close()

    bugs = [ZeroDivisionError("the policy's own bug")]

    def broken(seen: dict[str, np.ndarray]) -> int:  # once, then mended
        if bugs:
            raise bugs.pop()
        return highest(seen)

    env = gym_env(players=3, opponents=[broken, C_BOT])
    try:
        with pytest.raises(RuntimeError, match="the policy's own bug"):
            play(env, 1)
        assert "placement" in play(env, 2)[1], "the environment plays on"
        result = cast(Any, env.unwrapped)._learner.result
        assert result.faults == {}, "the bot stopped mid-game started afresh"
    finally:
        env.close()


def test_the_bridge_gives_a_policy_what_the_environment_gives_an_agent() -> None:
    """At every decision of a game refereed by the arena, the bridge's observation of the
    request equals the AEC environment's observation of the same position."""
    seen: list[tuple[int, dict[str, np.ndarray]]] = []
    moves: list[str] = []

    def choose(request: dict[str, object]) -> str:
        seat = request["state"]["seat"]  # type: ignore[index]
        seen.append((seat, observation_of(request, 4)))
        legal: list[str] = request["legal"]  # type: ignore[assignment]
        moves.append(legal[-1])
        return legal[-1]

    players = [ScriptedPlayer(f"p{seat}", choose) for seat in range(4)]
    play_game(players, Rules(blind_dog=True), seed=12, game_id="play-12")
    env = pettingzoo_env(players=4, blind_dog=True)
    env.reset(seed=12)
    for (seat, observation), move in zip(seen, moves, strict=True):
        assert env.agent_selection == f"player_{seat}"
        expected = env.observe(env.agent_selection)
        assert np.array_equal(observation["observation"], expected["observation"])
        assert np.array_equal(observation["action_mask"], expected["action_mask"])
        env.step(ACTION_OF[move])
    assert all(env.terminations.values())


def test_a_policy_enters_a_tournament_through_the_bridge(tmp_path: Path) -> None:
    """A bot folder whose bot.toml runs the bridge: sandboxed like any bot, zero faults."""
    folder = tmp_path / "agent"
    folder.mkdir()
    (folder / "agent.py").write_text(POLICY.read_text())
    (folder / "bot.toml").write_text(
        'name = "agent"\nrun = "python -m arena.bridge agent.py:policy"\n'
    )
    out = tmp_path / "t"
    code, output = run_cli(
        "tournament", "--bot", str(folder), "--bot", f"c={C_BOT}", "--bot", f"d={C_BOT}",
        "--players", "3", "--deals", "2", "--seed", "5", "--out", str(out), "--quiet",
    )  # fmt: skip
    assert code == 0, output
    code, output = run_cli("leaderboard", str(out), "--format", "json")
    rows = {row["bot"]: row for row in json.loads(output)}
    assert rows["agent"]["games"] == 6 and rows["agent"]["faults"] == {}, rows["agent"]
    replay = next((out / "replays").glob("*.jsonl")).read_text()
    assert '"info":{"legal":' in replay, "the policy's info went with its moves"


def test_a_bad_bridge_target_is_one_line() -> None:
    for target, message in [
        ("nofile.py:policy", "no such file: nofile.py"),
        (f"{POLICY}:missing", "has no callable 'missing'"),
        (str(POLICY), "name the callable as PATH/agent.py:NAME"),
    ]:
        command = [sys.executable, "-m", "arena.bridge", target]
        done = subprocess.run(
            command, capture_output=True, text=True, input="", timeout=60, check=False
        )
        assert done.returncode == 1 and message in done.stderr.strip(), done.stderr


@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda rules: f"{rules.players}p")
def test_openspiels_random_simulation_checks_pass_under_every_rule_option(rules: Rules) -> None:
    import pyspiel  # noqa: PLC0415 - registering the game is part of what is tested

    import arena.research.openspiel_game  # noqa: F401, PLC0415 - registers knockout_whist

    game = pyspiel.load_game("knockout_whist", rules.to_dict())
    pyspiel.random_sim_test(game, num_sims=8, serialize=True, verbose=False)


def test_every_random_event_is_a_chance_node() -> None:
    """Cuts, deals, redeals after no_picture and random tie-breaks: every card drawn is a
    chance outcome, and what chance draws is what the engine deals."""
    import pyspiel  # noqa: PLC0415

    import arena.research.openspiel_game  # noqa: F401, PLC0415

    purposes: set[str] = set()
    redealt = False
    for tie_break in ("cut", "random"):
        game = pyspiel.load_game(
            "knockout_whist", {"players": 4, "no_picture": True, "rainbow": True,
                               "tie_break": tie_break},
        )  # fmt: skip
        rng = random.Random(tie_break)
        for _ in range(30):
            state = game.new_initial_state()
            chance = 0
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes, weights = zip(*state.chance_outcomes(), strict=True)
                    assert abs(sum(weights) - 1.0) < 1e-9
                    state.apply_action(rng.choice(outcomes))
                    chance += 1
                else:
                    state.apply_action(rng.choice(state.legal_actions()))
            purposes |= {purpose for purpose, _ in state.decks.drawn}
            deals = [r for r in state.engine.log if r["type"] == "deal"]
            redealt |= len({r["hand"] for r in deals}) < len(deals)
            first = deals[0]
            dealt = sum(len(cards) for cards in first["hands"]) + 1  # and the turned-up card
            assert len(state.decks.drawn[("deal", 1)]) == dealt
            assert chance == sum(len(cards) for cards in state.decks.drawn.values())
            assert abs(sum(state.returns())) < 1e-9
    assert purposes == {"cut", "deal", "tie"}, purposes
    assert redealt, "a no_picture hand was dealt again"


def fits_the_play(engine: Any, hands: list[list[str]]) -> bool:
    """Whether every card of the current hand was a legal play had ``hands`` (with what each
    seat played after) been the seats' hands: the test's own account of what play shows."""
    from arena.game.cards import CARD_SUIT  # noqa: PLC0415

    tricks = [cards for _, cards, _ in engine.history] + [engine.trick]
    played = [pair for cards in tricks for pair in cards]
    trump, broken = engine.trump, not engine.rules.trumps_broken
    for cards in tricks:
        for turn, (seat, card) in enumerate(cards):
            later = [c for i, (s, c) in enumerate(played) if s == seat and i >= played.index(
                (seat, card))]  # fmt: skip
            held = [CARD_SUIT[c] for c in hands[seat] + later]
            if engine.statuses[seat] != "active":
                continue
            led = CARD_SUIT[cards[0][1]]
            if turn and CARD_SUIT[card] != led and led in held:
                return False
            if not turn and not broken and CARD_SUIT[card] == trump and set(held) != {trump}:
                return False
        broken = broken or any(CARD_SUIT[card] == trump for _, card in cards)
    return True


@pytest.mark.parametrize(
    "options",
    [
        {"players": 4, "blind_dog": True},
        {"players": 5, "trumps_broken": True, "upside_dog": True},
        {"players": 4, "rainbow": True, "no_picture": True, "dog_life": "expanded"},
    ],
    ids=["4p-blind", "5p-trumps_broken", "4p-declarations"],
)
def test_a_resampled_state_is_one_the_seat_cannot_tell_apart(options: dict[str, object]) -> None:
    """For IS-MCTS, for the seat to act and for any other: the seat's information state is
    the same, its own cards are kept, the others' hidden cards are dealt again (their
    counts kept, and no suit a seat showed it lacks), the decision pending is asked from
    the new hands, and the game plays on."""
    import pyspiel  # noqa: PLC0415

    import arena.research.openspiel_game  # noqa: F401, PLC0415

    game = pyspiel.load_game("knockout_whist", options)
    rng = random.Random(3)
    moved = offers = 0
    for _ in range(8):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice([card for card, _ in state.chance_outcomes()]))
                continue
            me = state.current_player()
            for who in (me, rng.randrange(game.num_players())):
                before = [list(hand) for hand in state.engine.hands]
                other = state.resample_from_infostate(who, rng.random)
                assert state.engine.hands == before, "the state resampled is left as it was"
                assert other.information_state_string(who) == state.information_state_string(who)
                assert other.information_state_tensor(who) == state.information_state_tensor(who)
                assert other.current_player() == me
                if who == me:
                    assert other.legal_actions() == state.legal_actions()
                sizes = [len(hand) for hand in state.engine.hands]
                assert [len(hand) for hand in other.engine.hands] == sizes
                assert fits_the_play(state.engine, other.engine.hands), other.engine.hands
                moved += other.engine.hands != state.engine.hands
                offers += other.engine.pending.action in ("rainbow", "no_picture")
                other.apply_action(rng.choice(other.legal_actions()))  # the game plays on
            state.apply_action(rng.choice(state.legal_actions()))
    assert moved > 100, "the hidden cards were dealt again"
    if options.get("rainbow"):
        assert offers > 5, "resampled at declaration offers"


def test_hidden_cards_are_dealt_uniformly_over_the_deals_that_fit() -> None:
    from arena.research.openspiel_game import deal_fitting  # noqa: PLC0415

    rng = random.Random(7)
    # The second seat lacks hearts: it holds 2C or 3C, each as likely.
    seen = [deal_fitting(["2C", "3C", "2H"], [set(), {1}], [2, 1], rng.random)[1][0]
            for _ in range(4000)]  # fmt: skip
    assert set(seen) == {"2C", "3C"}
    assert 0.45 < seen.count("2C") / len(seen) < 0.55
    # One deal fits in C(26, 13): the shuffles give up and the cards are matched to seats.
    hearts = [f"{r}H" for r in "23456789TJQKA"]
    spades = [f"{r}S" for r in "23456789TJQKA"]
    first, second = deal_fitting(hearts + spades, [{1}, {3}], [13, 13], rng.random)
    assert sorted(first) == sorted(spades) and sorted(second) == sorted(hearts)


def played_on(state: Any) -> Any:
    """``state`` past its chance nodes, drawing the lowest card each time (so that two
    states drawn on alike draw the same cards)."""
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    return state


@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda rules: f"{rules.players}p")
def test_the_information_state_tensor_tells_apart_what_the_seat_can(rules: Rules) -> None:
    """Perfect recall: after each move a seat could make, every seat's information state
    tensor is the same for two of them exactly when its information state string is."""
    import pyspiel  # noqa: PLC0415

    import arena.research.openspiel_game  # noqa: F401, PLC0415

    game = pyspiel.load_game("knockout_whist", rules.to_dict())
    rng = random.Random(11)
    pairs = 0
    for _ in range(3):
        state = played_on(game.new_initial_state())
        while not state.is_terminal():
            children = [played_on(state.child(a)) for a in state.legal_actions()]
            for seat in range(rules.players):
                strings = [child.information_state_string(seat) for child in children]
                tensors = [bytes(np.asarray(child.information_state_tensor(seat),
                                            np.float32)) for child in children]  # fmt: skip
                for i in range(len(children)):
                    for j in range(i):
                        assert (strings[i] == strings[j]) == (tensors[i] == tensors[j])
                        pairs += strings[i] != strings[j]
            state.apply_action(rng.choice(state.legal_actions()))
            played_on(state)
    assert pairs > 100


def test_a_seeded_gym_episode_deals_what_arena_play_deals(tmp_path: Path) -> None:
    """Seat 1 learning against two C random bots, seeded: the game arena play plays with
    the same seed, seating and moves (the learner's moves replayed by a recording)."""
    env = gym_env(players=3, seat=1, opponents=[C_BOT, C_BOT])
    try:
        observation, _ = env.reset(seed=13)
        done = False
        while not done:
            observation, _, done, _, info = env.step(int(np.flatnonzero(
                observation["action_mask"])[0]))  # fmt: skip
        played = info["game"]
    finally:
        env.close()
    assert played == "play-13"
    path = tmp_path / "g.jsonl"
    first = f"first={sys.executable} {ROOT / 'tests/bots/recorder.py'} {tmp_path / 'log.txt'}"
    code, output = run_cli("play", C_BOT, first, C_BOT, "--seed", "13", "--replay", str(path),
                           "--quiet", "--no-sandbox")  # fmt: skip
    assert code == 0, output
    records = [json.loads(line) for line in path.read_text().splitlines()]
    # The recorder plays the first legal move of the protocol's canonical order ("pass"
    # before "declare", "knock" and "blind" before cards): so does the learner now.
    env = gym_env(players=3, seat=1, opponents=[C_BOT, C_BOT])
    try:
        observation, _ = env.reset(seed=13)
        moves = []
        done = False
        while not done:
            legal = set(np.flatnonzero(observation["action_mask"]).tolist())
            spoken = [ACTION_OF[w] for w in ("pass", "knock", "blind") if ACTION_OF[w] in legal]
            action = spoken[0] if spoken else min(legal)
            moves.append(move_of(action))
            observation, _, done, _, info = env.step(action)
    finally:
        env.close()
    assert moves == [r["move"] for r in records if r["type"] == "move" and r["seat"] == 1]
    assert info["placement"] == records[-1]["placements"][1]


def test_openspiels_rl_environment_learns_on_the_information_state_tensor() -> None:
    """OpenSpiel's own RL environment and agents: a tabular Q-learner in seat 0 (its
    states are the information state tensors) against random agents."""
    from open_spiel.python import rl_environment  # noqa: PLC0415
    from open_spiel.python.algorithms import random_agent, tabular_qlearner  # noqa: PLC0415

    import arena.research.openspiel_game  # noqa: F401, PLC0415

    sampler = rl_environment.ChanceEventSampler(seed=5)
    env = rl_environment.Environment("knockout_whist", chance_event_sampler=sampler, players=3)
    size = env.game.information_state_tensor_shape()[0]
    assert env.observation_spec()["info_state"] == (size,)
    learner = tabular_qlearner.QLearner(player_id=0, num_actions=env.action_spec()["num_actions"])
    agents = [learner, *(random_agent.RandomAgent(p, 60) for p in (1, 2))]
    for _ in range(4):
        step = env.reset()
        while not step.last():
            player = step.observations["current_player"]
            assert len(step.observations["info_state"][player]) == size
            step = env.step([agents[player].step(step).action])
        for agent in agents:
            agent.step(step)
        assert abs(sum(step.rewards)) < 1e-9 and max(step.rewards) == 0.5


def test_who_names_trumps_after_a_cut_is_in_every_seats_tensor() -> None:
    """A tie for most tricks is cut: while the winner of the cut names trumps, every other
    seat's information state tensor already says who it is (the cut's cards are left out)."""
    import pyspiel  # noqa: PLC0415

    import arena.research.openspiel_game  # noqa: F401, PLC0415

    game = pyspiel.load_game("knockout_whist", {"players": 4})
    rng = random.Random(8)
    compared = 0
    while compared < 5:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node() and state.need.key[0] == "cut" and state.need.key[1] > 0:
                cut = []
                for order in (1, -1):  # the cut: the lowest cards first, or the highest
                    child = state.clone()
                    while child.is_chance_node():  # the deal after it: the same cards
                        same = child.need.key != state.need.key
                        child.apply_action(child.chance_outcomes()[:: 1 if same else order][0][0])
                    cut.append(child)
                choosers = [child.current_player() for child in cut]
                for seat in set(range(4)) - set(choosers):
                    tensors = [child.information_state_tensor(seat) for child in cut]
                    assert (tensors[0] == tensors[1]) == (choosers[0] == choosers[1])
                compared += choosers[0] != choosers[1]
            if state.is_chance_node():
                state.apply_action(rng.choice([card for card, _ in state.chance_outcomes()]))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
