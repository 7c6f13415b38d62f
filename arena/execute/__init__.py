"""Where games are played: executors, which know games, bots and folders, never events.

- :mod:`arena.execute.base`: the executor interface and the setup workers play with;
- :mod:`arena.execute.seats`: a worker's bots, alive across games;
- :mod:`arena.execute.local`: this machine, in this process or a pool of processes;
- :mod:`arena.execute.cluster`: a Dask cluster (an optional extra).
"""
