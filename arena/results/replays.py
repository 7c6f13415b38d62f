"""Where a results folder keeps its replays, and how one is written whole."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from arena.referee import write_replay
from arena.results.store import Finished


def replay_path(game_id: str) -> str:
    """Where a game's replay goes, relative to the results folder."""
    return f"replays/{game_id}.jsonl"


def sweep_partials(folder: Path) -> None:
    """Remove the replays a worker killed mid-write left half written (no worker writes)."""
    for partial in (folder / "replays").glob(".*.partial"):
        partial.unlink(missing_ok=True)


def save_replay(folder: Path, finished: Finished, lines: Sequence[bytes]) -> None:
    """Write a game's replay under ``folder`` whole: to a temporary name, then renamed."""
    partial = folder / "replays" / f".{finished.ordinal}.{os.getpid()}.partial"
    write_replay(partial, lines)
    os.replace(partial, folder / finished.replay)
