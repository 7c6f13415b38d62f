"""A run as the terminal shows it: the progress bar and the lines around a run."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Never

import click
from tqdm import tqdm

from arena.bots.sandbox import Capabilities
from arena.events.event import Event
from arena.events.run import Observer, Outcome, run, stopped_by
from arena.events.settings import Running
from arena.results.store import Store
from arena.signals import exit_status


class Terminal(Observer):
    """A run as the terminal shows it: the progress bar, notices on stderr, and the command's
    own lines when the store opens, when the run is stopped and when it ends."""

    def __init__(
        self,
        *,
        bar: ProgressBar | None,
        status: Callable[[Store], str] | None = None,
        announce: Callable[[Store], None] | None,
        stopped: Callable[[Store, str], None],
        done: Callable[[Store, Outcome], None] | None = None,
        dask: bool = False,
    ) -> None:
        self.bar = bar
        if bar is not None and status is not None:
            bar.status = lambda: status(self.store) if self.store is not None else ""
        self.announce = announce
        self.on_stop = stopped
        self.done = done
        #: Still connecting to a Dask cluster (a stop then leaves nothing written).
        self.connecting = dask
        #: The store, once open.
        self.store: Store | None = None

    def connected(self, address: str, workers: int, threads: int) -> None:
        self.connecting = False
        if self.bar:
            click.echo(
                f"Dask cluster {address}: {workers} worker{'s' * (workers != 1)}, "
                f"{threads} thread{'s' * (threads != 1)}; each started every bot",
                err=True,
            )

    def opened(self, store: Store) -> None:
        self.store = store
        if self.announce:
            self.announce(store)

    def progress(self, done: int, total: int, seconds: float) -> None:
        if self.bar:
            self.bar.update(done, total, seconds)

    def notice(self, text: str) -> None:
        click.echo(f"\n{text}", err=True)

    def stopped(self, store: Store, how: str) -> None:
        self.close()
        self.on_stop(store, how)

    def finished(self, store: Store, outcome: Outcome) -> None:
        self.close()
        if self.done:
            self.done(store, outcome)

    def close(self) -> None:
        """End the progress bar's line (before anything else is printed)."""
        if self.bar:
            self.bar.finish()


def play_event(
    event: Event,
    folder: Path,
    running: Running,
    sandbox: Capabilities | None,
    terminal: Terminal,
) -> Outcome:
    """Run ``event`` into ``folder`` (:func:`arena.events.run.run`) as ``running`` says, its
    bots confined in ``sandbox``; a stop signal exits with its status (130 for Ctrl-C) once
    ``terminal`` has said what was kept."""
    try:
        return run(
            event,
            folder,
            sandbox=sandbox,
            required=running.sandbox.wanted,
            observer=terminal,
            jobs=running.jobs,
            pin=running.pin,
            dask=running.dask,
        )
    except KeyboardInterrupt as interrupt:
        if terminal.store is None:
            kept = "nothing was written." if terminal.connecting else "rerun the command to start."
            click.echo(f"{stopped_by(interrupt)} before any game: {kept}", err=True)
        sys.exit(exit_status(interrupt))
    finally:
        terminal.close()


class ProgressBar:
    """Games done / total, games per second and ETA, on stderr while it is a terminal.

    Drawn by tqdm: it redraws a line whose width changes without leaving
    stale characters (the hand-drawn bar left ``ETA 30ss``), follows a total
    that changes as a league is scheduled or a stop rule ends it, and turns
    itself off when stderr is not a terminal, so logs get the summary line
    only.
    """

    def __init__(self, status: Callable[[], str] | None = None) -> None:
        self.bar: tqdm[Never] | None = None
        #: What the line shows after the ETA (a match: its score difference and LLR).
        self.status = status

    def update(self, done: int, total: int, seconds: float) -> None:
        """Move the bar to ``done`` of ``total`` games (``seconds``: tqdm keeps its own clock)."""
        bar = self.bar
        if bar is None:  # the first game of this run: the games of earlier runs are done
            bar = self.bar = tqdm(
                total=total,
                initial=done - 1,
                unit=" games",
                file=sys.stderr,
                disable=None,
                dynamic_ncols=True,
                smoothing=0.05,
                bar_format="{percentage:3.0f}%|{bar}| {n_fmt}/{total_fmt} games, "
                "{rate_fmt}, ETA {remaining}{postfix}",
            )
        if bar.total != total:
            bar.total = total
        if self.status is not None:
            bar.set_postfix_str(self.status(), refresh=False)
        bar.update(done - bar.n)

    def finish(self) -> None:
        """End the bar's line."""
        if self.bar is not None:
            self.bar.close()
