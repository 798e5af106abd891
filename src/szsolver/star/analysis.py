"""Judging Star moves and games: ``check`` (was this move optimal?) and ``annotate``
(every move of a game), on the project's verdict scale.

Values are Black's final score minus White's. A move's *loss* is how much worse the
value after it is than after the best move, from the mover's side. Verdicts are those
of :mod:`szsolver.verdict` (optimal, inaccuracy, mistake, blunder) with one
point of score difference where Stars' Zone has one point: a loss of a point or more
that keeps the result is a mistake, one that changes the winner a blunder.

Near the end (at most ``exact_turns`` live empty cells) the exact solver values every
move, so the verdict is proved; earlier the engine estimates the best move's value and
the played move's, and the verdict is an estimate (half a point of margin, as for
Stars' Zone estimates).

>>> from szsolver.star.position import Position, parse_move
>>> p = Position.from_string("star:4x5:BWWB/BBWW./BWWBBW/WB.W.WB/BB.BBBWW/BWBWBWW/BWBB.W/WBWW.:B")
>>> r = check(p, parse_move("E7", p.board))
>>> r.method, r.best_value, r.played_value, r.loss, r.verdict
('solver', 1, -1, 2, 'blunder')
"""
from __future__ import annotations

import time
from dataclasses import dataclass

from ..verdict import (ESTIMATE_MARGIN, VERDICT_COUNTS, bounds_json, classify,
                       judged_bounds, proved_words, turns_listed, verdict_count)
from .. import interrupt
from ..errors import IllegalTurnError, InputError
from ..limits import check_seconds, seconds_text
from .engine import DEFAULT_SECONDS, SOLVER_NODES_PER_SECOND, Engine, value_bounds
from .groups import BLACK
from .position import COLOUR_NAMES, Position, format_move, position_string
from .solver import dead_cells, describe, solve

__all__ = ["check", "annotate", "plan", "Plan", "CheckResult", "Annotation", "EXACT_TURNS"]

#: moves are valued exactly with at most this many live empty cells
EXACT_TURNS = 14
#: the solver's node budget per exact check (a check that runs out is estimated)
EXACT_NODES = 3_000_000
#: With a time limit, where the solver is tried, its share of the limit (the engine has
#: the rest: late in a game a tree iteration is cheap, and a proof is worth more)
SOLVER_SHARE = 0.5
#: the least budget the engine is planned, however small the limit
MIN_ENGINE_SECONDS = 0.01


@dataclass
class CheckResult:
    """The verdict on one move (values Black's side; ``loss`` in points of score
    difference, from the mover's side)."""
    position: str
    turn: int
    mover: int
    method: str                 # "solver" (proved) or "engine" (estimated)
    best: list[int]
    best_value: float
    played_value: float
    loss: float
    verdict: str
    seconds: float
    board: object = None
    #: the values' proved bounds (lower, upper), Black's side: the values themselves
    #: when proved
    bounds_before: tuple | None = None
    bounds_played: tuple | None = None

    def __post_init__(self):
        self.bounds_before, self.bounds_played = judged_bounds(
            self.bounds_before, self.bounds_played, self.best_value, self.played_value)

    @property
    def exact(self) -> bool:
        return self.method == "solver"

    def proved_text(self) -> str:
        """What is proved beside an estimate (empty when the values are)."""
        return "" if self.exact else proved_words(
            "move", self.bounds_before, self.bounds_played,
            "what each colour has and the most it can still reach")

    def to_json(self) -> dict:
        b = self.board
        return {"game": "star", "position": self.position, "played": format_move(self.turn, b),
                "mover": COLOUR_NAMES[self.mover], "method": self.method, "exact": self.exact,
                "best": [format_move(m, b) for m in self.best], "best_value": self.best_value,
                "played_value": self.played_value, "loss": self.loss,
                "verdict": self.verdict, "seconds": round(self.seconds, 3),
                **bounds_json(self.bounds_before, self.bounds_played)}

    def text(self) -> str:
        b = self.board
        played = format_move(self.turn, b)
        best = turns_listed((format_move(m, b) for m in self.best), 6, " or ")
        if self.exact:
            if self.verdict == "optimal":
                return f"{played} was optimal (proved): {describe(int(self.played_value))}."
            return (f"{played} was {_article(self.verdict)} (proved): "
                    f"{COLOUR_NAMES[self.mover].capitalize()} gives away {self.loss:g} "
                    f"(value {self.best_value:+g} -> {self.played_value:+g}, Black's side); "
                    f"best {best}: {describe(int(self.best_value))}.")
        if self.verdict == "optimal":
            return (f"{played} was optimal (estimated by the engine, not proved): value about "
                    f"{self.played_value:+.1f} (Black's side); the engine's choice {best}.\n"
                    + self.proved_text())
        return (f"{played} was {_article(self.verdict)} (estimated by the engine, not proved): "
                f"about {self.loss:.1f} given away (value {self.best_value:+.1f} -> "
                f"{self.played_value:+.1f}, Black's side); the engine prefers {best}.\n"
                + self.proved_text())


def _article(verdict: str) -> str:
    return {"inaccuracy": "an inaccuracy", "mistake": "a mistake", "blunder": "a blunder"}.get(
        verdict, verdict)


def _live(pos: Position) -> int:
    return (pos.empty & ~dead_cells(pos.board, pos.groups, pos.empty)).bit_count()


@dataclass(frozen=True)
class Plan:
    """The work a check does (:func:`plan`): the exact solver's node limit (0: not
    tried) and the engine's budget in seconds for its judgement."""
    solver_nodes: int
    engine_seconds: float


def plan(pos: Position, time_limit: float | None = None, *,
         engine_seconds: float | None = None, exact_turns: int = EXACT_TURNS) -> Plan:
    """The one split of a check's work at ``pos``, a pure function of the position's
    live empty cells and the arguments. Without a time limit the solver gets
    :data:`EXACT_NODES` (where it is tried) and the engine ``engine_seconds`` (default
    :data:`DEFAULT_SECONDS`). With ``time_limit`` S the whole check shares S: where the
    solver is tried, :data:`SOLVER_SHARE` of S as nodes at the engine's solver rate
    (at most :data:`EXACT_NODES`), and the engine the rest (all of S elsewhere); the
    parts add up to S. Where the solver proves the verdict the check ends early."""
    tried = _live(pos) <= exact_turns
    if time_limit is None:
        return Plan(EXACT_NODES if tried else 0, engine_seconds or DEFAULT_SECONDS)
    check_seconds(time_limit, "the time limit", none_ok=False)
    nodes = min(EXACT_NODES, max(1000, int(SOLVER_SHARE * time_limit * SOLVER_NODES_PER_SECOND))) \
        if tried else 0
    return Plan(nodes, max(time_limit - nodes / SOLVER_NODES_PER_SECOND, MIN_ENGINE_SECONDS))


def check(pos: Position, move: int, *, time_limit: float | None = None,
          engine_seconds: float | None = None, exact_turns: int = EXACT_TURNS, seed=0,
          progress=None) -> CheckResult:
    """The verdict on ``move`` in ``pos`` (IllegalTurnError when it is not legal).
    ``time_limit``: seconds for the whole check, split by :func:`plan` into fixed work
    (the same answer on every run); else the solver gets :data:`EXACT_NODES` and the
    engine ``engine_seconds``. ``progress``: the engine's callback
    (:meth:`.engine.Engine.analyse`), told as the exact solver and the tree search
    start and go on; the verdict is the same without it."""
    if not pos.legal(move):
        raise IllegalTurnError(pos._why_illegal(move))
    t0 = time.monotonic()
    mover = pos.side
    work = plan(pos, time_limit, engine_seconds=engine_seconds, exact_turns=exact_turns)
    before = value_bounds(pos)
    if work.solver_nodes:
        if progress is not None:
            progress("solver", 0, work.solver_nodes)
        res = solve(pos, all_turns=True, node_limit=work.solver_nodes, progress=progress)
        interrupt.raise_if_absorbed(res.stopped)
        before = (res.lower, res.upper)
        if res.exact:
            played = next(m.value for m in res.turns if m.turn == move)
            loss, verdict = classify(100 * res.value, 100 * played, mover)
            return CheckResult(position_string(pos), move, mover, "solver", res.best,
                               res.value, played, loss // 100, verdict,
                               time.monotonic() - t0, pos.board)
    # the solver has had its chance: the engine's tree alone, built once
    engine = Engine(work.engine_seconds, seed=seed, solver_empty=0)
    best, played = engine.judge(pos, move, progress)
    best_moves, best_value = [best.turn], best.value
    if (played - best_value) * (1 if mover == BLACK else -1) > 0:
        # the played move looks better than the engine's choice: the best found
        best_moves, best_value = [move], played
    loss, verdict = classify(round(100 * best_value), round(100 * played), mover, ESTIMATE_MARGIN)
    after = pos.after(move)
    return CheckResult(position_string(pos), move, mover, "engine", best_moves, best_value,
                       played, loss / 100, verdict, time.monotonic() - t0, pos.board,
                       before, (after.value(),) * 2 if after.is_over() else value_bounds(after))


@dataclass
class Annotation:
    """Every move of a game judged: ``results`` in order, ``summary`` per colour."""
    game: object
    results: list[CheckResult]
    summary: dict
    seconds: float

    def to_json(self) -> dict:
        from .record import game_json
        g = self.game
        return {"type": "annotation", "game": game_json(g), "turns": [
            {"number": i + 1, "round": g.round_of(i), "side": COLOUR_NAMES[g.side_of(i)],
             **r.to_json()} for i, r in enumerate(self.results)], "summary": self.summary,
            "seconds": round(self.seconds, 3)}

    def text(self) -> str:
        g = self.game
        b = g.board
        marks = {"optimal": "", "inaccuracy": "?!", "mistake": "?", "blunder": "??"}
        lines = ["  move round colour played  before  after  loss  verdict     how     best"]
        for i, r in enumerate(self.results):
            before = r.best_value
            lines.append(f"  {i + 1:>4} {g.round_of(i):>5} {COLOUR_NAMES[r.mover]:<6} "
                         f"{format_move(r.turn, b) + marks[r.verdict]:<7} {before:>+6.1f} "
                         f"{r.played_value:>+6.1f} {r.loss:>5.1f}  {r.verdict:<10}  "
                         f"{'proved' if r.exact else 'est.':<6}  "
                         + turns_listed((format_move(m, b) for m in r.best), 4))
        lines.append("")
        for colour in COLOUR_NAMES:
            s = self.summary[colour]
            counts = ", ".join(verdict_count(s[VERDICT_COUNTS[v]], v)
                               for v in ("inaccuracy", "mistake", "blunder"))
            lines.append(f"{colour.capitalize()}: {s['optimal']} optimal of {s['turns']} "
                         f"({s['judged_exactly']} proved); {counts}.")
        bs, ws = g.final.scores()
        lines.append(f"Final: black {bs}, white {ws}. {seconds_text(self.seconds)}.")
        return "\n".join(lines)


def annotate(game, *, time_per_turn: float | None = None, exact_turns: int = EXACT_TURNS,
             progress=None) -> Annotation:
    """Judge every move of ``game`` (a :class:`szsolver.star.record.GameRecord`).
    ``progress``: optional callable(done, total, text) before each move is judged
    (``done`` the moves judged so far, ``total`` the game's, ``text`` the next one)
    and once at the end; the judgements are the same without it."""
    if not game.turns:
        raise InputError("the game has no moves to judge")
    t0 = time.monotonic()
    results = []
    for i, m in enumerate(game.turns):
        if progress is not None:
            progress(i, len(game.turns), f"turn {i + 1}, {game.where(i)}")
        # check's own seed (the engine mixes in the position), so that annotate and
        # check judge a move alike
        results.append(check(game.position_before(i), m, engine_seconds=time_per_turn,
                             exact_turns=exact_turns))
    if progress is not None:
        progress(len(game.turns), len(game.turns), "done")
    summary = {}
    for colour in (0, 1):
        mine = [r for r in results if r.mover == colour]
        summary[COLOUR_NAMES[colour]] = {
            "turns": len(mine), "judged_exactly": sum(r.exact for r in mine),
            **{k: sum(r.verdict == v for r in mine) for v, k in VERDICT_COUNTS.items()}}
    return Annotation(game, results, summary, time.monotonic() - t0)
