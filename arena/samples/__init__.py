"""Sample bots that ship with arena, so every install has opponents to play against.

Each is a protocol v1 bot run as a module by arena's own Python, from any folder:
``python3 -m arena.samples.random_bot``, ``python3 -m arena.samples.greedy_bot`` (a
heuristic baseline worth beating) and ``python3 -m arena.samples.ismcts_bot`` (a tree
search). In a checkout they also run as files (``arena/samples/greedy_bot.py``).
:mod:`arena.samples.arena_bot` is the small helper they share. Nothing in arena imports
them: they are bots, talked to over pipes like any other.
"""
