"""The ``szsolver`` console script and ``python3 -m szsolver``: :func:`run`.

Light on purpose: Ctrl-C must be handled from the first moment, before the command
line's imports (click, and for some commands OR-Tools: about a second).

1. Module body, first statement: a flag-only SIGINT handler through the ``_signal``
   C module (no imports, microseconds). From here on a Ctrl-C no longer raises into
   the console script's wrapper or the imports below. Only when the program's own
   script imports the module (the console script's wrapper, ``python3 -m szsolver``'s
   ``__main__``), which calls :func:`run` next: any other importer (a test runner, the
   doctests, a documentation tool) keeps its own handler, since nothing would ever
   act on the flag (its Ctrl-C would be ignored for good).
2. :func:`run`: the real handler (:func:`szsolver.interrupt.install`), then the
   command line is imported inside :func:`szsolver.interrupt.armed`: a Ctrl-C there
   ends with one line and exit code 130. Any exception once Ctrl-C was pressed counts
   as the interrupt (pybind11 turns a KeyboardInterrupt raised while OR-Tools'
   extension starts into ``ImportError: initialization failed``).
3. :func:`_leave`: the command has ended; its output is flushed and the process exits
   with its code without the interpreter's teardown, so a Ctrl-C up to the very end
   still ends as interrupted instead of being lost in the teardown.

The package's ``__init__`` comes before step 1: when it is the program starting (the
console script, ``python3 -m szsolver``) it sets the same flag-only handler first
thing, and this module shares its flag. Before that (interpreter start-up, ``site``)
nothing of ours can act: Python's own handler reports a KeyboardInterrupt there.
"""
import _signal
import sys      # loaded with the interpreter: no import happens


def _imported_by_the_program() -> bool:
    """Is the importer (the first frame outside the import machinery) the program's
    own script, ``__main__``?"""
    frame = sys._getframe(2)
    while frame is not None and frame.f_code.co_filename.startswith("<frozen importlib"):
        frame = frame.f_back
    return frame is not None and frame.f_globals.get("__name__") == "__main__"


# the package's own flag, where it took Ctrl-C while the program started (its imports
# come first), else a new one
from . import early_sigint as _early  # noqa: E402
if (_signal.getsignal(_signal.SIGINT) != _signal.SIG_IGN     # started ignored: keep it so
        and _imported_by_the_program()):
    _signal.signal(_signal.SIGINT, lambda signum, frame: _early.append(signum))


def run():
    """Run the ``szsolver`` command line on ``sys.argv``; never returns (it leaves with
    the command's exit code, see :func:`_leave`)."""
    interrupt = None
    try:
        from . import interrupt
        interrupt.FAST_EXIT = True
        interrupt.install()
        if _early:
            interrupt.exit_interrupted()
        with interrupt.armed():
            from .cli import main
    except BaseException as e:  # noqa: BLE001 - the interrupt, or a broken installation
        if isinstance(e, KeyboardInterrupt) or _early or (interrupt is not None
                                                          and interrupt.requested()):
            if interrupt is not None:
                interrupt.exit_interrupted()
            sys.stderr.write("Interrupted.\n")
            raise SystemExit(130) from None
        raise
    try:
        main(prog_name="szsolver")   # the name also under python3 -m szsolver; exits
    except SystemExit as e:
        _leave(e.code)
    finally:
        _quiet_teardown()


def _leave(code) -> None:
    """The command has ended: flush its output, run the atexit handlers, and leave with
    its exit code without the interpreter's teardown (0.1-0.7 s with OR-Tools loaded,
    during which a Ctrl-C could only be ignored or kill the process). A Ctrl-C up to
    this moment ends as interrupted (exit code 130, one line ``Interrupted.``), even if
    the output was complete: the user saw the command running and stopped it."""
    import atexit
    import os
    import signal
    from . import interrupt
    if code is None:
        code = 0
    elif not isinstance(code, int):        # SystemExit("message"), as Python prints it
        with _suppress():
            sys.stderr.write(f"{code}\n")
        code = 1
    for stream in (sys.stdout, sys.stderr):
        with _suppress():
            if stream is not None:
                stream.flush()
    with _suppress():
        atexit._run_exitfuncs()
    if interrupt.installed():
        with _suppress():                  # from here a Ctrl-C waits for the exit
            signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        if interrupt.requested():
            interrupt.exit_interrupted()
    os._exit(code)


def _suppress():
    import contextlib
    return contextlib.suppress(Exception)


def _quiet_teardown() -> None:
    """Something other than the command's exit escaped (it is printed as Python prints
    it): a Ctrl-C during the interpreter's teardown no longer kills the process with
    SIGINT. (At finalisation Python puts SIG_DFL back in place of a Python handler, but
    leaves SIG_IGN.)"""
    import signal
    from . import interrupt
    if interrupt.installed():
        signal.signal(signal.SIGINT, signal.SIG_IGN)
