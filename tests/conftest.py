"""Shared fixtures: every rules test runs on both back ends."""
import pytest

from szsolver.rules.backends import NAMES, position_class


@pytest.fixture(params=NAMES)
def Position(request):
    """The Position class of each back end in turn (the core must be built)."""
    return position_class(request.param)


def _sigint_state() -> dict:
    """SIGINT as this process has it: Python's handler, the kernel's (C code such as
    OR-Tools' own handler replaces it behind Python's back), whether the main thread
    blocks it, and the Ctrl-C module's handler and pressed flag."""
    import ctypes
    import signal
    import sys
    buf = ctypes.create_string_buffer(256)            # a struct sigaction, with room
    kernel = None
    if ctypes.CDLL(None).sigaction(signal.SIGINT, None, buf) == 0:
        kernel = ctypes.c_void_p.from_buffer(buf).value or 0    # sa_handler: 0 SIG_DFL, 1 SIG_IGN
    interrupt = sys.modules.get("szsolver.interrupt")
    return {"handler": signal.getsignal(signal.SIGINT), "kernel's handler": kernel,
            "blocked": signal.SIGINT in signal.pthread_sigmask(signal.SIG_BLOCK, []),
            "Ctrl-C handler installed": interrupt is not None and interrupt.installed(),
            "Ctrl-C pressed": interrupt is not None and interrupt.requested()}


@pytest.fixture(autouse=True)
def _clean_interrupt_state():
    """No test may leave SIGINT other than it found it: its handler (commands run
    in-process, by click's CliRunner or called directly, install the Ctrl-C handler and
    must put back the one they found, also when they end by an error or an interrupt),
    the kernel's handler, the signal mask, a pressed-Ctrl-C flag. A test that does fails
    (at its teardown) naming what it changed; the state is put back either way, so the
    tests after it start as this one did. (SIGINT is the process's: a handler left
    ignoring it, or recording it only, makes every later in-process Ctrl-C test finish
    as if Ctrl-C was never pressed, far from the test that left it. A whole run started
    with SIGINT ignored, as by ``cmd &`` in a script, starts every test so: the Ctrl-C
    tests set the handler they need themselves.)"""
    import signal
    import sys
    before = _sigint_state()
    yield
    after = _sigint_state()
    interrupt = sys.modules.get("szsolver.interrupt")
    if interrupt is not None:
        interrupt.uninstall()
    signal.signal(signal.SIGINT, before["handler"])
    if before["blocked"] != after["blocked"]:
        signal.pthread_sigmask(signal.SIG_BLOCK if before["blocked"] else signal.SIG_UNBLOCK,
                               {signal.SIGINT})
    changed = {k: (before[k], after[k]) for k in before if before[k] != after[k]}
    if changed:
        pytest.fail("the test left SIGINT changed (found -> left): " + "; ".join(
            f"{k}: {a!r} -> {b!r}" for k, (a, b) in changed.items()), pytrace=False)


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


@pytest.fixture(scope="session")
def start_server():
    """``start(*args, env=None, stdout=DEVNULL)``: ``szsolver serve ARGS`` as a process
    of its own session on a free 127.0.0.1 port, once it answers (within 90 s; the
    test fails with its stderr otherwise); returns (process, base address). The
    caller stops it."""
    import os
    import socket
    import subprocess
    import sys
    import time
    import urllib.error
    import urllib.request

    def start(*args, env=None, stdout=subprocess.DEVNULL, tries=3):
        # The free port is found by binding and letting go, so another process may
        # take it before the server binds: then the server exits, and a new port is tried.
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            port = sock.getsockname()[1]
        proc = subprocess.Popen([sys.executable, "-m", "szsolver", "serve", "--port", str(port), *args],
                                stdout=stdout, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
                                start_new_session=True, env=None if env is None else {**os.environ, **env})
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 90
        while True:
            try:
                urllib.request.urlopen(base + "/api/health", timeout=5).read()
                return proc, base
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                if proc.poll() is not None or time.monotonic() > deadline:
                    proc.kill()
                    _out, err = proc.communicate()
                    if tries > 1 and b"address already in use" in err.lower():
                        return start(*args, env=env, stdout=stdout, tries=tries - 1)
                    pytest.fail("szsolver serve did not start: " + err.decode())
                time.sleep(0.2)
    return start


@pytest.fixture
def worker_killer():
    """``make(client)``: a deep solve's progress callback that kills (SIGKILL) the first
    worker process of ``client`` busy with a job, once (``callback.killed``: its pid);
    afterwards waits (up to 30 s) for the nanny to bring the worker back."""
    import os
    import signal
    import time
    made = []

    def make(client):
        def kill_a_busy_worker(done, total):
            if kill_a_busy_worker.killed:
                return
            busy = [w for w, keys in client.processing().items() if keys]
            if busy:
                pid = client.run(os.getpid)[busy[0]]
                os.kill(pid, signal.SIGKILL)
                kill_a_busy_worker.killed.append(pid)
        kill_a_busy_worker.killed = []
        made.append((client, len(client.nthreads())))
        return kill_a_busy_worker
    yield make
    for client, n in made:
        deadline = time.time() + 30
        while len(client.run(os.getpid)) < n and time.time() < deadline:
            time.sleep(0.2)


@pytest.fixture
def ctrl_c_on_call():
    """``ctrl_c_on_call(real, n)``: ``real`` that raises Ctrl-C (Interrupted) on its
    ``n``-th call instead, as a person pressing it during that piece of work."""
    from szsolver import interrupt

    def make(real, n):
        calls = []

        def wrapped(*a, **k):
            calls.append(1)
            if len(calls) == n:
                raise interrupt.Interrupted()
            return real(*a, **k)
        return wrapped
    return make
