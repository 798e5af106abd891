"""Ctrl-C for every long command: stop within about a second, one line, exit code 130.

A bottom-layer module (like :mod:`szsolver.errors`): it imports nothing of the package,
only the standard library (and OR-Tools lazily, through :mod:`szsolver.cpsat`, for
:data:`CpSolver`).

How it works:

* :func:`install` (main thread; the ``szsolver`` command does it first thing) puts
  :func:`_handler` on SIGINT. The handler sets a process-wide flag and, while a command
  body runs (inside :func:`armed`), raises :class:`Interrupted` (a KeyboardInterrupt)
  like Python's own handler. Outside :func:`armed` (click parsing its arguments, the
  interpreter tearing down) it only sets the flag: the command line turns the flag into
  the interrupted exit afterwards, so click never prints ``Aborted!``.
* C code in the main thread reaches the handler through ``PyErr_CheckSignals`` (the
  endgame search every 4096 nodes, the complete-starmap search every 256 steps). The
  endgame search clears the error and reports ``interrupted``; the flag stays set, so
  the command still ends with exit code 130 after printing what it proved.
* A CP-SAT solve blocks in C++ where Python never runs a signal handler. :data:`CpSolver`
  (a drop-in ``cp_model.CpSolver``) therefore runs ``solve()`` in a worker thread while
  the main thread waits interruptibly; on Ctrl-C it calls ``stop_search()`` until the
  worker returns, then raises :class:`Interrupted`: a solve that saw Ctrl-C never
  returns a status, so nothing can report it as a time limit. It also sets
  ``catch_sigint_signal = False``: OR-Tools' own handler logs (allocates) inside the
  signal handler (seen deadlocking), stops the solve "as if a time limit was reached",
  and on return resets SIGINT to SIG_DFL, dropping Python's handler.
* :func:`raise_if_interrupted` raises :class:`Interrupted` if the flag is set: call it at loop
  boundaries whose steps may absorb a Ctrl-C (C code that clears the error).
* Two safety nets for an interrupt lost on the way (both seen in stress tests): a
  ``sys.unraisablehook`` (the handler fired inside a weakref callback or ``__del__``,
  where Python prints "Exception ignored" and goes on: delivered again 5 ms later) and a
  ``sys.meta_path`` finder (pybind11 turns an interrupt during an extension's start-up
  into ImportError, which ``try: import / except ImportError`` fallbacks swallow: every
  further import raises again).
* :func:`exit_interrupted` is the one way out: further Ctrl-C ignored, stdout flushed,
  :data:`MESSAGE` once on stderr, exit :data:`EXIT_CODE`.

Without :func:`install` (szsolver used as a library) :data:`CpSolver` still stops on
Python's own KeyboardInterrupt and raises it once the solve has stopped.
"""
from __future__ import annotations

import _thread
import contextlib
import os
import signal
import sys
import threading
import time

__all__ = ["Interrupted", "EXIT_CODE", "MESSAGE", "install", "uninstall", "installed",
           "requested", "raise_if_interrupted", "raise_if_absorbed", "STOPPED",
           "stopped_by_ctrl_c", "armed", "run_blocking", "run_cp_sat", "prepare",
           "stop_on_interrupt", "exit_interrupted", "CpSolver"]

EXIT_CODE = 130
MESSAGE = "Interrupted."
#: seconds the main thread waits between looks at the flag while a blocking call runs
POLL = 0.05
#: seconds a stopped CP-SAT solve gets to return before the command exits hard
GRACE = 0.8
#: leave with ``os._exit`` (after flushing) instead of SystemExit: interpreter
#: finalisation with OR-Tools, protobuf and numpy loaded took 0.1-0.7 s of the latency
#: under load. Only the real process sets it (:mod:`szsolver._entry`), never a test
#: runner calling the command in-process. Skips atexit handlers: files a command
#: writes are closed (``with``) once the exception has unwound to the command line.
FAST_EXIT = False


class Interrupted(KeyboardInterrupt):
    """Ctrl-C: the command stops. A KeyboardInterrupt, so ``except Exception`` never
    swallows it and ``except KeyboardInterrupt`` code keeps working."""


_requested = threading.Event()
_armed = 0
_installed = False
_exiting = False
_reported = False
_stoppers: list = []
_previous_handler = None
_previous_unraisable = sys.unraisablehook


def installed() -> bool:
    """Is the command-line handler on SIGINT (see :func:`install`)?"""
    return _installed


def requested() -> bool:
    """Has Ctrl-C been pressed since :func:`install`?"""
    return _requested.is_set()


def raise_if_interrupted() -> None:
    """Raise :class:`Interrupted` if Ctrl-C has been pressed."""
    if _requested.is_set():
        raise Interrupted()


#: a search's ``stopped`` when Ctrl-C stopped it (every game's solver says so, keeping
#: what it proved; after the value, "interrupted after the value was proved (...)")
STOPPED = "interrupted"


def stopped_by_ctrl_c(stopped) -> bool:
    """Does a search's ``stopped`` say a Ctrl-C stopped it?"""
    return isinstance(stopped, str) and stopped.startswith(STOPPED)


def raise_if_absorbed(stopped) -> None:
    """Raise :class:`Interrupted` if a search says a Ctrl-C stopped it
    (:func:`stopped_by_ctrl_c`): the search keeps what it proved for a command that
    prints it, and a caller with more work to do stops there."""
    if stopped_by_ctrl_c(stopped):
        raise Interrupted()


def _handler(signum, frame):
    _requested.set()
    if not _armed or _exiting:
        return
    if _inside(frame, _unraisable.__code__):
        _redeliver_later()  # not here (it would be ignored again): once more, later
        return
    raise Interrupted()


def _inside(frame, code, depth: int = 30) -> bool:
    while frame is not None and depth:
        if frame.f_code is code:
            return True
        frame, depth = frame.f_back, depth - 1
    return False


def install() -> bool:
    """Put the handler on SIGINT. Returns True if it did so now (then
    :func:`uninstall` restores what was there), False when it was already installed,
    outside the main thread, or when SIGINT is ignored: a process started with SIGINT
    ignored (``cmd &`` in a script, nohup) keeps ignoring it, as Python itself does."""
    global _installed, _previous_handler, _previous_unraisable
    if _installed or threading.current_thread() is not threading.main_thread():
        return False
    current = signal.getsignal(signal.SIGINT)
    if current is signal.SIG_IGN:
        return False
    _previous_handler = current
    signal.signal(signal.SIGINT, _handler)
    if _CheckOnImport not in sys.meta_path:
        sys.meta_path.insert(0, _CheckOnImport)
    if sys.unraisablehook is not _unraisable:
        _previous_unraisable = sys.unraisablehook
        sys.unraisablehook = _unraisable
    _installed = True
    return True


def uninstall() -> None:
    """Back to the SIGINT handler found by :func:`install`, and a clean state (for
    commands run in-process, e.g. by a test runner)."""
    global _installed
    if _installed and threading.current_thread() is threading.main_thread():
        previous = _previous_handler if _previous_handler is not None else signal.default_int_handler
        signal.signal(signal.SIGINT, previous)
    if sys.unraisablehook is _unraisable:
        sys.unraisablehook = _previous_unraisable
    with contextlib.suppress(ValueError):
        sys.meta_path.remove(_CheckOnImport)
    _installed = False
    reset()


def reset() -> None:
    """Forget a Ctrl-C and the way out it took, the handler left as it is: the end of
    a command run in-process when :func:`install` could not install (SIGINT ignored,
    as under ``nohup``), so the next command does not start interrupted."""
    global _armed, _exiting, _reported
    _requested.clear()
    _armed, _exiting, _reported = 0, False, False
    _stoppers.clear()


class _CheckOnImport:
    """First on ``sys.meta_path``: once Ctrl-C was pressed (inside :func:`armed`),
    every further import raises again. An interrupt raised while an extension module
    initialises comes out as ``ImportError: initialization failed`` (pybind11:
    OR-Tools), and the ``try: import x / except ImportError`` fallbacks in protobuf,
    numpy ... swallow it: the rest of the imports (about a second) ran before anything
    noticed. In the main thread only: the interrupt is the main thread's (a library's
    own thread importing then, e.g. Dask starting a worker process, would die with a
    traceback)."""

    @staticmethod
    def find_spec(name, path=None, target=None):
        if (_armed and not _exiting and _requested.is_set()
                and threading.current_thread() is threading.main_thread()):
            raise Interrupted()
        return None


def _unraisable(u):
    """The handler raised where exceptions are ignored (a weakref callback such as
    importlib's module-lock callback, a ``__del__``): Python would print "Exception
    ignored in ..." and go on. Stay silent and deliver the interrupt again, at the next
    bytecode of ordinary code."""
    if u.exc_type is not None and issubclass(u.exc_type, KeyboardInterrupt) and _requested.is_set():
        _redeliver_later()
        return
    _previous_unraisable(u)


#: held while a redelivery is on its way (one at a time)
_redelivery = threading.Lock()


def _redeliver_later() -> None:
    """Deliver the interrupt again in 5 ms (a thread), unless one is on its way. The
    redelivery can itself land in :func:`_unraisable` (a loaded machine: the main
    thread had not left it yet); the handler then asks for another one."""
    if not _exiting and _redelivery.acquire(blocking=False):
        threading.Thread(target=_redeliver, daemon=True).start()


def _redeliver() -> None:
    time.sleep(0.005)       # let the ignoring context finish first
    _redelivery.release()
    _thread.interrupt_main(signal.SIGINT)   # runs _handler in the main thread again


@contextlib.contextmanager
def armed():
    """The body of a long command: Ctrl-C raises :class:`Interrupted` at once (and on
    entry, if it was pressed before)."""
    global _armed
    _armed += 1
    try:
        raise_if_interrupted()
        yield
    finally:
        _armed -= 1


@contextlib.contextmanager
def stop_on_interrupt(stop):
    """Call ``stop()`` (thread-safe, idempotent) on Ctrl-C while the block runs. It is
    called from the main thread, never inside the signal handler (a handler calling
    e.g. ``CpSolver.stop_search`` could deadlock on the solver's lock if the main thread
    was interrupted while holding it)."""
    _stoppers.append(stop)
    try:
        yield
    finally:
        with contextlib.suppress(ValueError):
            _stoppers.remove(stop)


def _stop_all(extra=None) -> None:
    for stop in ([extra] if extra else []) + list(_stoppers):
        try:
            stop()
        except Exception:  # noqa: BLE001 - a stopper must never hide the interrupt
            pass


def run_blocking(fn, stop, grace: float = GRACE):
    """``fn()`` (a call that blocks in C without looking at signals, e.g. a CP-SAT
    solve) in a worker thread, the main thread waiting interruptibly. On Ctrl-C:
    ``stop()`` (and the registered stoppers) until the worker returns, then
    :class:`Interrupted`. Under the command line a worker that has not returned within
    ``grace`` seconds ends the process (exit 130: never exit with a thread inside C++);
    in a library it is left to finish in the background. Returns ``fn()``'s value or
    raises its exception. Outside the main thread it just calls ``fn()``."""
    raise_if_interrupted()
    if threading.current_thread() is not threading.main_thread():
        return fn()
    box: dict = {}
    done = threading.Event()

    def work():
        try:
            box["value"] = fn()
        except BaseException as e:  # noqa: BLE001 - handed to the main thread
            box["error"] = e
        finally:
            done.set()

    worker = threading.Thread(target=work, name="szsolver-blocking", daemon=True)
    try:
        worker.start()         # inside the try: start() waits, so Ctrl-C can land here
        while not done.wait(POLL):
            raise_if_interrupted()            # the handler did not raise (not armed): the flag did
    except KeyboardInterrupt:
        if _installed:
            _requested.set()
        if worker.ident is not None:       # started: never leave it running unstopped
            _stop_and_wait(stop, done, grace)
        raise Interrupted() from None
    worker.join()
    raise_if_interrupted()                    # Ctrl-C while it returned: its answer may be a stopped one
    if "error" in box:
        raise box.pop("error")
    return box["value"]


def _stop_and_wait(stop, done: threading.Event, grace: float) -> None:
    deadline = time.monotonic() + grace
    while True:
        try:
            _stop_all(stop)
            if done.wait(0.02):
                return
            if time.monotonic() >= deadline:
                if _installed:
                    _hard_exit()
                return
        except KeyboardInterrupt:  # another Ctrl-C: keep stopping, never leave it running
            continue


def _hard_exit() -> None:
    """The stopped work did not return in time: leave without unwinding (a daemon
    thread still inside C++ at interpreter shutdown can crash the exit)."""
    with contextlib.suppress(Exception):
        sys.stdout.flush()
    with contextlib.suppress(Exception):
        os.write(2, (MESSAGE + "\n").encode())
    os._exit(EXIT_CODE)


# --- CP-SAT ------------------------------------------------------------------------------

def prepare(parameters) -> None:
    """Never let OR-Tools install its own SIGINT handler."""
    parameters.catch_sigint_signal = False


def run_cp_sat(solver, model, callback=None, grace: float = GRACE):
    """``solver.solve(model, callback)`` stopped by Ctrl-C (then raises
    :class:`Interrupted`; never returns the status of an interrupted solve)."""
    prepare(solver.parameters)
    return run_blocking(lambda: solver.solve(model, callback), solver.stop_search, grace)


def _cp_solver_class():
    from .cpsat import cp_model as load
    cp_model = load()

    class CpSolver(cp_model.CpSolver):
        """``cp_model.CpSolver`` whose ``solve()`` is stopped by Ctrl-C (see
        :func:`run_cp_sat`) and never installs OR-Tools' SIGINT handler."""

        def solve(self, model, solution_callback=None):
            prepare(self.parameters)
            base = super().solve
            return run_blocking(lambda: base(model, solution_callback), self.stop_search)

        Solve = solve

    return CpSolver


def __getattr__(name):  # lazy: importing this module must not import OR-Tools
    if name == "CpSolver":
        cls = _cp_solver_class()
        globals()["CpSolver"] = cls
        return cls
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# --- the way out -------------------------------------------------------------------------

def exit_interrupted():
    """The one way out after Ctrl-C: further Ctrl-C ignored, stdout flushed,
    :data:`MESSAGE` once on stderr (after a line break on a terminal, which closes the
    ``^C`` echo or a progress line), exit :data:`EXIT_CODE` (``os._exit`` under
    :data:`FAST_EXIT`, else SystemExit)."""
    global _exiting, _reported
    _exiting = True
    _requested.set()
    if _installed and threading.current_thread() is threading.main_thread():
        with contextlib.suppress(Exception):
            signal.signal(signal.SIGINT, signal.SIG_IGN)
    with contextlib.suppress(Exception):
        sys.stdout.flush()
    if not _reported:
        _reported = True
        with contextlib.suppress(Exception):
            tty = sys.stderr.isatty()
            sys.stderr.write(("\n" if tty else "") + MESSAGE + "\n")
            sys.stderr.flush()
    if FAST_EXIT:
        os._exit(EXIT_CODE)
    raise SystemExit(EXIT_CODE)
