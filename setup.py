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
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

#: The line that marks a module to compile (the Makefile finds them by it too).
MARK = "# arena: compiled with mypyc"
#: The modules on the coordinator's and the referee's hot paths.
COMPILED = sorted(
    str(path) for path in Path("arena").rglob("*.py") if MARK in path.read_text().splitlines()
)


def extensions() -> list[Extension]:
    """The compiled modules, each optional: a failed build falls back to the source."""
    built: list[Extension] = []
    if os.environ.get("ARENA_PURE_PYTHON"):
        why = "ARENA_PURE_PYTHON is set"
    elif not (shutil.which(os.environ.get("CC", "cc")) or shutil.which("gcc")):
        why = "no C compiler was found"
    else:
        from mypyc.build import mypycify  # noqa: PLC0415 (a build requirement, needed only here)

        try:
            # separate: each module gets a library of its own beside it (state__mypyc). One
            # library for all would sit at the top level, where an editable install does not
            # look, or (named into the package) give the modules it loads a wrong __file__.
            # --follow-imports=silent: the modules they import are read for their types but
            # not checked here, where the build's isolated environment lacks their own
            # imports (orjson, click, ...); `make lint` checks every module, strictly.
            built = mypycify(["--follow-imports=silent", *COMPILED], opt_level="3", separate=True)
            why = ""
        except (Exception, SystemExit) as error:  # mypyc refused a module: told, then pure Python
            why = f"mypyc could not compile {', '.join(COMPILED)} ({error!r})"
    if why:
        print(f"arena: {why}; the modules stay pure Python", file=sys.stderr)
    for extension in built:
        extension.optional = True
    return built


#: What a checkout keeps beside the package and an install needs inside it: the protocol's
#: schemas (every reply is checked against them) and the starter kits (``arena new-bot``).
BESIDE = {
    "protocol/schemas": "arena/schemas",
    **{
        f"sample_bots/{kit}": f"arena/kits/{kit}"
        for kit in ("agent", "cpp", "go", "java", "python", "rust", "typescript")
    },
}
#: Build outputs and caches a kit may hold in a checkout (arena.bots.spec.BUILD_CACHES; a
#: test keeps the two equal: the build cannot import arena).
BUILD_CACHES = ("target", "node_modules", "build", "dist", "bin", "__pycache__", ".git", ".gradle")


class BuildWithData(build_py):
    """The package as built for a wheel, with :data:`BESIDE` copied in (build outputs left out).

    An editable install reads them where they are, so it copies nothing.
    """

    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return
        for source, target in BESIDE.items():
            shutil.copytree(
                source,
                Path(self.build_lib) / target,
                ignore=shutil.ignore_patterns(*BUILD_CACHES),
                dirs_exist_ok=True,
            )


class ParallelBuildExt(build_ext):
    """The compiled modules built side by side, one per CPU: each is a C compile of its own,
    and on a fresh machine they are most of the install's time."""

    def finalize_options(self) -> None:
        super().finalize_options()
        if not self.parallel:
            self.parallel = os.cpu_count() or 1


setup(
    ext_modules=extensions(),
    cmdclass={"build_py": BuildWithData, "build_ext": ParallelBuildExt},
)
