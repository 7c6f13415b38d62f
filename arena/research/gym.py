"""One seat of Knockout Whist as a Gymnasium environment; the other seats are arena players.

The game is refereed by the arena's own referee (:func:`arena.execute.game.play_one`)
in a thread of its own: the learning seat is a player whose requests wait
for :meth:`KnockoutWhistGym.step`, and the opponents are players of the
arena: ``"random"`` (in-process, seeded from the game id and seat, as
protocol v1 suggests), a policy (in-process: a callable given what the
learner is given, returning an action number, as :mod:`arena.bridge`
calls it; a frozen copy of the learner, for self-play), or any BOT
argument of the arena (a command or a bot folder: a competitor's real bot,
run as a sandboxed subprocess, with its time limits). What the learner is
asked is what a bot in its seat would be asked, encoded by
:mod:`arena.research.encode`.
"""

from __future__ import annotations

import queue
import random
import threading
from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from arena.bots.builds import build_bot
from arena.bots.player import ProcessPlayer
from arena.bots.spec import parse_bot
from arena.errors import BotFault, FaultKind
from arena.execute.game import play_one
from arena.game import Rules
from arena.players import RandomPlayer, ScriptedPlayer
from arena.protocol import Limits
from arena.referee import GameResult, Player
from arena.research.encode import (
    ACTIONS,
    Policy,
    action_mask,
    move_of,
    observation_of,
    observation_size,
    observation_space,
    policy_answer,
    rewards,
)

JSON = dict[str, Any]
Observation = dict[str, npt.NDArray[Any]]

#: Seconds a step waits for the opponents' moves before it gives up: a bot's time limits
#: end every wait sooner, but an in-process policy has none.
WAIT_S = 600.0


class _Learner:
    """The learning seat of one game: each request waits for the agent's action."""

    def __init__(self) -> None:
        self.name = "learner"
        self.description = "a gymnasium agent"
        self.asked: queue.Queue[JSON | None] = queue.Queue()
        self.answers: queue.Queue[str | None] = queue.Queue()
        self.result: GameResult | None = None
        #: What stopped the referee, if something did (an opponent policy's exception).
        self.error: Exception | None = None

    def start_game(self, message: JSON, line: bytes) -> None:
        """Nothing to start."""

    def deliver(self, message: JSON, line: bytes) -> None:
        """Nothing: the request holds the seat's whole information set."""

    def request(self, message: JSON, line: bytes, timeout_s: float) -> tuple[str, float]:
        self.asked.put(message)
        move = self.answers.get()
        if move is None:  # the environment is closed or reset: play the game out
            raise BotFault(FaultKind.CRASH, "the environment was closed")
        return move, 0.0

    def end_game(self) -> None:
        """Nothing to end."""

    def abandon(self, error_line: bytes | None) -> None:
        """Nothing to stop."""


def _policy_player(name: str, policy: Policy, players: int) -> ScriptedPlayer:
    """An opponent policy, in-process: asked with the observation an agent is given."""

    def choose(request: JSON) -> str:
        return policy_answer(policy, request, players)[0]

    return ScriptedPlayer(name, choose, description="in-process policy")


class KnockoutWhistGym(gymnasium.Env):
    """Seat ``seat`` of a ``players``-seat game against ``opponents``."""

    metadata = {"render_modes": []}  # noqa: RUF012 - gymnasium reads it off the class

    def __init__(
        self,
        players: int = 4,
        seat: int = 0,
        opponents: Sequence[str | Policy] = (),
        limits: Limits | None = None,
        **options: Any,
    ) -> None:
        """The learner in ``seat``; ``opponents`` fill the other seats in order
        (default: ``"random"``): ``"random"``, a policy (a callable) or a BOT argument;
        ``options``: rule options.

        Raises:
            RuleError, BotError: for a bad rule option or an opponent that cannot be used.
            ValueError: for a seat or an opponent count that does not fit ``players``.
        """
        self.rules = Rules.from_dict({**options, "players": players})
        if not 0 <= seat < players:
            raise ValueError(f"seat {seat} is not one of 0..{players - 1}")
        given = list(opponents) or ["random"] * (players - 1)
        if len(given) != players - 1:
            raise ValueError(f"{players} seats need {players - 1} opponents, not {len(given)}")
        self.seat = seat
        self.limits = limits or Limits()
        self.opponents: list[Player] = []
        for index, text in enumerate(given):
            if callable(text):
                self.opponents.append(_policy_player(f"policy-{index + 1}", text, players))
            elif text == "random":
                self.opponents.append(RandomPlayer(f"random-{index + 1}"))
            else:
                spec = parse_bot(text)
                build_bot(spec)
                self.opponents.append(ProcessPlayer(spec, self.limits))
        self.observation_space = observation_space(players)
        self.action_space = spaces.Discrete(ACTIONS)
        self._seeds = random.Random()
        self._learner = _Learner()
        self._request: JSON | None = None
        #: Games to referee, for the thread that referees them all: the opponents' bot
        #: processes are its children, and a sandboxed bot dies with the thread that
        #: started it (its parent-death signal), so one thread plays every game.
        self._orders: queue.Queue[tuple[int, _Learner] | None] = queue.Queue()
        self._thread = threading.Thread(target=self._referee, name="arena-gym", daemon=True)
        self._thread.start()

    def _referee(self) -> None:
        """Referee each game ordered, until ``None``; then say ``bye`` to the bots (from
        this thread: they would die with it)."""
        while (order := self._orders.get()) is not None:
            seed, learner = order
            players: list[Player] = [
                *self.opponents[: self.seat],
                learner,
                *self.opponents[self.seat :],
            ]
            try:
                learner.result = play_one(
                    players, self.rules, seed=seed, game_id=f"play-{seed}", limits=self.limits
                )
            except Exception as error:  # raised again in the caller's thread, by _next
                learner.error = error
                for player in self.opponents:  # mid-game: start afresh for the next game
                    if isinstance(player, ProcessPlayer):
                        player.abandon(None)
            finally:
                learner.asked.put(None)
        for player in self.opponents:
            if isinstance(player, ProcessPlayer):
                player.close()

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, JSON]:
        """A new game (dealt from ``seed`` as ``arena play --seed`` deals), up to the
        learner's first turn."""
        super().reset(seed=seed)
        self._stop()
        if seed is not None:
            self._seeds = random.Random(seed)
            game_seed = seed
        else:
            game_seed = self._seeds.randrange(2**31)
        self._learner = _Learner()
        self._orders.put((game_seed, self._learner))
        observation, _, _, info = self._next()
        return observation, info

    def step(self, action: int) -> tuple[Observation, float, bool, bool, JSON]:
        """Play the learner's action; return what it sees at its next turn (or the end).

        An action its mask does not allow is an illegal move, as a bot's would be:
        the seat forfeits the game (the referee plays it out with its fallback and
        places it below every seat that did not fault), and the episode ends there,
        the fault in ``info``.

        Raises:
            ValueError: for a step after the end of the game, or an action outside the space.
        """
        request = self._request
        if request is None:
            raise ValueError("the game is over: call reset()")
        self._learner.answers.put(move_of(int(action)))
        observation, reward, done, info = self._next()
        return observation, reward, done, False, info

    def _next(self) -> tuple[Observation, float, bool, JSON]:
        """Wait for the learner's next request, or for the end of the game."""
        try:
            request = self._learner.asked.get(timeout=WAIT_S)
        except queue.Empty:
            raise RuntimeError(f"no move came from the game in {WAIT_S:.0f} s") from None
        self._request = request
        n = self.rules.players
        if request is not None:
            return observation_of(request, n), 0.0, False, {"action": request["action"]}
        result = self._learner.result
        if result is None:
            error = self._learner.error
            raise RuntimeError(f"the game stopped: {error!r}") from error
        observation: Observation = {
            "observation": np.zeros(observation_size(n), dtype=np.float32),
            "action_mask": action_mask(None),
        }
        info: JSON = {"placement": result.placements[self.seat], "game": result.game_id}
        fault = result.faults.get(self.seat)
        if fault is not None:
            info["fault"] = f"{fault.kind.value}: {fault.detail}"
        return observation, rewards(result.placements)[self.seat], True, info

    def _stop(self) -> None:
        """End a game still in progress: the learner's seat faults, the game plays out."""
        learner = self._learner
        if self._request is not None:
            learner.answers.put(None)
            while learner.asked.get(timeout=WAIT_S) is not None:
                learner.answers.put(None)
        self._request = None

    def close(self) -> None:
        """End the game in progress and stop the opponents' processes."""
        self._stop()
        if self._thread.is_alive():
            self._orders.put(None)
            self._thread.join(timeout=WAIT_S)
