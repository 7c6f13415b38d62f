"""Arena's build: the hot modules compiled with mypyc where a C compiler exists.

Everything else is in ``pyproject.toml``. A compiled module is the same
source, type-checked and turned into C; where no compiler is found (or
``ARENA_PURE_PYTHON=1`` is set, or the build of one fails) the modules stay
pure Python and work the same, only slower. ``tests/test_skill.py`` checks
both builds.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

from setuptools import Extension, setup

#: The line that marks a module to compile (the Makefile finds them by it too).
MARK = "# arena: compiled with mypyc"
#: The modules on the coordinator's and the referee's hot paths.
COMPILED = sorted(
    str(path) for path in Path("arena").rglob("*.py") if MARK in path.read_text().splitlines()
)


def extensions() -> list[Extension]:
    """The compiled modules, each optional: a failed build falls back to the source."""
    if os.environ.get("ARENA_PURE_PYTHON"):
        print("arena: ARENA_PURE_PYTHON is set, no module is compiled", file=sys.stderr)
        return []
    if not (shutil.which(os.environ.get("CC", "cc")) or shutil.which("gcc")):
        print("arena: no C compiler found, the modules stay pure Python", file=sys.stderr)
        return []
    from mypyc.build import mypycify  # noqa: PLC0415 (a build requirement, needed only here)

    try:
        built = mypycify(COMPILED, opt_level="3")
    except (Exception, SystemExit) as error:  # mypyc refused a module: told, then pure Python
        print(
            f"arena: mypyc could not compile {', '.join(COMPILED)} ({error!r}); "
            "the modules stay pure Python",
            file=sys.stderr,
        )
        return []
    for extension in built:
        extension.optional = True
    return built


setup(ext_modules=extensions())
