"""arena: a Knockout Whist bot arena.

The rules live in :mod:`arena.game` (pure, no IO); everything that talks to
the outside world (processes, files, the terminal) lives elsewhere.
"""

from pathlib import Path

__version__ = "0.1.0"


def shipped(packaged: str, checkout: str) -> Path:
    """A folder of data the package needs: ``arena/<packaged>`` in an install from a wheel
    (setup.py copies it there), else ``<checkout>`` in the checkout beside the package (an
    editable install, the tests)."""
    here = Path(__file__).resolve().parent
    inside = here / packaged
    return inside if inside.is_dir() else here.parent / checkout
