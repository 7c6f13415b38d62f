"""Where a results folder keeps its replays, and how one is written whole."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from arena.errors import ArenaError
from arena.referee import write_replay
from arena.results.store import Finished

#: The results folder's subfolder of replays.
REPLAYS = "replays"


class ReplayNotFound(ArenaError):
    """No replay where one was asked for, or no one replay."""


def replay_name(game_id: str) -> str:
    """A game's replay's file name."""
    return f"{game_id}.jsonl"


def replay_path(game_id: str) -> str:
    """Where a game's replay goes, relative to the results folder."""
    return f"{REPLAYS}/{replay_name(game_id)}"


def find_replay(path: Path, game_id: str | None) -> Path:
    """The replay ``path`` names: the file itself, or in a folder (a results folder, its
    replays folder, any folder of replays) game ``game_id``'s, or its only replay.

    Raises:
        ReplayNotFound: for no such game, no replay, or several and no ``game_id``.
    """
    if path.is_file():
        return path
    folder = path / REPLAYS if (path / REPLAYS).is_dir() else path
    if game_id is not None:
        wanted = folder / replay_name(game_id)
        if not wanted.is_file():
            raise ReplayNotFound(f"no replay of game {game_id!r} in {folder}")
        return wanted
    files = sorted(folder.glob("*.jsonl"))
    if len(files) == 1:
        return files[0]
    if not files:
        raise ReplayNotFound(f"no replay (.jsonl) in {folder}")
    raise ReplayNotFound.about(
        "{folder} holds {n} replays: choose one with {game}, e.g. {game} {first}",
        folder=folder,
        n=len(files),
        first=files[0].stem,
    )


def sweep_partials(folder: Path) -> None:
    """Remove the replays a worker killed mid-write left half written (no worker writes)."""
    for partial in (folder / REPLAYS).glob(".*.partial"):
        partial.unlink(missing_ok=True)


def save_replay(folder: Path, finished: Finished, lines: Sequence[bytes]) -> None:
    """Write a game's replay under ``folder`` whole: to a temporary name, then renamed."""
    partial = folder / REPLAYS / f".{finished.ordinal}.{os.getpid()}.partial"
    write_replay(partial, lines)
    os.replace(partial, folder / finished.replay)
