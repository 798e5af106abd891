"""``szsolver serve`` (the web app on uvicorn) and the static page of
``szsolver puzzle daily --html`` (see :mod:`szsolver.web`)."""
from __future__ import annotations

import signal

import click

from .. import interrupt
from ..errors import MissingExtraError
from .common import BadInput, WholeRange, examples, write_file


def write_daily_html(path: str, gen, date: str) -> None:
    """Write the self-contained page that plays ``gen`` (the puzzle of ``date``)."""
    from ..web.puzzles import daily_html
    write_file(path, daily_html(gen, date))


@examples("szsolver serve  # then open http://127.0.0.1:8000/",
          "szsolver serve --host 0.0.0.0 --port 8080 --jobs 4")
@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on (0.0.0.0: every interface).")
@click.option("--port", default=8000, show_default=True, type=WholeRange(0, 65535),
              help="Port to listen on.")
@click.option("--jobs", "workers", default=2, show_default=True, type=WholeRange(1, 64),
              help="Analyses (solver, CP-SAT, puzzle generation) run at once, each in its own process.")
def serve_cmd(host, port, workers):
    """Serve the web app: the puzzle of the day and any puzzle by ID, the analysis
    board, and the JSON API (listed at /api). Needs the web extras:
    pip install "szsolver[web]"."""
    try:
        import uvicorn

        from ..web.app import create_app
    except ImportError as e:       # the system's failure (exit 1), not the input's
        raise MissingExtraError(f"the web app needs {e.name or 'its extras'}, which is not "
                                "installed: pip install \"szsolver[web]\"") from None
    _check_address(host, port)
    sockets = None
    if port == 0:                   # the system picks the port: bound here, so the
        sockets = [_bound(host, 0)]  # address printed and checked is the one served
        port = sockets[0].getsockname()[1]
    app = create_app(workers=workers, host=host, port=port)
    jobs = app.state.web.jobs

    class Server(uvicorn.Server):
        ctrl_c = False

        def handle_exit(self, sig, frame):
            self.ctrl_c = self.ctrl_c or sig == signal.SIGINT
            jobs.stop()             # running analyses end now: the shutdown waits for none
            super().handle_exit(sig, frame)

    server = Server(uvicorn.Config(app, host=host, port=port, log_level="warning",
                                   timeout_graceful_shutdown=5))
    jobs.start()                    # the job processes never see Ctrl-C
    click.echo(f"szsolver web app on http://{host if ':' not in host else f'[{host}]'}:{port}/ "
               "(Ctrl-C stops it)", err=True)
    # uvicorn raises a SIGTERM again once it has shut down, which would end the process
    # before the jobs' clean-up (the forkserver's folder left in TMPDIR): it ends as
    # SIGTERM's after it.
    previous = signal.signal(signal.SIGTERM, _terminated)
    terminated = False
    try:
        server.run(sockets=sockets)
    except _Terminated:
        terminated = True
    finally:
        signal.signal(signal.SIGTERM, previous)
        jobs.close()
    if terminated:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        signal.raise_signal(signal.SIGTERM)
    if server.ctrl_c:
        # uvicorn raises the signal again once its handler is gone, but this does
        # not hang on that: a server stopped by Ctrl-C ends as interrupted.
        raise interrupt.Interrupted()
    if not server.started:          # uvicorn has logged why (e.g. the port is taken)
        raise BadInput(f"cannot serve on {host}:{port}")


class _Terminated(BaseException):
    """SIGTERM reached the command (past uvicorn's own shutdown)."""


def _terminated(sig, frame):
    raise _Terminated()


def _check_address(host: str, port: int) -> None:
    """BadInput (one line) when ``host``:``port`` cannot be listened on (no such
    address, the port taken or not allowed), before anything starts."""
    import socket
    if not host.strip():
        raise BadInput("--host needs an address (127.0.0.1, 0.0.0.0, a name)")
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (socket.gaierror, UnicodeError) as e:
        raise BadInput(f"cannot serve on {host}: {getattr(e, 'strerror', None) or e}") from None
    _bound(host, port, infos[0]).close()


def _bound(host: str, port: int, info=None):
    """A socket bound to ``host``:``port`` (0: a free port the system picks), or
    BadInput (one line) naming why not."""
    import socket
    if info is None:
        info = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)[0]
    family, kind, proto, _name, address = info
    sock = None
    try:
        sock = socket.socket(family, kind, proto)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
    except OSError as e:
        if sock is not None:
            sock.close()
        raise BadInput(f"cannot serve on {host}:{port}: {e.strerror or e}") from None
    return sock
