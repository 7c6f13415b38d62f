"""Executors' parts that play one game: bots started for it are let go however it ends."""

from __future__ import annotations

import json
from pathlib import Path

from arena.bots import process
from arena.bots.spec import BotSpec, parse_bot
from arena.execute.game import play_one
from arena.game import Rules
from arena.players import RandomPlayer
from arena.protocol import Limits
from arena.referee import Player

ROOT = Path(__file__).resolve().parent.parent
C_BOT = ROOT / "sample_bots/c/random_bot"


def test_play_one_starts_the_bots_it_is_given_and_lets_them_go(tmp_path: Path) -> None:
    seats: list[BotSpec | Player] = [
        parse_bot(f"c={C_BOT}"),
        RandomPlayer("r1"),
        RandomPlayer("r2"),
    ]
    result = play_one(
        seats, Rules(players=3), seed=5, game_id="g-5", limits=Limits(), log_dir=tmp_path
    )
    assert result.names == ("c", "r1", "r2") and not result.faults
    assert json.loads(result.lines[0])["sandbox"] == []
    assert not process.LIVE, "the bot's process is gone once the game is over"
    again = play_one(seats, Rules(players=3), seed=5, game_id="g-5", limits=Limits())
    assert moves(again.lines) == moves(result.lines), "the same seed and bots, the same game"


def moves(lines: list[bytes]) -> list[tuple[int, str]]:
    """A replay's moves: who played what (the milliseconds they took differ)."""
    records = (json.loads(line) for line in lines)
    return [(r["seat"], r["move"]) for r in records if r["type"] == "move"]
