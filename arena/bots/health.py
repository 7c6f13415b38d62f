"""Whether bots work, asked of all of them at once before a run plays a game.

A bot is broken when its build fails, its command cannot start, or it gives
no valid ``ready`` within ``startup_ms``. Found one at a time, a class's
24 bots meant a rerun for each broken one; a tournament now probes its whole
field first and names every broken bot together (or plays on without them).

Each distinct bot (its command, folder and limits) is probed once, however
many names enter it, and at most :data:`LIVE_BOTS` probes run at once, as a
worker keeps at most that many bots alive: a field of 1,000 bots of a few
commands costs a few starts, one of 1,000 commands about 1,000 / 24 start
times.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from arena.bots.builds import BuildFailed, BuildWatcher, build_bot
from arena.bots.player import ProcessPlayer
from arena.bots.sandbox import Capabilities
from arena.bots.spec import BotSpec
from arena.errors import ArenaError, BotFault
from arena.protocol import Limits

#: Bot processes alive at once: a worker's cap (arena.execute.seats), and the probes'.
LIVE_BOTS = 24


@dataclass(frozen=True)
class Broken:
    """A bot that cannot play: why, in one line, and the log that says more."""

    bot: str
    reason: str
    log: Path | None = None

    @property
    def why(self) -> str:
        """The reason, with the log's path where there is one."""
        return self.reason + (f" (log: {self.log})" if self.log else "")

    def __str__(self) -> str:
        return f"bot {self.bot!r}: {self.why}"


class BrokenBots(ArenaError):
    """A field with broken bots, refused before any game: every one named, each on a line
    of its own after the summary (one rerun fixes them all, not one a rerun)."""

    broken: tuple[Broken, ...] = ()

    #: What to do, where the event could play on without them (a tournament).
    SKIPPABLE = "fix them, or rerun with {skip_broken} to play without them"

    @classmethod
    def refused(
        cls, broken: Sequence[Broken], total: int, advice: str = "fix them", **values: object
    ) -> BrokenBots:
        """The refusal of ``total`` bots, ``broken`` of them broken; ``advice`` (a template
        of settings and ``values``) says what to do."""
        error = cls.about(
            "{count} of {total} bots are broken: " + advice + ":{lines}",
            count=len(broken),
            total=total,
            lines="".join(f"\n  {bot}" for bot in broken),
            **values,
        )
        error.broken = tuple(broken)
        return error


def build_all(
    specs: Sequence[BotSpec],
    *,
    rebuild: bool,
    watcher: BuildWatcher | None = None,
    collect: bool = True,
) -> list[Broken]:
    """Bring each bot folder's build up to date (:func:`arena.bots.builds.build_bot`);
    the bots whose build failed, each with its log.

    With ``collect`` false the first failure is raised as it is (one bot to run:
    its build's error is the command's), and the builds after it are not run.

    Raises:
        BuildFailed: a failed build, without ``collect``.
    """
    broken = []
    for spec in specs:
        try:
            build_bot(spec, rebuild=rebuild, watcher=watcher)
        except BuildFailed as failed:
            if watcher is not None:
                watcher.failed(failed)
            if not collect:
                raise
            broken.append(Broken(spec.name, failed.reason, failed.log))
    return broken


def probe(
    specs: Sequence[BotSpec],
    limits: Limits,
    *,
    sandbox: Capabilities | None,
    resources: Mapping[str, int] | None = None,
    log_dir: Path | None = None,
) -> list[Broken]:
    """Start each distinct bot of ``specs``, shake hands, say bye; return the broken ones
    in the order given (every name of a broken command is broken).

    ``log_dir``: where a broken bot's stderr is kept (``NAME.stderr.log``), named in
    :class:`Broken`. The probes log to a scratch folder first, and only a broken
    bot's log is moved there: a field that works leaves no trace (no results
    folder made before the run writes its own).
    """
    groups: dict[tuple[object, ...], list[BotSpec]] = {}
    for spec in specs:
        groups.setdefault((spec.argv, spec.home, spec.limits), []).append(spec)
    firsts = [members[0] for members in groups.values()]
    if not firsts:
        return []
    with tempfile.TemporaryDirectory(prefix="arena-probe-") as scratch:

        def one(spec: BotSpec) -> str | None:
            player = ProcessPlayer(
                spec, limits, log_dir=Path(scratch), sandbox=sandbox, resources=resources
            )
            try:
                player.launch()
            except BotFault as fault:
                return _reason(fault)
            finally:
                player.close()
            return None

        with ThreadPoolExecutor(max_workers=min(LIVE_BOTS, len(firsts))) as pool:
            reasons = dict(zip((s.name for s in firsts), pool.map(one, firsts), strict=True))
        logs = {name: _keep(Path(scratch), name, log_dir) for name, why in reasons.items() if why}
    broken = {}
    for members in groups.values():
        reason = reasons[members[0].name]
        if reason is not None:
            for spec in members:
                broken[spec.name] = Broken(spec.name, reason, logs[members[0].name])
    return [broken[spec.name] for spec in specs if spec.name in broken]


def _keep(scratch: Path, name: str, log_dir: Path | None) -> Path | None:
    """Move a broken bot's probe log from ``scratch`` to ``log_dir``; its new path."""
    log = scratch / f"{name}.stderr.log"
    if log_dir is None or not log.is_file():
        return None
    log_dir.mkdir(parents=True, exist_ok=True)
    return Path(shutil.move(log, log_dir / log.name))


def _reason(fault: BotFault) -> str:
    """A fault at the handshake, for people: its kind and detail ("crash at the
    handshake: exited with status 1", "timeout at the handshake: no ready within
    2000 ms"), without the prefix the player puts on every handshake fault."""
    detail = fault.detail.removeprefix("handshake failed: ")
    return f"{fault.kind.value} at the handshake: {detail}"
