"""Test-suite hooks: the system-dependency policy of :mod:`tests.system`, a SIGINT the
arena's processes can receive, one build cache for the run, and the longest test files
first."""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator

import pytest

from arena.bots.builds import CACHE_ENV
from tests.system import apply_policy

# The Ctrl-C tests send SIGINT to the arena's processes, which inherit an ignored SIGINT
# as ignored (a shell starts a background job so: `make test &`) and would then run on.
# A handler, unlike "ignore", is not inherited: they start with the default.
if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


@pytest.fixture(scope="session", autouse=True)
def build_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Build records of this run only, in its temporary folder, shared by its workers (each
    worker's base folder sits in the run's): a kit the tests build is built once a run, as
    arena builds it for a user, and the user's own cache is left alone."""
    base = tmp_path_factory.getbasetemp()
    shared = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base
    before = os.environ.get(CACHE_ENV)
    os.environ[CACHE_ENV] = str(shared / "arena-cache")
    yield
    if before is None:
        del os.environ[CACHE_ENV]
    else:
        os.environ[CACHE_ENV] = before


def pytest_runtest_setup(item: pytest.Item) -> None:
    """Apply the system-dependency policy to the tests marked with ``tests.system.needs``."""
    apply_policy(item)


#: Seconds each of the longest test files took with two workers (make test, 2 CPUs).
#: A parallel run hands out whole files in collection order; started last, one of these
#: kept one worker busy for a minute or two after the other had run out of files.
LONGEST = {
    "test_kits.py": 181,
    "test_browser.py": 152,
    "test_cli_bots.py": 134,
    "test_research.py": 124,
    "test_cluster.py": 86,
    "test_tournament.py": 84,
    "test_readme.py": 80,
    "test_terminal.py": 53,
    "test_match.py": 52,
    "test_newbot.py": 46,
}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The longest files first, the rest in their order (a stable sort: the same on every
    worker, as pytest-xdist requires)."""
    items.sort(key=lambda item: -LONGEST.get(item.path.name, 0))
