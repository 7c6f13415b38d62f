"""A person at the table (``arena play human ...``): the seat, its terminal and its page.

- :mod:`arena.human.entry`: what a person typed, understood as a move;
- :mod:`arena.human.view`: what the seat knows, kept from its messages;
- :mod:`arena.human.player`: the referee's player for a person, and Ctrl-C;
- :mod:`arena.human.terminal`: the table as text, entries at a prompt;
- :mod:`arena.human.web` and :mod:`arena.human.page`: the table in a browser;
- :mod:`arena.human.seats`: which BOT arguments are people;
- :mod:`arena.human.table`: what the people at one game need (Ctrl-C, a front each).

The rules stay in :mod:`arena.game`: these modules only draw and ask.
"""
