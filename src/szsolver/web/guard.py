"""What a request must carry before the app does anything for it, and the headers
every answer gets: the web app runs on the user's own machine, and any website the
user visits can make the browser send requests to it.

- **Host**: the name the request was sent to must be one this server serves
  (:class:`Served`): the loopback names (``localhost``, ``127.0.0.1``, ``[::1]``,
  ``*.localhost``) and the ``--host`` it listens on, on its port; when it listens on
  every interface (``0.0.0.0``), also any address written as digits and the
  machine's own name. Anything else is a 421: a website's name made to point at
  127.0.0.1 (DNS rebinding) reaches no page.
- **POST** (every request that starts work): ``Content-Type: application/json``
  (415 otherwise: a plain form or ``text/plain`` post from another page, which a
  browser sends without asking, is refused) and an ``Origin`` that is this server's
  own, or none (403 otherwise).
- **A GET that starts work** (the paths in ``work_gets``: the live evaluation, which
  a page opens as an EventSource): an ``Origin`` that is this server's own, or none,
  and no ``Sec-Fetch-Site`` saying another site sent it (``cross-site``,
  ``same-site``: an image or a script tag on another page); 403 otherwise.
- **A GET that may start work** (the paths under ``page_gets``: the puzzles, whose
  page or JSON generates a new puzzle or works out a puzzle's logic steps on the
  first request): as above, except that another site may send the browser there as
  a top-level navigation (``Sec-Fetch-Mode: navigate``, ``Sec-Fetch-Dest:
  document``: a shared link clicked, a redirect, the address typed), which costs
  that page itself: an image, a script, a frame or a ``fetch`` of another page
  starts nothing (:func:`cross_site_problem`). A client that sends no
  ``Sec-Fetch-*`` headers (curl, a script, an old browser) is served.
- **Answers**: a Content-Security-Policy that lets the pages load their own scripts,
  styles and the API and nothing else (no inline script, no frames around them),
  ``X-Content-Type-Options: nosniff``, ``X-Frame-Options: DENY``; the static files
  ``Cache-Control: public, max-age=`` :data:`STATIC_MAX_AGE` (their ETag answers the
  rest with a 304; a refusal or a missing file is not kept).
"""
from __future__ import annotations

import ipaddress
import socket

from ..inputs import cut, is_digits, shown

LOOPBACK = ("localhost", "127.0.0.1", "::1")
EVERY_INTERFACE = ("0.0.0.0", "::", "")

CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
       "frame-ancestors 'none'")
STATIC_MAX_AGE = 300           # seconds a browser keeps a script or the style unasked

HEADERS = [(b"content-security-policy", CSP.encode()), (b"x-content-type-options", b"nosniff"),
           (b"x-frame-options", b"DENY")]


def split_host(value: str) -> tuple[str, str | None]:
    """(name, port or None) of a Host header: ``localhost:8000``, ``[::1]:8000``."""
    value = value.strip().lower()
    if value.startswith("["):
        name, _, rest = value[1:].partition("]")
        return name, rest[1:] if rest.startswith(":") else (None if not rest else rest)
    if value.count(":") == 1:
        name, port = value.split(":")
        return name, port
    return value, None


def _is_address(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


class Served:
    """The names and the port a server answers to (see the module doc); ``port``
    None (an app not yet bound, as in tests) takes any port."""

    def __init__(self, host: str = "127.0.0.1", port: int | None = None):
        host = host.strip().lower().strip("[]")
        self.port = port or None
        self.names = set(LOOPBACK)
        self.any_address = host in EVERY_INTERFACE
        if self.any_address:
            for name in (socket.gethostname(), socket.getfqdn()):
                self.names.add(name.lower())
        else:
            self.names.add(host)

    def problem(self, value: str | None) -> str | None:
        """None when a Host header ``value`` names this server, else why not."""
        if not value:
            return "the request has no Host header"
        name, port = split_host(value)
        name = name.rstrip(".")
        if port is not None and not (is_digits(port) and len(port) <= 5):
            return f"bad port in the Host header {shown(value)}"
        if self.port is not None and port is not None and int(port) != self.port:
            return f"this server is on port {self.port}, not {int(port)}"
        if name in self.names or name.endswith(".localhost") or \
                (self.any_address and _is_address(name)):
            return None
        return (f"this server does not serve the host {shown(name)}: open it as "
                f"http://localhost{'' if self.port is None else f':{self.port}'}/")


def _header(scope, name: bytes) -> str | None:
    for k, v in scope.get("headers", ()):
        if k == name:
            return v.decode("latin-1")
    return None


class Guard:
    """ASGI middleware: the checks and headers of the module doc. ``refuse(scope,
    status, message)`` makes the answer to a refused request (the app's own error
    answer: JSON under /api, a page elsewhere); ``work_gets``: the paths of the GETs
    that start work, ``page_gets``: the path prefixes of those that may."""

    def __init__(self, app, served: Served, refuse, work_gets=(), page_gets=()):
        self.app = app
        self.served = served
        self.refuse = refuse
        self.work_gets = frozenset(work_gets)
        self.page_gets = tuple(page_gets)

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        static = scope["path"].startswith("/static/")

        async def send_with_headers(message):
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", ()))
                have = {k.lower() for k, _v in headers}
                headers += [(k, v) for k, v in HEADERS if k not in have]
                if static and message["status"] in (200, 304) and b"cache-control" not in have:
                    headers.append((b"cache-control", f"public, max-age={STATIC_MAX_AGE}".encode()))
                message = {**message, "headers": headers}
            await send(message)

        refused = self.check(scope)
        if refused is not None:
            response = self.refuse(scope, *refused)
            return await response(scope, receive, send_with_headers)
        await self.app(scope, receive, send_with_headers)

    def check(self, scope) -> tuple[int, str] | None:
        """(status, message) when the request is refused, else None."""
        host = _header(scope, b"host")
        problem = self.served.problem(host)
        if problem is not None:
            return 421, problem
        method, path = scope["method"], scope["path"]
        if method in ("GET", "HEAD"):
            if path in self.work_gets or path.startswith(self.page_gets):
                problem = cross_site_problem(scope, host, navigation_ok=path not in self.work_gets)
                if problem is not None:
                    return 403, problem
            return None
        if method != "POST":
            return None
        problem = _foreign_origin(scope, host)
        if problem is not None:
            return 403, problem
        kind = (_header(scope, b"content-type") or "").split(";")[0].strip().lower()
        if kind != "application/json":
            return 415, ("the request must be JSON, sent with Content-Type: application/json"
                         + (f" (got {shown(kind)})" if kind else ""))
        return None


def _foreign_origin(scope, host: str) -> str | None:
    """Why the request's ``Origin`` is another website's (None: this server's, or none)."""
    origin = _header(scope, b"origin")
    own = f"{scope.get('scheme', 'http')}://{host.strip().lower()}"
    if origin is not None and origin.strip().lower() != own:
        return f"a request from another website ({shown(origin)}) cannot start work here"
    return None


def _fetch_header(scope, name: bytes) -> str:
    return (_header(scope, name) or "").strip().lower()


def cross_site_problem(scope, host: str, navigation_ok: bool) -> str | None:
    """Why a GET that may start work is refused (None: it is served): another website's
    ``Origin``, or ``Sec-Fetch-Site`` saying another site's page sent it (``cross-site``,
    ``same-site``), unless ``navigation_ok`` and the browser says it is a top-level
    navigation (``Sec-Fetch-Mode: navigate``, ``Sec-Fetch-Dest: document``). A request
    with no ``Sec-Fetch-Site`` (curl, an old browser) or with ``same-origin`` or
    ``none`` (the user's own typing or bookmark) is served."""
    problem = _foreign_origin(scope, host)
    if problem is not None:
        return problem
    site = _fetch_header(scope, b"sec-fetch-site")
    if site not in ("cross-site", "same-site"):
        return None
    mode, dest = _fetch_header(scope, b"sec-fetch-mode"), _fetch_header(scope, b"sec-fetch-dest")
    if navigation_ok and mode == "navigate" and dest in ("document", ""):
        return None
    if not navigation_ok:
        return "a request from another website cannot start work here"
    return (f"a request from another website's page ({cut(dest or mode or 'a request')}) "
            "cannot start work here: open the link in the browser")
