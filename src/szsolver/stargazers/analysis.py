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

from ..verdict import ESTIMATE_MARGIN, classify
from ..errors import IllegalTurnError
from .base import RED, SIDE_NAMES
from .record import Turn, parse_turn

__all__ = ["CheckResult", "check", "annotate", "DEFAULT_SOLVER_NODES", "ENGINE_SECONDS",
           "EXACT_TURNS"]

#: the solver's node limit per proof when no limit is given
DEFAULT_SOLVER_NODES = 300_000
#: the engine's budget per judged turn (seconds of its fixed iteration rate), the same
#: for ``check`` and ``annotate`` so that both judge a turn alike
ENGINE_SECONDS = 1.0
#: turns are proved when at most this many playable cells are empty (earlier the
#: solver would almost always stop at its limit: see docs/stargazers.md)
EXACT_TURNS = 13


def scale(margin: float, tie_won_by_red: bool | None = None) -> float:
    """A Red-side margin on the verdict scale (see the module doc)."""
    if margin == 0 and tie_won_by_red is not None:
        return 1 if tie_won_by_red else -1
    return 100 * margin


def _proved(position, node_limit, time_limit, progress=None):
    """Red-side scaled value of ``position`` by the solver, or None past its limits;
    ``progress``: told ``("solver", nodes, node_limit)`` as the solver starts (0 nodes)
    and goes on."""
    from .solver import solve
    if position.is_over():
        r, b = position.scores()
        return scale(r - b, position.winner() == RED), None
    if progress is not None:
        progress("solver", 0, node_limit)
    s = solve(position, all_turns=False, node_limit=node_limit, time_limit=time_limit,
              progress=progress)
    if not s.exact:
        return None
    red_margin = s.margin if s.side == "red" else -s.margin
    return scale(red_margin, s.winner == "red"), s


@dataclass
class CheckResult:
    """A judged turn (Stars' Zone's and Star's :class:`CheckResult` by name): ``turn``, ``mover``, ``verdict``, ``loss`` (verdict scale),
    ``method`` ('solver' or 'engine'), ``best_value`` and ``played_value`` (Red's side,
    verdict scale), ``best`` (a best turn), the ``position`` it was played in."""
    turn: Turn
    mover: str
    verdict: str
    loss: float
    method: str
    best_value: float
    played_value: float
    best: Turn
    position: str = ""

    @property
    def exact(self) -> bool:
        return self.method == "solver"

    def to_json(self) -> dict:
        """The family's keys of a judged turn (:data:`szsolver.games.contract.SHAPES`)."""
        return {"game": "stargazers", "position": self.position, "played": str(self.turn),
                "mover": self.mover, "verdict": self.verdict, "loss": self.loss,
                "method": self.method, "exact": self.exact, "best_value": self.best_value,
                "played_value": self.played_value, "best": [str(self.best)]}


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
    values within its limits, else by the engine. ``progress``: the engine's callback
    (:mod:`.engine`), told as the solver and the tree search start and go on; the
    verdict is the same without it."""
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
    if node_limit is None and time_limit is None:
        node_limit = DEFAULT_SOLVER_NODES
    best = played = None
    if position.empty.bit_count() <= exact_turns:
        best = _proved(position, node_limit, time_limit, progress)
        played = _proved(after, node_limit, time_limit, progress) if best is not None else None
    if best is not None and played is not None:
        best_v, sol = best
        played_v = played[0]
        line = sol.pv[:len(turn)] or list(turn)
        loss, verdict = classify(best_v, played_v, mover)
        return CheckResult(turn, SIDE_NAMES[mover], verdict, loss, "solver", best_v, played_v,
                     Turn(line), str(position))
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
    loss, verdict = classify(best_v, played_v, mover, ESTIMATE_MARGIN)
    return CheckResult(turn, SIDE_NAMES[mover], verdict, round(loss, 1), "engine",
                 round(best_v, 1), round(played_v, 1), Turn(best_turn), str(position))


def annotate(game, *, node_limit: int | None = None, time_limit: float | None = None,
             engine_seconds: float = ENGINE_SECONDS, progress=None,
             exact_turns: int = EXACT_TURNS) -> list[CheckResult]:
    """Judge every turn of ``game`` (a :class:`.record.GameRecord`), as :func:`check` does.
    ``progress``: optional callable(done, total, text) before each turn is judged
    (``done`` the turns judged so far, ``total`` the game's, ``text`` the next one) and
    once at the end; the judgements are the same without it."""
    out = []
    n = len(game.turns)
    for i, t in enumerate(game.turns):
        if progress is not None:
            progress(i, n, f"turn {i + 1}, {game.where(i)}")
        out.append(check(game.position_before(i), t, node_limit=node_limit,
                         time_limit=time_limit, engine_seconds=engine_seconds,
                         exact_turns=exact_turns))
    if progress is not None:
        progress(n, n, "done")
    return out
