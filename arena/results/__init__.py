"""The results folder: the SQLite store, its ledger and group commits, ratings, replays.

- :mod:`arena.results.store`: ``results.sqlite``, resumable after ``kill -9``;
- :mod:`arena.results.ratings` and :mod:`arena.results.skill`: TrueSkill as games finish;
- :mod:`arena.results.replays`: where each game's replay goes, written whole.
"""
