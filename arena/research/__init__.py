"""Knockout Whist for AI researchers' libraries: PettingZoo, Gymnasium and OpenSpiel.

Needs the ``research`` extra (``pip install '.[research]'``); the core
install never imports this package.

- :func:`pettingzoo_env`: the AEC environment (:mod:`arena.research.aec`);
- :mod:`arena.research.encode`: observations and action numbers, the same
  for every environment and for :mod:`arena.bridge`.
"""

from __future__ import annotations

from typing import Any

from arena.research.aec import KnockoutWhistEnv


def pettingzoo_env(
    players: int = 4, seed: int | None = None, **rule_options: Any
) -> KnockoutWhistEnv:
    """A PettingZoo AEC environment of a ``players``-seat game under ``rule_options``
    (keywords of :class:`arena.game.Rules`), dealt from ``seed`` as ``arena play --seed``."""
    return KnockoutWhistEnv(players, seed, **rule_options)


__all__ = ["KnockoutWhistEnv", "pettingzoo_env"]
