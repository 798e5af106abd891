"""Where batch work runs: a local Dask cluster, or a running scheduler.

Ctrl-C and the local cluster's worker processes. A terminal sends SIGINT to the whole
foreground process group, and the worker processes are in it. They must not see it
(a worker starting up would print a KeyboardInterrupt traceback, one running a unit
would die and be retried): the command alone handles Ctrl-C (exit 130, one line) and
ends its workers. So the workers are forked from multiprocessing's forkserver, started
here from the main thread with SIGINT *blocked* (not ignored): a signal mask survives
exec and fork, so the forkserver and every worker forked from it keep SIGINT blocked
from their first instruction on, and a Ctrl-C stays pending in them for good. This
process's own handler is never replaced and SIGINT is never ignored here (an ignored
SIGINT delivered to one of Dask's threads would be lost): a Ctrl-C that arrives while
the forkserver starts stays pending in the main thread and reaches the handler right
after. With SIGINT unblocked in the main thread, the kernel delivers a process-directed
SIGINT to it, which interrupts its waits on Dask (lock waits return on a signal).

After Ctrl-C the command line (which leaves without unwinding) kills the workers at
once rather than waiting for Dask to close them, and ends and reaps the forkserver and
the resource tracker (:func:`_leave_now`): nothing is left behind. Some of this reaches
into private attributes of multiprocessing and Dask (the forkserver's pid and lock,
the tracker's pipe, the nannies); each is looked up defensively, and without one that
step is skipped.
"""
from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading

from .. import interrupt
from ..errors import InputError, MissingExtraError
from ..inputs import SHOWN_PATH, cut

#: modules the forkserver imports once, so each worker process starts with them loaded
PRELOAD = ["distributed", "szsolver.batch.units", "szsolver.batch.deep",
           "szsolver.endgame.solver"]


def _distributed():
    try:
        import distributed
    except ImportError:
        raise MissingExtraError("batch commands need Dask, which is not installed: "
                                "pip install \"szsolver[batch]\"") from None
    return distributed


_SUBREAPER = False


def _become_subreaper() -> None:
    """Linux: orphans among this process's descendants (a worker forked as the
    forkserver was killed) become its children, so the way out after Ctrl-C can end
    and reap them (init would reap them only later). Only for the command line."""
    global _SUBREAPER
    if _SUBREAPER or not sys.platform.startswith("linux"):
        return
    with contextlib.suppress(Exception):
        import ctypes
        _SUBREAPER = ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0) == 0   # PR_SET_CHILD_SUBREAPER


def _start_helpers() -> bool:
    """Start multiprocessing's resource tracker and forkserver for the worker processes
    (see the module doc). The resource tracker (it unlinks the semaphores of processes
    that died without doing so) gets standard error on /dev/null: after Ctrl-C the
    command leaves without unwinding, and the tracker would print a warning about the
    semaphores it cleans up. The forkserver starts with SIGINT blocked. Returns False
    (nothing done) outside the main thread or without ``pthread_sigmask``; a forkserver
    already running is used as it is."""
    import multiprocessing.forkserver
    from multiprocessing import resource_tracker
    if threading.current_thread() is not threading.main_thread() \
            or not hasattr(signal, "pthread_sigmask"):
        return False
    # started before SIGINT is blocked below: it unblocks SIGINT after starting its
    # own process (which it shields itself)
    try:
        saved = os.dup(2)
    except OSError:                     # no standard error at all: nothing to spare it
        resource_tracker.ensure_running()
    else:
        try:
            null = os.open(os.devnull, os.O_WRONLY)
            try:
                os.dup2(null, 2)
                resource_tracker.ensure_running()
            finally:
                os.dup2(saved, 2)
                os.close(null)
        finally:
            os.close(saved)
    multiprocessing.forkserver.set_forkserver_preload(PRELOAD)
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        multiprocessing.forkserver.ensure_running()
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)
    try:        # else Dask imports every optional package here to build its own preload list
        import distributed.utils as du
        if getattr(du, "_forkserver_preload_set", None) is False:
            du._forkserver_preload_set = True
    except ImportError:
        pass
    return True


def _leave_now(before: tuple[set, set]) -> None:
    """After Ctrl-C, the command line about to exit without unwinding: kill (SIGKILL)
    the worker processes started since ``before`` (the process's multiprocessing
    children and Dask nannies then) at once, their nannies told first not to restart
    them (a worker inside a C search would notice its parent's exit only at the end of
    the search); Dask's logs about them silenced; the forkserver and the resource
    tracker ended too, the semaphores unlinked first; everything reaped (nothing is
    left behind, not even a zombie for init to reap). A library (no fast exit) closes
    the cluster instead: Dask stops its workers (SIGTERM ends one inside a C search)."""
    import logging
    import multiprocessing
    import multiprocessing.util
    from distributed import Nanny
    from distributed.core import Status
    logging.disable(logging.CRITICAL)
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.SIG_IGN)   # an impatient second Ctrl-C must
        # not cut this short (the way out ignores it from here on anyway)
    for nanny in set(Nanny._instances) - before[1]:
        with contextlib.suppress(Exception):
            nanny.status = Status.closing
    for p in multiprocessing.active_children():
        if p not in before[0]:
            with contextlib.suppress(Exception):
                p.kill()
    import multiprocessing.forkserver
    from multiprocessing import resource_tracker
    server = getattr(multiprocessing.forkserver, "_forkserver", None)
    lock = getattr(server, "_lock", None)
    if lock is not None:        # kept: a nanny starting a worker cannot start a new one
        lock.acquire(timeout=REAP_SECONDS)
    pid = getattr(server, "_forkserver_pid", None)
    tracker = getattr(resource_tracker, "_resource_tracker", None)
    if pid:
        # its children (the workers, one maybe being forked and not known to us yet)
        # killed and reaped by it (their parent) before it is killed itself
        import time
        deadline = time.monotonic() + REAP_SECONDS
        while (kids := _children_of(pid)) and time.monotonic() < deadline:
            for kid in kids:
                with contextlib.suppress(OSError):
                    os.kill(kid, signal.SIGKILL)
            time.sleep(0.005)
        _end(pid, signal.SIGKILL, 0.0)
    if _SUBREAPER:              # what the forkserver left (forked as it died) is ours now
        for kid in _children_of(os.getpid()):
            if kid != getattr(tracker, "_pid", None):
                _end(kid, signal.SIGKILL, 0.0)
    with contextlib.suppress(Exception):   # the semaphores' own clean-up, now and once
        multiprocessing.util._run_finalizers(0)
    fd, pid = getattr(tracker, "_fd", None), getattr(tracker, "_pid", None)
    if fd is not None and pid:
        # the end of its input (it exits), the descriptor left open on /dev/null: a
        # semaphore made and dropped meanwhile by Dask's thread unregisters quietly
        with contextlib.suppress(OSError):
            null = os.open(os.devnull, os.O_WRONLY)
            os.dup2(null, fd)
            os.close(null)
        _end(pid, None, REAP_SECONDS)


def _children_of(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (Linux: from /proc; elsewhere none)."""
    kids = []
    with contextlib.suppress(OSError):
        for name in os.listdir("/proc"):
            if not name.isdigit():
                continue
            try:
                with open(f"/proc/{name}/stat", "rb") as f:
                    stat = f.read()
            except OSError:
                continue
            fields = stat[stat.rfind(b")") + 2:].split()
            if len(fields) > 1 and int(fields[1]) == pid:
                kids.append(int(name))
    return kids


#: seconds the ways out above wait for a helper process to end by itself
REAP_SECONDS = 0.3


def _end(pid: int, sig, wait: float) -> None:
    """Send ``sig`` (None: nothing) to our child ``pid``, give it ``wait`` seconds to
    end, then SIGKILL; reap it."""
    import time
    with contextlib.suppress(OSError):
        if sig is not None:
            os.kill(pid, sig)
        deadline = time.monotonic() + wait
        while time.monotonic() < deadline:
            if os.waitpid(pid, os.WNOHANG)[0]:
                return
            time.sleep(0.005)
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)


#: How long a TCP scheduler address may take to answer Dask's handshake.
HANDSHAKE_SECONDS = 10


def _refused(address: str) -> str | None:
    """Why the plain TCP scheduler ``address`` cannot serve as one, found at once:
    nothing listens there, its host has no address, or what answers is no Dask
    scheduler (its answer makes no sense, or no Dask handshake comes within
    :data:`HANDSHAKE_SECONDS`; Dask's own connect retries for its whole timeout when
    refused and waits without end for a handshake). None when a scheduler answers,
    the host is slow to answer, or the address is not plain TCP: then Dask's
    connect decides."""
    import asyncio
    import socket
    from distributed.comm import connect, parse_address
    from distributed.comm.addressing import parse_host_port
    try:
        scheme, loc = parse_address(address)
        if scheme != "tcp":
            return None
        host, port = parse_host_port(loc)
    except ValueError:
        return None                 # malformed: Dask's error names it
    try:
        with socket.create_connection((host, port), timeout=1):
            pass
    except ConnectionRefusedError:
        return "connection refused (is the scheduler running?)"
    except socket.gaierror:
        return f"unknown host {host}"
    except OSError:
        return None

    async def handshake():
        comm = await asyncio.wait_for(connect(address, timeout=HANDSHAKE_SECONDS),
                                      HANDSHAKE_SECONDS)
        await comm.close()
    try:
        asyncio.run(handshake())
    except (asyncio.TimeoutError, TimeoutError):
        return f"no Dask scheduler answered there within {HANDSHAKE_SECONDS:g} s"
    except (OSError, MemoryError, ValueError, TypeError, EOFError):
        return "what answers there is not a Dask scheduler"
    return None


@contextlib.contextmanager
def open_client(workers: int | None = None, scheduler: str | None = None,
                threads: bool = False):
    """A ``distributed.Client``: of the scheduler at ``scheduler`` (``tcp://HOST:PORT``)
    when given, else of a new local cluster of ``workers`` processes (default: all
    cores), one thread each (the solver and generator are CPU-bound and hold the GIL),
    its dashboard on a free port (never a clash with another cluster). The local
    workers never see a terminal's Ctrl-C (see the module doc). ``threads``: one
    process of ``workers`` threads instead (the deep solve: its search runs without
    the GIL, and the threads of one process share one table).

    The local cluster is closed on the way out, whatever happens; after Ctrl-C
    (KeyboardInterrupt) its worker processes are killed at once instead, and when the
    command line leaves without unwinding (``interrupt.FAST_EXIT``) nothing waits for
    Dask to close (the scheduler and nannies live in this process)."""
    import multiprocessing
    d = _distributed()
    if scheduler is not None and workers is not None:
        raise InputError("give --workers or --scheduler, not both")
    if scheduler is not None:
        why = _refused(scheduler)
        if why:
            raise InputError(f"cannot reach the Dask scheduler at {cut(scheduler, SHOWN_PATH)}: "
                             f"{why}")
        try:
            client = d.Client(scheduler, timeout=10)
        except (OSError, TimeoutError, TypeError, ValueError, ImportError) as e:
            # TypeError: tls:// without Dask's TLS settings; ImportError: ucx:// or
            # ws:// without their packages
            raise InputError(f"cannot reach the Dask scheduler at {cut(scheduler, SHOWN_PATH)}: "
                             f"{str(e).splitlines()[0] if str(e) else type(e).__name__}") from None
        try:
            yield client
        finally:
            client.close()
        return
    import dask
    n = workers or os.cpu_count() or 1
    before = set(multiprocessing.active_children()), set(d.Nanny._instances)
    if interrupt.FAST_EXIT:
        _become_subreaper()
    _start_helpers()
    cluster = client = None
    interrupted = False
    with dask.config.set({"distributed.worker.multiprocessing-method": "forkserver"}):
        try:
            try:
                cluster = d.LocalCluster(n_workers=1 if threads else n,
                                         threads_per_worker=n if threads else 1,
                                         processes=True, dashboard_address=":0",
                                         silence_logs=50)
            except RuntimeError as e:
                # "Nanny failed to start" (its process killed, no memory for one): the
                # system's failure, said as such
                raise OSError(f"the local Dask cluster did not start: {e}") from None
            client = d.Client(cluster)
            yield client
        except KeyboardInterrupt:
            interrupted = True
            if interrupt.FAST_EXIT:
                _leave_now(before)
            raise
        finally:
            if not (interrupted and interrupt.FAST_EXIT):
                try:
                    if client is not None:
                        client.close()
                finally:
                    if cluster is not None:
                        cluster.close()
