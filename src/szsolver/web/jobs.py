"""Heavy jobs off the event loop: each in its own process, a bounded number at once,
killed at a deadline.

The endgame search and CP-SAT run in C and may hold the GIL for seconds; a thread
would stall the server, and some calls (the potential map, the solver's PV walk,
puzzle generation) have no overall limit of their own. So a job is a function of
:mod:`szsolver.web.tasks` run in a fresh process forked from a forkserver that has
the heavy modules already imported (about 20 ms a job), with

- at most ``workers`` jobs running at once (an anyio CapacityLimiter), and at most
  ``max_waiting`` more waiting for a turn, ``per_client`` of them from one client
  address (beyond that: :class:`Busy`, a 503 that says when to try again);
- a hard deadline per job: the process is killed when it passes
  (:class:`TimedOut`, a 504) - the function is also given its time limit, so it
  normally answers well before;
- a job whose client has gone is cancelled: :meth:`Jobs.run` asks ``gone()`` (the
  request's ``is_disconnected``) every :data:`POLL` seconds; a waiting job leaves the
  queue at once, a running one's process is killed, and the request ends with
  :class:`Gone` (nobody reads it);
- a job may report its progress: given ``progress`` (an async callable), the function
  is called with ``report=`` a callable that sends plain data back at once, and each
  report reaches ``progress`` while the job runs (a live evaluation's events, an
  annotation's "turn k of N"); should ``progress`` fail (the client's connection has
  gone), the job's process is killed as for a client that hung up;
- bad input found by the job (an :class:`szsolver.errors.InputError`) re-raised here
  as the same class with the same message; anything else (a bug) is :class:`JobFailed`;
- Ctrl-C is for the server alone: a terminal sends it to the whole process group, so
  the job processes (and the forkserver) ignore it, and :meth:`Jobs.stop` (called when
  the server is told to stop) kills the running jobs, whose requests then end at once
  with :class:`Busy` ("shutting down") instead of holding up the shutdown;
  :meth:`Jobs.close` ends the forkserver too and removes its temporary folder.

The event loop waits for a job's answer on the pipe's file descriptor, so waiting
holds no thread; threads only start a process and read its answer.

Jobs take and return plain data (str, numbers, dicts, lists): nothing else crosses.
"""
from __future__ import annotations

import multiprocessing
import multiprocessing.forkserver
import multiprocessing.process
import logging
import os
import shutil
import signal
import threading
import time
import traceback

import anyio
import anyio.to_thread

from .. import errors

#: the server's log: a job that fails (a bug) is logged here with its traceback
log = logging.getLogger("szsolver.web")

# Imported once in the forkserver, so each job starts with them loaded.
PRELOAD = ["szsolver.web.tasks"]

#: seconds between looks at whether a job's client has gone
POLL = 0.25
#: seconds a client told "busy" is asked to wait before trying again (Retry-After)
RETRY_AFTER = 5

SHUTTING_DOWN = "the server is shutting down"


class JobError(Exception):
    """A job did not give an answer; ``status`` is the HTTP status to report."""
    status = 500


class Busy(JobError):
    status = 503


class TimedOut(JobError):
    status = 504


class JobFailed(JobError):
    status = 500


class Gone(JobError):
    """The client hung up, so its job was cancelled; nobody reads this answer (499 is
    the status servers log for a client that closed the request)."""
    status = 499


def _child(conn, fn, args, reports=False):
    """In the job's process: run ``fn(*args)`` (with ``report=`` a callable sending its
    argument back as progress, when ``reports``) and send back what happened."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)     # Ctrl-C stops the server, not a job
    try:
        if reports:
            result = fn(*args, report=lambda data: conn.send(("progress", data)))
        else:
            result = fn(*args)
        conn.send(("ok", result))
    except errors.InputError as e:
        conn.send(("input", type(e).__name__, str(e)))
    except BaseException as e:  # noqa: BLE001 - everything else is reported as a failure
        conn.send(("error", type(e).__name__, "".join(traceback.format_exception_only(e)).strip(),
                   "".join(traceback.format_exception(e))))
    finally:
        conn.close()


def _name(fn) -> str:
    return getattr(fn, "__qualname__", None) or repr(fn)


def _receive(conn):
    """One whole message from ``conn``, in a worker thread. The event loop's wait for
    the pipe to be readable may have made it non-blocking (uvloop, which ``serve`` runs
    on, does), and then an answer longer than the pipe's buffer came back half read
    (BlockingIOError): the read is made blocking again first."""
    os.set_blocking(conn.fileno(), True)
    return conn.recv()


class Jobs:
    """Runs heavy jobs (see the module doc). Create it anywhere; use it from one event loop."""

    def __init__(self, workers: int = 2, max_waiting: int = 64, per_client: int = 4,
                 preload=PRELOAD):
        if workers < 1:
            raise ValueError("workers must be at least 1")
        self.workers = workers
        self.max_waiting = max_waiting
        self.per_client = per_client
        self._ctx = multiprocessing.get_context("forkserver")
        self._ctx.set_forkserver_preload(list(preload))
        self._limiter = None      # made inside the event loop, on first use
        self._waiting = 0
        self._waiting_by: dict = {}
        self._live: set = set()
        # reentrant: stop() may run in a signal handler while the main thread holds it
        self._lock = threading.RLock()
        self.closed = False
        self.stats = {"started": 0, "done": 0, "timed_out": 0, "failed": 0, "busy": 0,
                      "cancelled": 0, "refused": 0}

    def _limiters(self):
        if self._limiter is None:
            self._limiter = anyio.CapacityLimiter(self.workers)
        return self._limiter

    def counts(self) -> dict:
        """Jobs running and waiting now, and the counts so far (``/api/health``)."""
        return {"running": len(self._live), "waiting": self._waiting, **self.stats}

    def admit(self, client=None) -> None:
        """:class:`Busy` when a job of ``client`` (an address, or None) could not wait
        now: the queue is full, or that client has ``per_client`` jobs waiting."""
        if self.closed:
            raise Busy(SHUTTING_DOWN)
        if self._waiting >= self.max_waiting:
            self.stats["busy"] += 1
            raise Busy("the server is busy with other analyses: try again in a moment")
        if client is not None and self._waiting_by.get(client, 0) >= self.per_client:
            self.stats["busy"] += 1
            raise Busy(f"{self.per_client} analyses of yours are waiting already: "
                       "try again when one is done")

    async def run(self, fn, *args, deadline: float, client=None, gone=None, progress=None):
        """``fn(*args)`` in a new process; its result, or an InputError it raised, or
        Busy / TimedOut (killed after ``deadline`` seconds of running) / JobFailed, or
        Gone when ``gone()`` (an async callable, polled) said the client has hung up:
        the job then leaves the queue, or its process is killed. With ``progress``
        (an async callable): ``fn(*args, report=...)``, each report awaited by
        ``progress`` as it comes (what ``progress`` raises kills the job and is raised
        here; :class:`Gone` from it counts the job as cancelled)."""
        limiter = self._limiters()
        self.admit(client)
        try:
            return await self._watched(limiter, client, fn, args, deadline, gone, progress)
        except Gone:
            self.stats["cancelled"] += 1
            raise

    async def _watched(self, limiter, client, fn, args, deadline, gone, progress):
        if gone is None:
            return await self._queued(limiter, client, fn, args, deadline, progress)
        outcome = None

        async def watch(scope):
            while True:
                await anyio.sleep(POLL)
                try:
                    hung_up = await gone()
                except Exception:  # noqa: BLE001 - a connection we cannot ask is not gone
                    hung_up = False
                if hung_up:
                    scope.cancel()
                    return

        async with anyio.create_task_group() as tg:
            tg.start_soon(watch, tg.cancel_scope)
            try:
                outcome = (True, await self._queued(limiter, client, fn, args, deadline,
                                                    progress))
            except Exception as e:  # noqa: BLE001 - re-raised below, outside the task group
                outcome = (False, e)
            tg.cancel_scope.cancel()
        if outcome is None:             # the watcher cancelled it
            raise Gone("the client has gone: its analysis was stopped")
        if not outcome[0]:
            raise outcome[1]
        return outcome[1]

    async def _queued(self, limiter, client, fn, args, deadline, progress=None):
        self._waiting += 1
        if client is not None:
            self._waiting_by[client] = self._waiting_by.get(client, 0) + 1
        try:
            await limiter.acquire()
        finally:
            self._waiting -= 1
            if client is not None:
                self._waiting_by[client] -= 1
                if not self._waiting_by[client]:
                    del self._waiting_by[client]
        try:
            return await self._process(fn, args, deadline, progress)
        finally:
            limiter.release()

    async def _process(self, fn, args, deadline, progress=None):
        if self.closed:
            raise Busy(SHUTTING_DOWN)
        parent, child = self._ctx.Pipe(duplex=False)
        proc = self._ctx.Process(target=_child, args=(child, fn, args, progress is not None),
                                 daemon=True)
        try:
            # not abandoned when cancelled: the process, once made, is killed below
            await anyio.to_thread.run_sync(proc.start)
            child.close()
            with self._lock:
                self._live.add(proc)
                self.stats["started"] += 1
            if self.closed:             # stop() came while the process was being made
                proc.kill()
            msg = None
            with anyio.move_on_after(deadline):
                while True:
                    await anyio.wait_readable(parent)
                    try:
                        msg = await anyio.to_thread.run_sync(_receive, parent)
                    except EOFError:
                        if self.closed:                   # killed by stop()
                            raise Busy(SHUTTING_DOWN) from None
                        self.stats["failed"] += 1
                        await anyio.to_thread.run_sync(proc.join, 1)
                        log.error("the analysis process of %s ended without an answer "
                                  "(exit code %s)", _name(fn), proc.exitcode)
                        raise JobFailed("the analysis process ended without an answer") from None
                    if msg[0] != "progress":
                        break
                    await progress(msg[1])
                    msg = None
            if msg is None:
                self.stats["timed_out"] += 1
                raise TimedOut(f"no answer within the server's limit of {deadline:g} s")
        finally:
            with anyio.CancelScope(shield=True):
                if proc.pid is not None:
                    if proc.is_alive():
                        proc.kill()
                    await anyio.to_thread.run_sync(proc.join, 5)
                child.close()
                parent.close()
                with self._lock:
                    self._live.discard(proc)
        if msg[0] == "ok":
            self.stats["done"] += 1
            return msg[1]
        if msg[0] == "input":           # bad input the work itself found: counted too
            self.stats["refused"] += 1
            cls = getattr(errors, msg[1], errors.InputError)
            raise cls(msg[2])
        self.stats["failed"] += 1
        log.error("the analysis %s failed in its process:\n%s", _name(fn), msg[3].rstrip())
        raise JobFailed(f"the analysis failed: {msg[2]}")

    def warm_up(self) -> float:
        """Start the forkserver (imports the heavy modules once); seconds taken."""
        t = time.perf_counter()
        parent, child = self._ctx.Pipe(duplex=False)
        proc = self._ctx.Process(target=_child, args=(child, _nothing, ()), daemon=True)
        proc.start()
        child.close()
        parent.poll(120)
        proc.join(5)
        parent.close()
        return time.perf_counter() - t

    def start(self) -> None:
        """Start the forkserver now, from the main thread, with SIGINT ignored: an
        ignored signal stays ignored across exec, so the forkserver ignores Ctrl-C from
        its first instruction, also while it imports the heavy modules (before any
        Python code of ours could act), and so does every job process forked from it.
        Meanwhile SIGINT is blocked here: a Ctrl-C that arrives then stays pending and
        reaches this process's own handler once it is back. Elsewhere (a thread, a
        platform without the forkserver) the forkserver starts on first use."""
        if threading.current_thread() is not threading.main_thread() \
                or not hasattr(signal, "pthread_sigmask"):
            return
        mask = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        handler = signal.signal(signal.SIGINT, signal.SIG_IGN)
        try:
            multiprocessing.forkserver.ensure_running()
        finally:
            signal.signal(signal.SIGINT, handler)
            signal.pthread_sigmask(signal.SIG_SETMASK, mask)

    def stop(self) -> None:
        """The server is stopping: no new jobs (:class:`Busy`), running ones killed.
        Safe in a signal handler."""
        self.closed = True
        self.shutdown()

    def close(self) -> None:
        """The server has ended: :meth:`stop`, the forkserver killed too (it would
        first finish importing the heavy modules, seconds under load, then notice),
        and multiprocessing's temporary folder (the forkserver's socket) removed: the
        command ends with ``os._exit``, which skips multiprocessing's own clean-up."""
        self.stop()
        server = getattr(multiprocessing.forkserver, "_forkserver", None)
        pid = getattr(server, "_forkserver_pid", None)
        if pid:
            try:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
            except OSError:         # gone already, or reaped elsewhere
                pass
        config = multiprocessing.process.current_process()._config
        tempdir = config.pop("tempdir", None)
        if tempdir:
            shutil.rmtree(tempdir, ignore_errors=True)

    def shutdown(self) -> None:
        """Kill every running job."""
        with self._lock:
            live = list(self._live)
        for proc in live:
            if proc.is_alive():
                proc.kill()


def _nothing():
    return None
