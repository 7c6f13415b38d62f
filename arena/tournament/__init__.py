"""Tournaments: who plays whom (schedule), where results live (store), ratings, running them.

- :mod:`arena.tournament.schedule`: the games of a round-robin or gauntlet, pure;
- :mod:`arena.tournament.store`: the SQLite results store, resumable;
- :mod:`arena.tournament.ratings`: TrueSkill ratings computed as games finish;
- :mod:`arena.tournament.runner`: playing the scheduled games, locally in parallel.
"""
