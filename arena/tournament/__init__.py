"""Tournaments: an event of the runner (:mod:`arena.events`) whose schedules are round-robin,
sampled or Swiss.

- :mod:`arena.tournament.event`: the tournament as the runner plays it, league versions;
- :mod:`arena.tournament.schedule`: who meets whom, pure;
- :mod:`arena.tournament.config` and :mod:`arena.tournament.settings`: the config file and
  flags, resolved once.
"""
