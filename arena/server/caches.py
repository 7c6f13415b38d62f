"""The package caches uploads build from: filled when the builder starts, read-only to builds.

An upload is built without the network (``build_network`` false, the
default), so what its build downloads must be here before: the builder
fills a cache per toolchain from the kits' lock files when it starts (as
the server's user, with the network: the kits are the organizer's code),
and a jailed build sees it read-only (:class:`arena.bots.builds.BuildJail`).
Caches of public packages hold nothing secret, so they live in the user's
cache folder, shared by every competition of this machine, and a restart
finds them full (a fetch of what is there takes a second).

- ``cargo``: the Rust kit's ``Cargo.lock``, fetched into a ``CARGO_HOME``
  whose ``registry`` a build's own ``CARGO_HOME`` links to;
- ``go``: modules come from ``GOMODCACHE``; the Go kit needs none, and a
  build is told ``GOPROXY=off``, so a missing module fails at once.

What a build needs that is not here fails in one line ("... is not
available offline here": :func:`arena.bots.builds.offline_reason`).
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import platformdirs

from arena import shipped
from arena.bots.builds import hand_over

#: Seconds a cache's fill may take (the first one downloads every crate of the kit).
FILL_S = 600


def packages_folder() -> Path:
    """Where the caches live: the user's cache folder's ``arena/packages`` (not the
    competition's: public packages, shared by every competition here)."""
    return Path(platformdirs.user_cache_dir("arena")) / "packages"


def fill(say: Callable[[str], None], root: Path | None = None) -> dict[str, str]:
    """Fill each cache whose toolchain is here; the caches filled, by toolchain.

    A cache that cannot be filled (no network, a registry down) is said in one
    line, and builds that need it fail offline, each saying so.
    """
    root = root or packages_folder()
    kits = shipped("kits", "sample_bots")
    filled: dict[str, str] = {}
    cargo = shutil.which("cargo")
    lock = kits / "rust" / "Cargo.lock"
    if cargo is not None and lock.is_file():
        home = root / "cargo"
        home.mkdir(parents=True, exist_ok=True)
        done = _run(
            [cargo, "fetch", "--locked", "--manifest-path", str(lock.with_name("Cargo.toml"))],
            {"CARGO_HOME": str(home)},
        )
        if done:
            say(f"arena serve: the cargo cache could not be filled ({done}); Rust uploads "
                "that need crates will fail to build")  # fmt: skip
        filled["cargo"] = str(home)
    if shutil.which("go") is not None:
        modules = root / "go"
        modules.mkdir(parents=True, exist_ok=True)
        filled["go"] = str(modules)
    # Public packages, read by builds under uids of their own (whatever the umask).
    hand_over(root, os.geteuid(), public=True)
    return filled


def _run(argv: list[str], env: dict[str, str]) -> str:
    """Run a fill; "" when it worked, else its last line."""
    try:
        done = subprocess.run(
            argv, env={**os.environ, **env}, capture_output=True, text=True,
            timeout=FILL_S, check=False, stdin=subprocess.DEVNULL,
        )  # fmt: skip
    except (OSError, subprocess.TimeoutExpired) as error:
        return str(error)
    if done.returncode == 0:
        return ""
    lines = (done.stderr or done.stdout).strip().splitlines()
    return lines[-1] if lines else f"exit status {done.returncode}"


#: Each kit's language, the program its build needs, and whether it needs packages.
KIT_BUILDS = (
    ("Python", None, False),
    ("C", "make", False),
    ("C++", "cmake", False),
    ("Go", "go", False),
    ("Rust", "cargo", True),
    ("TypeScript", "npm", True),
    ("Java", "mvn", True),
)


def languages(network: bool) -> list[str]:
    """What this server builds, one line per kit language, for the submit page: a kit
    whose toolchain is missing cannot build; one that needs packages builds offline only
    from a cache filled here (Rust), else only with ``build_network``."""
    root = packages_folder()
    lines = []
    for language, program, packages in KIT_BUILDS:
        if program is not None and shutil.which(program) is None:
            lines.append(f"{language}: not here ({program} is not installed)")
        elif not packages or network:
            lines.append(f"{language}: yes")
        elif language == "Rust" and (root / "cargo" / "registry").is_dir():
            lines.append(f"{language}: yes, offline, with the crates the Rust kit uses")
        else:
            lines.append(f"{language}: only what needs no package (builds are offline here)")
    return lines
