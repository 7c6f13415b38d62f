"""Events and the one runner that plays them.

- :mod:`arena.events.event`: what the runner asks of an event (tournament, match, ladder);
- :mod:`arena.events.schedule`: what every schedule shares (plan, strategy, seeds, game ids);
- :mod:`arena.events.feed`: the games to play, rounds made as they are needed;
- :mod:`arena.events.run`: playing an event's games into its store with an executor.

Nothing here knows which kind of event it plays.
"""
