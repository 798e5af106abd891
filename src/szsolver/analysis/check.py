"""Was this turn optimal? :func:`check` judges one turn in one position.

Contracts
---------
* Values are the rules' composite value (Red's side); ``loss`` and ``verdict``
  are from the mover's side (:mod:`szsolver.verdict`).
* ``exact`` is True only when ``value_before``, ``played_value``, ``best`` (every
  optimal turn), ``best_value`` and ``loss`` are all proved by the exact solver
  (``method`` ``"solver"``). Otherwise ``method`` is ``"engine"`` (the numbers are
  the engine's estimates, never called exact, though ``played_exact`` says when
  the played value alone is proved) or ``"bounds"`` (no time was left for a
  search: only proved bounds, and a verdict only when they decide it).
* ``lower``/``upper`` always hold proved bounds: ``lower["value_before"] <= true
  value before <= upper["value_before"]``, the same for ``played_value`` and
  ``loss``. They come from the solver's finished probes, the CP-SAT score bounds
  (each side's best and worst reachable final score) and the trivial bounds; they
  equal the values when exact. An estimate is always clamped into them.
* The solver is used with at most ``exact_turns`` turns left (8: seconds to a
  minute under the Basic rule; under the Advanced rule with both supplies in hand
  minutes, docs/solver.md), and beyond where it usually finishes in the nodes its
  limits leave (``endgame.solver.usually_proved``: up to 11 turns left with the
  supplies spent), also after the turn and after the engine's own
  choice one turn earlier (proved values there make a proved bound on the best
  value, and ``verdict_proved`` says when the bounds decide the verdict). One or two
  turns beyond it (:data:`PROBE_TURNS`) the positions after the turn and after the
  engine's most visited turns are probed under a pool of solver nodes fixed by the
  budget (:data:`PROBE_SHARE`): what they prove bounds the values, and an estimate
  is read beside those bounds (``verdict.classify_estimate``). Without a
  time limit the solver runs to the end there, and each CP-SAT bound gets
  ``CPSAT_TIME`` seconds of budget as CP-SAT work (proved, looser when stopped);
  with one, the check is fixed work planned from the limit alone (:func:`plan`: the
  CP-SAT bounds as work where the limit affords them, the solver's nodes, the
  engine's iterations), so the answer does not depend on the clock or on the
  process being fresh. The limit still bounds the whole check, at twice itself and
  half a second (:data:`DEADLINE`): on a machine more than about 2.7 times as slow as the cost
  models assume, the solver and then the engine stop there (the notes say so, and the
  answer then depends on the machine).
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field

from .. import interrupt
from ..bounds.model import work_for
from ..errors import InputError, ParseError
from ..formats.notation import board_json, format_turn, position_string
from ..limits import check_count, check_seconds
from ..rules.base import RED, SIDE_NAMES
from ..rules.geometry import STARS_ZONE
from ..rules.text import checked_turn, turn_table
from ..verdict import classify, classify_bounds, classify_estimate, loss_of, within

EXACT_TURNS = 8                 # the solver is tried with at most this many turns left
#: at least this many: the solver proves them in a moment, and the engine's tree has no
#: turns to weigh there (its playouts value them exactly)
MIN_EXACT_TURNS = 2
#: the engine's budget without a time limit; annotate's time per turn too, so that
#: ``check GAME --turn N`` and ``annotate GAME`` judge a turn alike
ENGINE_SECONDS = 2.0
#: the budget of each CP-SAT bound without a time limit (seconds, spent as CP-SAT work:
#: deterministic). Early in a game a floor's proof can take a minute (an exact Basic
#: floor at the first turn took 35-47 s), and a stopped bound is still proved.
CPSAT_TIME = 2.0
#: Beyond the solver's horizon, up to this many turns more (9 and 10 turns left by
#: default), the positions after the played turn and after the engine's most visited
#: turns are probed by the exact solver under a node limit (value only): a proved value
#: there, or proved bounds, settle a verdict the estimate leaves open (a played +1 is a
#: win, not "too close to call"). Measured on 8-9-turn positions of the calibration
#: set: most prove in 1-3 M nodes (docs/engine.md, "Calibration").
PROBE_TURNS = 2
#: the engine's turns probed besides the played one (its own first, then its most
#: visited: at 9 turns left the rulebook game's optimal turns were the engine's 4th
#: and 5th most visited, and a turn's probe at 8-9 turns left takes 1-3 M nodes)
PROBE_CANDIDATES = 5
#: The probes' nodes together, as seconds of the budget at the solver's rate
#: (``engine.search.SOLVER_NODES_PER_SECOND``): without a time limit this many times
#: the engine's budget, with a time limit the solver's part of it (:func:`plan`). The
#: probes take turns at the pool: each gets what is left divided by the probes still to
#: come (the played turn's first), so what one does not use goes to the next, and a
#: check's work is fixed by its input (node counts, not the clock).
PROBE_SHARE = 2.0
#: Under a time limit a check is fixed work planned from the limit alone (:func:`plan`),
#: so that one limit gives one answer on every run: in a fresh process (the command) as
#: in a warm one (the web's jobs, OR-Tools loaded). The CP-SAT bounds come first, as
#: CP-SAT work: :data:`BOUNDS_SHARE` of the limit, charged besides OR-Tools' import
#: (``engine.search.BOUNDS_START``) and :data:`BOUNDS_CALL` seconds for each of the two
#: positions bounded; they run only where that charge is at most :data:`BOUNDS_MOST` of
#: the limit. Measured on the rulebook game (every third turn, OR-Tools loaded): a
#: position's four bounds at the work of a 1 s limit took 0.03-0.22 s, most where the
#: game is young and they prove least; the import 0.40-0.55 s. (Before, a 1 s check
#: spent 0.8-0.9 s on them in a fresh process, the engine's deadline then stopped it,
#: and the command and the web answered differently.)
BOUNDS_SHARE = 0.1
BOUNDS_CALL = 0.15
BOUNDS_MOST = 0.25
#: Of what the bounds leave, the exact solver gets this share as nodes where it is used
#: (at most :data:`PROBE_TURNS` beyond ``exact_turns``: its proofs, the probes), and the
#: engine :data:`ENGINE_SHARE` of what is left then as iterations (of all of it where the
#: solver is not used). The remainder is a margin: the limit sets a deadline
#: (:data:`DEADLINE`; the solver and then the engine stop at it), and the cost models
#: miss by a fifth either way on
#: the project's machine and by more on a busy one (measured on a day the tree ran at
#: 0.56-0.86 of its model), so that the deadline stays a safety net.
SOLVER_SHARE = 0.5
ENGINE_SHARE = 0.5
#: Under a time limit, the solve of the engine's own turn after the solver stopped
#: (:func:`refine`) gets this share of the solver's part as nodes, beside its whole
#: part before.
REFINE_SHARE = 0.25
#: The deadline of a check under a time limit, as a multiple of the limit: its safety
#: net only. The plan's fixed work takes about three quarters of the limit where the
#: cost models hold; with the deadline at the limit itself a busy machine or a slow day
#: cut the work short and the answer changed from run to run (a new user's 0.4 s
#: checks at load 3: the engine stopped after 1,034-12,403 of its 17,426 iterations, the
#: verdict optimal twice and an inaccuracy once). At twice the limit the answer is the
#: fixed work's up to a machine about 2.7 times slower than the models, and past that
#: the solver and then the engine stop (the notes say so). A short limit gets
#: :data:`DEADLINE_SLACK` seconds more: there a busy machine's scheduling is most of the
#: difference (0.4 s checks at load 3, a slow day: one run in three still stopped at
#: 0.8 s).
DEADLINE = 2.0
DEADLINE_SLACK = 0.5
_FAR = 10 ** 6


@dataclass(frozen=True)
class Plan:
    """A time limit's fixed work (:func:`plan`)."""
    bounds_work: float | None     # each CP-SAT bound's work limit (None: no CP-SAT bounds)
    solver_seconds: float         # the exact solver's part, as nodes at its rate
    engine_seconds: float         # the engine's part, as iterations at its cost model


def plan(time_limit: float, cpsat: bool = True, solver: bool = True) -> Plan:
    """The one conversion of ``check``'s time limit into fixed work, a pure function of
    its arguments: the CP-SAT bounds first (where the limit affords them,
    :data:`BOUNDS_MOST`); of the rest the exact solver :data:`SOLVER_SHARE` where it is
    used (``solver``), the engine :data:`ENGINE_SHARE` of what is left.

    >>> plan(1.0)
    Plan(bounds_work=None, solver_seconds=0.5, engine_seconds=0.25)
    >>> plan(1.0, solver=False).engine_seconds
    0.5
    >>> plan(5.0).bounds_work is not None, plan(4.0).bounds_work
    (True, None)
    """
    from ..engine.search import BOUNDS_START
    charge = BOUNDS_START + 2 * BOUNDS_CALL + BOUNDS_SHARE * time_limit
    bounds = cpsat and charge <= BOUNDS_MOST * time_limit
    rest = time_limit - charge if bounds else time_limit
    solver_part = SOLVER_SHARE * rest if solver else 0.0
    return Plan(work_for(BOUNDS_SHARE * time_limit / 8) if bounds else None,
                solver_part, ENGINE_SHARE * (rest - solver_part))


@dataclass
class CheckResult:
    """The judgement of one turn; see the module doc for the contracts."""
    position: str
    turn: int
    mover: int
    value_before: int | None
    played_value: int | None
    best: list[int]
    best_value: int | None
    loss: int | None
    verdict: str | None
    exact: bool
    method: str
    lower: dict
    upper: dict
    seconds: float = 0.0
    scores: dict = field(default_factory=dict)     # final scores of the proved lines
    score_bounds: dict | None = None
    played_exact: bool = False                     # played_value proved (even if not all is)
    verdict_proved: bool = False                   # the verdict follows from proved bounds
    engine_stopped: bool = False                   # the time limit cut the engine's search short
    notes: list[str] = field(default_factory=list)
    geometry: object = None
    engine_line: list[int] = field(default_factory=list)   # the engine's expected line (estimated)

    def with_turns(self) -> "CheckResult":
        """``turn`` and ``best`` as Turns of the position's board, which print as turn
        text (the search hands out plain int codes); returns self."""
        table = turn_table(self.geometry or STARS_ZONE)
        self.turn = table[self.turn]
        self.best = [table[t] for t in self.best]
        self.engine_line = [table[t] for t in self.engine_line]
        return self

    def to_json(self) -> dict:
        g = self.geometry
        return {
            "position": self.position, **board_json(g),
            "played": format_turn(self.turn, g),
            "mover": SIDE_NAMES[self.mover],
            "value_before": self.value_before,
            "played_value": self.played_value,
            "best": [format_turn(t, g) for t in self.best],
            "best_value": self.best_value,
            "loss": self.loss,
            "verdict": self.verdict,
            "exact": self.exact,
            "played_exact": self.played_exact,
            "verdict_proved": self.verdict_proved,
            "engine_stopped": self.engine_stopped,
            "method": self.method,
            "lower": self.lower,
            "upper": self.upper,
            "scores": self.scores,
            "score_bounds": self.score_bounds,
            "notes": self.notes,
            "seconds": round(self.seconds, 3),
            "engine_line": [format_turn(t, g) for t in self.engine_line],
        }


@dataclass
class Facts:
    """What is proved about one position's value: ``lower <= value <= upper``;
    when ``exact`` also ``best`` (every optimal turn) and ``scores`` (the final
    scores of an optimal line)."""
    lower: int = -_FAR
    upper: int = _FAR
    exact: bool = False
    best: list[int] | None = None
    scores: dict | None = None
    score_bounds: dict | None = None
    stopped: str | None = None
    nodes: int = 0                # the solver's nodes spent, where counted (probes)

    @property
    def value(self) -> int | None:
        return self.lower if self.exact else None

    def interval(self) -> tuple[int, int]:
        return self.lower, self.upper


def _phase(progress, text):
    """``progress`` (a callable(str) or None) with each message prefixed by ``text``."""
    return None if progress is None else (lambda msg: progress(f"{text}: {msg}"))


def over_facts(pos) -> Facts:
    """A finished game: its value."""
    v = pos.value()
    r, b = pos.scores()
    return Facts(v, v, True, [], {"red": r, "blue": b})


def solver_facts(pos, time_limit=None, node_limit=None, progress=None, threads=1,
                 tt_size=None) -> Facts:
    """The exact solver's answer at ``pos`` (with ``time_limit`` or ``node_limit``:
    proved bounds if it stops early). ``progress``: optional callable(str).
    ``threads``: the solver's threads (the same value and best turns); ``tt_size``: its
    table's entries (None: ``solve``'s default)."""
    from ..endgame.solver import solve
    if pos.is_over():
        return over_facts(pos)
    r = solve(pos, time_limit=time_limit, node_limit=node_limit, progress=progress,
              threads=threads, tt_size=tt_size)
    interrupt.raise_if_absorbed(r.stopped)      # the judging stops with the search
    if r.exact and r.best_complete:
        return Facts(r.value, r.value, True, sorted(r.best), r.scores)
    if r.exact:
        # The value is proved but a limit struck before every optimal turn was: a turn
        # missing from ``best`` is not proved worse, so only the value is kept.
        return Facts(r.value, r.value, stopped=r.stopped)
    return Facts(r.lower, r.upper, stopped=r.stopped)


def probe_facts(pos, node_limit: int, time_limit=None) -> Facts:
    """The exact solver's value at ``pos`` under ``node_limit`` (and ``time_limit``, a
    safety net: None for a deterministic answer), the value only (no optimal turns):
    ``Facts`` exact (``best`` None) when proved, else the proved bounds."""
    from ..endgame.solver import solve
    if pos.is_over():
        return over_facts(pos)
    r = solve(pos, node_limit=node_limit, time_limit=time_limit, pv=False)
    interrupt.raise_if_absorbed(r.stopped)      # the judging stops with the search
    if r.exact:
        return Facts(r.value, r.value, True, nodes=r.nodes)
    return Facts(r.lower, r.upper, stopped=r.stopped, nodes=r.nodes)


def probe_nodes(pos, seconds: float) -> int:
    """The probes' pool of nodes at ``pos`` for ``seconds`` of budget (see
    :data:`PROBE_SHARE`; the caller applies the share): a pure function of the rule and
    the seconds, at least ``MIN_SOLVER_NODES`` a probe."""
    from ..engine.search import MIN_SOLVER_NODES, solver_nodes_for
    return max(MIN_SOLVER_NODES * (1 + PROBE_CANDIDATES), solver_nodes_for(pos, seconds))


def within_reach(pos, exact_turns: int, nodes: int | None) -> bool:
    """Whether the solver is used at ``pos``: with at most ``exact_turns`` turns left, and
    beyond where it usually finishes in ``nodes`` (None: no limit), the supplies spent
    (``endgame.solver.usually_proved``)."""
    from ..endgame.solver import usually_proved
    return pos.turns_left <= exact_turns or usually_proved(pos, nodes)


def turn_facts(pos, turn: int, time_limit=None, node_limit=None,
               best: bool = True, progress=None, tt_size=None) -> tuple[Facts, Facts]:
    """What the exact solver proves at ``pos`` (a core position, game not over) and
    after ``turn`` there: ``(before, played)``, as two :func:`solver_facts` would,
    with less search. One searcher (one transposition table) does both: first the
    position after the turn (one turn shallower, so cheaper), valued by MTD(f); its
    value is a proved bound on the value before (the mover can always play the
    turn), and one null-window probe there asks whether anything is better: when
    not, the turn is optimal and the value before proved; when so, MTD(f) goes on
    from the solver's usual guess. Then, with ``best``, every optimal turn: one
    null-window probe per other orbit of turns (the played turn's orbit is known
    optimal or not by then), and the final scores of an optimal line.

    ``time_limit``/``node_limit`` bound the whole; a stop leaves proved bounds (each
    from a finished probe or a static bound) and, once a value is proved, that value
    without its optimal turns (``stopped`` names the reason). Ctrl-C raises
    :class:`~szsolver.interrupt.Interrupted`. ``progress``: optional callable(str),
    told each proved bound as it comes. ``tt_size``: the table's entries (None: as
    ``solve`` sizes it)."""
    from ..endgame import prover
    from ..endgame import solver as sv
    interrupt.raise_if_interrupted()
    red = pos.side == RED
    child = pos.copy()
    child.make(turn)
    # a long judging beyond the default depth gets a long solve's table, as `solve` does
    size = tt_size or sv.tt_entries_for(pos.turns_left, time_limit, node_limit)
    s = sv.new_searcher(pos, size, None, None)
    s.set_limits(node_limit or 0, time_limit or 0.0)

    def why():
        reason = prover.stop_reason(s)
        if interrupt.stopped_by_ctrl_c(reason):
            raise interrupt.Interrupted()    # the search absorbed Ctrl-C: the judging stops
        return reason

    # 1. The value after the turn, and an optimal line from there.
    s.make(turn)
    bound = prover.static_bound(s)
    if child.is_over():
        played = over_facts(child)
    else:
        try:
            bound, done = prover.mtdf(s, bound, prover.first_guess(s),
                                      _phase(progress, "after the turn"))
        except KeyboardInterrupt:
            raise interrupt.Interrupted() from None
        if not done:
            s.reset()
            played = Facts(bound.lo, bound.hi, stopped=why())
            before = prover.static_bound(s).reaches(pos.side, bound)
            return Facts(before.lo, before.hi, stopped=played.stopped), played
        played = Facts(bound.lo, bound.lo, True, None, None)
        line = []
        try:
            prover.pv(s, bound.lo, line)
            played.scores = prover.line_scores(child, line)
        except prover.Stopped:
            s.reset()
            s.make(turn)
        except KeyboardInterrupt:
            raise interrupt.Interrupted() from None
    s.unmake(turn)
    vp = played.lower

    # 2. The value before: at least as good for the mover as the played value.
    orbits = sv.turn_orbits(pos)
    mine = next(o for o in orbits if turn in o)
    bound = prover.static_bound(s).reaches(pos.side, prover.Bound(vp, vp))
    # One turn per orbit, in the search's order (the child's line, then the ordering
    # heuristic): the first probe asks for a better turn than the one played, and in
    # plain turn order it would refute every stone alone before any neutral turn.
    s.set_root_turns(sv.ordered_orbit_turns(s, orbits))
    try:
        # One null-window probe at the played value: is anything better? When not,
        # the turn is optimal and the value proved. When so, the value lies higher
        # for the mover, often far (a random turn): MTD(f) goes on from the
        # solver's own guess (measured: climbing on from the played value took up
        # to 1.5x the nodes).
        mover = bound.for_side(pos.side)
        gamma = prover.Bound(vp, vp).for_side(pos.side).lo + 1
        done = True
        if mover.decides(gamma) is None:
            r = prover.probe(s, gamma, pos.side)
            if r is None:
                done = False
            else:
                bound = mover.after(*r).for_side(pos.side)
        if done:
            bound, done = prover.mtdf(s, bound, prover.first_guess(s),
                                      _phase(progress, "before the turn"))
    except KeyboardInterrupt:
        raise interrupt.Interrupted() from None
    s.set_root_turns(None)
    if not done:
        return Facts(bound.lo, bound.hi, stopped=why()), played
    value = bound.lo
    if not best:
        return Facts(value, value, stopped="best turns not asked for"), played

    # 3. Every optimal turn, and the final scores of an optimal line.
    optimal = value == vp
    try:
        if optimal:
            found, scores = sorted(mine), played.scores
        else:
            line = []
            prover.pv(s, value, line)
            scores = prover.line_scores(pos, line)
            found = sorted(next(o for o in orbits if line[0] in o))
        rest = [o for o in orbits if o is not mine and not set(o) & set(found)]
        prover.best_turns(s, rest, value, red, found, _phase(progress, "best turns"))
    except prover.Stopped:
        return Facts(value, value, stopped=prover.stopped_text(
            why(), True, best_complete=False)), played
    except KeyboardInterrupt:
        raise interrupt.Interrupted() from None
    if scores is None:        # the line after the turn was cut short: no final scores
        return Facts(value, value, stopped=prover.stopped_text(
            why(), True, pv_complete=False)), played
    return Facts(value, value, True, sorted(found), scores), played


def bound_facts(pos, facts: Facts | None = None, time_limit=None, cpsat: bool = True,
                work_limit=None) -> Facts:
    """``facts`` (default: nothing known) tightened by the trivial bounds and, with
    ``cpsat``, each side's CP-SAT final-score floor and bound (``time_limit`` and
    ``work_limit`` per CP-SAT call, as in :func:`~szsolver.bounds.value.score_bounds`).
    Facts that hold CP-SAT bounds already are returned as they are (a position shared
    by two turns is bounded once)."""
    from ..bounds.value import bounds_from_scores, score_bounds, trivial_bounds
    f = facts or Facts()
    if f.exact or f.score_bounds is not None:
        return f
    if pos.is_over():
        return over_facts(pos)
    lo, hi = trivial_bounds(pos)
    sb = None
    if cpsat:
        sb = score_bounds(pos, time_limit, work_limit)
        blo, bhi = bounds_from_scores(pos, sb)
        lo, hi = max(lo, blo), min(hi, bhi)
    return Facts(max(f.lower, lo), min(f.upper, hi), False, f.best, f.scores, sb, f.stopped)


def checked_turn_to_judge(pos, turn) -> int:
    """The turn code of ``turn`` (a code or text) to judge at ``pos``: InputError when
    the game is over (there is no turn to judge), ParseError for what is neither text
    nor a code, else the rules' one check (:func:`szsolver.rules.text.checked_turn`:
    IllegalTurnError naming the turn and why)."""
    if pos.is_over():
        raise InputError("the game is over: there is no turn to judge in this position")
    if isinstance(turn, bool) or not isinstance(turn, (str, int)):
        raise ParseError(f"a turn is text like '44n66' or a turn code, not {type(turn).__name__}")
    return checked_turn(pos, turn)


def judge(pos, turn: int, before: Facts, played: Facts, estimate: dict | None = None,
          notes=()) -> CheckResult:
    """Put together the judgement of ``turn`` at ``pos`` from what is proved about
    the position before (``before``) and after the turn (``played``) and, when that
    is not all proved, the engine's ``estimate`` (:meth:`Engine.judge`)."""
    mover = pos.side
    res = CheckResult(position_string(pos), turn, mover, None, None, [], None, None, None,
                      False, "bounds", {}, {}, notes=list(notes), geometry=pos.geometry)
    b = before.interval()
    p = played.interval()
    exact_b, exact_p = before.exact, played.exact
    scores = {}
    if exact_b:
        scores["best"] = before.scores
        res.best = list(before.best)
        if turn in before.best:
            p, exact_p = b, True
            scores["played"] = before.scores
        elif mover == RED:        # proved not optimal: strictly worse for the mover
            p = (p[0], min(p[1], b[0] - 1))
        else:
            p = (max(p[0], b[1] + 1), p[1])
    if exact_p and "played" not in scores and played.scores is not None:
        scores["played"] = played.scores
    b, p = _tighten(b, p, mover)
    res.scores = scores
    res.score_bounds = before.score_bounds
    res.played_exact = exact_p
    if exact_b and exact_p:
        vb, vp = b[0], p[0]
        res.value_before = res.best_value = vb
        res.played_value = vp
        res.loss, res.verdict = classify(vb, vp, mover)
        res.exact, res.method, res.verdict_proved = True, "solver", True
        res.lower = {"value_before": vb, "played_value": vp, "loss": res.loss}
        res.upper = dict(res.lower)
        return res
    if estimate is not None and estimate.get("best_exact") and estimate["best"] != turn:
        # the engine's turn, valued exactly: the mover can do at least that well
        v = estimate["best_value"]
        b = (max(b[0], v), b[1]) if mover == RED else (b[0], min(b[1], v))
        b, p = _tighten(b, p, mover)
    if estimate is not None and estimate.get("best_bound") is not None:
        # a probed turn's proved bound: the mover can do at least that well
        v = estimate["best_bound"]
        b = (max(b[0], v), b[1]) if mover == RED else (b[0], min(b[1], v))
        b, p = _tighten(b, p, mover)
    if estimate is not None:
        vb, vp = estimate["best_value"], estimate["played_value"]
        best = [estimate["best"]]
        # The engine's loss: its two estimates come from one search, so they are
        # comparable (a proved value and an estimate are not: a played value proved
        # -1 against an estimated +64 is no loss of 65 when the search put the played
        # turn at +29).
        loss = 0 if estimate["best"] == turn else \
            loss_of(estimate.get("best_estimate", vb), vp, mover)
        if exact_p:
            vp = p[0]
        if exact_b:
            vb, best = b[0], res.best
        elif estimate["best"] == turn:
            vb = vp                   # the engine's own choice: no loss by its estimate
        elif loss_of(vp, vb, mover) > 0:
            # the played turn looks better than the engine's choice: the best found
            vb, best, loss = vp, [turn], 0
        res.lower, res.upper = _bounds_dict(b, p, mover)
        vp = within(vp, p)
        if not exact_b and not estimate.get("best_exact"):
            # the level from the played value (proved or estimated), the gap the
            # engine's, both within the proved bounds (where the engine's own turn is
            # proved, its value is the best's level instead: no estimate is left)
            loss = within(loss, (res.lower["loss"], res.upper["loss"]))
            vb = vp + loss if mover == RED else vp - loss
        vb = within(vb, b)
        vb = max(vb, vp) if mover == RED else min(vb, vp)
        res.value_before = res.best_value = vb
        res.played_value = vp
        res.best = sorted(best)
        # the estimates read beside the proved bounds: a result or a loss they prove
        # is not read with the estimate's margin
        res.loss, res.verdict = classify_estimate(vb, vp, mover, b, p)
        res.method = "engine"
        res.engine_line = list(estimate.get("pv", ()))
        res.engine_stopped = bool(estimate.get("stopped"))
        cut = "; stopped by the time limit" if res.engine_stopped else ""
        res.notes.append(f"engine estimate ({estimate['iterations']:,} iterations{cut})")
        proved = classify_bounds(b, p, mover)
        if proved is not None:         # the bounds decide: that verdict, not the estimate's
            res.verdict, res.verdict_proved = proved, True
            if proved == "optimal":
                res.loss = 0
    else:
        res.verdict = classify_bounds(b, p, mover)
        res.verdict_proved = res.verdict is not None
        res.notes.append("no search within the time limit: proved bounds only")
        if exact_b or b[0] == b[1]:           # a value proved without its best turns
            res.value_before = res.best_value = b[0]
        if exact_p or p[0] == p[1]:
            res.played_value = p[0]
    res.lower, res.upper = _bounds_dict(b, p, mover)
    if res.loss is None and res.lower["loss"] == res.upper["loss"]:
        res.loss = res.lower["loss"]
    return res


def refine(pos, estimate: dict, exact_turns: int = EXACT_TURNS, time_limit=None,
           node_limit=None, threads: int = 1) -> dict:
    """The engine's ``estimate`` at ``pos`` with its own turn valued exactly when that
    leaves at most ``exact_turns`` turns (``best_exact``: then ``best_value`` is a
    proved value of that turn, so a proved bound on the best value); ``threads``: the
    solver's."""
    child = pos.copy()
    child.make(estimate["best"])
    if child.turns_left > exact_turns:
        return estimate
    f = solver_facts(child, time_limit, node_limit, threads=threads)
    if not f.exact:
        return estimate
    return {**estimate, "best_value": f.value, "best_exact": True,
            "best_estimate": estimate.get("best_estimate", estimate["best_value"])}


def beyond_horizon(pos, exact_turns: int = EXACT_TURNS) -> bool:
    """Whether ``pos`` is where :func:`check` probes (:data:`PROBE_TURNS`)."""
    return exact_turns < pos.turns_left <= exact_turns + PROBE_TURNS


def probe_played(child, nodes: int, node_limit=None, time_limit=None) -> tuple[Facts, int]:
    """The played turn's probe at ``child`` (the position after it): its share of the
    pool of ``nodes`` (the first of 1 + :data:`PROBE_CANDIDATES`); returns the facts and
    the nodes left for the engine's turns."""
    mine = nodes // (1 + PROBE_CANDIDATES)
    f = probe_facts(child, mine if node_limit is None else min(mine, node_limit), time_limit)
    return f, nodes - f.nodes


def better_than_played(pos, played: Facts, nodes: int) -> tuple[Facts, int]:
    """One null-window test at ``pos``, whose turn's value ``played`` is proved: "is any
    turn better than the played one?" (the solver's own order of turns, on one table,
    under ``nodes``). Returns what it proves of the value before (no better turn: the
    played value; a better one: beyond it; not decided in the nodes: nothing) and the
    nodes it searched. A fail far from the value is cheap, and so is a pass where a
    better turn comes early in the solver's order (measured at 9 turns left:
    docs/engine.md, "Is any turn better?")."""
    from ..endgame.solver import ValueTests
    mover, v = pos.side, played.lower
    tests = ValueTests(max(nodes, 1), pos.turns_left)
    better = tests.at_least(pos, (v if mover == RED else -v) + 1, mover)
    if better is None:
        return Facts(), tests.nodes
    if better:
        return (Facts(lower=v + 1) if mover == RED else Facts(upper=v - 1)), tests.nodes
    return Facts(v, v), tests.nodes


def probe(pos, turn: int, estimate: dict, nodes: int, exact_turns: int = EXACT_TURNS,
          time_limit=None, node_limit=None, threads: int = 1, refine_nodes=None) -> dict:
    """The engine's ``estimate`` at ``pos`` with its most visited turns (its own
    first, :data:`PROBE_CANDIDATES` in all, not ``turn``) probed by the exact solver:
    the engine's own turn as :func:`refine` does where that leaves at most
    ``exact_turns`` turns, the others (:func:`probe_facts`) sharing a pool of ``nodes``
    (each what is left over the probes to come; at most ``node_limit`` each).
    ``best_bound``: the best of their proved bounds for the mover (a proved bound on
    the best value); a turn proved at least as good as the engine's own (its proved
    value, else its estimate) becomes ``best``, valued exactly (``best_exact``).
    ``time_limit``: :func:`refine`'s, and a safety net for all the probes together
    (None: none); ``threads``: :func:`refine`'s; ``refine_nodes``: its node limit
    (None: ``node_limit``)."""
    red = pos.side == RED
    start = time.perf_counter()
    if estimate["best"] != turn:
        estimate = refine(pos, estimate, exact_turns, time_limit,
                          node_limit if refine_nodes is None else refine_nodes, threads)
    own = estimate["best"]
    order = [own] + [t for t in estimate.get("candidates", ()) if t != own]
    bound, found = None, None
    todo = [t for t in order if t != turn][:PROBE_CANDIDATES]
    for k, t in enumerate(todo):
        if t == own and estimate.get("best_exact"):
            f = Facts(estimate["best_value"], estimate["best_value"], True)
        else:
            left = None
            if time_limit is not None:
                left = time_limit - (time.perf_counter() - start)
                if left <= 0:
                    break
            child = pos.copy()
            child.make(t)
            share = max(nodes // (len(todo) - k), 1)
            f = probe_facts(child, share if node_limit is None else min(share, node_limit),
                            left)
            nodes = max(nodes - f.nodes, 0)
        v = f.lower if red else f.upper
        if bound is None or (v > bound if red else v < bound):
            bound = v
        if f.exact and (found is None or (f.lower > found[1] if red else f.lower < found[1])):
            found = (t, f.lower)
    if bound is None:
        return estimate
    out = {**estimate, "best_bound": bound}
    if found is not None and found[0] != own:
        mine = estimate["best_value"]
        if (found[1] >= mine) if red else (found[1] <= mine):
            out.update(best=found[0], best_value=found[1], best_exact=True,
                       best_estimate=estimate.get("best_estimate", mine))
    return out


def check(pos, turn, *, time_limit: float | None = None, engine_seconds: float = ENGINE_SECONDS,
          exact_turns: int = EXACT_TURNS, cpsat: bool = True, engine=None,
          node_limit: int | None = None, progress=None) -> CheckResult:
    """Judge ``turn`` (a turn code or text) played at ``pos`` (either back end).

    ``time_limit``: seconds for the whole check (None: the solver runs to the end
    where it is used, the engine gets ``engine_seconds``). ``cpsat``: use the CP-SAT
    score bounds when the answer is not exact. ``engine``: an ``Engine`` to use
    (default: a new one). ``node_limit``: at most this many solver nodes per exact
    solve (deterministic, unlike a time limit; None: no limit); a solve it stops
    leaves proved bounds, as a time limit does. ``progress``: optional callable(str),
    told what the check is doing (each bound the solver proves, the CP-SAT bounds,
    the engine's estimate). Raises IllegalTurnError / InputError for bad input.
    """
    from ..rules.backends import to_core
    from ..engine.search import MIN_ITERATIONS, Engine, solver_nodes_for
    check_seconds(time_limit, "the time limit")
    check_seconds(engine_seconds, "the engine's time", none_ok=False)
    check_count(node_limit, "the node limit")
    exact_turns = max(exact_turns, MIN_EXACT_TURNS)
    start = time.perf_counter()
    core = to_core(pos)
    work = None if time_limit is None else plan(time_limit, cpsat)
    deadline = None if time_limit is None else start + DEADLINE * time_limit + DEADLINE_SLACK

    def time_left():
        """The time to the deadline, the solver's safety net (its node limits come
        first)."""
        return None if time_limit is None else \
            max(deadline - time.perf_counter(), 0.001)

    def table_for(nodes):
        """Under a plan, a table its nodes can fill, as the engine's solver has (None:
        ``solve``'s default)."""
        from ..endgame.solver import tt_entries_filled
        return None if work is None or nodes is None else \
            tt_entries_filled(core.turns_left, nodes)

    def nodes_for(f):
        """The solver's nodes for the share ``f`` of its part of the plan (at most
        ``node_limit``; None: no limit)."""
        if work is None:
            return node_limit
        n = max(solver_nodes_for(core, work.solver_seconds * f), 1)
        return n if node_limit is None else min(n, node_limit)
    if within_reach(core, exact_turns, nodes_for(1.0)):
        exact_turns = max(exact_turns, core.turns_left)   # beyond it where cheap: supplies spent
    if work is not None and core.turns_left > exact_turns + PROBE_TURNS:
        work = plan(time_limit, cpsat, solver=False)  # no solver: its part to the engine
    turn = checked_turn_to_judge(core, turn)
    child = core.copy()
    child.make(turn)
    notes = []

    # 1. The exact solver, near the end of the game.
    before, played = Facts(), Facts()
    if child.is_over():
        played = over_facts(child)
    tell = progress or (lambda msg: None)
    probing = beyond_horizon(core, exact_turns)
    budget = engine.seconds if engine is not None else engine_seconds
    nodes = probe_nodes(core, budget * PROBE_SHARE if work is None
                        else work.solver_seconds) if probing else 0
    if core.turns_left - 1 == exact_turns and not played.exact:
        played = solver_facts(child, time_left(), nodes_for(0.5),   # the value after
                              _phase(progress, "after the turn"),
                              tt_size=table_for(nodes_for(0.5)))
    elif probing and not played.exact:
        tell(f"the exact solver after the turn ({nodes // (1 + PROBE_CANDIDATES):,} nodes)")
        played, nodes = probe_played(child, nodes, node_limit, time_left())
    if core.turns_left <= exact_turns:
        before, played = turn_facts(core, turn, time_left(), nodes_for(1.0),
                                    progress=progress, tt_size=table_for(nodes_for(1.0)))
        if before.stopped:
            notes.append(f"solver stopped ({before.stopped})")
    if before.exact and (played.exact or turn in before.best):
        res = judge(core, turn, before, played, None, notes)
        res.seconds = time.perf_counter() - start
        return res.with_turns()
    if probing and played.exact and core.turns_left - 1 == exact_turns and nodes > 0:
        # one turn beyond the horizon, the played value proved: "is any turn better?"
        # first, on the probes' pool (its candidates get what it leaves)
        tell(f"the exact solver: is any turn better? ({nodes:,} nodes)")
        before, used = better_than_played(core, played, nodes if node_limit is None
                                          else min(nodes, node_limit))
        nodes = max(nodes - used, 0)

    # 2. Proved bounds from CP-SAT (each side's best and worst reachable score).
    interrupt.raise_if_interrupted()
    # as CP-SAT work (the same bounds on every run), and under a time limit only where
    # the plan affords them
    cpsat_work = work_for(CPSAT_TIME) if work is None else work.bounds_work
    cpsat = cpsat and cpsat_work is not None
    if cpsat:
        tell("CP-SAT score bounds")
    before = bound_facts(core, before, None, cpsat, cpsat_work)
    played = bound_facts(child, played, None, cpsat, cpsat_work)

    # 3. The engine's estimates, on a budget fixed by the limit (not by the clock).
    interrupt.raise_if_interrupted()
    eng = engine or Engine(engine_seconds)
    seconds = (eng.seconds if engine is not None else engine_seconds) if work is None \
        else work.engine_seconds
    estimate = None
    if core.turns_left > MIN_EXACT_TURNS and (
            time_limit is None or eng.iterations_for(core, seconds) > MIN_ITERATIONS):
        tell(f"engine estimate ({eng.iterations_for(core, seconds):,} iterations)")
        # The budget is fixed (the same estimate on every machine); the deadline only
        # keeps the limit where the cost model is far too hopeful for this machine.
        estimate = eng.judge(core, turn, seconds, deadline=deadline)
        left = time_left()
        if probing:
            tell(f"the exact solver after the engine's turns ({nodes:,} nodes)")
            estimate = probe(core, turn, estimate, nodes, exact_turns, left, node_limit,
                             refine_nodes=nodes_for(REFINE_SHARE))
        elif estimate["best"] != turn and not before.exact:
            estimate = refine(core, estimate, exact_turns, left, nodes_for(REFINE_SHARE))
    res = judge(core, turn, before, played, estimate, notes)
    res.seconds = time.perf_counter() - start
    return res.with_turns()


def _tighten(before, played, mover):
    """The best value is at least as good for the mover as the played value:
    Red's best >= played, Blue's best <= played. Intersect accordingly."""
    (b_lo, b_hi), (p_lo, p_hi) = before, played
    if mover == RED:
        b_lo = max(b_lo, p_lo)
        p_hi = min(p_hi, b_hi)
    else:
        b_hi = min(b_hi, p_hi)
        p_lo = max(p_lo, b_lo)
    return (b_lo, b_hi), (p_lo, p_hi)


def _bounds_dict(before, played, mover):
    sgn = 1 if mover == RED else -1
    b = sorted((sgn * before[0], sgn * before[1]))
    p = sorted((sgn * played[0], sgn * played[1]))
    loss = (max(0, b[0] - p[1]), max(0, b[1] - p[0]))
    lower = {"value_before": before[0], "played_value": played[0], "loss": loss[0]}
    upper = {"value_before": before[1], "played_value": played[1], "loss": loss[1]}
    return lower, upper
