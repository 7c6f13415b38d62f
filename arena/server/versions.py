"""What an owner does with their bot's versions: make an earlier one active again, or
withdraw the bot from the ladder (the contract: "the owner can re-activate an earlier
version or withdraw the bot"), or delete an old version's files to free room under
``stored_mb``. An organizer may do each for any bot.

Both only change statuses in the server's database; the ladder sees them at its
next round boundary (a version made active enters with the rating it had; one
retired leaves and stays on the leaderboard). Neither starts a test against the
previous version: a version made active again keeps the verdict it had. Its
reference match, if it ended without a verdict, plays on.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path
from typing import Any

from arena.bots.builds import remove_tree
from arena.server.errors import NotFound, NotYours, Refused
from arena.server.folder import ServerError
from arena.server.uploads import kept_folder, queued_folder, version_folder


def _may_change(user: Any, bot: Any) -> None:
    if not (user.is_staff or (bot.owner is not None and bot.owner.pk == user.pk)):
        raise NotYours(f"bot {bot.name!r} is not yours")


def activate(user: Any, version: Any) -> Any:
    """Make ``version`` (one that played before, now retired) its bot's active one, the
    active one retiring; the version.

    Raises:
        NotYours: another author's bot (403).
        Refused: a version already active, or one that never played (it failed, or
            is still on its way).
    """
    from django.db import transaction  # noqa: PLC0415

    from arena.server.organizer import lift_ladder_disable  # noqa: PLC0415
    from arena.server.verdicts import reopened  # noqa: PLC0415
    from arena.server.web.models import Version  # noqa: PLC0415

    _may_change(user, version.bot)
    if version.pk is None:  # a house bot's made-up version
        raise Refused(f"{version.name} is a house bot: it is always active")
    if version.status == "active":
        raise Refused(f"{version.name} is already active")
    if version.deleted is not None:
        raise Refused(f"{version.name}'s files are deleted: upload them again instead")
    if version.status != "retired":
        raise Refused(f"{version.name} is {version.status}: only a version that played before")
    with transaction.atomic():
        Version.objects.filter(bot=version.bot, status="active").update(status="retired")
        version.status = "active"
        version.reference = reopened(version.reference)  # an unfinished match plays on
        version.save(update_fields=["status", "reference"])
        lift_ladder_disable(version.bot)
    return version


def withdraw(user: Any, name: str) -> Any:
    """Take bot ``name`` (any case) out of the ladder: its active version retires (its
    rows stay on the leaderboard); the bot.

    Raises:
        NotFound: no such bot.
        NotYours: another author's bot (403).
    """
    from arena.server.web.models import Bot, Version  # noqa: PLC0415

    bot = Bot.objects.filter(key=name.lower()).select_related("owner").first()
    if bot is None:
        raise NotFound(f"no bot {name!r} here")
    _may_change(user, bot)
    if bot.owner is None:
        raise Refused(f"{bot.name} is a house bot: an organizer disables it instead")
    Version.objects.filter(bot=bot, status="active").update(status="retired")
    return bot


def delete_files(user: Any, version: Any) -> Any:
    """Delete the files of ``version`` (retired or failed), so that they no longer count
    against its author's ``stored_mb`` (the builder removes them within a second,
    :func:`sweep_deleted`); its games, ratings and build log stay. The version.

    Raises:
        NotYours: another author's bot (403).
        Refused: a house bot, the active version, or one still on its way.
    """
    from django.utils import timezone  # noqa: PLC0415

    from arena.server.web.models import Setting  # noqa: PLC0415

    _may_change(user, version.bot)
    if version.pk is None:
        raise Refused(f"{version.name} is a house bot: its files are the organizer's")
    if version.status not in ("retired", "failed"):
        raise Refused(
            f"{version.name} is {version.status}: only a retired or failed version's files "
            "can be deleted"
        )
    if version.deleted is None:
        version.deleted = timezone.now()
        version.stored = 0
        version.save(update_fields=["deleted", "stored"])
        Setting.objects.update_or_create(key=SWEEP, defaults={"value": "yes"})
    return version


#: The switch that asks the builder to remove deleted versions' files.
SWEEP = "sweep"


def sweep_deleted(folder: Path) -> int:
    """Remove the files of the versions deleted since the last sweep (the builder does it:
    they are root's where the server is, and the web app is not); how many folders."""
    from arena.server.web.models import Setting, Version  # noqa: PLC0415

    if not Setting.objects.filter(key=SWEEP, value="yes").update(value=""):
        return 0
    removed = 0
    for version in Version.objects.select_related("bot").filter(deleted__isnull=False):
        queued = queued_folder(folder, version.bot.key, version.number)
        if queued.is_dir() and not queued.is_symlink():  # one the builder never admitted
            shutil.rmtree(queued)  # by descriptor: a link inside is removed, not followed
            removed += 1
        if not version_folder(folder, version.bot.key, version.number).exists():
            continue
        try:
            home = kept_folder(folder, version.bot.key, version.number)
        except ServerError as error:
            print(f"arena serve: {error}", file=sys.stderr)
            continue
        remove_tree(home)
        removed += 1
    return removed
