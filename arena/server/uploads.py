"""An upload becomes a version: unpacked and checked, named, put in place, then recorded.

The archive is unpacked into a scratch folder on the competition's own file
system (:func:`arena.server.archive.unpack` checks it while it unpacks) and
renamed into ``DIR/bots/KEY/NUMBER`` only when whole, then the version is
recorded: an upload is acknowledged only once its files are on disk, and a
crash between the two leaves a folder that the next upload of that number
replaces, never a version without its files. The same files uploaded again
give the version they made before.
"""

from __future__ import annotations

import os
import shutil
from datetime import timedelta
from pathlib import Path
from typing import IO, Any

from arena.bots.builds import tree_bytes
from arena.server.archive import UnpackLimits, check_manifest, content_digest, unpack
from arena.server.errors import Frozen, OverQuota, Taken, TooLarge

#: Where versions' files live in the competition's folder, and uploads are unpacked.
BOTS = "bots"
SCRATCH = "uploads"


def version_folder(folder: Path, key: str, number: int) -> Path:
    """Where a version's files are: ``DIR/bots/KEY/NUMBER``."""
    return folder / BOTS / key / str(number)


def register_house_bots(names: list[str]) -> None:
    """The organizer's house bots, known by name (no owner): no author may take one."""
    from arena.server.web.models import Bot  # noqa: PLC0415 - Django, set up by the caller

    for name in names:
        Bot.objects.get_or_create(key=name.lower(), defaults={"name": name, "owner": None})


def accept(user: Any, source: IO[bytes], folder: Path, server: dict[str, Any]) -> tuple[Any, bool]:
    """Make ``user``'s upload ``source`` a version; the version, and whether it is new.

    Raises:
        ArchiveRefused: a bad archive or bot.toml (400; TooLarge: 413).
        Taken: the name is another author's bot or a house bot (409).
        OverQuota: ``submissions_per_day`` or ``bots_per_author`` reached (429).
        TooLarge: the author's versions would hold more than ``stored_mb`` (413).
        Frozen: the competition is frozen for its final (403).
    """
    from django.db import transaction  # noqa: PLC0415
    from django.db.models import Max, Sum  # noqa: PLC0415
    from django.utils import timezone  # noqa: PLC0415

    from arena.server.organizer import frozen  # noqa: PLC0415
    from arena.server.web.models import Bot, Version  # noqa: PLC0415

    if frozen():
        raise Frozen("the competition is frozen for its final: no more uploads")
    scratch = folder / SCRATCH
    scratch.mkdir(exist_ok=True)
    unpacked = unpack(source, scratch, UnpackLimits.from_server(server))
    try:
        name = check_manifest(unpacked)
        digest = content_digest(unpacked)
        size = tree_bytes(unpacked)
        with transaction.atomic():
            bot = Bot.objects.filter(key=name.lower()).select_related("owner").first()
            if bot is not None and (bot.owner is None or bot.owner.pk != user.pk):
                whose = "a house bot" if bot.owner is None else "another author's bot"
                raise Taken(f"the name {name!r} is {whose}: choose another in bot.toml")
            if bot is not None:
                same = Version.objects.filter(bot=bot, digest=digest).first()
                if same is not None:
                    return same, False
            day = timezone.now() - timedelta(days=1)
            recent = Version.objects.filter(bot__owner=user, created__gte=day).count()
            if recent >= server["submissions_per_day"]:
                raise OverQuota(
                    f"{recent} uploads in the last 24 hours: the limit is "
                    f"{server['submissions_per_day']} a day; try again later"
                )
            held = Version.objects.filter(bot__owner=user).aggregate(total=Sum("stored"))
            _room(held["total"] or 0, size, server["stored_mb"])
            if bot is None:
                owned = Bot.objects.filter(owner=user).count()
                if owned >= server["bots_per_author"]:
                    raise OverQuota(
                        f"you have {owned} bot(s), the most an author may enter here: "
                        "upload a new version of yours instead"
                    )
                bot = Bot.objects.create(name=name, key=name.lower(), owner=user)
            versions = Version.objects.filter(bot=bot)
            number = (versions.aggregate(most=Max("number"))["most"] or 0) + 1
            target = version_folder(folder, bot.key, number)
            target.parent.mkdir(parents=True, exist_ok=True)
            if target.exists():  # left by a crash before its version was recorded
                shutil.rmtree(target)
            os.rename(unpacked, target)
            _sync(target.parent)
            version = Version.objects.create(bot=bot, number=number, digest=digest, stored=size)
            return version, True
    finally:
        if unpacked.exists():
            shutil.rmtree(unpacked)


def _room(held: int, size: int, stored_mb: int) -> None:
    """Refuse an upload of ``size`` bytes from an author whose versions hold ``held``,
    past ``stored_mb`` (their builds' outputs count: a build may write up to the limit).

    Raises:
        TooLarge: naming both and the limit.
    """
    if held + size > stored_mb * MB:
        raise TooLarge(
            f"your versions hold {held / MB:.1f} MB and this upload {size / MB:.1f} MB: an "
            f"author may store {stored_mb} MB here: delete an old version's files (POST "
            "/api/v1/versions/ID/delete, or its bot's page) to make room"
        )


#: Bytes in a megabyte, as the limits count them.
MB = 2**20


def _sync(folder: Path) -> None:
    """The rename into ``folder`` made durable before the version is recorded."""
    handle = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(handle)
    finally:
        os.close(handle)
