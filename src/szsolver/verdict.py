"""The family's verdict scale: verdicts on a turn, from the mover's side, and the words
for values. Stars' Zone's ``check`` and ``annotate`` (:mod:`szsolver.analysis`), Star's
and Stargazers' judge turns on it (their values scaled to it).

Values are the rules' composite value ``100 * (red score - blue score) + (red
neutrals left - blue neutrals left)`` from Red's side. The *loss* of a turn is how
much worse the value after it is than the best value, from the mover's side
(never negative). The *result* of a value is win, draw or loss (its sign).

* ``optimal``: loss 0.
* ``blunder``: the result gets worse (win -> draw or loss, draw -> loss).
* ``mistake``: loss >= 100 (a point of score difference or more), result unchanged.
* ``inaccuracy``: any other loss (neutral stones wasted, a point given away for
  neutrals...), result unchanged.

An engine estimate is an average over many continuations, not a game value: an
estimate of +31 is no "win on neutral stones". So for estimates the result is
read with a margin (:data:`ESTIMATE_MARGIN`, half a point): a win above it, a loss
below minus it, too close to call (counted as a draw) in between. And estimates of
two turns differ by tens of units from sampling alone (measured: 10-60 in the
middle game at 3 s per turn), so an estimated loss under the margin is within the
estimate's precision: it counts as 0 (optimal).

>>> classify(199, 101, 0)
(98, 'inaccuracy')
>>> classify(100, 0, 0)
(100, 'blunder')
>>> classify(-100, -100, 1)
(0, 'optimal')
>>> classify(40, 10, 0, ESTIMATE_MARGIN), classify(140, 10, 0, ESTIMATE_MARGIN)
((0, 'optimal'), (130, 'blunder'))
>>> describe_value(-199)
'Blue wins by 2 points'
>>> describe_estimate(33), describe_estimate(-151)
('about even', 'Blue ahead by about 2 points')
"""
from __future__ import annotations

from .rules.base import RED

VERDICTS = ("optimal", "inaccuracy", "mistake", "blunder")
#: each verdict's count's key in an annotation's summary (every game's ``annotate --json``)
VERDICT_COUNTS = {"optimal": "optimal", "inaccuracy": "inaccuracies", "mistake": "mistakes",
                  "blunder": "blunders"}
MISTAKE_LOSS = 100
ESTIMATE_MARGIN = 50


def verdict_count(n: int, verdict: str) -> str:
    """``n`` turns of one verdict, in words.

    >>> verdict_count(1, "mistake"), verdict_count(3, "inaccuracy"), verdict_count(0, "blunder")
    ('1 mistake', '3 inaccuracies', '0 blunders')
    >>> verdict_count(2, "optimal")
    '2 optimal'
    """
    if verdict == "optimal" or n == 1:
        return f"{n} {verdict}"
    return f"{n} {verdict[:-1] + 'ies' if verdict.endswith('y') else verdict + 's'}"


def turns_listed(turns, most: int, sep: str = " ") -> str:
    """Best turns (their text) as every game's ``check`` and ``annotate`` show them: the
    first ``most`` joined by ``sep``, and for the rest how many, never cut silently.

    >>> turns_listed(["35", "36", "37"], 2)
    '35 36 and 1 more (--json lists them all)'
    >>> turns_listed(["17,23", "9"], 6, " or ")
    '17,23 or 9'
    """
    turns = list(turns)
    shown = sep.join(turns[:most])
    more = len(turns) - most
    return f"{shown} and {more} more (--json lists them all)" if more > 0 else shown


def result_of(value: int, mover: int, margin: int = 0) -> int:
    """+1 win, 0 draw, -1 loss for ``mover`` when the game's value is ``value``
    (``margin``: the band around 0 read as a draw, for estimates)."""
    v = value if mover == RED else -value
    return (v > margin) - (v < -margin)


def loss_of(best_value: int, played_value: int, mover: int) -> int:
    """How much the played turn gives away from the mover's side (>= 0)."""
    d = best_value - played_value
    return max(0, d if mover == RED else -d)


def classify(best_value: int, played_value: int, mover: int,
             margin: int = 0) -> tuple[int, str]:
    """(loss, verdict) of a turn whose value is ``played_value`` when the best turn's
    value is ``best_value`` (Red's side). ``margin``: 0 for proved values,
    :data:`ESTIMATE_MARGIN` for estimates."""
    loss = loss_of(best_value, played_value, mover)
    if loss == 0 or loss < margin:
        return 0, "optimal"
    if result_of(played_value, mover, margin) < result_of(best_value, mover, margin):
        return loss, "blunder"
    return loss, "mistake" if loss >= MISTAKE_LOSS else "inaccuracy"


def proved_result(bounds: tuple[int, int], mover: int) -> int | None:
    """The result (+1, 0, -1) for ``mover`` that every value in the proved interval
    ``bounds`` (lower, upper; Red's side) gives, or None when it holds more than one.

    >>> proved_result((1, 1), 0), proved_result((1, 1), 1), proved_result((0, 5), 0)
    (1, -1, None)
    """
    lo, hi = (result_of(v, mover) for v in bounds)
    return lo if lo == hi else None


def within(value, bounds: tuple[int, int]):
    """An estimate read inside the proved interval ``bounds`` (lower, upper) it lies in:
    a turn proved at most +100 is never estimated +161. None stays None.

    >>> within(161, (-604, 100)), within(-9, (1, 1)), within(None, (0, 5))
    (100, 1, None)
    """
    return value if value is None else min(max(value, bounds[0]), bounds[1])


def classify_estimate(best_value: int, played_value: int, mover: int,
                      best: tuple[int, int] | None = None,
                      played: tuple[int, int] | None = None) -> tuple[int, str]:
    """(loss, verdict) of a turn from estimated values (Red's side), read beside the
    proved intervals ``best`` and ``played`` (lower, upper) of the two values, which
    the estimates lie in. An estimate is read with :data:`ESTIMATE_MARGIN` (its result
    and its precision), but where a proved interval holds one result only (a played
    +1 proved: a win on a neutral, not "too close to call"), that result is read, and
    a loss proved above 0 is no longer within the estimate's precision (then the
    margin is 0, as for proved values). An estimate too close to call beside a
    proved result is not read as a change of result: a played -1 proved (a loss on a
    neutral) against a best turn estimated at +47 is no proved loss against a draw.

    >>> classify_estimate(101, 1, 0), classify_estimate(101, 1, 0, played=(1, 1))
    ((100, 'blunder'), (100, 'mistake'))
    >>> classify_estimate(110, 100, 0, (101, 1600), (100, 100))
    (10, 'inaccuracy')
    >>> classify_estimate(47, -10, 0, played=(-803, -1)), classify_estimate(47, -10, 0)
    ((57, 'inaccuracy'), (57, 'inaccuracy'))
    """
    far = (-10 ** 6, 10 ** 6)
    b, p = best or far, played or far
    sgn = 1 if mover == RED else -1
    b_lo = min(sgn * b[0], sgn * b[1])
    p_hi = max(sgn * p[0], sgn * p[1])
    margin = 0 if b_lo - p_hi > 0 else ESTIMATE_MARGIN
    loss = loss_of(best_value, played_value, mover)
    if loss == 0 or loss < margin:
        return 0, "optimal"
    proved_b, proved_p = (proved_result(i, mover) if i is not None else None
                          for i in (best, played))
    res_b = result_of(best_value, mover, margin) if proved_b is None else proved_b
    res_p = result_of(played_value, mover, margin) if proved_p is None else proved_p
    close = lambda v: margin and abs(v) <= margin
    # an estimate too close to call beside a proved result: the result may be the same
    if proved_p is not None and proved_b is None and close(best_value):
        res_b = res_p
    if proved_b is not None and proved_p is None and close(played_value):
        res_p = res_b
    if res_p < res_b:
        return loss, "blunder"
    return loss, "mistake" if loss >= MISTAKE_LOSS else "inaccuracy"


def classify_bounds(best: tuple[int, int], played: tuple[int, int], mover: int) -> str | None:
    """The verdict when only bounds are known: ``best`` and ``played`` are proved
    (lower, upper) intervals of the best and the played value. Returns the verdict
    every pair of values inside them gives, or None when they leave it open."""
    sgn = 1 if mover == RED else -1
    b_lo, b_hi = sorted((sgn * best[0], sgn * best[1]))
    p_lo, p_hi = sorted((sgn * played[0], sgn * played[1]))
    # from the mover's side now: loss = b - p with b >= p
    loss_lo, loss_hi = max(0, b_lo - p_hi), max(0, b_hi - p_lo)
    res = lambda v: (v > 0) - (v < 0)
    if loss_hi == 0:
        return "optimal"
    if res(p_hi) < res(b_lo):
        return "blunder"
    same_result = res(b_lo) == res(b_hi) == res(p_lo) == res(p_hi)
    if same_result and loss_lo >= MISTAKE_LOSS:
        return "mistake"
    if same_result and loss_lo > 0 and loss_hi < MISTAKE_LOSS:
        return "inaccuracy"
    return None


def wins_by(who: str, points: int) -> str:
    """The one wording of a win by a number of points, every game's ('Red wins by 2
    points', 'Black wins by 1 point', 'red wins by 3 points'); ``who`` as the caller
    writes the side.

    >>> wins_by("Red", 2), wins_by("White", 1)
    ('Red wins by 2 points', 'White wins by 1 point')
    """
    return f"{who} wins by {points} point{'s' if points != 1 else ''}"


def describe_value(value: int) -> str:
    """A Stars' Zone value in words: 'Red wins by 2 points', 'Blue wins on neutral
    stones left', 'a draw'."""
    if value == 0:
        return "a draw"
    who = "Red" if value > 0 else "Blue"
    d, t = divmod(abs(value), 100)
    if t > 50:             # 100 * d + t with |t| <= 7: round to the score difference
        d += 1
    if d == 0:
        return f"{who} wins on neutral stones left"
    return wins_by(who, d)


def describe_estimate(value: float) -> str:
    """An estimated value in words: 'about even', 'Red ahead by about 2 points'."""
    if abs(value) < ESTIMATE_MARGIN:
        return "about even"
    who = "Red" if value > 0 else "Blue"
    d = max(1, round(abs(value) / 100))
    return f"{who} ahead by about {d} point{'s' if d != 1 else ''}"


def winner_words(value: int, scores: dict | None = None) -> str:
    """'Red wins 16-14', 'Blue wins on neutral stones (11-11)', 'a draw (12-12)';
    without scores: :func:`describe_value`."""
    if scores is None:
        return describe_value(value)
    r, b = scores["red"], scores["blue"]
    if value == 0:
        return f"a draw {r}-{b}"
    who = "Red" if value > 0 else "Blue"
    if r == b:
        return f"{who} wins {r}-{b} on neutral stones"
    return f"{who} wins {r}-{b}"


def judged_bounds(before, played, best_value, played_value) -> tuple[tuple, tuple]:
    """A judged turn's proved bounds on its two values, each (lower, upper) on the
    first side's scale: those given, else (a proved value) the value itself."""
    return (before if before is not None else (best_value, best_value),
            played if played is not None else (played_value, played_value))


def bounds_json(before, played) -> dict:
    """``lower`` and ``upper`` of a judged turn's JSON (Stars' Zone's keys):
    ``value_before`` and ``played_value`` each."""
    return {"lower": {"value_before": before[0], "played_value": played[0]},
            "upper": {"value_before": before[1], "played_value": played[1]}}


def proved_words(turn: str, before, played, why: str) -> str:
    """The line beside an estimate saying what is proved: the values before and after
    the ``turn`` (``move``, ``turn``) between their bounds, and ``why`` they hold."""
    return (f"Proved: the value before the {turn} between {before[0]:+g} and {before[1]:+g}, "
            f"after it between {played[0]:+g} and {played[1]:+g} ({why}).")
