"""``arena serve``, a competition server, and ``arena submit``, its authors' upload (the
library: :mod:`arena.server`)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import click

from arena.cli.common import command
from arena.errors import ArenaError
from arena.signals import exit_status, stop_like_ctrl_c


def _server() -> None:
    """The server extra, or one line saying how to install it."""
    try:
        import django  # noqa: F401, PLC0415
        import waitress  # noqa: F401, PLC0415
    except ModuleNotFoundError as missing:
        raise ArenaError(
            f"arena serve needs the server extra ({missing.name} is missing): "
            "pip install 'arena[server]', or in arena's folder pip install '.[server]'"
        ) from None


@command("serve")
@click.argument("config", type=click.Path(path_type=Path, dir_okay=False))
@click.option("--host", default="127.0.0.1", show_default=True, help="Where the web app listens.")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(1, 65535))
@click.option(
    "--out", type=click.Path(path_type=Path), help="The competition's folder (results/<name>)."
)
@click.option(
    "--jobs", default=1, show_default=True, type=click.IntRange(1), help="The ladder's workers."
)
@click.option("--invite", metavar="NAME", help="Print an invite for NAME (URL/join/CODE), exit.")
@click.option(
    "--role",
    type=click.Choice(["author", "organizer"]),
    default="author",
    show_default=True,
    help="What --invite makes of NAME.",
)
@click.option(
    "--backup",
    "backup_to",
    metavar="FILE",
    type=click.Path(path_type=Path, dir_okay=False),
    help="Write a consistent copy of the folder to FILE (.tar.gz), while it runs; exit.",
)
@click.option(
    "--restore",
    "restore_from",
    metavar="FILE",
    type=click.Path(path_type=Path, dir_okay=False, exists=True),
    help="Put the backup FILE back as the folder (the server stopped); exit.",
)
def serve(
    config: Path,
    host: str,
    port: int,
    out: Path | None,
    jobs: int,
    invite: str | None,
    role: str,
    backup_to: Path | None,
    restore_from: Path | None,
) -> None:
    """Run a competition: authors upload bots, everyone watches the leaderboard.

    CONFIG is a tournament config (the house bots, rules, limits, schedule
    sampled or swiss) with a [server] table. The server runs until Ctrl-C or
    SIGTERM; rerunning it resumes. --invite NAME prints an invite link and
    exits, whether the server runs or not. --backup FILE copies the folder
    while it runs; --restore FILE puts a backup back (the server stopped; the
    folder there before is moved aside).

    \b
    Example:
        arena serve club.toml --invite ann --role organizer
        arena serve club.toml --host 0.0.0.0 --port 8000
        arena serve club.toml --backup club-monday.tar.gz
    """
    _server()
    from arena.server import run  # noqa: PLC0415 - Django, only for this command

    if sum(given is not None for given in (invite, backup_to, restore_from)) > 1:
        raise click.UsageError("--invite, --backup and --restore each run alone")
    if invite is not None:
        click.echo(run.invite(config, out=out, name=invite, role=role, host=host, port=port))
        return
    if backup_to is not None:
        click.echo(run.backup(config, out=out, target=backup_to))
        return
    if restore_from is not None:
        click.echo(run.restore(config, out=out, source=restore_from))
        return
    with stop_like_ctrl_c():
        try:
            status = run.serve(
                config,
                out=out,
                host=host,
                port=port,
                jobs=jobs,
                say=lambda line: click.echo(line, err=True),
            )
        except KeyboardInterrupt as interrupt:
            click.echo("arena serve stopped; rerun the same command to go on", err=True)
            sys.exit(exit_status(interrupt))
    sys.exit(status)


@command("submit")
@click.argument("folder", metavar="DIR", type=click.Path(path_type=Path, file_okay=False))
@click.option(
    "--server", envvar="ARENA_SERVER", help="The competition server's URL (or ARENA_SERVER)."
)
@click.option(
    "--token-file",
    type=click.Path(path_type=Path, dir_okay=False),
    help="A file holding your API token (else ARENA_TOKEN).",
)
@click.option("--wait", is_flag=True, help="Follow the version until it is active or failed.")
def submit(folder: Path, server: str | None, token_file: Path | None, wait: bool) -> None:
    """Upload the bot folder DIR to a competition server as a new version.

    It packs the folder (build outputs and .git left out), uploads it with
    your API token, and says the version's status; with --wait it follows the
    version until it is active (exit 0) or failed (exit 1, with why). The
    token is never printed.

    \b
    Example:
        ARENA_TOKEN=... arena submit mybot --server https://club.example --wait
    """
    from arena.server.submit import submit as upload  # noqa: PLC0415

    if not server:
        raise click.UsageError("name the server: --server URL, or ARENA_SERVER")
    if token_file is not None:
        try:
            token = token_file.read_text(encoding="utf-8").strip()
        except OSError as error:
            raise click.UsageError(f"cannot read {token_file}: {error.strerror}") from None
    else:
        token = os.environ.get("ARENA_TOKEN", "").strip()
    if not token:
        raise click.UsageError("give your API token: ARENA_TOKEN, or --token-file FILE")
    upload(folder, server, token, wait=wait, say=click.echo)
