"""A bot's fingerprint: a hash of the files it runs.

A league knows a bot's versions by it (a changed bot is refused, or entered
anew as ``NAME@2``), a results folder refuses to resume with changed bots,
and a cluster's workers must run the same files as the coordinator.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterator
from pathlib import Path

from arena.bots.spec import BUILD_CACHES, BotSpec


def _folder_files(home: Path) -> Iterator[str]:
    """The files under ``home``, build caches not entered, at most 40 levels down."""
    for folder, subfolders, files in os.walk(home):
        subfolders[:] = [name for name in subfolders if name not in BUILD_CACHES]
        if len(Path(folder).parts) < 40:
            yield from (os.path.join(folder, name) for name in files)


def files_hash(spec: BotSpec) -> str:
    """A hash of the files a bot runs: its program, its file arguments, its folder's files
    (but for :data:`~arena.bots.spec.BUILD_CACHES`: made from the files hashed, they hold
    timestamps, incremental state and thousands of files; the program is hashed wherever
    it is)."""
    digest = hashlib.blake2b(digest_size=16)
    paths = [token for token in spec.argv if os.path.isfile(token)]
    if spec.home is not None:
        paths += sorted(_folder_files(spec.home))[:2000]
    for path in paths:
        digest.update(path.encode())
        try:
            digest.update(Path(path).read_bytes())
        except OSError:
            digest.update(b"unreadable")
    return digest.hexdigest()
