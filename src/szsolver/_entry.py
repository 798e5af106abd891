"""The ``szsolver`` console script and ``python3 -m szsolver``: :func:`run`.

Light on purpose: Ctrl-C must be handled from the first moment, before the command
line's imports (click, and for some commands OR-Tools: about a second).

1. Module body, first statement: a flag-only SIGINT handler through the ``_signal``
   C module (no imports, microseconds). From here on a Ctrl-C no longer raises into
   the console script's wrapper or the imports below.
2. :func:`run`: the real handler (:func:`szsolver.interrupt.install`), then the
   command line is imported inside :func:`szsolver.interrupt.armed`: a Ctrl-C there
   ends with one line and exit code 130. Any exception once Ctrl-C was pressed counts
   as the interrupt (pybind11 turns a KeyboardInterrupt raised while OR-Tools'
   extension starts into ``ImportError: initialization failed``).

Before step 1 (interpreter start-up, ``site``, the package's ``__init__``) nothing of
ours can act: Python's own handler reports a KeyboardInterrupt there.
"""
import _signal

_early: list = []
if _signal.getsignal(_signal.SIGINT) != _signal.SIG_IGN:   # started ignored: keep it so
    _signal.signal(_signal.SIGINT, lambda signum, frame: _early.append(signum))

import sys  # noqa: E402


def run():
    """Run the ``szsolver`` command line on ``sys.argv``; never returns (SystemExit with
    the command's exit code)."""
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
    finally:
        _quiet_teardown()


def _quiet_teardown() -> None:
    """The command has ended and its output is complete: a Ctrl-C during the
    interpreter's teardown (a fraction of a second with OR-Tools loaded) no longer kills
    it with SIGINT, so the exit code is the command's. (At finalisation Python puts
    SIG_DFL back in place of a Python handler, but leaves SIG_IGN.)"""
    import signal
    from . import interrupt
    if interrupt.installed():
        signal.signal(signal.SIGINT, signal.SIG_IGN)
