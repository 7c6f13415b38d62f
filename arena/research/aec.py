"""Knockout Whist as a PettingZoo AEC environment, on the arena's own engine.

No second rule engine: each step applies a move to :class:`arena.game.GameState`,
whose ``pending`` decision says whose turn it is and what is legal. An agent's
observation is its seat's information set (:mod:`arena.research.encode`),
with an action mask over the fixed action space. Knocked-out players simply
are not asked again; every agent's episode ends with the game, each
rewarded by its place (:func:`arena.research.encode.rewards`: the seat
score (K - place) / (K - 1), shared places sharing the mean, minus 1/2, so
the rewards of a game sum to zero).

A seeded reset deals what ``arena play --seed`` deals with the same seating:
the game's seed is the one given (and, after that, drawn from a generator
seeded by it), its id ``play-SEED``.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv

from arena.game import GameState, Rules, request_state
from arena.report.narrate import Narrator
from arena.research.encode import (
    ACTIONS,
    action_mask,
    encode,
    move_of,
    rewards,
)
from arena.research.encode import observation_space as space_of_observations

JSON = dict[str, Any]
Observation = dict[str, npt.NDArray[Any]]


class KnockoutWhistEnv(AECEnv):  # type: ignore[misc]  # PettingZoo's base is untyped
    """The AEC environment: agents ``player_0`` .. in seat order."""

    metadata: ClassVar[dict[str, Any]] = {
        "name": "knockout_whist_v0",
        "render_modes": ["ansi", "human"],
        "is_parallelizable": False,
    }

    def __init__(
        self, players: int = 4, seed: int | None = None, render_mode: str | None = None,
        **options: Any,
    ) -> None:  # fmt: skip
        """A table of ``players`` seats under the rule ``options`` (keywords of
        :class:`arena.game.Rules`: ``dog_life="expanded"``, ``rainbow=True``, ...).

        Raises:
            RuleError: for an unknown option or a value it does not take.
        """
        super().__init__()
        self.rules = Rules.from_dict({**options, "players": players})
        self.render_mode = render_mode
        self.possible_agents = [f"player_{seat}" for seat in range(players)]
        self.agents: list[str] = []
        self.observation_spaces = {
            agent: space_of_observations(players) for agent in self.possible_agents
        }
        self.action_spaces = {agent: spaces.Discrete(ACTIONS) for agent in self.possible_agents}
        self._seeds = random.Random(seed)
        self._seeded = seed
        self.game: GameState | None = None
        self.game_seed = 0

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The agent's observation space (the same for every seat)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The fixed action space: 52 cards, knock, blind, 4 suits, declare, pass."""
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game: dealt from ``seed`` (as ``arena play --seed``), else from the
        environment's own generator."""
        if seed is not None:
            self._seeds = random.Random(seed)
            self.game_seed = seed
        elif self._seeded is not None and self.game is None:
            self.game_seed = self._seeded
        else:
            self.game_seed = self._seeds.randrange(2**31)
        self.game = GameState(self.rules, self.game_seed, game_id=f"play-{self.game_seed}")
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, JSON] = {agent: {} for agent in self.agents}
        self._select()

    def _select(self) -> None:
        """Point ``agent_selection`` at the seat the engine waits for."""
        assert self.game is not None
        pending = self.game.pending
        if pending is not None:
            self.agent_selection = self.possible_agents[pending.seat]
            self.infos[self.agent_selection] = {"action": pending.action, "legal": pending.legal}

    def observe(self, agent: str) -> Observation:
        """The agent's information set now, and its action mask (all 0 off its turn)."""
        assert self.game is not None
        seat = self.possible_agents.index(agent)
        pending = self.game.pending
        mine = pending is not None and pending.seat == seat
        return {
            "observation": encode(
                request_state(self.game, seat),
                self.rules.players,
                pending.action if mine and pending is not None else None,
            ),
            "action_mask": action_mask(pending.legal if mine and pending is not None else None),
        }

    def step(self, action: int | None) -> None:
        """Play the selected agent's action (None once its episode has ended).

        Raises:
            ValueError: for an action its mask does not allow.
        """
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        game = self.game
        assert game is not None and game.pending is not None and action is not None
        move = move_of(int(action))
        if move not in game.pending.legal:
            raise ValueError(
                f"action {action} ({move}) is not legal now: the mask allows "
                f"{', '.join(game.pending.legal)}"
            )
        self._cumulative_rewards[agent] = 0.0
        game.apply(move)
        if game.pending is None:
            placements = game.placements
            assert placements is not None
            for seat, reward in enumerate(rewards(placements)):
                name = self.possible_agents[seat]
                self.rewards[name] = reward
                self.terminations[name] = True
                self.infos[name] = {"placement": placements[seat]}
            self._accumulate_rewards()
            self.agent_selection = self.agents[0]
        else:
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self._select()

    def render(self) -> str | None:
        """The game so far as the arena narrates it, every hand shown (``ansi`` returns
        it, ``human`` prints it)."""
        if self.render_mode is None or self.game is None:
            return None
        narrator = Narrator(list(self.possible_agents))
        text = "\n".join(line for record in self.game.log for line in narrator.lines(record))
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""
