"""An upload becomes a version: unpacked and checked, named, put in place, then recorded.

The archive is unpacked into a scratch folder on the competition's own file
system (:func:`arena.server.archive.unpack` checks it while it unpacks) and
renamed into ``DIR/queued/KEY/NUMBER`` only when whole, then the version is
recorded: an upload is acknowledged only once its files are on disk, and a
crash between the two leaves a folder that the next upload of that number
replaces, never a version without its files. The same files uploaded again
give the version they made before.

The builder then copies the version into ``DIR/bots/KEY/NUMBER``
(:func:`admit`), where only root's children write when the server runs as
root: the web app, which runs as a user of its own there
(:mod:`arena.server.webuser`), writes only ``uploads`` and ``queued``, so
nothing it could plant (a link, a folder swapped mid-build) is ever where
the builder builds, changes modes or removes files by name.
"""

from __future__ import annotations

import os
import shutil
import stat
from datetime import timedelta
from pathlib import Path
from typing import IO, Any

from arena.bots.builds import tree_bytes
from arena.server.archive import UnpackLimits, check_manifest, content_digest, unpack
from arena.server.errors import Frozen, OverQuota, Taken, TooLarge
from arena.server.folder import ServerError

#: Where versions' files live in the competition's folder once the builder has them.
BOTS = "bots"
#: Where uploads are received and unpacked (thrown away at each start).
SCRATCH = "uploads"
#: Where a version's files wait, as the web app left them, for the builder to copy them.
QUEUED = "queued"


def version_folder(folder: Path, key: str, number: int) -> Path:
    """Where a version's files are: ``DIR/bots/KEY/NUMBER``."""
    return folder / BOTS / key / str(number)


def queued_folder(folder: Path, key: str, number: int) -> Path:
    """Where a version's files wait for the builder: ``DIR/queued/KEY/NUMBER``."""
    return folder / QUEUED / key / str(number)


def files_of(folder: Path, key: str, number: int) -> Path:
    """Where a version's files are now: in ``bots`` once admitted, else still queued."""
    home = version_folder(folder, key, number)
    return home if home.exists() else queued_folder(folder, key, number)


def kept_folder(folder: Path, key: str, number: int) -> Path:
    """A version's folder, checked to be a folder in its place: neither it nor its bot's
    folder a link (one there, left by a hand or a restore, would lead the root
    children's builds, ``chmod`` and ``rm`` elsewhere).

    Raises:
        ServerError: naming what is not a folder.
    """
    home = version_folder(folder, key, number)
    for path in (home.parent, home):
        if path.is_symlink() or not path.is_dir():
            raise ServerError(f"{path} is not a folder of its own: left as it is")
    return home


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

    from arena.server.organizer import closed, frozen  # noqa: PLC0415
    from arena.server.web.models import Bot, Version  # noqa: PLC0415

    if closed():
        raise Frozen("the season is closed: no more uploads")
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
            target = queued_folder(folder, bot.key, number)
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


def admit(folder: Path, key: str, number: int) -> Path:
    """The version's folder in ``DIR/bots``, copied there from ``DIR/queued`` by this
    process (the builder) while a queued copy is there, which is removed after.

    Only folders and regular files are copied, each opened without following a link
    (the web app made them, and could swap one for a link while they are copied), with
    their modes less any write but the owner's and any setuid bit, into a folder made
    here and renamed into place when whole. The queued copy wins over a folder already
    in ``bots``: that is one a crash left before the queued copy was removed (the
    build had not begun), or one a restore of an older database left behind.

    Raises:
        ServerError: neither copy is there, or the queued one holds a link or a device,
            or nests deeper than :data:`DEEPEST`.
    """
    home = version_folder(folder, key, number)
    queued = queued_folder(folder, key, number)
    if queued.is_symlink():
        raise ServerError(f"{queued} is not a folder of its own: left as it is")
    if queued.is_dir():
        home.parent.mkdir(parents=True, exist_ok=True)
        partial = home.with_name(f"{number}.partial")
        for stale in (partial, home):
            if stale.exists():
                shutil.rmtree(stale)
        try:
            handle = os.open(queued, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
        except OSError as error:  # swapped for a link since the look above
            raise ServerError(f"{queued} is not a folder of its own ({error.strerror})") from None
        try:
            _copy_tree(handle, partial, queued, depth=0)
        except BaseException:
            if partial.exists():
                shutil.rmtree(partial)
            raise
        finally:
            os.close(handle)
        os.rename(partial, home)
        _sync(home.parent)
        shutil.rmtree(queued)  # by descriptor: a link planted inside is removed, not followed
    return kept_folder(folder, key, number)


#: Nesting past this many folders is refused (the unpacker's own limit is lower).
DEEPEST = 64


def _copy_tree(source: int, target: Path, named: Path, *, depth: int) -> None:
    """Copy the folder open as ``source`` (shown as ``named``) to a new ``target``."""
    if depth > DEEPEST:
        raise ServerError(f"{named}: folders nest deeper than {DEEPEST}")
    target.mkdir()
    os.chmod(target, stat.S_IMODE(os.fstat(source).st_mode) & 0o755 | 0o700)
    for name in sorted(os.listdir(source)):
        flags = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
        try:
            handle = os.open(name, flags, dir_fd=source)
        except OSError as error:  # ELOOP: a link
            raise ServerError(f"{named / name}: not a file or folder ({error.strerror})") from None
        try:
            seen = os.fstat(handle)
            if stat.S_ISDIR(seen.st_mode):
                _copy_tree(handle, target / name, named / name, depth=depth + 1)
            elif stat.S_ISREG(seen.st_mode):
                mode = stat.S_IMODE(seen.st_mode) & 0o755 | 0o600
                made = os.open(target / name, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
                with open(handle, "rb", closefd=False) as read, open(made, "wb") as write:
                    shutil.copyfileobj(read, write)
                    os.fchmod(write.fileno(), mode)  # not less the umask
            else:
                raise ServerError(f"{named / name}: not a file or folder")
        finally:
            os.close(handle)
