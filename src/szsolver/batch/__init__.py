"""Batch work on a Dask cluster: many daily puzzles, many solves, many annotated
games, and one deep solve split over its root turns (see docs/batch.md).

Layout:

* :mod:`.cluster` - :func:`~.cluster.open_client`: a local ``distributed`` cluster of
  worker processes (one thread each), or a client of a running scheduler.
* :mod:`.units` - the work units: pure functions of their input (a date, a position
  line, a game's text), so a unit Dask retries after a lost worker gives the same answer.
* :mod:`.run` - :func:`~.run.run_units`: submit the units not done yet, write each
  result as it arrives (a JSON-lines file or one file per unit), resume from what an
  earlier run left.
* :mod:`.deep` - :func:`~.deep.deep_solve`: alpha-beta at the root over tasks.

Dask (``pip install szsolver[batch]``) is imported only inside these functions' bodies,
so the rest of szsolver never needs it.
"""
