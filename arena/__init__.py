"""arena: a Knockout Whist bot arena.

The rules live in :mod:`arena.game` (pure, no IO); everything that talks to
the outside world (processes, files, the terminal) lives elsewhere.
"""

__version__ = "0.1.0"
