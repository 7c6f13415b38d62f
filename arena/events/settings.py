"""What every run command shares, resolved once: how its bots run and where its games play.

``arena tournament`` and ``arena match`` (and the server's ladder) each have
settings of their own, but how the bots are limited and confined, how many
games play at once and where, and the seed mean the same in each. Their
flags (:class:`RunFlags`, ``None`` where not given) and a config file's keys
(``data``; a match has none) resolve here, in one place, to one
:class:`Running`: a flag given wins over the config file's key, which wins
over the default.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from arena.bots.sandbox import ResourceLimits, SandboxRequest
from arena.errors import UsageProblem
from arena.execute.local import DEFAULT_JOBS
from arena.protocol import Limits

T = TypeVar("T")


@dataclass(frozen=True, kw_only=True)
class BotFlags:
    """The flags of every command that runs bots: their time limits and their sandbox;
    ``None`` (or empty): not given."""

    move_ms: int | None = None
    bank_ms: int | None = None
    startup_ms: int | None = None
    required: str = ""
    no_sandbox: bool = False
    limits: tuple[str, ...] = ()

    def sandbox_request(self) -> SandboxRequest:
        """The protections and resource limits asked for.

        Raises:
            ArenaError: for an unknown protection or a bad resource limit.
        """
        return SandboxRequest.parse(self.required, self.no_sandbox, self.limits)


@dataclass(frozen=True, kw_only=True)
class RunFlags(BotFlags):
    """The flags every run command has besides :class:`BotFlags`: where its games play."""

    jobs: int | None = None
    pin: bool | None = None
    dask: str | None = None
    seed: int | None = None


@dataclass(frozen=True)
class Running:
    """How a run's bots run and where its games play, resolved."""

    limits: Limits
    #: Resource limits for every bot, sorted (a bot's own bot.toml wins over them).
    resources: tuple[tuple[str, int], ...]
    #: The protections asked for; the machine's layers are looked for only before a run.
    sandbox: SandboxRequest
    #: Games at once on this machine (unused on a cluster).
    jobs: int
    pin: bool
    #: The Dask scheduler's address, or ``local:N`` (None: this machine).
    dask: str | None
    seed: int


def resolve_running(flags: RunFlags, data: Mapping[str, Any] | None = None) -> Running:
    """The shared settings of a run: each flag given wins over ``data``'s key (a config
    file's), which wins over the default.

    Raises:
        UsageProblem: for jobs and a cluster both given as flags (they exclude each other).
        ArenaError: for a bad sandbox protection or resource limit.
    """
    data = data or {}
    if flags.dask and flags.jobs:
        raise UsageProblem.about(
            "{jobs} and {dask} exclude each other: a cluster has its own workers"
        )

    def pick(flag: T | None, key: str, default: T) -> T:
        return flag if flag is not None else data.get(key, default)

    sandbox = flags.sandbox_request()
    resources = {**data.get("limits", {}), **dict(sandbox.resources)}
    ResourceLimits().merged(resources)
    defaults = Limits()
    return Running(
        limits=Limits(
            startup_ms=pick(flags.startup_ms, "startup_ms", defaults.startup_ms),
            move_ms=pick(flags.move_ms, "move_ms", defaults.move_ms),
            bank_ms=pick(flags.bank_ms, "bank_ms", defaults.bank_ms),
        ),
        resources=tuple(sorted(resources.items())),
        sandbox=sandbox,
        jobs=pick(flags.jobs, "jobs", DEFAULT_JOBS),
        pin=pick(flags.pin, "pin", True),
        # Jobs given as a flag play here even when the config file names a cluster.
        dask=flags.dask or (None if flags.jobs else data.get("dask")),
        seed=pick(flags.seed, "seed", 0),
    )
