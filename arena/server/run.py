"""``arena serve``'s entries for the command line: serve a competition, make an invite."""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from pathlib import Path

from arena.bots.sandbox import Capabilities, SandboxError, detect
from arena.server.child import THREADS
from arena.server.config import load_server_config
from arena.server.folder import check_databases, held, prepare
from arena.server.ladder import strangers_protections
from arena.server.supervise import (
    Supervisor,
    builder_child,
    ladder_child,
    listen,
    verdicts_child,
    web_child,
)
from arena.server.webuser import Journals, lease, share
from arena.tournament.config import config_bots

#: Where the web app listens unless told (loopback: a competition is opened on purpose).
HOST = "127.0.0.1"
PORT = 8000


def serve(
    config_path: Path,
    *,
    out: Path | None,
    host: str,
    port: int,
    jobs: int = 1,
    say: Callable[[str], None],
) -> int:
    """Run the competition of ``config_path`` until a stop (KeyboardInterrupt) or too many
    deaths of its children (the exit status, 1).

    Raises:
        ConfigError: a bad config file, in one line.
        SandboxError: the machine's sandbox lacks a protection
            (:func:`arena.server.ladder.strangers_protections`).
        ServerError: another server holds the folder, the address is taken, a newer
            arena wrote the folder, or its database is damaged.
        StoreError: the ladder's results.sqlite is damaged.
    """
    from arena.server.site import migrate, setup, site_url  # noqa: PLC0415 - Django
    from arena.server.static import publish  # noqa: PLC0415
    from arena.server.uploads import register_house_bots  # noqa: PLC0415

    config = load_server_config(config_path)
    check_sandbox(detect())
    folder = config.folder(out)
    secrets = prepare(folder)
    with held(folder):
        check_databases(folder)  # before anything opens them to write
        # As root, the web app runs as a user of its own (its lease held while serving).
        web = lease(folder)
        if web is not None:
            os.umask(0o027)  # what the server writes the web app's group may read
        swept = sweep_uploads(folder)
        if swept:
            say(f"arena serve: {swept} upload(s) cut by the last stop were thrown away")
        url = site_url(config, host, port)
        setup(folder, config, secrets, url)
        copy = migrate(folder)
        publish(folder)
        register_house_bots([bot.name for bot in config_bots(config.event, config.path)])
        if copy is not None:
            say(f"the server's database was upgraded; its copy from before is {copy}")
        journals = None
        if web is not None:  # what start made (the database: SQLite makes it 0644 & ~umask)
            share(folder, web[1], everything=False)
            journals = Journals(folder)
            journals.keep()
        listening = listen(host, port)
        say(f"arena serve: {url} (folder {folder}); Ctrl-C stops it")
        ladder_jobs, test_jobs = split_jobs(jobs, config.server["match_share"])
        # Requests' bodies past waitress's buffer, each at most upload_mb, are spooled there.
        spool_mb = THREADS * (config.server["upload_mb"] + 1)
        children = [
            web_child(
                config_path,
                folder,
                url,
                listening,
                uid=None if web is None else web[1],
                spool_mb=spool_mb,
            ),
            builder_child(config_path, folder, url),
            ladder_child(config_path, folder, url, ladder_jobs),
        ]
        if test_jobs:
            children.append(verdicts_child(config_path, folder, url, test_jobs))
        try:
            return Supervisor(children, say, tick=None if journals is None else journals.keep).run()
        finally:
            if journals is not None:
                journals.close()


def check_sandbox(capabilities: Capabilities) -> None:
    """Refuse a machine whose sandbox cannot keep a stranger's bot in its place.

    Raises:
        SandboxError: naming the first protection missing (``arena sandbox`` says more).
    """
    wanted = strangers_protections(capabilities.root)
    missing = [name for name in wanted if not capabilities.provides(name)]
    if missing:
        raise SandboxError(
            f"arena serve runs strangers' code, and this machine's sandbox cannot provide "
            f"{', '.join(repr(name) for name in missing)} (layers: "
            f"{', '.join(capabilities.layers)}); run 'arena sandbox' for details"
        )


def sweep_uploads(folder: Path) -> int:
    """Remove what uploads cut by a stop or a ``kill -9`` left half received or half
    unpacked (nothing writes there while no server holds the folder); how many."""
    from arena.server.uploads import SCRATCH  # noqa: PLC0415

    spool = folder / SCRATCH
    if not spool.is_dir():
        return 0
    left = list(spool.iterdir())
    for path in left:
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path)
        else:
            path.unlink()
    return len(left)


def split_jobs(jobs: int, share: float) -> tuple[int, int]:
    """The ladder's workers and the tests' (``share`` of ``jobs``, at least one unless the
    share is 0; the ladder keeps at least one)."""
    if share <= 0:
        return jobs, 0
    tests = max(1, round(jobs * share))
    return max(1, jobs - tests), tests


def invite(
    config_path: Path, *, out: Path | None, name: str, role: str, host: str, port: int
) -> str:
    """An invite for ``name`` (``URL/join/CODE``), whether the server runs or not; the
    folder is made if it is not there.

    Raises:
        ConfigError, ServerError: as :func:`serve`.
        Refused: a name that cannot name a user.
    """
    from arena.server.accounts import invite as make  # noqa: PLC0415 - Django
    from arena.server.site import migrate, setup, site_url  # noqa: PLC0415

    config = load_server_config(config_path)
    folder = config.folder(out)
    url = site_url(config, host, port)
    setup(folder, config, prepare(folder), url)
    migrate(folder)
    return f"{url}/join/{make(name, role)}"


def backup(config_path: Path, *, out: Path | None, target: Path) -> str:
    """Back the competition's folder up to ``target`` while it runs (see
    :mod:`arena.server.backup`); a line saying what the backup holds.

    Raises:
        ConfigError: a bad config file.
        ServerError: no competition there, or ``target`` cannot be written.
    """
    from arena.server.backup import backup as take  # noqa: PLC0415

    return take(load_server_config(config_path).folder(out), target)


def restore(config_path: Path, *, out: Path | None, source: Path) -> str:
    """Put the backup ``source`` back as the competition's folder (the server stopped);
    a line saying so.

    Raises:
        ConfigError: a bad config file.
        ServerError: the server runs, or ``source`` is no backup.
    """
    from arena.server.backup import restore as put  # noqa: PLC0415

    return put(load_server_config(config_path).folder(out), source)
