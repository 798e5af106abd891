"""The work units of the batch commands, for every game of the family: a position or
record is answered by its game's entry in the registry (:mod:`szsolver.games`), as the
command line answers it. Each is a pure function of its arguments
(seeds come from the date or the position, never from the clock or ``hash()``), so a
unit that Dask runs again after a lost worker gives the same answer. They run on the
workers: their arguments and results are plain data (strings, numbers, dicts)."""
from __future__ import annotations

import datetime as _dt

from ..errors import InputError

#: result keys that measure the run, not the answer: they differ between any two runs
TIMING_KEYS = ("seconds", "nodes_per_second")


def game_answer(command: str, text: str, **options) -> dict:
    """The JSON that ``szsolver COMMAND TEXT --json`` prints, for whichever game of the
    family ``text`` is (:func:`szsolver.games.of_text`), through the registry's entry
    for that game; ``options`` by name, those the game's command does not take left
    out (each game's own defaults then apply). InputError for bad input."""
    from .. import games
    entry = games.of_text(text)
    pos, record = entry.load(games.Source(given=text, text=text))
    taken = {k: v for k, v in options.items() if entry.takes(command, k)}
    return entry.answer(command, pos, record, **taken).data


def _error(e: InputError) -> str:
    msg = str(e).strip().splitlines()
    return msg[0] if msg else type(e).__name__


def solve_unit(index: int, text: str, time_limit: float | None = None,
               node_limit: int | None = None, tt_size: int | None = None) -> dict:
    """Solve the position on input line ``index`` (0-based; ``text`` its content), of
    any game of the family (``tt_size``: Stars' Zone's table entries, None by depth).

    Returns ``solve --json``'s object plus ``line`` (1-based) and ``input`` (the line as
    given). A line that is not a solvable position gives ``line``, ``input`` and
    ``error`` (one line) instead: one bad line never stops the batch."""
    head = {"line": index + 1, "input": text}
    try:
        return {**head, **game_answer("solve", text, time_limit=time_limit,
                                      node_limit=node_limit, tt_size=tt_size)}
    except InputError as e:
        return {**head, "error": _error(e)}


def solve_settled(record: dict) -> bool:
    """Does no limit change this ``batch solve`` record? True when it is proved exact
    and complete (the value, the best turns and the line): a larger limit proves
    nothing more. A record a limit stopped, and an error (a position too deep to solve
    without a limit is one), are not: a run under other limits does them again."""
    return record.get("exact") is True and record.get("complete") is True \
        and "error" not in record


def solve_kept(earlier: dict, new: dict) -> dict:
    """Of two ``batch solve`` records of one position under other limits, both proved
    facts, the one that proved more: a value proved over bounds, else the narrower
    bounds (the new one when they tie); an error, either side, gives the new one. A
    run under a smaller limit never replaces tighter bounds with looser ones."""
    if "error" in earlier or "error" in new or new.get("exact"):
        return new
    if earlier.get("exact"):
        return earlier
    try:
        wider = (new["upper"] - new["lower"]) > (earlier["upper"] - earlier["lower"])
    except (KeyError, TypeError):
        return new
    return earlier if wider else new


def puzzle_unit(date: str) -> dict:
    """The daily puzzle of ``date`` (YYYY-MM-DD) as ``puzzle daily --solution --json``
    prints it: the puzzle, its solution, its ID and the date."""
    from ..starmaps.daily import daily, parse_date
    d = parse_date(date)
    data = daily(d).to_json()
    data["date"] = d.isoformat()
    return data


def puzzle_dates(start: str, days: int) -> list[str]:
    """``days`` dates from ``start`` (YYYY-MM-DD) on, as ISO strings. InputError (one
    line) when they would run past the last date there is, 9999-12-31."""
    from ..starmaps.daily import parse_date
    d0 = parse_date(start)
    if days < 1:
        raise InputError(f"the number of days must be at least 1, got {days}")
    room = (_dt.date.max - d0).days + 1        # dates from d0 to 9999-12-31
    if days > room:
        raise InputError(f"{days} days from {d0.isoformat()} run past {_dt.date.max.isoformat()}, "
                         f"the last date there is (at most {room} from that start)")
    return [(d0 + _dt.timedelta(days=k)).isoformat() for k in range(days)]


def annotate_unit(name: str, text: str, time_per_turn: float | None = None,
                  exact_turns: int | None = None, solver_time: float | None = None) -> dict:
    """``annotate --json`` of the game record ``text`` (from file ``name``, of any game
    of the family), plus ``source``; a record that does not parse gives ``source`` and
    ``error``. None: the game's own default (the options a game does not take are
    left out). Stars' Zone's engine budget is converted to iterations, so the
    judgement is deterministic as long as every exact solve finishes within
    ``solver_time``."""
    try:
        data = game_answer("annotate", text, time_per_turn=time_per_turn,
                           exact_turns=exact_turns, solver_time=solver_time)
    except InputError as e:
        return {"source": name, "error": _error(e)}
    return {"source": name, **data}
