"""The heavy jobs, each run in its own process by :mod:`szsolver.web.jobs`.

Each takes plain data (positions as :func:`szsolver.formats.notation.position_json`
dicts, already checked by the server) and returns JSON-ready data: the same JSON as
the matching CLI command's ``--json``. Each passes its time limit on to the tool it
calls; the job runner's deadline is the backstop for work that has no limit of its
own (the solver's principal variation, the map's many CP-SAT solves, generation).
Those given ``report`` (by the job runner, when the request streams) send their
progress through it as they go.
"""
from __future__ import annotations

# Imported here so the forkserver loads them once, before any job.
from ..analysis import annotate as _annotate_mod  # noqa: F401
from ..analysis import check as _check_mod  # noqa: F401
from ..bounds import potential as _potential_mod  # noqa: F401
from ..endgame import solver as _solver_mod  # noqa: F401
from ..formats.notation import parse_position_json
from ..starmaps import generate as _generate_mod  # noqa: F401
from ..verdict import within


def game_answer(game: str, command: str, text: str, options: dict, report=None) -> dict:
    """``szsolver COMMAND TEXT --json`` for the family's game named ``game``, through its
    entry in the registry (:meth:`szsolver.games.Entry.answer`): ``text`` a position
    or record the server has read already, ``options`` by name. With ``report`` (the
    job runner's, for a streamed request) the command's progress line is a
    :class:`szsolver.games.views.ProgressReport` sending it the work as it goes, as
    Stars' Zone's jobs do: ``best``'s engine ``{"partial", "done", "total"}``,
    ``annotate``'s ``{"done", "total", "text"}`` before each turn (sent whatever the
    command would show a person: the answer is JSON)."""
    from .. import games
    from ..games.views import ProgressReport
    entry = games.get(game)
    pos, record = entry.load(games.Source(given=text, text=text))
    progress = None if report is None else (lambda enabled, lines=False: ProgressReport(report))
    return entry.answer(command, pos, record, progress=progress, **options).data


def puzzle_entry(pid: str, with_puzzle: bool = True) -> dict:
    """The puzzle with ID ``pid`` (generated afresh when the collection does not hold
    it) as ``Generated.to_json()`` plus ``attempts``, and its logic steps."""
    from ..starmaps.generate import puzzle_from_id
    from .puzzles import logic_steps
    gen = puzzle_from_id(pid)
    steps, solved = logic_steps(gen.puzzle)
    out = {"steps": steps, "logic_solved": solved}
    if with_puzzle:
        d = gen.to_json()
        d["attempts"] = gen.attempts
        out["gen"] = d
    return out


# "Value of every turn" beyond the solver's reach: the solver's share of the limit (the
# rest goes to the engine's estimates where it does not prove the value).
SOLVER_SHARE_NEAR = 0.75        # the solver's horizon or less: it usually finishes
SOLVER_SHARE_FAR = 0.25         # beyond it: it seldom proves more than trivial bounds


def solve_position(position: dict, time_limit: float, all_turns: bool) -> dict:
    """``szsolver solve --json`` (with ``--all-turns`` when asked).

    With ``all_turns`` the solver gets a share of the limit (:data:`SOLVER_SHARE_NEAR`
    within its reach: up to the exact horizon, and beyond with the supplies spent;
    :data:`SOLVER_SHARE_FAR` beyond); where it does not prove the value, or proves it
    but not every turn's and the engine estimates, ``estimates`` holds the engine's
    answer on the rest of the limit
    (``best --time REST --json``: its candidate turns with their estimated values,
    never proved, beside the CP-SAT bounds, which are), so a player sees which turns
    are worth a look instead of bare trivial bounds."""
    from ..analysis.check import EXACT_TURNS, within_reach
    from ..endgame.solver import solve
    pos = parse_position_json(position)
    share = 1.0
    if all_turns:
        share = SOLVER_SHARE_NEAR if within_reach(pos, EXACT_TURNS, None) else SOLVER_SHARE_FAR
    res = solve(pos, time_limit=time_limit * share, all_turns=all_turns)
    out = res.to_json(pos.geometry)
    if all_turns and not all(t.exact for t in res.turns or ()):
        est = evaluate_position(position, time_limit * (1 - share))
        # where the value is proved, only the engine's estimates add to it (its own
        # solve would prove that value again, and no more)
        if not res.exact or est["method"] == "engine":
            out["estimates"] = within_proved(est, out)
    return out


def within_proved(est: dict, solved: dict) -> dict:
    """The engine's answer ``est`` read beside what the solver proved (``solved``, a
    solve's JSON with every turn's bounds): the value's bounds are the tighter of the
    two, and each estimate lies within its turn's proved bounds (:func:`verdict.within`,
    as ``check`` reads its estimates)."""
    lo = max(est["lower"], solved["lower"])
    hi = min(est["upper"], solved["upper"])
    bounds = {t["turn"]: (t["lower"], t["upper"]) for t in solved.get("turns") or ()}
    cands = []
    for c in est.get("candidates") or ():
        b = bounds.get(c["turn"], (lo, hi))
        cands.append({**c, **{k: within(c[k], b) for k in ("value", "mean", "estimate")
                              if k in c}})
    return {**est, "lower": lo, "upper": hi, "value": within(est["value"], (lo, hi)),
            "candidates": cands}


def check_turn(position: dict, turn: str, time_limit: float) -> dict:
    """``szsolver check POSITION TURN --json``."""
    from ..analysis.check import check
    from ..rules.backends import to_core
    pos = parse_position_json(position)
    return check(to_core(pos), turn, time_limit=time_limit).to_json()


def potential_of(position: dict, side: int, time_limit: float, svg: bool) -> dict:
    """``szsolver potential --map --side SIDE --json`` (each CP-SAT solve limited to
    ``time_limit``), and with ``svg`` the heat map as ``--svg`` draws it."""
    from ..bounds.potential import potential_map
    from ..bounds.render import map_svg
    from ..rules.base import SIDE_NAMES
    pos = parse_position_json(position)
    g = pos.geometry
    pm = potential_map(pos, side, time_limit)
    entry = pm.potential.to_json(g)
    entry["map"] = pm.to_json(g)
    entry["map_proven"] = pm.all_proven
    if not pm.all_proven:
        entry["map_upper"] = {g.coord_text(p): b for p, b in sorted(pm.bounds.items())}
    out = {SIDE_NAMES[side]: entry}
    if svg:
        out["svg"] = map_svg(pos, pm)
    return out


def evaluate_position(position: dict, seconds: float, report=None) -> dict:
    """``szsolver best --time SECONDS --json`` (the engine's turn and value: proved
    where the exact solver finishes, else estimated beside the CP-SAT bounds), and
    with ``report`` the same JSON of the work so far as it goes, with ``partial``
    saying what runs (:meth:`szsolver.engine.search.Engine.analyse`'s progress)."""
    from ..engine.search import COMMAND_START, Engine
    pos = parse_position_json(position)
    g = pos.geometry
    progress = None
    if report is not None:
        def progress(res):
            report({**res.to_json(g), "partial": res.partial})
    res = Engine(seconds, bounds=True, spent=COMMAND_START).analyse(pos, progress=progress)
    return res.to_json(g)


def annotate_game(game: dict, time_per_turn: float, exact_turns: int, solver_time: float,
                  cpsat: bool, report=None) -> dict:
    """``szsolver annotate --json`` with the given budgets (``cpsat``: CP-SAT bounds for
    the estimated turns, as the CLI always has), plus ``chart``: the value chart of
    the annotated-game page. ``report`` hears ``{"done", "total", "text"}`` before each
    turn is judged (the last turns are proved first)."""
    from ..analysis.annotate import annotate
    from ..analysis.report import value_chart
    from ..formats.record import parse_game_json, with_warnings
    g = parse_game_json(game)
    progress = None
    if report is not None:
        def progress(done, total, text):
            report({"done": done, "total": total, "text": text})
    ann = annotate(g, time_per_turn=time_per_turn, exact_turns=exact_turns, solver_time=solver_time,
                   cpsat=cpsat, progress=progress)
    out = with_warnings(ann.to_json(), g)      # as annotate --json has them
    out["chart"] = value_chart(ann)[0]
    return out
