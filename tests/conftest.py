"""Test-suite hooks: the system-dependency policy of :mod:`tests.system`, and a SIGINT
the arena's processes can receive."""

from __future__ import annotations

import signal

import pytest

from tests.system import apply_policy

# The Ctrl-C tests send SIGINT to the arena's processes, which inherit an ignored SIGINT
# as ignored (a shell starts a background job so: `make test &`) and would then run on.
# A handler, unlike "ignore", is not inherited: they start with the default.
if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


def pytest_runtest_setup(item: pytest.Item) -> None:
    """Apply the system-dependency policy to the tests marked with ``tests.system.needs``."""
    apply_policy(item)
