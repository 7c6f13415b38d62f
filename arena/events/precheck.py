"""The field checked before an event plays a game: every bot built, the unproven started.

A tournament or a match first brings every bot folder's build up to date,
then starts each bot once and shakes hands (:func:`arena.bots.health.probe`),
so that every broken bot is named together before any game. A resumed event
does not start again the bots its folder has already seen play (a game
without a fault) with the same
command and the same files (build outputs included): they worked, and a
league of 5,000 bots would otherwise spend minutes at each resume starting
bots that played yesterday. A bot that has changed, or never played there,
is started as before.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from arena.bots.builds import BuildWatcher
from arena.bots.fingerprint import files_hash
from arena.bots.health import Broken, build_all, probe
from arena.bots.sandbox import Capabilities
from arena.bots.spec import BotSpec
from arena.events.settings import Running
from arena.results.store import DATABASE, open_existing


def check_field(
    specs: Sequence[BotSpec],
    running: Running,
    sandbox: Capabilities | None,
    logs: Path,
    *,
    rebuild: bool,
    watcher: BuildWatcher | None = None,
    folder: Path | None = None,
) -> list[Broken]:
    """The broken bots of ``specs``, all of them, in the order given: each whose build
    fails, then each of the others that cannot start or gives no valid ``ready`` (its
    log moved to ``logs``, a folder of its own: a bot's games write its log in the
    results folder's). Bots that played in ``folder`` as they are now are not started
    (see the module). A stop (KeyboardInterrupt) goes through to the caller.
    """
    broken = build_all(specs, rebuild=rebuild, watcher=watcher)
    failed = {bot.bot for bot in broken}
    built = [spec for spec in specs if spec.name not in failed]
    seen = proven(folder, built) if folder is not None else set()
    broken += probe(
        [spec for spec in built if spec.name not in seen],
        running.limits,
        sandbox=sandbox,
        resources=dict(running.resources),
        log_dir=logs,
    )
    order = {spec.name: index for index, spec in enumerate(specs)}
    return sorted(broken, key=lambda bot: order[bot.bot])


def proven(folder: Path, specs: Sequence[BotSpec]) -> set[str]:
    """The names of ``specs`` that played at least one game without a fault in ``folder``,
    with the same command and the same files as now (none where the folder has no
    results yet)."""
    if not (folder / DATABASE).is_file():
        return set()
    store = open_existing(folder)
    try:
        played = {  # a game without a fault: a bot disabled at its start has none
            row["bot"] for row in store.standings() if row["games"] > sum(row["faults"].values())
        }
        known = {bot.name: bot for bot in store.bots() if bot.name in played}
    finally:
        store.close()
    return {
        spec.name
        for spec in specs
        if (record := known.get(spec.name)) is not None
        and record.command == spec.command
        and record.files_hash == files_hash(spec)
    }
