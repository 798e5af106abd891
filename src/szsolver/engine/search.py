"""The engine: a turn and an estimated value for any position, exact near the end.

Contracts
---------
* :meth:`Engine.analyse` returns an :class:`EngineResult`: a legal turn, the value
  (the rules' composite value ``100 * (red score - blue score) + (red neutrals
  left - blue neutrals left)``, Red's side), whether it is proved (``exact``), and
  ``lower <= true value <= upper``, bounds that are always proved (the exact
  solver's finished probes, the CP-SAT score bounds, or the trivial bounds).
* With few enough turns left (``solver_turns``) the exact endgame solver runs
  first under a node limit; when it finishes the answer is exact (``method``
  ``"solver"``, ``best`` every optimal turn, or where the node limit struck while the
  solver listed them, those proved before it: ``best_complete`` says which, and
  ``pv_complete`` whether the line reaches the end). With one turn left (two under
  Basic) it always runs, without a limit: the tree search values those turns
  exactly in its playouts and opens none, so it has nothing to weigh there. Otherwise Monte Carlo tree search
  (``engine._mcts``) gives the turn and an estimate (``method`` ``"engine"``,
  never exact), clamped into the proved bounds.
* Deterministic by default: a time budget becomes fixed work by one conversion,
  :func:`budget` (the tree's iterations, the solver's nodes, the CP-SAT bounds'
  work, at rates measured on the project's 2-core machine so that the whole
  analysis takes about the budget there), and the random seed comes from SHA-256 of
  the position string and the engine's seed. The same input gives the same output
  on every machine. ``wall_clock=True`` runs the search until the time is up instead
  (stronger on a fast machine, no longer reproducible); its clock starts when the
  search starts.
* Progress (:meth:`Engine.analyse`'s ``progress``): partial answers while the work
  goes on (the solver started, the bounds, the tree search every ``every`` seconds
  with its iterations so far); the tree runs in chunks, which give the same tree as
  one run, so reporting never changes the answer.
* The turn: the most visited one (its stone alone where that looks as good, the
  neutral kept), or with at most :data:`BACKED_TURNS` turns left the best minimax
  backup of the means (:func:`choose`); the value: that turn's mean (or backed)
  final value. Where the solver seldom finishes and the tree's turn spends a
  neutral, the solver's null-window tests may keep the neutral instead
  (:func:`audit_neutral`). Measurements behind these choices: docs/engine.md.
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass, field

# score_bounds through its module: a test may stand in for the CP-SAT bounds there
from ..bounds import value as value_bounds
from ..bounds.value import bounds_from_scores, trivial_bounds
from ..errors import IllegalTurnError, InputError
from ..formats.notation import board_json, format_turn, position_string
from ..limits import Budget as WorkBudget
from ..limits import MAX_SECONDS, check_count, check_seconds, fixed_work
from ..rules.base import ADVANCED, BASIC, NO_NEUTRAL, RED, spendable_neutrals, turn_neutral, turn_stone
from ..rules.text import turn_table
from ..rules.seeds import playout_seed_v1

#: The budget (:func:`budget`, docs/engine.md "The budget"): the rates below were measured
#: in CPU time on the project's 2-core machine (AMD EPYC, 2026-11-27) with
#: benchmarks/bench_tree.py, so that a budget of S seconds takes about S seconds there,
#: bounds and solver included. The log of the tree search's seconds per iteration at a
#: position is ``c0 + c1 ln t + c2 ln^2 t + ln(1 + n) (q0 + q1 ln t)``, t the turns left
#: and n the neutrals the two sides can still spend (each side's supply, at most its own
#: turns left): a playout's cost grows with the turns it plays and the points it looks
#: at per turn, and with every neutral in hand (the policy's neutral choice, the exact
#: last turn with a neutral). ``ITERATION_COST`` holds (c0, c1, c2, q0, q1). Fitted
#: (``bench_tree.py fit``, least squares on the log) on 241 positions of every stage
#: from 32 to 6 turns left, each tree run for 1.5 CPU s (the rate falls a little as a
#: tree grows: at 9 turns left by a quarter from 0.4 s to 1.5 s, little beyond; Basic
#: from the start 55,000 iterations a CPU second, 175,000 to 200,000 at 8-12 turns left;
#: Advanced 45,000 to 220,000): within 0.82-1.34 of the measured cost for nine positions
#: in ten under Advanced, under Basic 0.75-1.40 from 32 to 9 turns left.
ITERATION_COST = {BASIC: (-20.2295, 4.4486, -0.5666, 0.4065, -0.0574),
                  ADVANCED: (-15.9853, 1.2361, 0.0387, 1.5084, -0.3757)}
#: Under the Basic rule the tree settles its nodes three turns from the end exactly and
#: weighs neutral targets by two-stone patterns near the root (:data:`RULE_TREE_OPTIONS`),
#: so its cost changes regime late in the game: each band ``(turns, dc, dq)`` whose turns
#: the position is within adds ``dc + dq ln(1 + n)`` to the log of the cost (fitted with
#: the curve above). At 7 turns left or fewer, where the solver answers first and the
#: cost varies most (2.3 M iterations a second with no neutral in hand, 190,000 with
#: one, at the same stage and supply), the band's ``dc`` is raised so that the budget's
#: cost is at least a quarter of the measured one everywhere (the constants before
#: reached 0.27, at the same position): a budget there ends early rather than late. The
#: band at 8 turns left was then lowered by 0.3, to centre it on the positions where the
#: tree runs there, after the solver stops (neutrals in hand): the budget's cost 0.63-1.71
#: of the measured one at 7 such positions, median 0.99 (1.33 before). Under Advanced
#: late playouts cost more than the curve says where the stones fell at random (0.50-0.66
#: of the measured cost with every neutral in hand) and less after engine self-play
#: (0.97-1.56, median by stage at 9-5 turns left): one band up to 9 turns left and one up
#: to 7, fitted to the curve's residual on 154 positions of those stages (bench_budget.py's
#: five sources and 50 of self-play, 1.5 CPU s each): medians 0.85-1.03 by stage, all
#: within 0.46-2.12.
LATE_COST = {BASIC: ((10, 0.4247, -0.0142), (9, 0.2782, 0.0041), (8, -1.9813, 1.08),
                    (7, 0.5784, -0.1415)),
             ADVANCED: ((9, 0.0075, 0.055), (7, 0.197, -0.1595))}
#: The fitted cost times this factor. 1: the fit is centred on the measured cost (it
#: misses both ways, a fifth for nine positions in ten), and with a margin (1.1 before
#: the last fit) ``best --time 3`` ended after 2.2-2.9 s.
COST_MARGIN = 1.0
#: Exact-solver nodes per second of budget, per rule: the median where a search stops
#: at its node limit (where it finishes the answer comes early), measured at 5-9 turns
#: left on the positions of bench_budget.py's five sources: Basic 3.9 M a CPU second
#: (11 positions, quartiles 3.7-4.2 M; 2.3-4.5 M, median 3.6 M, on an earlier set),
#: Advanced 1.28 M (21 positions, quartiles 1.12-1.61 M; most with the supplies in
#: hand, which the earlier set's median of 1.7 M missed). Basic counts 3.6 M, the lower
#: quartile: its late budgets end early otherwise (docs/engine.md, "The budget").
SOLVER_NODES_PER_SECOND = {BASIC: 3_600_000, ADVANCED: 1_300_000}
#: the least node limit the solver is given (it proves most 6-turn positions in it)
MIN_SOLVER_NODES = 100_000
#: The solver's share of what the bounds leave, where it is tried: a proof is worth more
#: than an estimate, and where the solver does not finish the tree search has the rest.
SOLVER_SHARE = 0.5
#: The larger share at the stages where the root's proof often needs more than the half
#: (:func:`solver_share`): at most :data:`LATE_SOLVER_TURNS` turns left. Measured on the
#: positions of 80 self-play games (benchmarks/bench_decided.py, docs/engine.md "Where
#: the games are decided"): Basic at 7 turns left, root proofs 40 of 40 with 0.8 against
#: 31 with 0.5; Advanced at 6, 25 against 16. One turn earlier (Basic 8, Advanced 7) no
#: proof finishes with either and the tree needs its half.
LATE_SOLVER_SHARE = 0.8
LATE_SOLVER_TURNS = {BASIC: 7, ADVANCED: 6}
#: Within the solver's turns, where it seldom finishes in a budget's nodes, the tree gets
#: the whole budget: per rule, turns left -> the least neutrals to spend from which the
#: solver is not tried. Under Advanced at 8 turns left with 2-8 neutrals to spend the
#: solver proved 0 of 32 positions in 1.5 M nodes, at 7 with 3-7 0 of 29 (the match's 40
#: positions at 7: 0), and stopped there its bounds are the trivial ones; under Basic at
#: 8 with 5-8, 0 of 32. Resumed at 9 turns left, 80 match games of each rule: Advanced 6
#: results better, 3 worse; Basic 4 better, 2 worse (docs/engine.md, "Where the games
#: are decided"). Only below :data:`SELDOM_NODES` solver nodes (the limit those positions
#: were measured with, where some cells' medians lie): a larger budget tries the solver.
SOLVER_SELDOM = {BASIC: {8: 5}, ADVANCED: {8: 2, 7: 3}}
SELDOM_NODES = 3_000_000
#: There, where the tree's turn spends a neutral, the solver audits the neutral
#: (:func:`audit_neutral`) on this share of the tree's part of the budget, in its nodes;
#: the tree runs on the rest first, and on all of it where its turn so far keeps the
#: neutral (the fixed-work budget only: ``wall_clock`` runs the tree alone). Under
#: Basic at 8 turns left the stone alone was at least as good as the tree's stone and
#: neutral in 11 of 17 match positions, a better result in 4 (docs/engine.md, "The
#: solver's audit of the tree's neutral"). Under Advanced the pool (about 0.65 M nodes
#: at 7 turns left) is short of the dearer tests there (up to 1.7 M), and in the match
#: positions sampled the stone alone never changed a result: off.
NEUTRAL_AUDIT_SHARE = {BASIC: 0.5, ADVANCED: 0.0}
#: The least pool an audit runs on: a test that passes took 0.8-1.7 M nodes there. At
#: ``best --time 1`` the CP-SAT bounds leave the tree about 0.4 s, half of it 0.72 M
#: nodes: no audit; the players' engine (no bounds) audits on 1.8 M.
AUDIT_NODES = 1_500_000
#: A win by a point or more: the neutrals left move a value by less than this.
POINT_WIN = 51
#: The CP-SAT score bounds (``bounds=True``): a first CP-SAT call in a process imports
#: OR-Tools (numpy and pandas with it: 0.33-0.40 CPU s measured), charged to every budget
#: with bounds, so the budget stays a function of the input alone; then four solves of
#: ``BOUNDS_SHARE / 4`` of the budget each (at least ``MIN_BOUNDS_SECONDS``), counted as
#: CP-SAT work (:func:`szsolver.bounds.model.work_for`). Measured over 96 positions of
#: every stage, the four solves at 0.05 units each took 0.07 CPU s (median; at most 0.21);
#: at 0.1 units 0.08 (at most 0.35) and gave 9 bounds of 384 tighter; at 1 unit 0.08
#: (at most 1.24): most end well before their limit, so the budget charges them their
#: limit up to ``BOUNDS_CHARGE`` in all, and a larger budget goes to the tree.
BOUNDS_START = 0.35
BOUNDS_SHARE = 0.1
BOUNDS_CHARGE = 0.1
MIN_BOUNDS_SECONDS = 0.005
#: Where the solver runs first (and stops), whether its own score tables bound the value
#: as tightly as the CP-SAT bounds, which are then skipped and their part of the budget
#: (OR-Tools' import and the four solves, 0.45 s of a 1 s budget) goes to the solver and
#: the tree. Under Basic: at 7-12 turns left (the four sources of bench_budget.py, 23
#: positions where the solver ran on a 1 s budget and stopped) CP-SAT was tighter at none,
#: and the solver's bounds tighter at 7. Under Advanced the solver's first probe seldom
#: proves more than the trivial bounds, and CP-SAT's are needed.
SOLVER_BOUNDS_SUFFICE = {BASIC: True, ADVANCED: False}
#: A command's start-up before its analysis (CPU seconds measured: the interpreter
#: 0.02, the package and the command line 0.10, the engine's modules 0.03): ``best``
#: plans it as spent, so that ``best --time S`` takes about S in all.
COMMAND_START = 0.15
#: Below its fixed costs a budget still buys the tree search this share of itself (so a
#: small budget takes longer than it says, but still searches; at 1 s with the bounds the
#: fixed costs leave the tree 0.4 s, its share).
MIN_TREE_SHARE = 0.4
#: :meth:`Engine.judge` runs its first search on this share of the budget's iterations and
#: the played turn's focus on at most the rest: the whole judgement stays within the
#: budget (the focus seldom needs the rest: it stops when the played turn has as many
#: visits as the engine's, typically a tenth to a third of the first search).
JUDGE_SHARE = 0.8
#: The tree's options per rule (``_mcts.Tree``; an ``Engine``'s own tree options win).
#: Under Basic: ``exact_deep``, the nodes three turns from the end valued exactly by the
#: solver's leaf functions, once each, and ``pair_targets`` at the root and its
#: children (``pair_depth``): with 10 turns left or fewer a neutral target also counts
#: the opponent's best two stones through it. Measured on 60 close greedy-play
#: positions at 6 turns left (docs/engine.md, "Settled nodes and pair targets"): the
#: tree's turn optimal 65 % of the time instead of 50 % (at 4 turns left 97 % instead
#: of 70 %). Under Advanced the pair targets lost (30 % instead of 57 % on 23
#: positions) and the exact nodes changed nothing measurable: off.
RULE_TREE_OPTIONS = {BASIC: {"exact_deep": True, "pair_targets": 2, "pair_depth": 2},
                     ADVANCED: {}}
#: Where the solver is stopped before the value but has proved a win for the mover by
#: a turn, that turn is played (the tree's estimate within the bounds otherwise).
PLAY_PROVED_WIN = True
#: Children below this share of the most visited one's visits do not count in the
#: minimax backup of the means (their means rest on too few playouts).
BACKED_FRACTION = 0.1
#: Beyond :data:`BACKED_TURNS` the most visited turn is played, but a neutral with it
#: only where the stone alone does not look as good (:func:`_kept_neutral`; measured:
#: docs/engine.md, "Validation", "Keeping a neutral").
SAVE_NEUTRALS = True
#: The minimax backup chooses the turn with at most this many turns left (where the
#: last turns are valued exactly and the tree is deep); earlier the most visited turn
#: (measured: the backup everywhere lost 0-20 to it over whole games, from 10 turns
#: left 5-13; at 4-6 turns left it finds more optimal turns, docs/engine.md).
BACKED_TURNS = 6
MIN_ITERATIONS = 64
#: An estimate from fewer iterations (playouts) than this is a rough guess, and the
#: answer says so. Measured on the rulebook game at 30, 20 and 12 turns left, the
#: mean over 8 seeds against 16,000 iterations: 64 iterations were 130-180 off (more
#: than a point, and biased one way), 1,000 iterations 20-30 off (under
#: ``verdict.ESTIMATE_MARGIN``, half a point), 4,000 under 20.
ROUGH_ITERATIONS = 1_000
MAX_ITERATIONS = 1_000_000         # memory: ~120 bytes per iteration
#: iterations between looks at a deadline (about 10 ms at 8 turns left)
DEADLINE_CHUNK = 1024
#: seconds between :meth:`Engine.analyse`'s progress reports of the tree search
REPORT_EVERY = 0.3
#: The exact solver is always tried from this many turns left (docs/solver.md: 8 turns
#: take seconds, some Advanced 6-turn positions a minute).
SOLVER_TURNS = 8
DEFAULT_SECONDS = 1.0


@dataclass
class EngineResult:
    """The answer of :meth:`Engine.analyse`; see the module doc for the contracts."""
    position: str
    turn: int | None                  # None only when the game is over
    value: int                        # exact when ``exact``, an estimate otherwise
    exact: bool
    method: str                       # "solver", "engine" or "over"
    lower: int
    upper: int
    best: list[int] = field(default_factory=list)
    pv: list[int] = field(default_factory=list)
    #: a proved answer's ``best`` holds every optimal turn and its ``pv`` reaches the end
    #: of the game (a node limit may strike while the solver lists them, after the value
    #: and the turn are proved: then they hold what was proved before it)
    best_complete: bool = False
    pv_complete: bool = False
    score_bounds: dict | None = None  # {"red": [floor, bound], "blue": [...]} (CP-SAT)
    candidates: list[dict] = field(default_factory=list)
    iterations: int = 0
    nodes: int = 0
    seconds: float = 0.0
    stopped: str | None = None        # why the solver did not finish, if it was tried
    budget: Budget | None = None      # the fixed work planned (None: wall-clock time)
    #: None in an answer; in a progress report, the part at work: "solver" (the exact
    #: solver) or "bounds" (the CP-SAT bounds) starts: no turn or value yet; "tree":
    #: the search so far
    partial: str | None = None

    def with_turns(self, geometry) -> "EngineResult":
        """``turn``, ``best``, ``pv`` and each candidate's turn as Turns of ``geometry``
        (the search hands out plain int codes); returns self."""
        table = turn_table(geometry)
        if self.turn is not None:
            self.turn = table[self.turn]
        self.best = [table[t] for t in self.best]
        self.pv = [table[t] for t in self.pv]
        self.candidates = [{**c, "turn": table[c["turn"]]} for c in self.candidates]
        return self

    def to_json(self, geometry=None) -> dict:
        from ..rules.geometry import STARS_ZONE
        g = geometry or STARS_ZONE
        return {
            "position": self.position, **board_json(g),
            "turn": None if self.turn is None else format_turn(self.turn, g),
            "value": self.value, "exact": self.exact, "method": self.method,
            "lower": self.lower, "upper": self.upper,
            "best": [format_turn(t, g) for t in self.best],
            "pv": [format_turn(t, g) for t in self.pv],
            "best_complete": self.best_complete, "pv_complete": self.pv_complete,
            "score_bounds": self.score_bounds,
            "candidates": [{**c, "turn": format_turn(c["turn"], g)} for c in self.candidates],
            "iterations": self.iterations, "nodes": self.nodes,
            "seconds": round(self.seconds, 3), "solver_stopped": self.stopped,
            "budget": None if self.budget is None else self.budget.to_json(),
        }


@dataclass(frozen=True)
class Budget(WorkBudget):
    """What a budget of ``seconds`` buys at one position (:func:`budget`): the fixed
    work of every game's engine (:class:`szsolver.limits.Budget`: no clock, so the same
    position and budget give the same answer on every machine) and the CP-SAT bounds'."""
    bounds_seconds: float = 0.0   # each of the four CP-SAT bounds' budget (0: no bounds)

    @property
    def bounds_work(self) -> float:
        """Each CP-SAT bound's limit in CP-SAT work (deterministic time)."""
        from ..bounds.model import work_for
        return work_for(self.bounds_seconds) if self.bounds_seconds else 0.0

    def to_json(self) -> dict:
        return {"seconds": self.seconds, "iterations": self.iterations,
                "solver_nodes": self.solver_nodes, "bounds_work": round(self.bounds_work, 6)}


def _rule(pos) -> int:
    return ADVANCED if pos.rule == ADVANCED else BASIC


def iteration_seconds(pos) -> float:
    """The tree search's seconds per iteration at ``pos`` on the project's machine (see
    :data:`ITERATION_COST`, :data:`LATE_COST` and :data:`COST_MARGIN`)."""
    rule = _rule(pos)
    t = max(pos.turns_left, 1)
    lt, ln = math.log(t), math.log1p(spendable_neutrals(pos))
    c0, c1, c2, q0, q1 = ITERATION_COST[rule]
    log_cost = c0 + c1 * lt + c2 * lt * lt + ln * (q0 + q1 * lt)
    log_cost += sum(dc + dq * ln for turns, dc, dq in LATE_COST[rule] if t <= turns)
    return COST_MARGIN * math.exp(log_cost)


def budget(pos, seconds: float, *, bounds: bool = False, solver: bool = False,
           solver_nodes: int | None = None, iterations: int | None = None,
           spent: float = 0.0) -> Budget:
    """The one conversion of a time budget into fixed work at ``pos``: the CP-SAT
    bounds' part, then :func:`szsolver.limits.fixed_work`'s split of the rest (every
    game's) between the solver and the tree.

    Contract: a pure function of the position (its rule, turns left and neutrals in
    hand) and the arguments; the parts it plans add up to ``seconds`` at the rates
    measured on the project's 2-core machine (idle: docs/engine.md, "The budget"):

    * ``bounds``: :data:`BOUNDS_START` (OR-Tools' import) and four CP-SAT solves of
      ``bounds_seconds`` each (``BOUNDS_SHARE / 4`` of the budget, at least
      :data:`MIN_BOUNDS_SECONDS`), limited as CP-SAT work and charged their limit up
      to :data:`BOUNDS_CHARGE` in all;
    * ``solver``: ``solver_nodes`` (given, else :func:`solver_share` of what the bounds
      leave at :data:`SOLVER_NODES_PER_SECOND`, at least :data:`MIN_SOLVER_NODES`);
    * the tree search: ``iterations`` (given, else the rest at
      :func:`iteration_seconds`, within :data:`MIN_ITERATIONS` and
      :data:`MAX_ITERATIONS`);
    * ``spent``: what the caller spent before (a command's start-up,
      :data:`COMMAND_START`), a fixed figure, never a measured one.

    The tree search gets at least :data:`MIN_TREE_SHARE` of ``seconds`` (after the
    solver's share), so a budget smaller than the fixed costs takes them and more.
    Where the solver finishes, neither the bounds nor the tree run (:class:`Engine`):
    the answer comes early.
    """
    check_seconds(seconds, "the engine's time budget", none_ok=False)
    rest = seconds - spent
    per = 0.0
    if bounds:
        per = max(seconds * BOUNDS_SHARE / 4, MIN_BOUNDS_SECONDS)
        rest -= BOUNDS_START + min(4 * per, BOUNDS_CHARGE)
    rest = max(rest, MIN_TREE_SHARE * seconds)
    work = fixed_work(rest, iteration_seconds(pos), solver_share=solver_share(pos) if solver else 0,
                      nodes_per_second=SOLVER_NODES_PER_SECOND[_rule(pos)],
                      least_nodes=MIN_SOLVER_NODES, nodes=solver_nodes,
                      least_iterations=MIN_ITERATIONS, most_iterations=MAX_ITERATIONS)
    return Budget(seconds, int(work.iterations if iterations is None else iterations),
                  work.solver_nodes, per)


def solver_share(pos) -> float:
    """The solver's share of the budget at ``pos`` where it is tried:
    :data:`LATE_SOLVER_SHARE` with at most :data:`LATE_SOLVER_TURNS` turns left (by
    the rule), else :data:`SOLVER_SHARE`."""
    return LATE_SOLVER_SHARE if pos.turns_left <= LATE_SOLVER_TURNS[_rule(pos)] \
        else SOLVER_SHARE


def solver_nodes_for(pos, seconds: float) -> int:
    """The exact solver's nodes in ``seconds`` of budget at ``pos``
    (:data:`SOLVER_NODES_PER_SECOND`, by the rule)."""
    return int(seconds * SOLVER_NODES_PER_SECOND[_rule(pos)])


def iterations_for(pos, seconds: float) -> int:
    """The tree search's iterations for ``seconds`` at ``pos`` when it has the whole
    budget (no bounds, no solver): ``budget(pos, seconds).iterations``."""
    return budget(pos, seconds).iterations


def choose(stats, side: int, how: str = "backed") -> tuple[int, float]:
    """The root turn to play and its value (Red's side) from ``Tree.backed_stats``:
    ``"visits"``: the most visited child and its mean value (its stone alone instead
    where :func:`_kept_neutral` keeps the neutral); ``"backed"``: among the
    children visited at least :data:`BACKED_FRACTION` as often as the most visited,
    the best minimax-backed value (then the most visits). (``Engine`` uses "backed"
    only with at most :data:`BACKED_TURNS` turns left: measured, docs/engine.md.)"""
    if how == "visits":
        t, _n, _r, mean, _b = stats[0]
        if SAVE_NEUTRALS and turn_neutral(t) != NO_NEUTRAL:
            return _kept_neutral(stats, side, t, mean)
        return t, mean
    top = stats[0][1]
    sign = 1 if side == RED else -1
    t, _n, _r, _m, b = max((s for s in stats if s[1] >= BACKED_FRACTION * top),
                           key=lambda s: (sign * s[4], s[1], -s[0]))
    return t, b


def _kept_neutral(stats, side: int, turn: int, mean: float) -> tuple[int, float]:
    """The stone of ``turn`` (a stone and a neutral) alone instead, where the tree
    thinks no worse of it: its mean value at least as good from the mover's side, on
    at least :data:`BACKED_FRACTION` of ``turn``'s visits. A mean value counts the
    neutral kept (one unit), which the most visited turn's reward barely sees."""
    sign = 1 if side == RED else -1
    top = stats[0][1]
    for t, n, _r, m, _b in stats:
        if t == turn_stone(turn) and n >= BACKED_FRACTION * top and sign * m >= sign * mean:
            return t, m
    return turn, mean


def audit_neutral(core, turn: int, nodes: int) -> tuple[int, int | None, int]:
    """The tree's ``turn`` at ``core`` (a stone and a neutral) or its stone alone, by
    null-window tests of the solver on the two positions after them (at most ``nodes``
    in all; ``endgame.solver.ValueTests``), in the mover's view: the stone alone where
    it is proved to win (unless the turn is proved to win by a point where the stone
    alone is not), or proved to draw where the turn is proved not to win; else the
    turn. A neutral kept is worth a unit, so a tie in result goes to the stone alone.
    Returns (the turn to play, the best value proved for the mover, in its view, or
    None where no test passed and the turn rests on the tree alone; the nodes
    searched)."""
    from ..endgame.solver import ValueTests
    stone = turn_stone(turn)
    alone, spent = core.copy(), core.copy()
    alone.make(stone)
    spent.make(turn)
    tests = ValueTests(nodes, core.turns_left - 1)
    proved = []

    def at_least(pos, gamma):
        r = tests.at_least(pos, gamma, core.side)
        if r:
            proved.append(gamma)
        return r

    if at_least(alone, 1):
        pick = turn if at_least(spent, POINT_WIN) and not at_least(alone, POINT_WIN) else stone
    elif at_least(spent, 1) is not False:
        pick = turn
    else:
        pick = stone if at_least(alone, 0) else turn
    return pick, max(proved, default=None), tests.nodes


#: A 64-bit seed from SHA-256 of ``repr(parts)``: the playout recipe of rules.seeds.
seed_for = playout_seed_v1


class Engine:
    """Chooses turns and estimates values (see the module doc).

    ``seconds``: the budget per analysis, converted to ``iterations`` (MCTS),
    ``solver_nodes`` and CP-SAT work by :func:`budget` unless those are given.
    ``wall_clock``: spend real time instead (not reproducible). ``solver_turns``: try
    the exact solver with at most this many turns left (0: never), and beyond that where
    it usually finishes in its share of the budget (``endgame.solver.usually_proved``).
    ``bounds``: also
    compute the CP-SAT score bounds (within the budget; off for fast play; not where
    the solver's own bounds suffice, :data:`SOLVER_BOUNDS_SUFFICE`). ``seed``:
    mixes into every search's seed. ``spent``: seconds of the budget the caller spent
    before (a command's start-up, :data:`COMMAND_START`: a fixed figure, so the plan
    stays deterministic). Other keywords go to the tree search (``_mcts.Tree``).
    """

    def __init__(self, seconds: float = DEFAULT_SECONDS, *, iterations: int | None = None,
                 solver_nodes: int | None = None, solver_turns: int = SOLVER_TURNS,
                 wall_clock: bool = False, bounds: bool = False, seed=0,
                 choice: str = "auto", spent: float = 0.0, **tree_options):
        check_seconds(seconds, "the engine's time budget", none_ok=False)
        if isinstance(spent, bool) or not isinstance(spent, (int, float)) \
                or not 0 <= spent <= MAX_SECONDS:
            raise InputError(f"the time spent before must be a number of seconds from 0, "
                             f"got {spent!r}")
        self.spent = spent
        check_count(iterations, "the engine's iteration budget")
        check_count(solver_nodes, "the engine's solver node budget")
        self.seconds = seconds
        self.fixed_iterations = iterations
        self.solver_nodes = solver_nodes      # None: from the budget
        self.solver_turns = solver_turns
        self.wall_clock = wall_clock
        self.bounds = bounds
        self.seed = seed
        if choice not in ("auto", "backed", "visits"):
            raise InputError(f"unknown choice {choice!r}: use auto, backed or visits")
        self.choice = choice
        self.tree_options = tree_options

    def analyse(self, pos, *, solver: bool = True, progress=None,
                every: float = REPORT_EVERY) -> EngineResult:
        """The engine's turn and value at ``pos`` (either back end; not changed); its
        turns are Turns of the position's board, which print as turn text.

        ``progress``: called with partial :class:`EngineResult` s (``partial`` set,
        turns as the answer's) while the work goes on: as the exact solver starts,
        where it is tried, and as the CP-SAT bounds start, where they are asked for (no
        turn, value None, the bounds known so far), then after the tree search's first :data:`DEADLINE_CHUNK` iterations and then every
        ``every`` seconds with its turn, value and line so far
        (``iterations`` done of ``budget.iterations``). The answer is the same with or
        without it."""
        report = None
        if progress is not None:
            def report(res):
                progress(res.with_turns(pos.geometry))
        return self._analyse(pos, solver, report, every).with_turns(pos.geometry)

    def plan(self, pos, *, solver: bool = True) -> Budget:
        """The fixed work :meth:`analyse` does at ``pos`` (:func:`budget`): the solver's
        node limit where it is tried, the bounds' CP-SAT work, the tree's iterations."""
        from ..rules.backends import to_core
        core = to_core(pos)
        return self._plan(core, solver and self._tries_solver(core))

    def _plan(self, core, solver: bool) -> Budget:
        return budget(core, self.seconds, bounds=self._bounds_at(core, solver), solver=solver,
                      solver_nodes=self.solver_nodes, iterations=self.fixed_iterations,
                      spent=self.spent)

    def _bounds_at(self, core, solver: bool) -> bool:
        """Whether the CP-SAT bounds run at ``core`` (:data:`SOLVER_BOUNDS_SUFFICE`)."""
        return self.bounds and not (solver and SOLVER_BOUNDS_SUFFICE[_rule(core)])

    def _tries_solver(self, core) -> bool:
        """Whether the solver runs first at ``core`` (under a node limit; the last turns,
        :meth:`_tail`, are solved apart): with at most ``solver_turns`` turns left but
        where it seldom finishes in the nodes it gets (:data:`SOLVER_SELDOM`), and beyond
        where it usually finishes in them (``endgame.solver.usually_proved``)."""
        from ..endgame.solver import usually_proved
        if not self.solver_turns or self._tail(core):
            return False
        near = core.turns_left <= self.solver_turns
        if near and not self._seldom_stage(core):
            return True
        nodes = solver_nodes_for(core, self.seconds * solver_share(core)) if self.wall_clock \
            else self._plan(core, True).solver_nodes
        return nodes >= SELDOM_NODES if near else usually_proved(core, nodes)

    @staticmethod
    def _seldom_stage(core) -> bool:
        """Whether ``core``'s turns left and neutrals to spend are where the solver
        seldom finishes (:data:`SOLVER_SELDOM`)."""
        seldom = SOLVER_SELDOM[_rule(core)].get(core.turns_left)
        return seldom is not None and spendable_neutrals(core) >= seldom

    def _analyse(self, pos, solver: bool, report=None, every: float = REPORT_EVERY) -> EngineResult:
        from ..endgame.solver import solve, tt_entries_filled
        from ..rules.backends import to_core
        start = time.perf_counter()
        core = to_core(pos)
        pstr = position_string(core)
        if core.is_over():
            v = core.value()
            return EngineResult(pstr, None, v, True, "over", v, v,
                                seconds=time.perf_counter() - start)
        _check_room(core)
        tail = self._tail(core)     # nothing for the tree to weigh: always solved, no limit
        limited = not tail and solver and self._tries_solver(core)
        plan = None if self.wall_clock else self._plan(core, limited)     # as plan() says
        lo, hi = trivial_bounds(core)
        stopped = None
        nodes = 0
        won = None                  # a turn the stopped solver proved to win
        tried = tail or limited
        bounds = self._bounds_at(core, tried)
        if tried:
            # The solver first: where it finishes, the answer is proved and needs no bounds.
            if report is not None:
                report(EngineResult(pstr, None, None, False, "solver", lo, hi, budget=plan,
                                    seconds=time.perf_counter() - start, partial="solver"))
            if tail:
                res = solve(core)
            else:
                # a table no larger than the search can fill: a larger one only costs
                if self.wall_clock:
                    limit = max(self.seconds * solver_share(core), 0.01)
                    nodes = solver_nodes_for(core, limit)
                else:
                    limit, nodes = None, plan.solver_nodes
                res = solve(core, node_limit=nodes if limit is None else None,
                            time_limit=limit,
                            tt_size=tt_entries_filled(core.turns_left, nodes))
            nodes = res.nodes
            if res.exact and (res.pv or res.best):
                pick = _first_in_pv(res)
                return EngineResult(pstr, pick, res.value, True, "solver", res.value,
                                    res.value, best=list(res.best) or [pick], pv=list(res.pv),
                                    best_complete=res.best_complete,
                                    pv_complete=res.pv_complete,
                                    nodes=res.nodes, seconds=time.perf_counter() - start,
                                    budget=plan)
            # Not exact, or the value proved but the node limit struck before an optimal
            # turn was: the tree search picks the turn within the proved bounds, unless
            # the solver proved a win by a turn: no estimate beats a proved result.
            lo, hi = max(lo, res.lower), min(hi, res.upper)
            stopped = res.stopped
            if PLAY_PROVED_WIN and res.reached is not None and \
                    (res.reached[1] if core.side == RED else -res.reached[1]) >= 1:
                won = int(res.reached[0])
        sb = None
        if bounds:
            if report is not None:
                report(EngineResult(pstr, None, None, False, "engine", lo, hi, nodes=nodes,
                                    stopped=stopped, budget=plan, partial="bounds",
                                    seconds=time.perf_counter() - start))
            # Four CP-SAT solves share BOUNDS_SHARE of the budget; stopped early they
            # still return proved (if looser) bounds. The budget is CP-SAT work, like
            # the tree's iterations (reproducible), unless the engine spends real time.
            if self.wall_clock:
                sb = value_bounds.score_bounds(core, max(self.seconds * BOUNDS_SHARE / 4, MIN_BOUNDS_SECONDS))
            else:
                sb = value_bounds.score_bounds(core, work_limit=plan.bounds_work)
            blo, bhi = bounds_from_scores(core, sb)
            lo, hi = max(lo, blo), min(hi, bhi)
        tree = self._tree(core, pstr)

        def result(partial=None):
            return self._tree_result(core, pstr, tree, lo, hi, sb, nodes, stopped, plan,
                                     start, partial, turn=won)
        tell = None if report is None else (lambda: report(result("tree")))
        if self.wall_clock and self.fixed_iterations is None:
            # The search's own clock: what the solver and the bounds took beyond their
            # shares (OR-Tools' import, a model's set-up) is not taken from the search.
            now = time.perf_counter()
            before = (BOUNDS_SHARE if bounds else 0.0) + \
                (solver_share(core) if nodes else 0.0)
            left = self.seconds - min(now - start, before * self.seconds)
            # until the time is up, at most MAX_ITERATIONS (the tree's memory)
            _run_until(tree.run, MAX_ITERATIONS, now + left, tell, every)
        else:
            n = plan.iterations if plan is not None else self.fixed_iterations
            pool = self._audit_nodes(core, n) if solver and not tried else 0
            first = n - int(n * NEUTRAL_AUDIT_SHARE[_rule(core)]) if pool else n
            _run_until(tree.run, first, None, tell, every)
            rest = n - first
            if pool:
                turn, _v = choose(tree.backed_stats(BACKED_FRACTION), core.side, self._how(core))
                if turn_neutral(turn) != NO_NEUTRAL:
                    pick, proved, nodes = audit_neutral(core, turn, pool)
                    if proved is not None:      # a test passed: its turn, and a bound
                        lo, hi = (max(lo, proved), hi) if core.side == RED else \
                            (lo, min(hi, -proved))
                        return self._tree_result(core, pstr, tree, lo, hi, sb, nodes,
                                                 stopped, plan, start, turn=pick)
                    # nothing proved: the nodes the tests left go back to the tree
                    rest = int(rest * (pool - nodes) / pool)
            _run_until(tree.run, rest, None, tell, every)
        return result()

    def _audit_nodes(self, core, iterations: int) -> int:
        """The solver nodes of the neutral's audit at ``core``, where the solver was
        not tried (the caller knows) and the tree has ``iterations``:
        :data:`NEUTRAL_AUDIT_SHARE` of its part, as nodes, at a stage where the solver
        seldom finishes; or 0: no audit, also where the pool falls short of
        :data:`AUDIT_NODES`."""
        share = NEUTRAL_AUDIT_SHARE[_rule(core)]
        if not share or core.turns_left > self.solver_turns or not self._seldom_stage(core):
            return 0
        nodes = solver_nodes_for(core, share * iterations * iteration_seconds(core))
        return nodes if nodes >= AUDIT_NODES else 0

    def _tree_result(self, core, pstr, tree, lo, hi, sb, nodes, stopped, plan, start,
                     partial=None, turn=None) -> EngineResult:
        """The tree search's answer so far: its turn (``turn`` where given: the value is
        then its mean, or the chosen turn's where the tree did not visit it), value
        (within ``lo``..``hi``), line and candidates."""
        stats = tree.backed_stats(BACKED_FRACTION)
        how = self._how(core)
        chosen, value = choose(stats, core.side, how)
        if turn is None:
            turn = chosen
        else:
            value = next((m for t, _n, _r, m, _b in stats if t == turn), value)
        value = min(max(int(round(value)), lo), hi)
        # "estimate": the measure the turn was chosen by (its mean, or its backed value)
        cands = [{"turn": t, "visits": n, "value": round(b, 1), "mean": round(v, 1),
                  "estimate": round(v if how == "visits" else b, 1),
                  "reward": round(r, 4)} for t, n, r, v, b in stats[:8]]
        return EngineResult(pstr, turn, value, False, "engine", lo, hi, best=[turn],
                            pv=tree.principal_line(8, turn),   # from the turn chosen
                            score_bounds=sb, candidates=cands,
                            iterations=tree.iterations, nodes=nodes,
                            seconds=time.perf_counter() - start, stopped=stopped,
                            budget=plan, partial=partial)

    def iterations_for(self, pos, seconds: float | None = None) -> int:
        """The search's iterations at ``pos`` for a budget of ``seconds`` (default the
        engine's) with the whole budget to itself (no bounds, no solver: what
        :meth:`judge` spends): fixed by the position and the budget alone."""
        if self.fixed_iterations is not None and seconds is None:
            return int(self.fixed_iterations)
        if seconds is not None:
            check_seconds(seconds, "the engine's time budget")
        return iterations_for(pos, self.seconds if seconds is None else seconds)

    def judge(self, pos, turn: int, seconds: float | None = None,
              deadline: float | None = None) -> dict:
        """Estimates for judging ``turn`` at ``pos`` (no solver): one search picks the
        engine's turn (:data:`JUDGE_SHARE` of the budget's iterations), then more
        iterations through ``turn`` until it has as many visits as the engine's turn
        (at most half the first search, and at most the budget's rest: the whole within
        the budget), so both estimates rest on searches of the same size. Returns ``{"best": turn,
        "best_value": v, "played_value": v, "visits": {...}, "iterations": n}``
        and ``"candidates"``, the first search's most visited root turns (up to 8, most
        visited first),
        values Red's side (estimates, never proved); where the tree opens no turn
        (one turn left, two under Basic) every turn is solved instead and the
        answer has ``"exact": True``. ``"pv"``: the engine's expected line from its
        turn (then the most visited turns below it, up to 8 turns). ``deadline``
        (``time.perf_counter()``; None: none): a caller's time limit, a safety net under
        the fixed budget, which the cost model means to fit; the searches stop there (after at least
        :data:`DEADLINE_CHUNK` iterations each), and ``"stopped"`` says so (the answer
        then depends on the machine's speed)."""
        from ..rules.backends import to_core
        core = to_core(pos)
        _check_room(core)
        pstr = position_string(core)
        total = self.iterations_for(core, seconds)
        n = max(MIN_ITERATIONS, int(total * JUDGE_SHARE))
        if self._tail(core):
            return _tail_judgement(core, turn)
        tree = self._tree(core, pstr)
        stopped = not _run_until(tree.run, n, deadline)
        first = tree.backed_stats(BACKED_FRACTION)
        how = self._how(core)
        best, _v = choose(first, core.side, how)          # before the focus below
        line = tree.principal_line(8, best)               # the focus below adds visits
        visits = {t: v for t, v, _r, _m, _b in first}
        want = max(16, min(visits[best], n // 2))
        if visits.get(turn, 0) < want:
            more = min(want - visits.get(turn, 0), max(16, total - n))
            stopped = not _run_until(lambda k: tree.focus(turn, k), more, deadline) or stopped
        stats = {t: (v, b if how == "backed" else m)
                 for t, v, _r, m, b in tree.backed_stats(BACKED_FRACTION)}
        return {"best": best, "best_value": int(round(stats[best][1])),
                "played_value": int(round(stats[turn][1])),
                "visits": {"best": stats[best][0], "played": stats[turn][0]},
                "candidates": [t for t, *_rest in first[:8]],
                "pv": line,
                "iterations": tree.iterations, "stopped": stopped}

    def _tail(self, pos) -> bool:
        """The tree search values the last turns exactly in its playouts and opens
        no turn there (one turn left; two under the Basic rule): such a position
        has nothing for it to weigh."""
        if not self.tree_options.get("exact_tail", True) or pos.is_over():
            return False
        return pos.turns_left == 1 or (pos.turns_left == 2 and pos.rule == BASIC)

    def _how(self, pos) -> str:
        if self.choice != "auto":
            return self.choice
        return "backed" if pos.turns_left <= BACKED_TURNS else "visits"

    def _tree(self, core, pstr: str):
        from ._mcts import Tree
        return Tree(core, seed_for("mcts", self.seed, pstr),
                    **{**RULE_TREE_OPTIONS[_rule(core)], **self.tree_options})


def _check_room(core) -> None:
    """UnsupportedError (one line) unless every turn at ``core`` finds a point, as the
    solver requires (``endgame.solver.check_searchable``): the tree's candidates and
    playouts place a stone on every turn, and on a board too small for both sides'
    stones and neutrals some line of play leaves a turn none."""
    from ..endgame.solver import check_searchable
    check_searchable(core)


def _run_until(run, iterations: int, deadline: float | None, report=None,
               every: float = REPORT_EVERY) -> bool:
    """``run(iterations)``; with a ``deadline`` (``time.perf_counter()``) or a ``report``
    in chunks of :data:`DEADLINE_CHUNK`, stopping after the first chunk that ends past
    the deadline, and calling ``report()`` after the first chunk and then after a chunk
    when ``every`` seconds have passed since the last report (a tree's iterations run
    one after another, so the chunks give the same tree as one run). True when every
    iteration ran."""
    if deadline is None and report is None:
        run(iterations)
        return True
    last = -math.inf
    while iterations > 0:
        k = min(DEADLINE_CHUNK, iterations)
        run(k)
        iterations -= k
        if iterations <= 0:
            break
        now = time.perf_counter()
        if deadline is not None and now >= deadline:
            return False
        if report is not None and now - last >= every:
            report()
            last = now
    return True


def _tail_judgement(core, turn: int) -> dict:
    """:meth:`Engine.judge`'s answer where the tree opens no turn (see
    ``Engine._tail``): every turn valued by the exact solver (instant with one or
    two turns left), so both values are exact (``exact`` True)."""
    from ..endgame.solver import turn_values
    values = dict(turn_values(core))
    if turn not in values:
        raise IllegalTurnError(f"illegal turn {format_turn(turn, core.geometry)}")
    best = next(iter(values))                  # best first for the side to move
    return {"best": best, "best_value": values[best], "played_value": values[turn],
            "visits": {"best": 0, "played": 0}, "iterations": 0, "exact": True,
            "stopped": False}


def _first_in_pv(res) -> int:
    """The solver's pick: the PV's first turn (an optimal turn)."""
    return res.pv[0] if res.pv else res.best[0]

