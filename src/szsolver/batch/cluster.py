"""Where batch work runs: a local Dask cluster, or a running scheduler."""
from __future__ import annotations

import contextlib
import os

from ..errors import InputError, UnsupportedError


def _distributed():
    try:
        import distributed
    except ImportError:
        raise UnsupportedError("batch commands need Dask: pip install 'szsolver[batch]'") from None
    return distributed


@contextlib.contextmanager
def open_client(workers: int | None = None, scheduler: str | None = None):
    """A ``distributed.Client``: of the scheduler at ``scheduler`` (``tcp://HOST:PORT``)
    when given, else of a new local cluster of ``workers`` processes (default: all
    cores), one thread each (the solver and generator are CPU-bound and hold the GIL),
    its dashboard on a free port (never a clash with another cluster).
    The local cluster is closed on the way out, whatever happens."""
    d = _distributed()
    if scheduler is not None and workers is not None:
        raise InputError("give --workers or --scheduler, not both")
    if scheduler is not None:
        try:
            client = d.Client(scheduler, timeout=10)
        except (OSError, TimeoutError) as e:
            raise InputError(f"cannot reach the Dask scheduler at {scheduler}: "
                             f"{str(e).splitlines()[0] if str(e) else type(e).__name__}") from None
        try:
            yield client
        finally:
            client.close()
        return
    n = workers or os.cpu_count() or 1
    cluster = d.LocalCluster(n_workers=n, threads_per_worker=1, processes=True,
                             dashboard_address=":0", silence_logs=50)
    try:
        client = d.Client(cluster)
        try:
            yield client
        finally:
            client.close()
    finally:
        cluster.close()
