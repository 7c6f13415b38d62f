"""Allow ``python -m arena`` as an alias of the ``arena`` command."""

from arena.cli import main

main()
