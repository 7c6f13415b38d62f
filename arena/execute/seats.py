"""A worker's seats: its bots' players, alive across games, and the games it plays with them."""

from __future__ import annotations

import time
from collections.abc import Callable, Collection, Mapping, Sequence
from pathlib import Path
from typing import Any, Protocol

from arena.bots.health import LIVE_BOTS
from arena.bots.player import ProcessPlayer
from arena.bots.sandbox import Capabilities
from arena.bots.spec import BotSpec
from arena.errors import BotFault, FaultKind
from arena.execute.base import Setup
from arena.execute.game import play_one
from arena.referee import GameResult, Player
from arena.results.games import ScheduledGame
from arena.results.replays import replay_path
from arena.results.store import Finished


class ClosablePlayer(Player, Protocol):
    """A player a worker keeps across games, and lets go with :meth:`close`."""

    def close(self) -> object:
        """Say bye (a process: end it)."""
        ...


#: Makes a bot's player (the seam that lets runner tests play in-process players).
PlayerFactory = Callable[[BotSpec], ClosablePlayer]


class Seats:
    """A worker's bot processes, alive across games, and the games it plays with them.

    At most :data:`LIVE_BOTS` processes are kept: starting one more first
    tells the least recently used bot (not at this game's table) bye. With a
    field of a thousand bots the machine so runs at most ``LIVE_BOTS`` bot
    processes per worker, whatever the field.

    An isolated event (:attr:`Setup.isolated`) keeps a process per bot and seat
    rotation: a process that played rotation 0 of a deal set never plays its
    rotation 1, so no bot process can remember the hands it is dealt again.
    That costs up to ``players`` processes of a bot where one served.
    """

    def __init__(
        self,
        setup: Setup,
        *,
        log_dir: Path | None,
        sandbox: Capabilities | None,
        live: int | None = None,
        make: PlayerFactory | None = None,
    ) -> None:
        self.setup = setup
        #: How a bot's player is made (default: its process, sandboxed as ``sandbox``).
        self.make = make or self._process
        self.log_dir = log_dir
        self.sandbox = sandbox
        self.live = live or LIVE_BOTS
        self.specs = {spec.name: spec for spec in setup.bots}
        #: Live players by bot and rotation (always 0 unless isolated), least recently
        #: used first.
        self.players: dict[tuple[str, int], ClosablePlayer] = {}
        #: Bot processes made (each one started at its first game).
        self.started = 0

    def player(
        self,
        name: str,
        disabled: Mapping[str, str],
        table: Collection[str] = (),
        rotation: int = 0,
    ) -> Player:
        """The seat of bot ``name``: its live process (for ``rotation`` when the event is
        isolated), started when first needed.

        ``table``: the bots of the game being seated, whose processes are never
        the ones closed to make room.
        """
        if name in disabled:
            return Forfeit(name, disabled[name])
        key = (name, rotation if self.setup.isolated else 0)
        player = self.players.pop(key, None)
        if player is None:
            idle = [other for other in self.players if other[0] not in table]
            for other in idle[: max(0, len(self.players) + 1 - self.live)]:
                self.players.pop(other).close()
            player = self.make(self.specs[name])
            self.started += 1
        self.players[key] = player  # now the most recently used
        return player

    def learn(self, specs: Sequence[BotSpec]) -> None:
        """Take bots that entered the field after this worker started (a later spec of a
        name wins)."""
        for spec in specs:
            self.specs[spec.name] = spec

    def _process(self, spec: BotSpec) -> ClosablePlayer:
        """A bot's process, started at its first message."""
        return ProcessPlayer(
            spec,
            self.setup.limits,
            log_dir=self.log_dir,
            sandbox=self.sandbox,
            resources=self.setup.resources,
        )

    def play(self, game: ScheduledGame, disabled: Mapping[str, str]) -> tuple[Finished, GameResult]:
        """Play ``game``: what the store is told of it, and the whole result (for its replay)."""
        started = self.started
        players = [self.player(name, disabled, game.seats, game.rotation) for name in game.seats]
        start = time.monotonic()
        result = play_one(
            players,
            self.setup.rules,
            seed=game.seed,
            game_id=game.sent_id or game.game_id,
            limits=self.setup.limits,
            sandbox=self.sandbox,
        )
        duration_ms = (time.monotonic() - start) * 1000.0
        finished = Finished.of(
            game.ordinal,
            result,
            duration_ms,
            replay_path(game.game_id),
            starts=self.started - started,
        )
        return finished, result

    def close(self) -> None:
        """Say bye to every bot."""
        while self.players:
            self.players.popitem()[1].close()


class Forfeit:
    """The seat of a disabled bot: it faults at once, and is played on by the fallback."""

    def __init__(self, name: str, reason: str) -> None:
        self.name = name
        self.description = f"disabled: {reason}"
        self.reason = reason

    def start_game(self, message: dict[str, Any], line: bytes) -> None:
        raise BotFault(FaultKind.CRASH, f"disabled: {self.reason}")

    def deliver(self, message: dict[str, Any], line: bytes) -> None:
        """Nothing reaches a disabled bot."""

    def request(self, message: dict[str, Any], line: bytes, timeout_s: float) -> tuple[str, float]:
        raise BotFault(FaultKind.CRASH, f"disabled: {self.reason}")

    def end_game(self) -> None:
        """Nothing to end."""

    def abandon(self, error_line: bytes | None) -> None:
        """Nothing to stop."""
