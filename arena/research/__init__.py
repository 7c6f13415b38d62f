"""Knockout Whist for AI researchers' libraries: PettingZoo, Gymnasium and OpenSpiel.

Needs the ``research`` extra (``pip install '.[research]'``); the core
install never imports this package.

- :func:`pettingzoo_env`: the AEC environment (:mod:`arena.research.aec`);
- :func:`gym_env`: one seat against arena players (:mod:`arena.research.gym`);
- :mod:`arena.research.encode`: observations and action numbers, the same
  for every environment and for :mod:`arena.bridge` (:data:`MOVES`: the
  move each action number stands for);
- :mod:`arena.research.openspiel_game`: importing it registers the OpenSpiel
  game ``knockout_whist``.

The environments' libraries are imported when an environment is made, so
that the bridge (which needs only the encoding) starts quickly.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any


@contextmanager
def _the_extra() -> Iterator[None]:
    """Imports of the research extra's libraries: one missing is said as the extra missing.

    Raises:
        ModuleNotFoundError: naming the extra and how to install it.
    """
    try:
        yield
    except ModuleNotFoundError as missing:
        if missing.name is None or missing.name.split(".")[0] == "arena":
            raise  # not the extra: a broken install of the arena itself
        raise ModuleNotFoundError(
            f"arena.research needs the research extra ({missing.name} is missing): in the "
            "arena's folder, pip install '.[research]' (pettingzoo, gymnasium, numpy, "
            "open-spiel)",
            name=missing.name,
        ) from missing


with _the_extra():
    from arena.research.encode import MOVES, Policy

if TYPE_CHECKING:
    from arena.research.aec import KnockoutWhistEnv
    from arena.research.gym import KnockoutWhistGym


def pettingzoo_env(
    players: int = 4, seed: int | None = None, **rule_options: Any
) -> KnockoutWhistEnv:
    """A PettingZoo AEC environment of a ``players``-seat game under ``rule_options``
    (keywords of :class:`arena.game.Rules`), dealt from ``seed`` as ``arena play --seed``."""
    with _the_extra():
        from arena.research.aec import KnockoutWhistEnv  # noqa: PLC0415 - see the module

    return KnockoutWhistEnv(players, seed, **rule_options)


def gym_env(
    players: int = 4,
    seat: int = 0,
    opponents: Sequence[str | Policy] = (),
    **rule_options: Any,
) -> KnockoutWhistGym:
    """A Gymnasium environment: the agent plays ``seat`` of a ``players``-seat game; the
    ``opponents`` (in seat order) are ``"random"`` (in-process), a policy (in-process: a
    callable given an agent's observation, returning an action number) or any BOT argument
    of the arena, run as a subprocess (default: random players)."""
    with _the_extra():
        from arena.research.gym import KnockoutWhistGym  # noqa: PLC0415 - see the module

    return KnockoutWhistGym(players, seat, opponents, **rule_options)


__all__ = ["MOVES", "gym_env", "pettingzoo_env"]
