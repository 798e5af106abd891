"""The one check of every limit a caller hands to szsolver: time limits, node limits,
budgets and counts.

A limit that is NaN, infinite, zero, negative or absurdly large would run without
any limit, so it is bad input (:class:`~szsolver.errors.UnsupportedError`, one line
naming the argument). ``None`` means "no limit" wherever a caller allows it.

>>> check_seconds(2.5)
2.5
>>> check_seconds(float("nan"))
Traceback (most recent call last):
...
szsolver.errors.UnsupportedError: time_limit: NaN is not a number of seconds
>>> check_seconds(-1, most=10)
Traceback (most recent call last):
...
szsolver.errors.UnsupportedError: time_limit must be a positive number of seconds, finite and at most 10, got -1
>>> check_count(10**6, "node_limit")
1000000
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from .errors import UnsupportedError
from .inputs import shown

__all__ = ["MAX_SECONDS", "MAX_COUNT", "check_seconds", "check_count", "Budget",
           "fixed_work", "seconds_text"]

#: the longest time limit taken (about 30 years): beyond it a number is a typo
MAX_SECONDS = 1e9

#: the largest count or node limit taken: what a C ``long long`` holds
MAX_COUNT = 2 ** 63 - 1


def check_seconds(value, what: str = "time_limit", *, none_ok: bool = True,
                  most: float = MAX_SECONDS, cut: bool = False,
                  error: type[ValueError] = UnsupportedError) -> float | None:
    """``value`` as float seconds if it is a real number above 0 and at most ``most``
    (:data:`MAX_SECONDS`; or None, with ``none_ok``; with ``cut``, a finite number
    above ``most`` is ``most``, and the message says so); else ``error`` naming
    ``what`` and the limit (NaN by its name). Booleans and strings are not numbers
    here."""
    if value is None and none_ok:
        return None
    if isinstance(value, float) and math.isnan(value):
        raise error(f"{what}: NaN is not a number of seconds")
    ok = isinstance(value, (int, float)) and not isinstance(value, bool)
    if ok:
        try:
            x = float(value)
        except OverflowError:          # an int too large for a float
            ok = False
        else:
            if cut and math.isfinite(x) and x > most:
                return float(most)
            ok = math.isfinite(x) and 0 < x <= most
    if not ok:
        limit = f"(more than {most:g} is cut to {most:g})" if cut else f"and at most {most:g}"
        raise error(f"{what} must be a positive number of seconds, finite {limit}, "
                    f"got {shown(value)}")
    return x


def check_count(value, what: str, *, minimum: int = 1, none_ok: bool = True,
                error: type[ValueError] = UnsupportedError) -> int | None:
    """``value`` if it is a whole number (an int, not a bool) from ``minimum`` to
    :data:`MAX_COUNT` (or None, with ``none_ok``); else ``error`` naming ``what``."""
    if value is None and none_ok:
        return None
    if isinstance(value, bool) or not isinstance(value, int) \
            or not minimum <= value <= MAX_COUNT:
        raise error(f"{what} must be a whole number from {minimum} to 2**63 - 1, "
                    f"got {shown(value)}")
    return value


@dataclass(frozen=True)
class Budget:
    """What a budget of ``seconds`` buys at one position (:func:`fixed_work`): fixed
    work, no clock, so the same position and budget give the same answer on every run."""
    seconds: float
    iterations: int            # the tree search's, when it runs
    solver_nodes: int = 0      # the exact solver's node limit (0: it is not tried)


def fixed_work(seconds, iteration_seconds: float, *, solver_share: float = 0.0,
               nodes_per_second: int = 0, least_nodes: int = 0, least_iterations: int = 1,
               most_iterations: int = MAX_COUNT, nodes: int | None = None) -> Budget:
    """The split of ``seconds`` into fixed work, every game's (Stars' Zone's
    ``engine.search.budget`` takes its CP-SAT bounds' part first and splits the rest
    here): with ``solver_share``, the exact solver first, that share of the seconds at
    ``nodes_per_second`` (at least ``least_nodes``; ``nodes``, when given, instead),
    and the tree search the rest at ``iteration_seconds`` an iteration (within
    ``least_iterations`` and ``most_iterations``). The parts add up to ``seconds``,
    except that the solver is charged at most its share: a budget below its least
    nodes still gives the tree search the rest.

    >>> fixed_work(2.0, 0.001, solver_share=0.5, nodes_per_second=1000)
    Budget(seconds=2.0, iterations=1000, solver_nodes=1000)
    >>> fixed_work(2.0, 0.001, solver_share=0.5, nodes_per_second=1000, nodes=5000)
    Budget(seconds=2.0, iterations=1000, solver_nodes=5000)
    """
    check_seconds(seconds, "the engine's budget", none_ok=False)
    rest = seconds
    if solver_share:
        if nodes is None:
            nodes = max(least_nodes, int(solver_share * seconds * nodes_per_second))
        rest = max(seconds - nodes / nodes_per_second, (1 - solver_share) * seconds)
    else:
        nodes = 0
    iterations = int(min(most_iterations, max(least_iterations, rest / iteration_seconds)))
    return Budget(seconds, iterations, nodes)


def seconds_text(seconds: float) -> str:
    """Seconds taken, for a summary line: a tenth under 10 s, whole seconds above, so
    that a short run does not read '0 s'.

    >>> seconds_text(0.31), seconds_text(9.96), seconds_text(127.4)
    ('0.3 s', '10 s', '127 s')
    """
    return f"{seconds:.1f} s" if round(seconds, 1) < 10 else f"{seconds:.0f} s"
