"""Judging Stargazers turns: ``check`` one turn, ``annotate`` a whole game.

Values go on the family's verdict scale (:mod:`szsolver.verdict`): Red's
side, 100 per point of final margin, and a tie counts +1 when Red wins it (Blue could
not place) and -1 when Blue does. So a turn that gives away a point is a *mistake*,
one that turns a win into a loss a *blunder*, one that only gives away the tie-break
an *inaccuracy*.

A turn (one placement, or the two of a turn) is judged exactly when at most
:data:`EXACT_TURNS` playable cells are empty and the solver proves both the best
value and the value after the turn within its limits: the value after the
best turn is the position's own value, since the mover makes every placement of its
turn. Otherwise both are engine estimates (mean final margins, read with the verdict
scale's estimate margin) from one search tree (:meth:`.engine.Engine.judge`): the
engine's own turn is never judged worse than optimal, and ``check`` and ``annotate``
(the same budget, seeds from the position) judge a turn alike.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..verdict import ESTIMATE_MARGIN, bounds_json, classify, judged_bounds, proved_words
from .. import interrupt
from ..errors import IllegalTurnError
from ..limits import check_seconds
from .base import RED, SIDE_NAMES
from .record import Turn, parse_turn

__all__ = ["CheckResult", "check", "annotate", "plan", "Plan", "proved_bounds",
           "DEFAULT_SOLVER_NODES", "ENGINE_SECONDS", "EXACT_TURNS"]

#: the solver's node limit per proof when no limit is given
DEFAULT_SOLVER_NODES = 300_000
#: the engine's budget per judged turn (seconds of its fixed iteration rate), the same
#: for ``check`` and ``annotate`` so that both judge a turn alike
ENGINE_SECONDS = 1.0
#: turns are proved when at most this many playable cells are empty (earlier the
#: solver would almost always stop at its limit: see docs/stargazers.md)
EXACT_TURNS = 13
#: With a time limit, where the solver is tried, the two proofs' share of the limit (the
#: engine has the rest when they do not both succeed): a proof is worth more than an
#: estimate, and at half the limit 12-star positions of 12 empty cells that the solver
#: proves in 0.3 s were estimated at ``--time-limit 1``
SOLVER_SHARE = 0.8
#: the least nodes a proof is given under a time limit (12 empty cells take about 10,000)
MIN_SOLVER_NODES = 2_000
#: Under a time limit, the first proof's share of the proofs' nodes at most: the value
#: before the turn is one placement deeper, and took 3-10 times the nodes of the value
#: after it (12-star, 12 empty cells: 2,300-14,000 nodes against 400-4,000).
FIRST_PROOF_SHARE = 0.75


def scale(margin: float, tie_won_by_red: bool | None = None) -> float:
    """A Red-side margin on the verdict scale (see the module doc)."""
    if margin == 0 and tie_won_by_red is not None:
        return 1 if tie_won_by_red else -1
    return 100 * margin


def _proved(position, node_limit, time_limit, progress=None, turn_length: int = 1):
    """(Red-side scaled value of ``position`` by the solver, or None past its limits;
    the solver's answer, None when the game is over; the nodes it searched).
    ``progress``: told ``("solver", nodes, node_limit)`` as the solver starts (0 nodes)
    and goes on; ``turn_length``: of the best turns it lists (``best_turns``)."""
    from .solver import solve
    if position.is_over():
        r, b = position.scores()
        return scale(r - b, position.winner() == RED), None, 0
    if progress is not None:
        progress("solver", 0, node_limit)
    s = solve(position, all_turns=False, node_limit=node_limit, time_limit=time_limit,
              progress=progress, turn_length=turn_length)
    interrupt.raise_if_absorbed(s.stopped)
    if not s.exact:
        return None, s, s.nodes
    red_margin = s.margin if s.side == "red" else -s.margin
    return scale(red_margin, s.winner == "red"), s, s.nodes


def proved_bounds(position) -> tuple[float, float]:
    """The value's proved bounds at ``position`` (Red's side, verdict scale): each side's
    final score lies between its assured score and its potential; a tie may go either
    way (+1 or -1) unless the game is over."""
    from .solver import _margin_bounds
    if position.is_over():
        r, b = position.scores()
        v = scale(r - b, position.winner() == RED)
        return v, v
    lo, hi = _margin_bounds(position)
    if position.side != RED:
        lo, hi = -hi, -lo
    return (100 * lo if lo else -1), (100 * hi if hi else 1)


@dataclass(frozen=True)
class Plan:
    """The work a check does (:func:`plan`): the engine's budget in seconds, and the
    exact solver's nodes (0: it is not tried): ``solver_nodes`` for the first proof
    (the value before the turn), ``solver_pool`` for both (the second, the value after
    it, gets what the first left)."""
    engine_seconds: float
    solver_nodes: int = 0
    solver_pool: int = 0


def plan(position, time_limit: float | None = None, *, node_limit: int | None = None,
         engine_seconds: float = ENGINE_SECONDS, exact_turns: int = EXACT_TURNS) -> Plan:
    """The one split of a check's work at ``position``: a pure function of its empty
    cells and the arguments. Without a time limit each proof gets ``node_limit``
    (default :data:`DEFAULT_SOLVER_NODES`) and the engine ``engine_seconds``. With
    ``time_limit`` S the whole check shares S: where the solver is tried,
    :data:`SOLVER_SHARE` of S as the proofs' nodes at :data:`~.engine.EXACT_NODES` a
    second (the first at most :data:`FIRST_PROOF_SHARE` of them, and ``node_limit``),
    and the engine the rest (all of S elsewhere); the parts add up to S. Where both
    proofs succeed the check ends early."""
    from .engine import EXACT_NODES
    tried = position.empty.bit_count() <= exact_turns
    if time_limit is None:
        nodes = (node_limit or DEFAULT_SOLVER_NODES) if tried else 0
        return Plan(engine_seconds, nodes, 2 * nodes)
    check_seconds(time_limit, "the time limit", none_ok=False)
    if not tried:
        return Plan(time_limit)
    pool = max(2 * MIN_SOLVER_NODES, int(SOLVER_SHARE * time_limit * EXACT_NODES))
    if node_limit is not None:
        pool = min(pool, 2 * node_limit)
    first = max(MIN_SOLVER_NODES, int(FIRST_PROOF_SHARE * pool))
    if node_limit is not None:
        first = min(first, node_limit)
    return Plan(max(time_limit - pool / EXACT_NODES, (1 - SOLVER_SHARE) * time_limit),
                first, pool)


@dataclass
class CheckResult:
    """A judged turn (Stars' Zone's and Star's :class:`CheckResult` by name): ``turn``, ``mover``, ``verdict``, ``loss`` (verdict scale),
    ``method`` ('solver' or 'engine'), ``best_value`` and ``played_value`` (Red's side,
    verdict scale), ``best`` (a best turn, the line's), ``optimal`` (proved: every
    optimal turn of as many placements as ``turn``; ``best_complete`` False when a
    limit stopped the solver before it had checked them all: those found by then;
    estimated: ``best`` alone), the ``position`` it was played in,
    ``bounds_before`` and ``bounds_played``: the values' proved bounds (lower, upper),
    the values themselves when proved."""
    turn: Turn
    mover: str
    verdict: str
    loss: float
    method: str
    best_value: float
    played_value: float
    best: Turn
    position: str = ""
    bounds_before: tuple | None = None
    bounds_played: tuple | None = None
    optimal: tuple = ()
    best_complete: bool = True

    def __post_init__(self):
        self.bounds_before, self.bounds_played = judged_bounds(
            self.bounds_before, self.bounds_played, self.best_value, self.played_value)

    @property
    def exact(self) -> bool:
        return self.method == "solver"

    def to_json(self) -> dict:
        """The family's keys of a judged turn (:data:`szsolver.games.contract.SHAPES`)."""
        return {"game": "stargazers", "position": self.position, "played": str(self.turn),
                "mover": self.mover, "verdict": self.verdict, "loss": self.loss,
                "method": self.method, "exact": self.exact, "best_value": self.best_value,
                "played_value": self.played_value,
                "best": [str(t) for t in self.optimal or (self.best,)],
                "best_complete": self.exact and self.best_complete,
                **bounds_json(self.bounds_before, self.bounds_played)}

    def proved_text(self) -> str:
        """What is proved beside an estimate (empty when the values are)."""
        return "" if self.exact else proved_words(
            "turn", self.bounds_before, self.bounds_played,
            "each side's score between its assured score and its potential")


def _after(position, turn):
    q = position.copy()
    for c in turn:
        try:
            q.play(c)
        except IllegalTurnError as e:
            raise IllegalTurnError(f"turn {turn}: {e}") from None
    return q


def check(position, turn, *, node_limit: int | None = None, time_limit: float | None = None,
          engine_seconds: float = ENGINE_SECONDS, exact_turns: int = EXACT_TURNS,
          progress=None) -> CheckResult:
    """Judge ``turn`` (text ``17`` / ``17,23`` or a Turn) played in ``position``: by the
    solver when at most ``exact_turns`` playable cells are empty and it proves both
    values within its limits, else by the engine. ``time_limit``: seconds for the whole
    check, split by :func:`plan` into fixed work (the same answer on every run);
    ``node_limit``: each proof's nodes at most. ``progress``: the engine's callback
    (:mod:`.engine`), told as the solver and the tree search start and go on; the
    verdict is the same without it."""
    work = plan(position, time_limit, node_limit=node_limit, engine_seconds=engine_seconds,
                exact_turns=exact_turns)
    return _judge(position, turn, work.solver_nodes > 0, work.solver_nodes, work.solver_pool,
                  None, work.engine_seconds, progress)


def _judge(position, turn, tried: bool, nodes: int | None, pool: int | None,
           solver_time: float | None, engine_seconds: float, progress=None) -> CheckResult:
    """The judgement: with ``tried``, two proofs, the first of ``nodes``, the second of
    what the first left of ``pool`` (None: no node limit; ``solver_time``: each one's
    time limit, annotate's), else (or when one stops) the engine's estimates on
    ``engine_seconds`` of budget."""
    if isinstance(turn, str):
        turn = parse_turn(turn)
    turn = Turn(turn)
    if position.is_over():
        raise IllegalTurnError("the game is over: there is no turn to judge")
    mover = position.side
    if len(turn) > position.placements_left:
        raise IllegalTurnError(f"turn {turn}: {position.side_name} has "
                               f"{position.placements_left} placement(s) left in this turn")
    after = _after(position, turn)
    best_v = played = None
    if tried:
        best_v, sol, used = _proved(position, nodes, solver_time, progress, len(turn))
        if best_v is not None:
            played = _proved(after, None if pool is None else pool - used,
                             solver_time, progress)[0]
    if best_v is not None and played is not None:
        line = sol.pv[:len(turn)] or list(turn)
        loss, verdict = classify(best_v, played, mover)
        return CheckResult(turn, SIDE_NAMES[mover], verdict, loss, "solver", best_v, played,
                           Turn(line), str(position),
                           optimal=tuple(Turn(t) for t in sol.best_turns) or (Turn(line),),
                           best_complete=sol.best_complete)
    from .engine import Engine
    # both values from one tree: see Engine.judge
    j = Engine(engine_seconds, seed="check", exact=False).judge(position, turn, progress)
    sign = 1 if mover == RED else -1
    best_v, played_v = sign * 100 * j["best_value"], sign * 100 * j["played_value"]
    best_turn = j["best"]
    if list(turn) == best_turn:
        best_v = played_v             # the engine's own turn: no loss by its estimate
    elif sign * (played_v - best_v) > 0:
        # the played turn looks better than the engine's choice: the best found
        best_v, best_turn = played_v, list(turn)
    # the loss of the values shown (rounded first, so that it is their difference)
    best_v, played_v = round(best_v, 1), round(played_v, 1)
    loss, verdict = classify(best_v, played_v, mover, ESTIMATE_MARGIN)
    return CheckResult(turn, SIDE_NAMES[mover], verdict, round(loss, 1), "engine",
                       best_v, played_v, Turn(best_turn), str(position),
                       proved_bounds(position), proved_bounds(after))


def annotate(game, *, node_limit: int | None = None, time_limit: float | None = None,
             engine_seconds: float = ENGINE_SECONDS, progress=None,
             exact_turns: int = EXACT_TURNS) -> list[CheckResult]:
    """Judge every turn of ``game`` (a :class:`.record.GameRecord`), as :func:`check`
    does without a time limit (so ``check GAME --turn N`` and row N agree): each proof
    within ``node_limit`` and ``time_limit`` seconds (a proof they stop leaves the turn
    estimated; neither given: :data:`DEFAULT_SOLVER_NODES`), the engine on
    ``engine_seconds`` a turn. ``progress``: optional callable(done, total,
    text) before each turn is judged (``done`` the turns judged so far, ``total`` the
    game's, ``text`` the next one) and once at the end; the judgements are the same
    without it."""
    out = []
    n = len(game.turns)
    for i, t in enumerate(game.turns):
        if progress is not None:
            progress(i, n, f"turn {i + 1}, {game.where(i)}")
        position = game.position_before(i)
        tried = position.empty.bit_count() <= exact_turns
        if node_limit is None and time_limit is None:
            node_limit = DEFAULT_SOLVER_NODES
        out.append(_judge(position, t, tried, node_limit,
                          None if node_limit is None else 2 * node_limit, time_limit,
                          engine_seconds))
    if progress is not None:
        progress(n, n, "done")
    return out
