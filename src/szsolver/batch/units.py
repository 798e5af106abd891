"""The work units of the batch commands. Each is a pure function of its arguments
(seeds come from the date or the position, never from the clock or ``hash()``), so a
unit that Dask runs again after a lost worker gives the same answer. They run on the
workers: their arguments and results are plain data (strings, numbers, dicts)."""
from __future__ import annotations

import datetime as _dt

from ..errors import InputError

#: result keys that measure the run, not the answer: they differ between any two runs
TIMING_KEYS = ("seconds", "nodes_per_second")


def solve_unit(index: int, text: str, time_limit: float | None = None,
               node_limit: int | None = None) -> dict:
    """Solve the position on input line ``index`` (0-based; ``text`` its content).

    Returns ``solve --json``'s object plus ``line`` (1-based) and ``input`` (the line as
    given). A line that is not a solvable position gives ``line``, ``input`` and
    ``error`` (one line) instead: one bad line never stops the batch."""
    from ..endgame.solver import solve
    from ..formats.record import parse_source_text
    head = {"line": index + 1, "input": text}
    try:
        pos, _game = parse_source_text(text)
        res = solve(pos, time_limit=time_limit, node_limit=node_limit)
    except InputError as e:
        msg = str(e).strip().splitlines()
        return {**head, "error": msg[0] if msg else type(e).__name__}
    return {**head, **res.to_json(pos.geometry)}


def puzzle_unit(date: str) -> dict:
    """The daily puzzle of ``date`` (YYYY-MM-DD) as ``puzzle daily --solution --json``
    prints it: the puzzle, its solution, its ID and the date."""
    from ..starmaps.daily import daily, parse_date
    d = parse_date(date)
    data = daily(d).to_json()
    data["date"] = d.isoformat()
    return data


def puzzle_dates(start: str, days: int) -> list[str]:
    """``days`` dates from ``start`` (YYYY-MM-DD) on, as ISO strings."""
    from ..starmaps.daily import parse_date
    d0 = parse_date(start)
    if days > (_dt.date.max - d0).days + 1:
        raise InputError(f"{days} days from {d0.isoformat()} run past the last date, "
                         f"{_dt.date.max.isoformat()}")
    return [(d0 + _dt.timedelta(days=k)).isoformat() for k in range(days)]


def annotate_unit(name: str, text: str, time_per_turn: float, exact_turns: int,
                  solver_time: float) -> dict:
    """``annotate --json`` of the game record ``text`` (from file ``name``), plus
    ``source``; a record that does not parse gives ``source`` and ``error``. The engine's
    budget is converted to iterations, so the judgement is deterministic as long as
    every exact solve finishes within ``solver_time``."""
    from ..analysis.annotate import annotate
    from ..formats.record import parse_source_text
    try:
        _pos, game = parse_source_text(text)
        if game is None:
            raise InputError("annotate needs a game record, not a position")
        ann = annotate(game, time_per_turn=time_per_turn, exact_turns=exact_turns,
                       solver_time=solver_time)
    except InputError as e:
        msg = str(e).strip().splitlines()
        return {"source": name, "error": msg[0] if msg else type(e).__name__}
    return {"source": name, **ann.to_json()}
