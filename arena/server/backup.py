"""A competition's backup: one owner-only ``.tar.gz`` of its folder, taken while it runs.

``arena serve CONFIG --backup FILE`` copies each SQLite database with
SQLite's online backup API (a consistent snapshot, whatever the ladder and
the web app are writing), then the folder's other files: the bots'
versions, replays, logs and secrets. Databases first, files after: a game
the copy of the league store holds has its replay (written before the game
is committed), and a version the copy of the server's database holds has
its files (renamed into ``queued`` before it is recorded). Left out: what is
rebuilt or thrown away (the lock, SQLite's journals, half-received uploads,
the web app's uid, the build records in ``cache``).

``--restore FILE`` (the server stopped) moves the folder there aside, to
``DIR.before-restore-TIME``, and unpacks the backup in its place with
tarfile's ``data`` filter (no links out, no devices, no absolute paths).
"""

from __future__ import annotations

import io
import json
import os
import shutil
import sqlite3
import tarfile
import tempfile
import time
from contextlib import closing
from pathlib import Path

from arena.results.store import DATABASE
from arena.server.folder import LOCK, SERVER_DB, ServerError, held
from arena.server.webuser import RECORD

#: What a backup holds besides the folder's files: when and of what it was taken.
MANIFEST = "backup.json"
#: The SQLite databases, copied through the backup API (a frozen season's final too).
DATABASES = (DATABASE, SERVER_DB, f"final/{DATABASE}")
#: Folders and files of DIR a backup leaves out (rebuilt, or thrown away at a start; the
#: web app's uid is leased anew after a restore, which shares the whole folder with it).
LEFT_OUT = {LOCK, "uploads", "cache", RECORD}


def backup(folder: Path, target: Path) -> str:
    """Write the backup of ``folder`` to ``target``; a line saying what it holds.

    Raises:
        ServerError: no competition in ``folder``, or ``target`` cannot be written.
    """
    if not (folder / SERVER_DB).is_file():
        raise ServerError(f"no competition in {folder} to back up (no {SERVER_DB})")
    target = target.absolute()
    with tempfile.TemporaryDirectory(prefix="arena-backup-") as scratch:
        copies = {
            name: Path(scratch) / name.replace("/", "-") for name in DATABASES
            if (folder / name).is_file()
        }  # fmt: skip
        for name, copy in copies.items():
            with (
                closing(sqlite3.connect(folder / name)) as source,
                closing(sqlite3.connect(copy)) as into,
            ):
                source.backup(into)
        files = 0
        try:
            handle, partial = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)
        except OSError as error:
            raise ServerError(f"cannot write {target}: {error.strerror}") from None
        os.close(handle)
        try:
            with tarfile.open(partial, "w:gz") as archive:
                for name, copy in copies.items():
                    archive.add(copy, arcname=name)
                for path in sorted(_files(folder)):
                    archive.add(path, arcname=str(path.relative_to(folder)), recursive=False)
                    files += 1
                manifest = {"made": time.time(), "folder": folder.name, "files": files}
                data = json.dumps(manifest).encode()
                info = tarfile.TarInfo(MANIFEST)
                info.size, info.mtime, info.mode = len(data), int(time.time()), 0o600
                archive.addfile(info, io.BytesIO(data))
            os.chmod(partial, 0o600)
            os.replace(partial, target)
        except BaseException:
            Path(partial).unlink(missing_ok=True)
            raise
    return f"backed up {folder} to {target}: {len(copies)} databases and {files} files"


def _files(folder: Path) -> list[Path]:
    """The folder's entries a backup holds (folders too, so empty ones come back)."""
    found: list[Path] = []
    for root, dirs, names in os.walk(folder):
        here = Path(root)
        if here == folder:
            dirs[:] = [name for name in dirs if name not in LEFT_OUT]
        # The databases are copied through the backup API above; journals are not kept.
        if here == folder or (here.parent == folder and here.name.split(".")[0] == "final"):
            names = [
                name
                for name in names
                if name not in LEFT_OUT
                and str((here / name).relative_to(folder)) not in DATABASES
                and not name.endswith(("-wal", "-shm", "-journal"))
            ]
        found.extend(here / name for name in dirs)
        found.extend(here / name for name in names)
    return found


def restore(folder: Path, source: Path) -> str:
    """Put the backup ``source`` back as ``folder`` (the old one moved aside); a line
    saying so.

    Raises:
        ServerError: the server runs on ``folder``, or ``source`` is no backup.
    """
    if folder.exists():
        with held(folder):  # refused at once while a server runs on it
            pass
    folder.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{folder.name}.restore-", dir=folder.parent))
    try:
        with tarfile.open(source, "r:gz") as archive:
            names = set(archive.getnames())
            if MANIFEST not in names or SERVER_DB not in names:
                raise ServerError(f"{source} is not an arena serve backup (no {MANIFEST})")
            archive.extractall(staging, filter="data")
        (staging / MANIFEST).unlink()
    except tarfile.TarError as error:
        shutil.rmtree(staging, ignore_errors=True)
        raise ServerError(f"{source} is not an arena serve backup: {error}") from None
    except OSError as error:
        shutil.rmtree(staging, ignore_errors=True)
        raise ServerError(f"{source} cannot be restored: {error}") from None
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    aside = None
    try:
        if folder.exists():
            with held(folder):  # a server that started meanwhile
                aside = folder.with_name(
                    f"{folder.name}.before-restore-{time.strftime('%Y%m%d-%H%M%S')}"
                )
                folder.rename(aside)
    except ServerError:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    staging.chmod(0o700)
    staging.rename(folder)
    moved = f"; the folder there before is {aside}" if aside else ""
    return f"restored {source} to {folder}{moved}"
