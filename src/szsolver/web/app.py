"""The Starlette application: pages, the JSON API and the static files.

:func:`create_app` builds it; ``szsolver serve`` runs it on uvicorn. The API is
listed once, in :data:`ENDPOINTS`, which both routes the requests and writes the
documentation page (``/api``) and the OpenAPI schema (``/api/openapi.json``).

Robustness, as contracts:

- a request body is read up to :data:`MAX_BODY` bytes (413 past it), must be one
  JSON object with only the keys the endpoint knows (400 otherwise);
- bad input raises an :class:`szsolver.errors.InputError` somewhere below; it becomes
  ``{"error": message}`` with status 400 (404 for an unknown puzzle);
- every request passes :mod:`szsolver.web.guard` first: a Host this server serves,
  for a POST a JSON Content-Type and no other website's Origin, for a GET that may
  start work (a puzzle, the live evaluation) no other website's page behind it;
- the solver, CP-SAT and puzzle generation run as jobs (:mod:`szsolver.web.jobs`):
  off the event loop, a bounded number at once (and a few waiting per client), each
  with a time limit capped at :data:`szsolver.web.analysis.TIME_CAP` and a hard
  deadline, cancelled when the client hangs up;
- the live evaluation and the annotation's progress stream as Server-Sent Events
  (:class:`JobEvents`): the job's reports as they come, then its answer or its
  error, each one event; the job stops when the client closes the stream;
- a new puzzle is generated only from a seed of at most :data:`MAX_SEED` characters
  (a daily one of a date in :data:`DAILY_YEARS`), at most :data:`GENERATIONS` a client
  in :data:`GENERATION_WINDOW` seconds (429 past it); the puzzle cache holds at most
  :data:`CACHE_BYTES`;
- nothing from a request names a file: positions, games and puzzles are parsed as
  text, puzzle IDs are looked up in the packaged collection or rebuilt from their seed.
"""
from __future__ import annotations

import datetime as _dt
import json
import logging
import math
import time
from collections import OrderedDict, deque
from contextlib import asynccontextmanager
from html import escape

import anyio
import anyio.to_thread
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.gzip import GZipMiddleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from .. import errors, games
from ..inputs import MAX_DIGITS, is_digits, shown
from ..formats.notation import json_loads
from ..formats.record import with_warnings
from . import analysis as an
from . import assets, puzzles, tasks
from .guard import Guard, Served
from .jobs import RETRY_AFTER, Gone, JobError, Jobs

log = logging.getLogger("szsolver.web")

MAX_BODY = 64 * 1024          # bytes in a request body
#: seconds a request's body may take to arrive: a client that sends part of one and
#: waits holds a connection and nothing else (a 408 then)
BODY_SECONDS = 10.0
PUZZLE_DEADLINE = 120.0       # seconds to generate a puzzle from its seed (the slowest take ~15)
STEPS_DEADLINE = 60.0
GRACE = 10.0                  # past a job's own time limit before it is killed
ANNOTATE_DEADLINE = 180.0
CACHE_BYTES = 32 * 1024 * 1024   # puzzles kept in memory: pages, puzzles and steps, in bytes
MAX_SEED = 40                 # characters of a seed the server generates a new puzzle from
DAILY_YEARS = (2000, 2099)    # the years whose daily puzzles the server makes
GENERATIONS = 6               # new puzzles one client may have generated ...
GENERATION_WINDOW = 60.0      # ... within this many seconds
GZIP_FROM = 1000              # bytes: answers at least this long are compressed


class ApiError(Exception):
    def __init__(self, status: int, message: str, retry_after: int | None = None):
        super().__init__(message)
        self.status = status
        self.message = message
        self.retry_after = retry_after


def _json_error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


def client_of(request: Request):
    """The client's address (its per-client limits are counted by it)."""
    return request.client.host if request.client else None


async def run_job(request: Request, fn, *args, deadline: float, progress=None):
    """``fn(*args)`` as a job of this request's client, cancelled if it hangs up (with
    ``progress``: its reports, see :meth:`szsolver.web.jobs.Jobs.run`)."""
    return await _web(request).jobs.run(fn, *args, deadline=deadline, client=client_of(request),
                                        gone=request.is_disconnected, progress=progress)


def event_text(event: str, data) -> bytes:
    """One Server-Sent Event: its name and its data as one line of JSON."""
    return f"event: {event}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n".encode()


class JobEvents:
    """The answer of a job that reports its progress (see :func:`run_job`), as
    Server-Sent Events (``text/event-stream``): a ``progress`` event with each report,
    then ``done`` with the job's answer, or ``error`` with ``{"error": one line,
    "status": the status a plain request would have had}``; then the stream ends.
    The request's input is checked before (a 4xx as for any request), and the job is
    admitted before the stream starts (a 503 when the server is busy). A client that
    closes the stream has its job stopped: the job runner's look at the connection,
    or a send that fails."""

    def __init__(self, request: Request, fn, *args, deadline: float):
        _web(request).jobs.admit(client_of(request))
        self.request, self.fn, self.args, self.deadline = request, fn, args, deadline

    async def __call__(self, scope, receive, send):
        await send({"type": "http.response.start", "status": 200, "headers": [
            (b"content-type", b"text/event-stream; charset=utf-8"),
            (b"cache-control", b"no-store"), (b"x-accel-buffering", b"no")]})

        async def emit(event, data):
            try:
                await send({"type": "http.response.body", "body": event_text(event, data),
                            "more_body": True})
            except OSError:        # the connection has gone (a server's ClientDisconnected)
                raise Gone("the client has gone: its analysis was stopped") from None

        try:
            try:
                out = await run_job(self.request, self.fn, *self.args, deadline=self.deadline,
                                    progress=lambda data: emit("progress", data))
                await emit("done", out)
            except JobError as e:
                if isinstance(e, Gone):
                    raise
                await emit("error", {"error": str(e), "status": e.status})
            except errors.InputError as e:
                await emit("error", {"error": _one_line(e), "status": _input_status(e)})
            except Exception as e:  # noqa: BLE001 - a bug: one line, logged (as _on_internal)
                log.error("internal error on %s", self.request.url.path, exc_info=e)
                await emit("error", {"error": _internal_text(e), "status": 500})
            await send({"type": "http.response.body", "body": b"", "more_body": False})
        except Gone:
            pass                   # nobody reads it


async def read_json(request: Request, allowed: set, required: set = frozenset()) -> dict:
    """The request's body: one JSON object of at most MAX_BODY bytes with keys from
    ``allowed`` (and every key of ``required``)."""
    length = request.headers.get("content-length")
    if is_digits(length) and (len(length) > MAX_DIGITS or int(length) > MAX_BODY):
        raise ApiError(413, f"the request body is over {MAX_BODY} bytes")
    body = bytearray()
    try:
        with anyio.fail_after(BODY_SECONDS):
            async for chunk in request.stream():
                body.extend(chunk)
                if len(body) > MAX_BODY:
                    raise ApiError(413, f"the request body is over {MAX_BODY} bytes")
    except TimeoutError:
        raise ApiError(408, f"the request body did not arrive within {BODY_SECONDS:g} s") from None
    except ClientDisconnect:    # a client gone mid-body: nobody reads the answer, no bug
        raise ApiError(400, "the client went away before its request body ended") from None
    if not body.strip():
        raise ApiError(400, "the request needs a JSON object as its body")
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        raise ApiError(400, "the request body is not UTF-8") from None
    try:
        data = json_loads(text, "the JSON")     # the one reading of JSON input
    except errors.InputError as e:
        raise ApiError(400, str(e)[:200]) from None
    if not isinstance(data, dict):
        raise ApiError(400, "the request body must be a JSON object")
    an.require_keys(data, allowed, required)
    return data


def _query(request: Request, *allowed: str):
    """The request's query parameters, each one of ``allowed`` and given once, as a
    JSON body's keys are (a parameter given twice kept its last value, silently)."""
    seen = set()
    for name, _ in request.query_params.multi_items():
        if name not in allowed:
            expected = f"expected: {', '.join(allowed)}" if allowed else "it takes none"
            raise errors.ParseError(f"unknown parameter {name!r} ({expected})")
        if name in seen:
            raise errors.ParseError(f"parameter {name!r} given twice")
        seen.add(name)
    return request.query_params


def _query_flag(request: Request, name: str) -> bool:
    v = request.query_params.get(name)
    if v is None:
        return False
    if v.lower() in ("1", "true", "yes"):
        return True
    if v.lower() in ("0", "false", "no", ""):
        return False
    raise errors.ParseError(f"{name} must be 1 or 0 (or true or false, yes or no), "
                            f"got {shown(v)}")


class _Flight:
    """One piece of work that several requests may wait for: it is cancelled when
    every one of them has hung up."""

    def __init__(self, request=None):
        self.event = anyio.Event()
        self.result = None
        self.error: BaseException | None = None
        self.requests = [] if request is None else [request]
        self.own = request is None       # the server's own (today's puzzle at start-up)

    async def gone(self) -> bool:
        if self.own:
            return False
        for r in self.requests:
            if not await r.is_disconnected():
                return False
        return True


def _bytes(value) -> int:
    """About how many bytes a cached value holds (its text and numbers)."""
    if isinstance(value, (str, bytes)):
        return len(value)
    if isinstance(value, dict):
        return sum(_bytes(k) + _bytes(v) for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return 8 * len(value) + sum(_bytes(v) for v in value)
    if hasattr(value, "to_json"):
        return _bytes(value.to_json())
    return 8


class Web:
    """The app's state: the job runner, the puzzle cache (by ID, least recently used
    out first once it holds more than CACHE_BYTES; one generation per ID at a time,
    others wait for it) and the clients' recent generations."""

    def __init__(self, jobs: Jobs, warm_daily: bool, cache_bytes: int = CACHE_BYTES,
                 generations: int = GENERATIONS):
        self.jobs = jobs
        self.warm_daily = warm_daily
        self.cache: OrderedDict = OrderedDict()
        self.cache_bytes = cache_bytes
        self.sizes: dict = {}
        self.flights: dict = {}
        self.generations = generations
        self.generated: dict = {}         # client -> times of its recent generations

    @property
    def cached_bytes(self) -> int:
        return sum(self.sizes.values())

    def resize(self, key) -> None:
        """A cached value grew (a page or steps added): count it, drop the oldest."""
        if key in self.cache:
            self.sizes[key] = _bytes(self.cache[key])
        while len(self.cache) > 1 and self.cached_bytes > self.cache_bytes:
            old, _value = self.cache.popitem(last=False)
            self.sizes.pop(old, None)

    def may_generate(self, client) -> None:
        """Count a new puzzle generated for ``client``: ApiError 429 past GENERATIONS
        within GENERATION_WINDOW seconds."""
        if client is None:
            return
        now = time.monotonic()
        recent = self.generated.setdefault(client, deque())
        while recent and now - recent[0] >= GENERATION_WINDOW:
            recent.popleft()
        if len(recent) >= self.generations:
            wait = math.ceil(GENERATION_WINDOW - (now - recent[0]))
            raise ApiError(429, f"at most {self.generations} new puzzle"
                                f"{'' if self.generations == 1 else 's'} a client in "
                                f"{GENERATION_WINDOW:g} s: try again in {wait} s", retry_after=wait)
        recent.append(now)
        if len(self.generated) > 1024:    # forget the clients that are quiet
            for c in [c for c, t in self.generated.items() if not t or now - t[-1] >= GENERATION_WINDOW]:
                del self.generated[c]

    async def _cached(self, key, make, request=None):
        while True:
            if key in self.cache:
                self.cache.move_to_end(key)
                return self.cache[key]
            flight = self.flights.get(key)
            if flight is None:
                break
            if request is not None:
                flight.requests.append(request)
            await flight.event.wait()
            if flight.error is not None:
                raise flight.error
        flight = self.flights[key] = _Flight(request)
        try:
            value = await make(flight)
            self.cache[key] = value
            self.resize(key)
            flight.result = value
            return value
        except Exception as e:
            flight.error = e
            raise
        finally:
            del self.flights[key]
            flight.event.set()

    async def puzzle(self, pid: str, request: Request | None = None) -> dict:
        """{"gen": Generated, "steps": list or None, "logic_solved": bool or None}; a
        puzzle outside the collection is generated for ``request``'s client."""
        from ..starmaps.generate import collection_index, generated_from_json
        from ..starmaps.ids import canonical_id
        date = _daily_date(pid.strip().lower())
        if date is not None:                # a date the server makes none for: a 400, not
            check_daily_date(_dt.date.fromisoformat(date))   # a 404 naming another ID of it
        pid = canonical_id(pid)             # UnknownPuzzleError (404) before any work
        client = None if request is None else client_of(request)

        async def make(flight):
            stored = collection_index().get(pid)
            if stored is not None:
                return {"gen": stored, "steps": None, "logic_solved": None}   # + "page" once made
            check_generation(pid)
            self.may_generate(client)
            out = await self.jobs.run(tasks.puzzle_entry, pid, deadline=PUZZLE_DEADLINE,
                                      client=client, gone=flight.gone)
            return {"gen": generated_from_json(out["gen"]), "steps": out["steps"],
                    "logic_solved": out["logic_solved"]}
        return await self._cached(("puzzle", pid), make, request)

    async def steps(self, pid: str, request: Request | None = None) -> dict:
        entry = await self.puzzle(pid, request)
        if entry["steps"] is None:
            client = None if request is None else client_of(request)

            async def make(flight):
                return await self.jobs.run(tasks.puzzle_entry, entry["gen"].id, False,
                                           deadline=STEPS_DEADLINE, client=client, gone=flight.gone)
            out = await self._cached(("steps", entry["gen"].id), make, request)
            entry["steps"], entry["logic_solved"] = out["steps"], out["logic_solved"]
            self.resize(("puzzle", entry["gen"].id))
        return entry


def check_generation(pid: str) -> None:
    """An ID the server would generate a new puzzle for: one that names a puzzle
    (UnknownPuzzleError, a 404, before any job), its seed at most MAX_SEED characters,
    a daily one's date in DAILY_YEARS (UnsupportedError otherwise, a 400)."""
    from ..starmaps.generate import check_offered
    from ..starmaps.ids import check_id
    g, grade, seed, _rule = check_id(pid)
    check_offered(g, grade)             # hex fiendish: refused here, not in a job
    if len(seed) > MAX_SEED:
        raise errors.UnsupportedError(f"a puzzle seed has at most {MAX_SEED} characters here, "
                                      f"got {len(seed)}")
    date = _daily_date(pid)
    if date is not None:
        check_daily_date(_dt.date.fromisoformat(date))


def check_daily_date(d: _dt.date) -> None:
    first, last = DAILY_YEARS
    if not first <= d.year <= last:
        raise errors.UnsupportedError(f"daily puzzles are made for {first}-01-01 to "
                                      f"{last}-12-31 here, got {d.isoformat()}")


def _web(request: Request) -> Web:
    return request.app.state.web


# --- pages ---------------------------------------------------------------------------------

NAV = ('<nav><a href="/">Home</a><a href="/puzzle/daily">Puzzle of the day</a>'
       '<a href="/analysis">Analysis board</a><a href="/api">API</a></nav>')


async def index_page(request: Request):
    from ..starmaps.daily import daily_id
    from ..starmaps.generate import collection_index
    groups: dict = {}
    for pid in collection_index():
        kind = pid.split("-", 2)
        groups.setdefault((kind[0], kind[1]), []).append(pid)
    names = {"sz": "Stars' Zone", "sza": "Stars' Zone, advanced rule", "sq8": "8x8", "hex": "hex board"}
    sections = []
    from ..starmaps.logic import GRADES
    seen = list(dict.fromkeys(board for board, _grade in groups))
    boards = [b for b in names if b in seen] + [b for b in seen if b not in names]
    # the game's own board first; each board's grades easy to fiendish
    order = sorted(groups, key=lambda bg: (boards.index(bg[0]), GRADES.index(bg[1])
                                           if bg[1] in GRADES else len(GRADES)))
    for board, grade in order:
        ids = groups[(board, grade)]
        links = " ".join(f'<a href="/puzzle/{escape(p)}">{escape(p.rsplit("-", 1)[1])}</a>' for p in ids)
        sections.append(f"<section><h3>{escape(names.get(board, board))}: {escape(grade)}</h3>{links}</section>")
    html = assets.render("index.html", head=assets.linked_style(), nav=NAV,
                         daily=escape(daily_id()), collection="\n".join(sections))
    return HTMLResponse(html)


async def daily_page(request: Request):
    from ..starmaps.daily import daily_id, parse_date
    d = parse_date(_query(request, "date").get("date"))
    check_daily_date(d)
    return RedirectResponse(f"/puzzle/{daily_id(d)}", status_code=302)


async def puzzle_page(request: Request):
    web = _web(request)
    entry = await web.puzzle(request.path_params["pid"], request)
    if "page" not in entry:          # the same page for every visitor: made once
        gen = entry["gen"]
        date = _daily_date(gen.id)
        data = puzzles.page_data(gen, date=date, next_id=puzzles.next_puzzle_id(gen.id, date))
        title = (f"Puzzle of the day {date}" if date else f"Puzzle {gen.id}") + f" ({gen.grade})"
        entry["page"] = assets.render(
            "puzzle.html", title=escape(title), head=assets.linked_style(),
            svg=puzzles.board_svg(gen.puzzle), data=puzzles.script_json(data), mode="server",
            cell=gen.puzzle.geometry.cell,
            nav=NAV, script=assets.linked_script("puzzle.js"))
        web.resize(("puzzle", gen.id))
    return HTMLResponse(entry["page"])


def _daily_date(pid: str) -> str | None:
    """The date of a daily puzzle's ID (``sz-easy-d20261123``), else None."""
    import re
    m = re.fullmatch(r"sz-[a-z]+-d([0-9]{4})([0-9]{2})([0-9]{2})", pid, re.ASCII)
    if not m:
        return None
    try:
        return _dt.date(*map(int, m.groups())).isoformat()
    except ValueError:
        return None


async def analysis_page(request: Request):
    return HTMLResponse(assets.render("analysis.html", head=assets.linked_style(), nav=NAV,
                                      time_cap=f"{an.TIME_CAP:g}", default_time=f"{an.DEFAULT_TIME:g}",
                                      script=assets.linked_script("analysis.js")))


# --- the API -------------------------------------------------------------------------------

async def api_daily(request: Request):
    from ..starmaps.daily import daily_id, parse_date
    d = parse_date(_query(request, "date", "solution", "explain").get("date"))
    check_daily_date(d)
    return await _puzzle_json(request, daily_id(d), d.isoformat())


async def api_puzzle(request: Request):
    from ..starmaps.ids import canonical_id
    _query(request, "solution", "explain")
    pid = canonical_id(request.path_params["pid"])
    return await _puzzle_json(request, pid, _daily_date(pid))


async def _puzzle_json(request, pid, date):
    solution = _query_flag(request, "solution")
    explain = _query_flag(request, "explain")
    web = _web(request)
    entry = await (web.steps(pid, request) if explain else web.puzzle(pid, request))
    return JSONResponse(puzzles.puzzle_json(entry["gen"], with_solution=solution,
                                            steps=entry["steps"] if explain else None, date=date))


async def api_steps(request: Request):
    _query(request)
    entry = await _web(request).steps(request.path_params["pid"], request)
    return JSONResponse({"id": entry["gen"].id, "grade": entry["gen"].grade,
                         "solved": entry["logic_solved"], "steps": entry["steps"]})


async def api_puzzle_check(request: Request):
    from ..starmaps.io import check_to_json, points_and_off_board
    from ..starmaps.model import check_solution
    body = await read_json(request, {"stars"}, {"stars"})
    entry = await _web(request).puzzle(request.path_params["pid"], request)
    p = entry["gen"].puzzle
    stars = body["stars"]
    if not isinstance(stars, list) or not all(isinstance(s, str) for s in stars):
        raise errors.ParseError('stars must be a list of point names like ["44", "52"]')
    placed, off_board = points_and_off_board(p.geometry, stars)
    return JSONResponse(check_to_json(p, check_solution(p, placed, off_board), entry["gen"].id))


# --- the family's other games: through the registry, as the command line ------------------

async def _family_job(request: Request, source, command: str, deadline: float, **options):
    """The answer of Star's or Stargazers' ``command`` as a job (their solver, engine
    and judge are heavy work too): the JSON of ``szsolver COMMAND --json``."""
    entry, text, _pos, _record = source
    return JSONResponse(await run_job(request, tasks.game_answer, entry.name, command, text,
                                      options, deadline=deadline))


async def api_score(request: Request):
    body = await read_json(request, {"position"}, {"position"})
    other = an.family_source(body["position"])
    if other is not None:
        entry, _text, pos, record = other
        return JSONResponse(entry.answer("score", pos, record).data)
    pos, game = an.position_and_game_from(body["position"])
    return JSONResponse(with_warnings(an.score_json(pos), game))


async def api_view(request: Request):
    body = await read_json(request, {"position", "last_turn"}, {"position"})
    other = an.family_source(body["position"])
    if other is not None:
        if body.get("last_turn") is not None:
            raise errors.UnsupportedError(f"last_turn is not available for {other[0].name} "
                                          "positions")
        return JSONResponse(an.family_position_view(other[0], other[2]))
    pos = an.position_from(body["position"])
    return JSONResponse(an.position_view(pos, body.get("last_turn")))


async def api_game(request: Request):
    body = await read_json(request, {"source", "game", "example"})
    other = an.family_game_source(body)
    if other is not None:
        return JSONResponse(an.family_game_view(*other))
    return JSONResponse(an.game_view(an.game_from(body)))


async def api_play(request: Request):
    body = await read_json(request, {"source", "turns"}, {"source", "turns"})
    other = an.family_source(body["source"])
    if other is None:
        raise errors.UnsupportedError("play answers Star and Stargazers games: a Stars' Zone "
                                      "game is played on the page itself")
    return JSONResponse(an.family_line_view(*other, an.turns_from(body["turns"])))


def _job_position(pos) -> dict:
    from ..formats.notation import position_json
    an.check_board(pos)
    return position_json(pos)


async def api_solve(request: Request):
    body = await read_json(request, {"position", "time_limit", "all_turns"}, {"position"})
    other = an.family_source(body["position"])
    limit = an.time_limit_from(body.get("time_limit"))
    all_turns = an.flag_from(body.get("all_turns"), "all_turns")
    if other is not None:
        return await _family_job(request, other, "solve", limit + GRACE, time_limit=limit,
                                 all_turns=all_turns)
    pos, game = an.position_and_game_from(body["position"])
    out = await run_job(request, tasks.solve_position, _job_position(pos), limit, all_turns,
                        deadline=limit + GRACE)
    return JSONResponse(with_warnings(out, game))


async def api_check(request: Request):
    from ..formats.notation import parse_turn
    body = await read_json(request, {"position", "turn", "time_limit"}, {"position", "turn"})
    other = an.family_source(body["position"])
    turn = an.text_from(body["turn"], "turn")
    if other is not None:
        other[0].parse_turn(turn, other[2])          # bad text named before any job
        limit = an.time_limit_from(body.get("time_limit"))
        return await _family_job(request, other, "check", limit + GRACE, turn=turn,
                                 time_limit=limit)
    pos, game = an.position_and_game_from(body["position"])
    pos.copy().play(parse_turn(turn, pos.geometry))   # IllegalTurnError naming why, before any job
    limit = an.time_limit_from(body.get("time_limit"))
    out = await run_job(request, tasks.check_turn, _job_position(pos), turn, limit,
                        deadline=limit + GRACE)
    return JSONResponse(with_warnings(out, game))


async def api_potential(request: Request):
    body = await read_json(request, {"position", "side", "time_limit", "svg"}, {"position"})
    games.stars_zone_only("potential", an.game_of(body["position"]))
    pos, game = an.position_and_game_from(body["position"])
    side = an.side_from(body.get("side"), pos)
    limit = an.time_limit_from(body.get("time_limit"))
    svg = an.flag_from(body.get("svg"), "svg")
    out = await run_job(request, tasks.potential_of, _job_position(pos), side, limit, svg,
                        deadline=3 * limit + GRACE)
    return JSONResponse(with_warnings(out, game))


# A whole game is judged in about 10-20 s on a 2-core machine: a small budget per
# estimated turn (0.4 s planned as check --time-limit plans it: 0.2 s of engine beyond
# the probes' turns), the last turns proved, no CP-SAT bounds (they took most of a minute).
ANNOTATE_TIME_PER_TURN = 0.4
ANNOTATE_MAX_TIME_PER_TURN = 1.0
ANNOTATE_EXACT_TURNS = 6
ANNOTATE_SOLVER_TIME = 5.0
ANNOTATE_CPSAT = False


async def _annotation_job(request: Request) -> tuple:
    """The annotation's job (its function and arguments) from the request's body
    (checked before any job). A Star or Stargazers game is judged by its entry in the
    registry with the engine budget asked for (capped as for Stars' Zone), the exact
    solves under ANNOTATE_SOLVER_TIME where the game takes a limit, and the game's own
    exact horizon: ``annotate --json`` of that game."""
    from ..formats.record import game_json
    body = await read_json(request, {"source", "game", "example", "time_per_turn"})
    tpt = an.time_limit_from(body.pop("time_per_turn", None), "time_per_turn", ANNOTATE_TIME_PER_TURN,
                             ANNOTATE_MAX_TIME_PER_TURN)
    other = an.family_game_source(body)
    if other is not None:
        entry, text, _pos, record = other
        if record is None or not len(record):
            raise errors.InputError("the game has no turns to annotate")
        options = {"time_per_turn": tpt}
        if entry.takes("annotate", "solver_time"):
            options["solver_time"] = ANNOTATE_SOLVER_TIME
        return tasks.game_answer, (entry.name, "annotate", text, options)
    game = an.game_from(body)
    if not game.turns:
        raise errors.InputError("the game has no turns to annotate")
    an.check_board(game.start)
    return tasks.annotate_game, (game_json(game), tpt, ANNOTATE_EXACT_TURNS, ANNOTATE_SOLVER_TIME,
                                 ANNOTATE_CPSAT)


async def api_annotate(request: Request):
    fn, args = await _annotation_job(request)
    out = await run_job(request, fn, *args, deadline=ANNOTATE_DEADLINE)
    return JSONResponse(out)


async def api_annotate_events(request: Request):
    """/api/annotate as Server-Sent Events: "turn k of N" as it goes (every game's),
    then the answer."""
    fn, args = await _annotation_job(request)
    return JobEvents(request, fn, *args, deadline=ANNOTATE_DEADLINE)


#: The GETs that start work (the guard checks where they come from, as for a POST).
WORK_GETS = ("/api/evaluate",)
#: Where a GET may start work: a new puzzle generated, a puzzle's logic steps worked
#: out (the guard lets another site's page send the browser there, not fetch them).
PAGE_GETS = ("/puzzle/", "/api/puzzles/")

#: The live evaluation's engine budget when the request gives none (seconds, as
#: ``szsolver best --time``: fixed work, the same answer on every run).
EVALUATE_TIME = 5.0


async def api_evaluate(request: Request):
    """The engine's value and best line of a position as they deepen (``best``)."""
    q = _query(request, "position", "time_limit")
    if "position" not in q:
        raise errors.ParseError("missing 'position': a position string")
    other = an.family_source(q["position"])
    pos = an.position_from(q["position"]) if other is None else other[2]
    if pos.is_over():
        raise errors.InputError("the game is over: there is no turn to play")
    limit = an.time_limit_from(an.seconds_from_text(q.get("time_limit"), "time_limit"),
                               default=EVALUATE_TIME)
    if other is not None:          # best --time S --json of that game, its engine's work as it goes
        return JobEvents(request, tasks.game_answer, other[0].name, "best", other[1],
                         {"time": limit}, deadline=limit + GRACE)
    return JobEvents(request, tasks.evaluate_position, _job_position(pos), limit,
                     deadline=limit + GRACE)


async def api_health(request: Request):
    _query(request)
    web = _web(request)
    return JSONResponse({"ok": True, "jobs": web.jobs.counts(), "cached_puzzles": len(web.cache),
                         "cached_bytes": web.cached_bytes})


# (method, path, handler, summary, input, answer): routes, /api and /api/openapi.json.
ENDPOINTS = [
    ("GET", "/api/puzzles/daily", api_daily, "The puzzle of the day.",
     "query: date=YYYY-MM-DD (default today, UTC), solution=1, explain=1",
     "the JSON of `szsolver puzzle daily --json` (with --solution / --explain)"),
    ("GET", "/api/puzzles/{pid}", api_puzzle, "A puzzle by its ID (sz-hard-7, sza-easy-2, sz-easy-d20261123).",
     "query: solution=1, explain=1",
     "the JSON of `szsolver puzzle show ID --json`; 404 for an unknown ID"),
    ("GET", "/api/puzzles/{pid}/steps", api_steps, "The logic solver's steps, for hints.",
     "", '{"id", "grade", "solved", "steps": [{"technique", "level", "text", "point", "index", '
         '"outcome": "star"|"empty", "pattern"}]}'),
    ("POST", "/api/puzzles/{pid}/check", api_puzzle_check, "Check a solution with the Python checker.",
     '{"stars": ["44", ...]} (the stars placed: the givens are implied, listing them too is fine)',
     'the JSON of `szsolver puzzle check ID STARS --json`: {"puzzle", "id", "correct", '
     '"problems", "stars", "placed", "needed", "off_board", "on_blocked", '
     '"givens_contradicted", "clashes", "missing_patterns"}'),
    ("POST", "/api/score", api_score, "Score a position (Stars' Zone, Star or Stargazers).",
     '{"position": a position string, a JSON position or game, or a game record}',
     "the JSON of `szsolver score --json` for the position's game"),
    ("POST", "/api/view", api_view, "A position as the board shows it.",
     '{"position", "last_turn"?}',
     '{"position" (JSON), "svg", "score" (as /api/score), "side", "over", "neutrals_left_to_move", '
     '"last_turn"}; a Star or Stargazers position: {"family": true, "game", "position", "svg", '
     '"score"}'),
    ("POST", "/api/game", api_game, "Replay a game (or start one from a position).",
     '{"source": a game record, JSON game or position string} | {"game": a JSON game} | {"example": true}',
     '{"game", "record", "positions" (the start first), "turns": [{"turn", "round", "side"}], '
     '"board", "warnings", "start" (JSON), "stones_per_side", "geometry" (the points, steps and '
     'pattern names), "svg" (the board without stones), "colours"}; a Star or Stargazers game: '
     '{"family": true, "game", "title", "sides", "record", "positions", "turns", "warnings"}'),
    ("POST", "/api/play", api_play, "Play a line of a Star or Stargazers game, for the board.",
     '{"source": a Star or Stargazers record or position string, as for /api/game, "turns": '
     '["E5", ...] (the line, from the start of that game: its own turns count only when listed)}',
     '{"family": true, "game", "position", "svg" (with a target on every cell), "score" (as '
     '/api/score), "legal" (every legal turn), "unfinished", "to_move", "round", "record" (the line\'s), '
     '"turns": [{"turn", "round", "side"}]}; a turn that is not legal: 400 naming its round, '
     'side and why'),
    ("POST", "/api/solve", api_solve, "The endgame solver: the value, best turns, PV (any game).",
     '{"position", "time_limit"?, "all_turns"?: true for the value of every turn}',
     "the JSON of `szsolver solve --json` (--all-turns) for the position's game"),
    ("POST", "/api/check", api_check, "Was a turn optimal? (any game)",
     '{"position": the position the turn is played in, "turn": "44n66" (Star: "E7", '
     'Stargazers: "17,23"), "time_limit"?}',
     "the JSON of `szsolver check POSITION TURN --json` for the position's game"),
    ("POST", "/api/potential", api_potential, "The CP-SAT potential map of one side (Stars' Zone).",
     '{"position", "side"?: "red"|"blue" (default: the side to move), "time_limit"? (per CP-SAT '
     'solve), "svg"?: true for the heat map}',
     "the JSON of `szsolver potential --map --side SIDE --json`, plus \"svg\""),
    ("POST", "/api/annotate", api_annotate, "Judge every turn of a game (any game).",
     '{"source" | "game" | "example" as for /api/game, "time_per_turn"? (seconds a '
     f'turn, bounds and probes included: each turn as /api/check with that time_limit; '
     f'at most {ANNOTATE_MAX_TIME_PER_TURN:g})}}',
     f"the JSON of `szsolver annotate --json` (the last {ANNOTATE_EXACT_TURNS} turns proved, "
     f"exact solves under {ANNOTATE_SOLVER_TIME:g} s, no CP-SAT bounds for the estimated turns: "
     "see \"settings\"), plus \"chart\" (SVG); for a Star or Stargazers record that "
     "game's `annotate --json`"),
    ("POST", "/api/annotate/events", api_annotate_events, "Judge every turn of a game, with its progress.",
     "as /api/annotate",
     'Server-Sent Events: "progress" {"done", "total", "text"} before each turn is judged, then '
     '"done" with the answer of /api/annotate, or "error" {"error", "status"}'),
    ("GET", "/api/evaluate", api_evaluate, "The engine's value and best line as they deepen.",
     f"query: position=a position string, time_limit=S (the engine's budget, default "
     f"{EVALUATE_TIME:g}, at most {an.TIME_CAP:g})",
     'Server-Sent Events: "progress" with the JSON of `szsolver best --json` so far ("partial": '
     '"solver" or "bounds" as they start, "tree" as the search deepens: "iterations", "value", '
     '"turn", "pv", "lower", "upper"), then "done" with `szsolver best --time S --json`, or '
     '"error" {"error", "status"}; a Star or Stargazers position: "progress" {"partial": '
     '"solver" or "tree", "done", "total"} (the exact solver\'s nodes or the tree search\'s '
     'iterations so far, of at most "total": null when there is no limit), then "done" with '
     'that game\'s `best --time S --json`'),
    ("GET", "/api/health", api_health, "Is the server up; its jobs.", "",
     '{"ok": true, "jobs": {"running", "waiting", "started", "done", "cancelled", "timed_out", '
     '"failed", "busy"}, "cached_puzzles", "cached_bytes"}'),
]


def _inline_code(text: str) -> str:
    """``text`` escaped for HTML, its `backticked` parts as <code>."""
    parts = escape(text).split("`")
    return "".join(f"<code>{x}</code>" if k % 2 else x for k, x in enumerate(parts))


async def api_docs(request: Request):
    rows = "\n".join(
        f"<tr><td><code>{m} {escape(p)}</code></td><td>{_inline_code(summary)}<br>"
        f"<span class='sz-info'>answer: {_inline_code(answer)}</span></td>"
        f"<td>{_inline_code(inp)}</td></tr>"
        for m, p, _h, summary, inp, answer in ENDPOINTS)
    return HTMLResponse(assets.render("api.html", head=assets.linked_style(), nav=NAV, rows=rows,
                                      max_body=f"{MAX_BODY:,}", time_cap=f"{an.TIME_CAP:g}",
                                      default_time=f"{an.DEFAULT_TIME:g}"))


def openapi_schema() -> dict:
    """An OpenAPI 3 description of :data:`ENDPOINTS`."""
    paths: dict = {}
    for method, path, _h, summary, inp, answer in ENDPOINTS:
        op = {"summary": summary, "description": f"Input: {inp or 'none'}. Answer: {answer}.",
              "responses": {"200": {"description": answer},
                            "400": {"description": "bad input: {\"error\": message}"}}}
        params = [{"name": n, "in": "path", "required": True, "schema": {"type": "string"}}
                  for n in ("pid",) if "{" + n + "}" in path]
        if params:
            op["parameters"] = params
        if method == "POST":
            op["requestBody"] = {"required": True, "description": inp,
                                 "content": {"application/json": {"schema": {"type": "object"}}}}
            op["responses"]["413"] = {"description": f"body over {MAX_BODY} bytes"}
            op["responses"]["415"] = {"description": "not sent as Content-Type: application/json"}
            op["responses"]["403"] = {"description": "sent from another website's page (Origin)"}
        elif path in WORK_GETS or path.startswith(PAGE_GETS):
            op["responses"]["403"] = {"description": "asked for by another website's page (Origin, "
                                                     "Sec-Fetch-Site), other than by a link followed"}
        op["responses"]["421"] = {"description": "a Host this server does not serve"}
        paths.setdefault(path, {})[method.lower()] = op
    return {"openapi": "3.0.3",
            "info": {"title": "szsolver", "version": _version(),
                     "description": "Stars' Zone analysis and Starmaps puzzles."},
            "paths": paths}


def _version() -> str:
    from importlib.metadata import version
    return version("szsolver")


async def api_openapi(request: Request):
    return JSONResponse(openapi_schema())


# --- errors --------------------------------------------------------------------------------

def _wants_json(request: Request) -> bool:
    return request.url.path.startswith("/api")


def _error(request: Request, status: int, message: str, retry_after: int | None = None) -> Response:
    """The answer to a refused request: JSON under /api, a page elsewhere; a 503 or
    429 says when to try again (Retry-After)."""
    if status == 503 and retry_after is None:
        retry_after = RETRY_AFTER
    if _wants_json(request):
        response = _json_error(status, message)
    else:
        html = (f"<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>{status}</title>"
                f"{assets.linked_style()}</head><body><header class='sz-top'><h1>{status}</h1>{NAV}"
                f"</header><main><p>{escape(message)}</p></main></body></html>")
        response = HTMLResponse(html, status_code=status)
    if retry_after is not None:
        response.headers["retry-after"] = str(retry_after)
    return response


def _input_status(exc: Exception) -> int:
    return 404 if isinstance(exc, errors.UnknownPuzzleError) else 400


def _one_line(exc: Exception) -> str:
    return str(exc).splitlines()[0] if str(exc) else type(exc).__name__


def _internal_text(exc: Exception) -> str:
    first = str(exc).splitlines()[0] if str(exc) else ""
    return f"internal error: {type(exc).__name__}" + (f": {first}" if first else "")


async def _on_input_error(request: Request, exc: Exception):
    return _error(request, _input_status(exc), _one_line(exc))


async def _on_api_error(request: Request, exc: ApiError):
    return _error(request, exc.status, exc.message, exc.retry_after)


async def _on_job_error(request: Request, exc: JobError):
    return _error(request, exc.status, str(exc))


async def _on_http(request: Request, exc: HTTPException):
    allow = (exc.headers or {}).get("Allow")
    text = {404: "no such page or endpoint",
            405: "method not allowed here" + (f": use {allow}" if allow else "")}.get(
                exc.status_code, str(exc.detail))
    response = _error(request, exc.status_code, text)
    if allow:                       # a 405 names the methods it takes (RFC 9110)
        response.headers["Allow"] = allow
    return response


async def _on_internal(request: Request, exc: Exception):
    # Only an InputError is bad input; anything else is a bug in szsolver, reported as
    # one line (as the CLI's "Internal error:") and logged with its traceback.
    log.error("internal error on %s", request.url.path, exc_info=exc)
    return _error(request, 500, _internal_text(exc))


# --- the app -------------------------------------------------------------------------------

def create_app(*, workers: int = 2, max_waiting: int = 64, per_client: int = 4,
               warm_daily: bool = True, host: str = "127.0.0.1", port: int | None = None,
               generations: int = GENERATIONS, cache_bytes: int = CACHE_BYTES) -> Starlette:
    """The web app. ``workers``: heavy jobs at once; ``max_waiting``: more that may
    wait (then 503), ``per_client`` of them from one client; ``warm_daily``: generate
    today's puzzle at start-up; ``host`` and ``port``: where it is served (the Host
    headers it answers, :class:`szsolver.web.guard.Served`; port None: any);
    ``generations``: new puzzles a client may have made per GENERATION_WINDOW;
    ``cache_bytes``: the puzzle cache's size."""
    jobs = Jobs(workers=workers, max_waiting=max_waiting, per_client=per_client)
    web = Web(jobs, warm_daily, cache_bytes=cache_bytes, generations=generations)

    @asynccontextmanager
    async def lifespan(app):
        from ..starmaps.generate import collection_index
        collection_index()
        async with anyio.create_task_group() as tg:
            tg.start_soon(_warm, web)
            try:
                yield
            finally:
                jobs.shutdown()
                tg.cancel_scope.cancel()
        jobs.shutdown()

    routes = [
        Route("/", index_page),
        Route("/puzzle/daily", daily_page),
        Route("/puzzle/{pid}", puzzle_page),
        Route("/analysis", analysis_page),
        Route("/api", api_docs),
        Route("/api/openapi.json", api_openapi),
        # the pages declare an empty icon; a browser showing a JSON answer still asks
        Route("/favicon.ico", lambda request: Response(status_code=204)),
    ]
    routes += [Route(path, handler, methods=[method]) for method, path, handler, *_ in ENDPOINTS]
    routes.append(Mount("/static", app=StaticFiles(directory=assets.static_dir()), name="static"))
    middleware = [Middleware(Guard, served=Served(host, port), refuse=_refuse,
                             work_gets=WORK_GETS, page_gets=PAGE_GETS),
                  Middleware(GZipMiddleware, minimum_size=GZIP_FROM)]
    app = Starlette(routes=routes, lifespan=lifespan, middleware=middleware, exception_handlers={
        errors.InputError: _on_input_error, ApiError: _on_api_error, JobError: _on_job_error,
        HTTPException: _on_http, Exception: _on_internal})
    app.state.web = web
    return app


def _refuse(scope, status: int, message: str) -> Response:
    return _error(Request(scope), status, message)


async def _warm(web: Web) -> None:
    """Start the job processes' forkserver, then make today's puzzle, so the first
    visitors do not wait."""
    try:
        seconds = await anyio.to_thread.run_sync(web.jobs.warm_up, abandon_on_cancel=True)
        log.info("analysis processes ready in %.1f s", seconds)
        if web.warm_daily:
            from ..starmaps.daily import daily_id
            await web.puzzle(daily_id())
    except (JobError, errors.InputError) as e:
        if not web.jobs.closed:               # else the server is stopping: nothing to say
            log.warning("warming up: %s", e)
