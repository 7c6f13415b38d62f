"""The builder: each queued version built, checked, then made active (one at a time).

A version goes ``queued`` -> ``building`` (its ``bot.toml``'s build, as any
bot folder's: :func:`arena.bots.builds.build_bot`, its log kept in
``DIR/logs/builds/VERSION.log``) -> ``checking`` (``arena check-bot``'s
checks, then one self-play duplicate game) -> ``active``, when the owner's
version before it retires; or ``failed`` with the first problem in one line
(the previous version plays on).

The self-play game is Kaggle's validation episode: one deal set in every
seat rotation, every seat a process of the new version, played as the
ladder plays (the competition's rules, time and resource limits, sandbox):
``check-bot`` tries a standard set of rules with one process under default
limits, and a bot that passes it can still fail at this competition's table
(a memory limit, seven seats, an option combination). A build or a check cut by a stop or a
crash (``building``, ``checking`` at start) is queued again: it runs again
from the start, as its records were never written.

An upload's build is a stranger's code: it runs jailed
(:class:`arena.bots.builds.BuildJail`: the bots' sandbox, writing only its
folder, no network unless ``build_network``, the server's build limits),
from the package caches the builder fills when it starts
(:mod:`arena.server.caches`). Run as root, it runs under a uid of its own
(:func:`arena.bots.builds.hand_over`), as every bot process does.
"""

from __future__ import annotations

import errno
import hashlib
import shutil
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from arena.bots.builds import BuildFailed, BuildJail, build_bot, tree_bytes
from arena.bots.sandbox import Capabilities
from arena.bots.spec import BotSpec
from arena.checkbot import check_bot
from arena.errors import ArenaError
from arena.execute.game import play_one
from arena.game import Rules
from arena.protocol import Limits
from arena.server.ladder import Resources, as_bot, game_settings
from arena.server.organizer import closed, lift_ladder_disable
from arena.server.room import ROOM_MB, disk_full, free_mb, wait_for_room
from arena.server.uploads import admit, version_folder
from arena.server.verdicts import running_verdict
from arena.server.versions import sweep_deleted

#: Where each version's build log is kept.
BUILD_LOGS = Path("logs") / "builds"
#: Games of the endurance check (check-bot's default is 20: a server checks many versions).
CHECK_GAMES = 5
#: How often an idle builder looks for queued versions.
IDLE_S = 1.0


def build_log(folder: Path, version: str) -> Path:
    """Where ``version``'s build log is (it may not exist: no build, or not yet)."""
    return folder / BUILD_LOGS / f"{version}.log"


def requeue_cut() -> int:
    """Queue again every version a stop cut while building or checking; how many."""
    from arena.server.web.models import Version  # noqa: PLC0415 - Django, set up by the caller

    return Version.objects.filter(status__in=("building", "checking")).update(status="queued")


def _set(version: Any, status: str, reason: str = "") -> None:
    version.status, version.reason = status, reason
    version.save(update_fields=["status", "reason"])


@dataclass(frozen=True)
class Table:
    """How the competition's games are played (the self-play game plays so)."""

    rules: Rules
    limits: Limits
    resources: Resources
    sandbox: Capabilities | None
    #: How an upload is built (None: as the server's user, unconfined).
    jail: BuildJail | None = None
    #: Whether each new version is tested against the one it replaces (match_share > 0).
    tests: bool = True
    #: Waits until the package caches are filled (a build needs them; a check does not).
    filled: Callable[[], None] | None = None
    #: The house bot each new version then plays a paired match against to be ranked.
    reference: str | None = None

    @classmethod
    def of(
        cls,
        event: dict[str, Any],
        server: dict[str, Any],
        caches: dict[str, str] | None = None,
        filled: Callable[[], None] | None = None,
    ) -> Table:
        """The table of the competition whose tournament keys are ``event`` and whose
        ``[server]`` table is ``server`` (its build limits); uploads build from the
        package ``caches`` (:mod:`arena.server.caches`).

        Raises:
            ArenaError: for bad rules or limits, or a sandbox this machine lacks.
        """
        rules, running = game_settings(event)
        sandbox = running.sandbox.capabilities()
        jail = None
        if sandbox is not None:
            jail = BuildJail(
                sandbox,
                seconds=server["build_s"],
                memory_mb=server["build_memory_mb"],
                disk_mb=server["stored_mb"],
                network=server["build_network"],
                caches=tuple(sorted((caches or {}).items())),
            )
        tests = server["match_share"] > 0
        return cls(
            rules, running.limits, running.resources, sandbox, jail, tests, filled,
            reference=server["reference_bot"],
        )  # fmt: skip


def self_play(spec: BotSpec, table: Table, key: str) -> str:
    """Play one deal set in every seat rotation, each seat a fresh process of ``spec``
    (named ``NAME``, ``NAME~2``...); the first fault as one line, or "" for none. ``key``
    (the version's digest) makes the deals and the game ids, which say nothing."""
    seats = [
        spec,
        *(replace(spec, name=f"{spec.name}~{n}") for n in range(2, table.rules.players + 1)),
    ]
    seed = int.from_bytes(hashlib.blake2b(f"{key}/self-play".encode(), digest_size=6).digest())
    for rotation in range(table.rules.players):
        game_id = "g" + hashlib.blake2b(f"{key}/{rotation}".encode(), digest_size=12).hexdigest()
        seated = seats[rotation:] + seats[:rotation]
        result = play_one(
            seated,
            table.rules,
            seed=seed,
            game_id=game_id,
            limits=table.limits,
            sandbox=table.sandbox,
            resources=dict(table.resources),
        )
        for seat, fault in sorted(result.faults.items()):
            return f"seat {seat}: {fault.kind.value}: {fault.detail}"
    return ""


def work_once(folder: Path, table: Table) -> bool:
    """Build and check the oldest queued version, if any; whether there was one."""
    from django.db import transaction  # noqa: PLC0415

    from arena.server.web.models import Version  # noqa: PLC0415

    with transaction.atomic():
        version = (
            Version.objects.select_related("bot")
            .filter(status="queued")
            .order_by("created", "pk")
            .first()
        )
        if version is None:
            return False
        _set(version, "building")
    name = version.name
    log = build_log(folder, name)
    try:
        admit(folder, version.bot.key, version.number)  # into root's folder, as root's files
        spec = as_bot(folder, version, table.resources)
        if spec.build is not None and table.filled is not None:
            table.filled()
        try:
            built = build_bot(spec, jail=_room_left(table.jail, version))
        except BuildFailed as failure:
            _keep_log(failure.log, log)
            raise
        finally:  # what the build wrote counts against its author's stored_mb
            version.stored = tree_bytes(version_folder(folder, version.bot.key, version.number))
            version.save(update_fields=["stored"])
        if built is not None:
            _keep_log(built.log, log)
        _set(version, "checking")
        failed = next(
            (
                check
                for check in check_bot(spec, table.limits, games=CHECK_GAMES, sandbox=table.sandbox)
                if not check.passed
            ),
            None,
        )
        played = "" if failed is not None else self_play(spec, table, version.digest)
    except BuildFailed as failure:
        if free_mb(folder) < ROOM_MB and version.pk not in _CUT_BY_FULL_DISK:
            # Not the author's fault, the first time: built again once there is room. A
            # second time, its own writes may be what fills the disk: it fails.
            _CUT_BY_FULL_DISK.add(version.pk)
            raise OSError(errno.ENOSPC, f"{name}'s build found the disk full") from failure
        _set(version, "failed", f"the build failed: {failure.reason}")
        return True
    except ArenaError as error:  # a bot.toml this arena cannot run (a program not there)
        _set(version, "failed", f"the bot cannot run: {error}")
        return True
    if failed is not None:
        _set(version, "failed", f"check {failed.name!r} failed: {failed.detail}".rstrip(": "))
        return True
    if played:
        _set(version, "failed", f"the self-play game failed: {played}")
        return True
    with transaction.atomic():
        previous = Version.objects.filter(bot=version.bot, status="active").first()
        Version.objects.filter(bot=version.bot, status="active").update(status="retired")
        if previous is not None and table.tests:  # its test against the one it replaces
            version.against = previous
            version.verdict = running_verdict(previous.name)
            version.save(update_fields=["against", "verdict"])
        if table.reference is not None:  # its paired match to be ranked
            version.reference = running_verdict(table.reference)
            version.save(update_fields=["reference"])
        version.sandbox = "" if table.sandbox is None else ", ".join(table.sandbox.layers)
        version.save(update_fields=["sandbox"])
        _set(version, "active")
        lift_ladder_disable(version.bot)
    return True


def _room_left(jail: BuildJail | None, version: Any) -> BuildJail | None:
    """``jail`` with its disk cap lowered to what the version's author may still store
    (``stored_mb``, the jail's cap, less their other versions' files), so that no build
    takes its author past ``stored_mb``: an upload is let in by its own size, and its
    build may write more."""
    from django.db.models import Sum  # noqa: PLC0415

    from arena.server.web.models import Version  # noqa: PLC0415

    if jail is None or version.bot.owner_id is None:
        return jail
    others = (
        Version.objects.filter(bot__owner_id=version.bot.owner_id)
        .exclude(pk=version.pk)
        .aggregate(total=Sum("stored"))["total"]
        or 0
    )
    room = max(0, jail.disk_mb * 2**20 - others)
    why = f"what its author may still store (stored_mb = {jail.disk_mb}, less their versions)"
    return replace(jail, room=room, room_why=why)


#: Versions whose build a full disk cut once (in this builder's life).
_CUT_BY_FULL_DISK: set[int] = set()


def _keep_log(source: Path | None, log: Path) -> None:
    """The build's log (kept with arena's build record), copied where the server keeps it."""
    if source is not None and source.is_file():
        log.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, log)


def run(folder: Path, table: Table) -> None:
    """Build queued versions one at a time, until a stop (a KeyboardInterrupt: the build
    or check it cuts is queued again at the next start). A full disk is waited out
    (:mod:`arena.server.room`), the build it cut queued again."""
    requeue_cut()
    while True:
        try:
            sweep_deleted(folder)
            worked = not closed() and work_once(folder, table)  # a closed season builds nothing
        except Exception as error:
            if not disk_full(error):
                raise
            wait_for_room(folder, "builder", lambda line: print(line, file=sys.stderr))
            requeue_cut()  # the build or check it cut runs again, from its start
            continue
        if not worked:
            time.sleep(IDLE_S)
