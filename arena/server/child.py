"""A child process of ``arena serve``: ``python -m arena.server.child KIND CONFIG DIR URL [FD]``.

``web``: the web app. ``ladder`` (its last argument: the local workers): the league
that never stops (:mod:`arena.server.ladder`). ``verdicts`` (likewise): each new
version's test against the one it replaced (:mod:`arena.server.verdicts`).
``builder``: builds and checks queued versions (:mod:`arena.server.builder`), its
build records in ``DIR/cache`` (the competition's, not the user's cache).

The web app serves the Django project with waitress, a production WSGI
server (threads, no development server), on the listening socket the parent
opened and passed down as file descriptor FD: the address is taken once, so
a restarted web app cannot lose it to another program, and the parent can
say where the server listens before the child is up.
"""

from __future__ import annotations

import os
import socket
import sys
import threading
import time
from pathlib import Path

from arena.bots.builds import CACHE_ENV
from arena.signals import stop_like_ctrl_c

#: Requests served at once by the web app.
THREADS = 8


def web(config_path: Path, folder: Path, url: str, fd: int, uid: int | None = None) -> None:
    """Serve the web app on the socket ``fd`` until stopped; as the user ``uid`` (the web
    app's own, from the parent), once it has read the secrets, where one is given."""
    import waitress  # noqa: PLC0415 - the server extra
    from django.core.wsgi import get_wsgi_application  # noqa: PLC0415

    from arena.server.config import load_server_config  # noqa: PLC0415
    from arena.server.folder import prepare  # noqa: PLC0415
    from arena.server.site import setup  # noqa: PLC0415
    from arena.server.webuser import become  # noqa: PLC0415

    config = load_server_config(config_path)
    setup(folder, config, prepare(folder), url)
    listening = socket.socket(fileno=fd)
    (folder / "uploads").mkdir(exist_ok=True)
    application = get_wsgi_application()  # WhiteNoise reads the static files here
    if uid is not None:  # root: the secrets are read; strangers meet the web app's own user
        become(uid)
    waitress.serve(
        application,
        sockets=[listening],
        threads=THREADS,
        ident="arena",
        # waitress refuses (413) a body past an upload's limit and a little room for the form
        max_request_body_size=(config.server["upload_mb"] + 1) * 2**20,
        _quiet=True,
    )


def builder(config_path: Path, folder: Path, url: str) -> None:
    """Build and check queued versions until SIGTERM (exit status 143)."""
    from arena.server import builder as work  # noqa: PLC0415
    from arena.server.caches import fill, planned  # noqa: PLC0415
    from arena.server.config import load_server_config  # noqa: PLC0415
    from arena.server.folder import prepare  # noqa: PLC0415
    from arena.server.site import setup  # noqa: PLC0415

    config = load_server_config(config_path)
    setup(folder, config, prepare(folder), url)
    os.environ[CACHE_ENV] = str(folder / "cache")
    # SIGTERM (the parent stopping, or dying) cuts a build or a check at once: the build's
    # process group is killed, nothing is recorded, and the next start queues it again.
    with stop_like_ctrl_c():
        try:
            # A first fill takes a minute (Maven): builds wait for it, nothing else does.
            filling = threading.Thread(
                target=fill, args=(lambda line: print(line, file=sys.stderr),), daemon=True
            )
            filling.start()
            table = work.Table.of(config.event, config.server, planned(), filled=filling.join)
            work.run(folder, table)
        except KeyboardInterrupt:
            sys.exit(143)


def ladder(config_path: Path, folder: Path, url: str, jobs: int) -> None:
    """Play the ladder (:mod:`arena.server.ladder`) until SIGTERM (exit status 143): the
    league while the season is open, its final while it is frozen (:mod:`.organizer`)."""
    from arena.bots.health import build_all  # noqa: PLC0415
    from arena.server.config import load_server_config  # noqa: PLC0415
    from arena.server.folder import prepare  # noqa: PLC0415
    from arena.server.ladder import (  # noqa: PLC0415
        FINAL,
        FieldTooSmall,
        LadderField,
        field_now,
        final_event,
        final_field,
        game_settings,
        ladder_event,
        play_until,
        set_final_aside,
        wait_while_paused,
    )
    from arena.server.organizer import (  # noqa: PLC0415
        closed,
        final_played,
        frozen,
        mark_final_played,
        paused,
    )
    from arena.server.site import setup  # noqa: PLC0415
    from arena.tournament.config import config_bots  # noqa: PLC0415

    config = load_server_config(config_path)
    secrets = prepare(folder)
    setup(folder, config, secrets, url)
    os.environ[CACHE_ENV] = str(folder / "cache")
    house = config_bots(config.event, config.path)
    _, running = game_settings(config.event)
    sandbox = running.sandbox.capabilities()

    def say(line: str) -> None:
        print(line, file=sys.stderr)

    players = int(config.event.get("players") or 4)
    final_rounds = config.server["final_rounds"]
    with stop_like_ctrl_c():
        try:
            for broken in build_all(house, rebuild=False):
                say(f"arena serve: house {broken}")
            while True:
                if closed():
                    say("arena serve: the season is closed: nothing plays")
                    while True:
                        time.sleep(WAIT_S)
                wait_while_paused(say)
                if frozen():
                    if not final_played():
                        say("arena serve: the season is frozen: the final plays")
                        bots = final_field(folder, house, running.resources)
                        if len(bots) < players:
                            say(f"arena serve: the final needs {players} bots, and "
                                f"{len(bots)} are active: open the season again")  # fmt: skip
                            while frozen() and not closed():
                                time.sleep(WAIT_S)
                        elif play_until(
                            final_event(config.event, secrets.ladder_seed, bots, final_rounds),
                            folder / FINAL,
                            lambda: paused() or not frozen() or closed(),
                            sandbox=sandbox,
                            jobs=jobs,
                            say=say,
                        ):
                            mark_final_played()
                            say("arena serve: the final is played: its board is final")
                    while frozen() and final_played() and not closed():
                        time.sleep(WAIT_S)
                    continue
                aside = set_final_aside(folder)
                if aside is not None:
                    say(
                        f"arena serve: the season is open again: its final was set aside to {aside}"
                    )
                field = field_now(folder, house, players, running.resources)
                try:
                    play_until(
                        ladder_event(config.event, secrets.ladder_seed, field),
                        folder,
                        lambda: paused() or frozen(),
                        sandbox=sandbox,
                        jobs=jobs,
                        say=say,
                        field=LadderField(
                            folder, house, [spec.name for spec in field], running.resources, players
                        ),
                    )
                except FieldTooSmall:
                    say("arena serve: the ladder waits for a full table")
        except KeyboardInterrupt:
            sys.exit(143)


#: How often a closed or finished season's ladder looks at the switches again.
WAIT_S = 1.0


def verdicts(config_path: Path, folder: Path, url: str, jobs: int) -> None:
    """Run each new version's test against the one it replaced (:mod:`arena.server.verdicts`)
    until SIGTERM (exit status 143)."""
    from arena.server.config import load_server_config  # noqa: PLC0415
    from arena.server.folder import prepare  # noqa: PLC0415
    from arena.server.organizer import closed  # noqa: PLC0415
    from arena.server.site import setup  # noqa: PLC0415
    from arena.server.verdicts import IDLE_S, test_once  # noqa: PLC0415
    from arena.tournament.config import config_bots  # noqa: PLC0415

    config = load_server_config(config_path)
    secrets = prepare(folder)
    setup(folder, config, secrets, url)
    os.environ[CACHE_ENV] = str(folder / "cache")
    house = config_bots(config.event, config.path)
    with stop_like_ctrl_c():
        try:
            while True:
                if closed() or not test_once(  # a closed season plays nothing
                    folder, config.event, config.server, secrets.ladder_seed, house, jobs
                ):
                    time.sleep(IDLE_S)
        except KeyboardInterrupt:
            sys.exit(143)


def main(argv: list[str]) -> None:
    """Run the child ``argv[0]`` names. One that finds a database damaged says so in one
    line and exits :data:`~arena.server.supervise.FATAL`: a restart would not mend it, and
    the server stops rather than restarting it again and again."""
    from arena.results.store import StoreDamaged  # noqa: PLC0415
    from arena.server.folder import damage_in  # noqa: PLC0415
    from arena.server.supervise import FATAL  # noqa: PLC0415

    kind, config_path, folder, url, *rest = argv
    try:
        if kind == "web":
            web(Path(config_path), Path(folder), url, int(rest[0]), *map(int, rest[1:2]))
        elif kind == "builder":
            builder(Path(config_path), Path(folder), url)
        elif kind == "ladder":
            ladder(Path(config_path), Path(folder), url, int(rest[0]))
        elif kind == "verdicts":
            verdicts(Path(config_path), Path(folder), url, int(rest[0]))
        else:
            raise SystemExit(f"arena.server.child: no child {kind!r}")
    except StoreDamaged as error:  # the ladder's store (a lock or an I/O error may pass)
        print(f"arena serve: {error}", file=sys.stderr)
        sys.exit(FATAL)
    except Exception as error:
        line = damage_in(error, Path(folder))
        if line is None:
            raise
        print(f"arena serve: {line}", file=sys.stderr)
        sys.exit(FATAL)


if __name__ == "__main__":
    main(sys.argv[1:])
