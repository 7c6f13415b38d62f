"""A bot's stderr cut into the lines it wrote while deciding each move.

The bot's stderr is read (by its reader thread, and by the player right
after each reply, see :meth:`arena.bots.process.BotProcess.settle`) in
chunks kept here as well as in the bot's log file; the player clears what
came before it writes a request and takes what came until the reply. Lines
written just before the reply are in the pipe by the time the reply is
read, so reading the pipe to its end then finds them, with no waiting. The lines travel
in the replay's ``move`` record, so a game played on a Dask worker that
cannot see the results folder keeps them too.

Caps, so that a chatty bot costs bounded memory and replay space: a line
is kept to :data:`LINE_CHARS` characters, a game to :data:`GAME_CHARS`
characters of lines per bot (then one line says the rest was dropped); the
bot's whole stderr still goes to its log file, capped there as before.
"""

from __future__ import annotations

import threading

#: Characters of one stderr line kept with a move (the rest is cut, its size noted).
LINE_CHARS = 500
#: Characters of stderr lines kept per bot per game, all moves together.
GAME_CHARS = 32_000
#: A partial line (no newline yet) is kept up to this many bytes.
_PARTIAL_BYTES = 4 * LINE_CHARS


class MoveLog:
    """The stderr lines of one bot process since the last :meth:`take` (thread-safe)."""

    def __init__(self) -> None:
        #: Held while a chunk is read from the pipe and kept: whoever reads (the reader
        #: thread, or the player after a reply) reads and keeps at once.
        self.lock = threading.Lock()
        self._lines: list[str] = []
        self._partial = b""
        self._partial_size = 0
        self._kept = 0
        self._capped = False
        #: Whether anything came since the last take or clear.
        self.dirty = False

    def feed(self, chunk: bytes) -> None:
        """Take a chunk of stderr."""
        with self.lock:
            self._feed(chunk)

    def feed_locked(self, chunk: bytes) -> None:
        """Take a chunk of stderr, the caller holding :attr:`lock` (it read the chunk under
        it: see :class:`arena.bots.process.BotProcess`)."""
        self._feed(chunk)

    def _feed(self, chunk: bytes) -> None:
        """Keep a chunk's lines (called with the lock held)."""
        if chunk:
            parts = (self._partial + chunk).split(b"\n")
            if len(parts) > 1:
                # The unfinished line's bytes so far (its head is kept), then this chunk's.
                self._keep(parts[0], self._partial_size + len(parts[0]) - len(self._partial))
                for raw in parts[1:-1]:
                    self._keep(raw, len(raw))
                self._partial_size = 0
            self._partial_size += len(parts[-1]) - (len(self._partial) if len(parts) == 1 else 0)
            self._partial = parts[-1][:_PARTIAL_BYTES]
            self.dirty = True

    def new_game(self) -> None:
        """A new game: its own cap, nothing carried over."""
        with self.lock:
            self._lines = []
            self._partial = b""
            self._partial_size = 0
            self._kept = 0
            self._capped = False
            self.dirty = False

    def clear(self) -> None:
        """Forget the lines so far (written before a request: none of its move's)."""
        with self.lock:  # always: a chunk being read now must be waited for
            if self.dirty:
                self._lines = []
                self._partial = b""
                self._partial_size = 0
                self.dirty = False

    def take(self) -> list[str]:
        """The lines since the last take or clear (a partial line too), and forget them."""
        with self.lock:  # always: a chunk being read now must be waited for
            if not self.dirty:
                return []
            if self._partial:
                self._keep(self._partial, self._partial_size)
                self._partial = b""
                self._partial_size = 0
            lines = self._lines
            self._lines = []
            self.dirty = False
            return lines

    def _keep(self, raw: bytes, size: int) -> None:
        """Keep one line, within the caps (called with the lock held)."""
        if self._capped:
            return
        text = raw.decode("utf-8", "replace").rstrip("\r")
        if len(text) > LINE_CHARS or size > len(raw):
            text = f"{text[:LINE_CHARS]}... [{size} bytes]"
        if self._kept + len(text) > GAME_CHARS:
            self._lines.append(f"[arena: stderr lines kept with moves are capped at {GAME_CHARS} "
                               "characters a game; the rest is in the bot's log file]")  # fmt: skip
            self._capped = True
            return
        self._kept += len(text)
        self._lines.append(text)
