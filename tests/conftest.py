"""Shared fixtures: every rules test runs on both back ends."""
import pytest

from szsolver.rules.backends import NAMES, position_class


@pytest.fixture(params=NAMES)
def Position(request):
    """The Position class of each back end in turn (the core must be built)."""
    return position_class(request.param)


@pytest.fixture(autouse=True)
def _clean_interrupt_state():
    """Commands run in-process (click's CliRunner) install the Ctrl-C handler; no test
    may leave it, or a pressed-Ctrl-C flag, to the tests after it."""
    import signal
    import sys
    before = signal.getsignal(signal.SIGINT)
    yield
    interrupt = sys.modules.get("szsolver.interrupt")
    if interrupt is not None:
        interrupt.uninstall()
    signal.signal(signal.SIGINT, before)


@pytest.fixture
def on_a_terminal():
    """``run(args)``: ``python -m szsolver ARGS`` with stderr on a pseudo-terminal (the
    progress line's home); returns (exit code, stdout text, stderr bytes as the
    terminal got them)."""
    import os
    import pty
    import subprocess
    import sys

    def run(args):
        master, slave = pty.openpty()
        p = subprocess.Popen([sys.executable, "-m", "szsolver", *args],
                             stdout=subprocess.PIPE, stderr=slave, stdin=subprocess.DEVNULL)
        os.close(slave)
        err = b""
        while True:
            try:
                chunk = os.read(master, 4096)
            except OSError:                 # the other end closed: the command ended
                break
            if not chunk:
                break
            err += chunk
        out = p.stdout.read().decode()
        code = p.wait()
        os.close(master)
        return code, out, err
    return run
