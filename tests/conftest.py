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
