"""Bot processes: the only code in arena that starts processes.

- :mod:`arena.bots.spec`: what a BOT argument or a ``bot.toml`` means;
- :mod:`arena.bots.process`: one bot process, its pipes and deadlines;
- :mod:`arena.bots.player`: a bot process as a player of the referee.
"""
