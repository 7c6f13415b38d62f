"""Stops held while a step must not be cut in half (a child started, its pid not yet known)."""

from __future__ import annotations

import os
import signal

import pytest

from arena.signals import Stopped, held_stops, stop_like_ctrl_c


def test_a_ctrl_c_inside_held_stops_acts_when_the_block_ends() -> None:
    reached = False
    with pytest.raises(KeyboardInterrupt), held_stops():
        os.kill(os.getpid(), signal.SIGINT)
        reached = True  # not cut here
    assert reached
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_a_sigterm_inside_held_stops_is_the_stop_its_handler_makes() -> None:
    with stop_like_ctrl_c(), pytest.raises(Stopped) as stopped, held_stops():
        os.kill(os.getpid(), signal.SIGTERM)
        os.kill(os.getpid(), signal.SIGHUP)  # only the first acts
    assert stopped.value.signum == signal.SIGTERM


def test_the_handlers_are_the_same_after_the_block() -> None:
    before = [signal.getsignal(signum) for signum in (signal.SIGINT, signal.SIGTERM)]
    with held_stops():
        assert signal.getsignal(signal.SIGTERM) not in before
    assert [signal.getsignal(signum) for signum in (signal.SIGINT, signal.SIGTERM)] == before
