"""Test-suite hooks: the system-dependency policy of :mod:`tests.system`."""

from __future__ import annotations

import pytest

from tests.system import apply_policy


def pytest_runtest_setup(item: pytest.Item) -> None:
    """Apply the system-dependency policy to the tests marked with ``tests.system.needs``."""
    apply_policy(item)
