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
  build is told ``GOPROXY=off``, so a missing module fails at once;
- ``npm`` and ``maven``: filled by building a copy of the TypeScript and
  Java kits once (npm's cache, a Maven repository); a build gets its own
  copy to write in (npm writes its cache even offline, and Maven 3.8 has
  no read-only repository), told to stay offline.

What a build needs that is not here fails in one line ("... is not
available offline here": :func:`arena.bots.builds.offline_reason`).
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import shutil
import subprocess
import tempfile
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


def planned(root: Path | None = None) -> dict[str, str]:
    """The caches this machine's toolchains build from, by toolchain (filled or not)."""
    root = root or packages_folder()
    kits = shipped("kits", "sample_bots")
    wanted = {
        "cargo": shutil.which("cargo") is not None and (kits / "rust" / "Cargo.lock").is_file(),
        "go": shutil.which("go") is not None,
        "npm": shutil.which("npm") is not None
        and (kits / "typescript" / "package-lock.json").is_file(),
        "maven": shutil.which("mvn") is not None and (kits / "java" / "pom.xml").is_file(),
    }
    return {name: str(root / name) for name, here in wanted.items() if here}


def fill(say: Callable[[str], None], root: Path | None = None) -> dict[str, str]:
    """Fill each cache whose toolchain is here (:func:`planned`); those caches.

    A cache that cannot be filled (no network, a registry down) is said in one
    line, and builds that need it fail offline, each saying so. Servers of the
    same machine fill one at a time (a lock): they share the caches.
    """
    root = root or packages_folder()
    kits = shipped("kits", "sample_bots")
    caches = planned(root)
    root.mkdir(parents=True, exist_ok=True)
    with open(root / ".fill.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if "cargo" in caches:
            home = Path(caches["cargo"])
            home.mkdir(exist_ok=True)
            manifest = kits / "rust" / "Cargo.toml"
            done = _run(
                [shutil.which("cargo") or "cargo", "fetch", "--locked", "--manifest-path",
                 str(manifest)],
                {"CARGO_HOME": str(home)},
            )  # fmt: skip
            if done:
                say(f"arena serve: the cargo cache could not be filled ({done}); Rust uploads "
                    "that need crates will fail to build")  # fmt: skip
        if "go" in caches:
            Path(caches["go"]).mkdir(exist_ok=True)
        if "npm" in caches:
            fetch = ["npm", "ci", "--no-audit", "--no-fund", "--ignore-scripts", "--cache",
                     caches["npm"]]  # fmt: skip
            parts = ("package.json", "package-lock.json")
            _fill_by_building(kits / "typescript", parts, Path(caches["npm"]), say, fetch)
        if "maven" in caches:
            fetch = ["mvn", "-B", "-q", "-DskipTests", f"-Dmaven.repo.local={caches['maven']}",
                     "package"]  # fmt: skip
            _fill_by_building(kits / "java", ("pom.xml", "src"), Path(caches["maven"]), say, fetch)
        # Public packages, read by builds under uids of their own (whatever the umask).
        hand_over(root, os.geteuid(), public=True)
    return caches


def _fill_by_building(
    kit: Path, parts: tuple[str, ...], cache: Path, say: Callable[[str], None], argv: list[str]
) -> None:
    """Fill ``cache`` by building a copy of ``kit`` (its ``parts``) with ``argv``, online:
    what the kit's build fetches is what an upload from it needs, plugins and all, which
    no resolver's "fetch the dependencies" step gets whole (Maven's go-offline misses
    plugins' own dependencies). Once per content of those parts (a stamp in the cache)."""
    digest = hashlib.sha256()
    for part in parts:
        source = kit / part
        for path in sorted([source, *source.rglob("*")] if source.is_dir() else [source]):
            if path.is_file():
                digest.update(f"{path.relative_to(kit)}\0".encode() + path.read_bytes())
    stamp = cache / f".filled-{digest.hexdigest()[:16]}"
    if stamp.is_file():
        return
    cache.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="arena-fill-") as scratch:
        for part in parts:
            source = kit / part
            if source.is_dir():
                shutil.copytree(source, Path(scratch, part))
            else:
                shutil.copy(source, Path(scratch, part))
        done = _run(argv, {}, cwd=scratch)
    if done:
        say(f"arena serve: the {cache.name} cache could not be filled ({done}); uploads "
            "that need its packages will fail to build")  # fmt: skip
        return
    stamp.touch()


def _run(argv: list[str], env: dict[str, str], cwd: str | None = None) -> str:
    """Run a fill; "" when it worked, else its last line."""
    try:
        done = subprocess.run(
            argv, env={**os.environ, **env}, capture_output=True, text=True,
            timeout=FILL_S, check=False, stdin=subprocess.DEVNULL, cwd=cwd,
        )  # fmt: skip
    except (OSError, subprocess.TimeoutExpired) as error:
        return str(error)
    if done.returncode == 0:
        return ""
    lines = (done.stderr or done.stdout).strip().splitlines()
    return lines[-1] if lines else f"exit status {done.returncode}"


#: The cache each language with packages builds from, offline.
CACHE_OF = {"Rust": "cargo", "TypeScript": "npm", "Java": "maven"}
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
    from a cache filled here (Rust, TypeScript, Java), else only with ``build_network``."""
    root = packages_folder()
    lines = []
    for language, program, packages in KIT_BUILDS:
        if program is not None and shutil.which(program) is None:
            lines.append(f"{language}: not here ({program} is not installed)")
        elif not packages or network:
            lines.append(f"{language}: yes")
        elif _filled(root / CACHE_OF[language]):
            kind = "crates" if language == "Rust" else "packages"
            lines.append(f"{language}: yes, offline, with the {kind} the {language} kit uses")
        else:
            lines.append(f"{language}: only what needs no package (builds are offline here)")
    return lines


def _filled(cache: Path) -> bool:
    """Whether a cache has been filled: cargo's has its registry; the others their stamp
    (:func:`_fill_by_building`)."""
    return (cache / "registry").is_dir() or any(cache.glob(".filled-*"))
