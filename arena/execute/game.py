"""One game between given seats: the bots' processes started for it, and let go after.

``arena play`` seats bots given on the command line and people; a worker
seats the bots it keeps alive across games; ``check-bot``, ``replay --ask``
and the Gymnasium environment seat a bot beside players of their own. All
play through :func:`play_one`, so a game's header says the same of its
sandbox however it was played.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from arena.bots.player import ProcessPlayer
from arena.bots.sandbox import Capabilities
from arena.bots.spec import BotSpec
from arena.game import Rules
from arena.game.decks import DeckSource
from arena.protocol import Limits
from arena.referee import GameResult, Player, play_game


def play_one(
    seats: Sequence[BotSpec | Player],
    rules: Rules,
    *,
    seed: int,
    game_id: str,
    limits: Limits,
    sandbox: Capabilities | None = None,
    log_dir: Path | None = None,
    resources: Mapping[str, int] | None = None,
    decks: DeckSource | None = None,
) -> GameResult:
    """Play one game, a seat each in order: a bot (its process is started here, confined
    in ``sandbox``, its stderr logged under ``log_dir``, and told bye at the end, however
    the game ends), or a player already made (a person, a bot kept alive by its caller).
    ``decks`` replaces the decks dealt from ``seed`` (``check-bot``'s hand-built positions).

    Never raises for a misbehaving bot (its seat faults); a KeyboardInterrupt ends the
    game unfinished, its bots' processes stopped.
    """
    started: list[ProcessPlayer] = []
    players: list[Player] = []
    for seat in seats:
        if isinstance(seat, BotSpec):
            seat = ProcessPlayer(
                seat, limits, log_dir=log_dir, sandbox=sandbox, resources=resources
            )
            started.append(seat)
        players.append(seat)
    try:
        return play_game(
            players,
            rules,
            seed=seed,
            game_id=game_id,
            limits=limits,
            header_extra={"sandbox": list(sandbox.layers) if sandbox is not None else []},
            decks=decks,
        )
    finally:
        for player in started:
            player.close()
