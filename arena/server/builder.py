"""The builder: each queued version built, checked, then made active (one at a time).

A version goes ``queued`` -> ``building`` (its ``bot.toml``'s build, as any
bot folder's: :func:`arena.bots.builds.build_bot`, its log kept in
``DIR/logs/builds/VERSION.log``) -> ``checking`` (``arena check-bot``'s
checks, the bot sandboxed as in every game) -> ``active``, when the owner's
version before it retires; or ``failed`` with the first problem in one line
(the previous version plays on). A build or a check cut by a stop or a
crash (``building``, ``checking`` at start) is queued again: it runs again
from the start, as its records were never written.

Not yet (issue 42's next steps): builds in the sandbox under a bot's uid,
offline with the kits' package caches, and the self-play game.
"""

from __future__ import annotations

import shutil
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

from arena.bots.builds import BuildFailed, build_bot
from arena.bots.spec import parse_bot
from arena.checkbot import check_bot
from arena.errors import ArenaError
from arena.protocol import Limits
from arena.server.uploads import version_folder

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


def work_once(folder: Path, limits: Limits) -> bool:
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
    home = version_folder(folder, version.bot.key, version.number)
    log = build_log(folder, name)
    try:
        # BOT@N is a league's name for a later version, which a BOT argument cannot give.
        spec = replace(parse_bot(f"{version.bot.name}={home}"), name=name)
        try:
            built = build_bot(spec)
        except BuildFailed as failure:
            _keep_log(failure.log, log)
            raise
        if built is not None:
            _keep_log(built.log, log)
        _set(version, "checking")
        failed = next(
            (check for check in check_bot(spec, limits, games=CHECK_GAMES) if not check.passed),
            None,
        )
    except BuildFailed as failure:
        _set(version, "failed", f"the build failed: {failure.reason}")
        return True
    except ArenaError as error:  # a bot.toml this arena cannot run (a program not there)
        _set(version, "failed", f"the bot cannot run: {error}")
        return True
    if failed is not None:
        _set(version, "failed", f"check {failed.name!r} failed: {failed.detail}".rstrip(": "))
        return True
    with transaction.atomic():
        Version.objects.filter(bot=version.bot, status="active").update(status="retired")
        _set(version, "active")
    return True


def _keep_log(source: Path | None, log: Path) -> None:
    """The build's log (kept with arena's build record), copied where the server keeps it."""
    if source is not None and source.is_file():
        log.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, log)


def run(folder: Path, limits: Limits) -> None:
    """Build queued versions one at a time, until a stop (a KeyboardInterrupt: the build
    or check it cuts is queued again at the next start)."""
    requeue_cut()
    while True:
        if not work_once(folder, limits):
            time.sleep(IDLE_S)
