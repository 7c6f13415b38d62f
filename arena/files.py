"""Whether a file or folder can be made where a user asked, checked before the work.

A game or a tournament can take minutes; finding out afterwards that its
replay or results cannot be written loses that work. So commands check
their output paths first, without creating anything: a check that made the
folders would leave them behind when a later check refuses.
"""

from __future__ import annotations

import os
from pathlib import Path

from arena.errors import ArenaError


class PathError(ArenaError):
    """An output path that cannot be made."""


def check_makeable(path: Path, what: str, *, folder: bool) -> None:
    """Refuse ``path`` (a ``folder`` or a file) when it cannot be made or written.

    The nearest part of the path that exists must be a folder this process
    may write in (or, for an existing ``path``, the right kind of entry).

    ``what`` may name a setting (``"{replay}"``, :meth:`ArenaError.about`).

    Raises:
        PathError: naming ``what`` and the part of the path in the way.
    """

    def problem(text: str, **values: object) -> PathError:
        return PathError.about(what + " {path}" + text, path=path, **values)

    try:
        exists = path.exists()
    except OSError as error:  # a name too long, a loop of links
        raise problem(": {why}", why=error.strerror) from None
    if exists:
        if folder != path.is_dir():
            kind = "a file, not a folder" if folder else "a folder, not a file"
            raise problem(" is {kind}", kind=kind)
        if not os.access(path, os.W_OK | (os.X_OK if folder else 0)):
            raise problem(" is not writable")
        return
    existing = path.parent
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    if not existing.is_dir():
        raise problem(": {existing} is a file, not a folder", existing=existing)
    if not os.access(existing, os.W_OK | os.X_OK):
        raise problem(" cannot be made: {existing} is not writable", existing=existing)
