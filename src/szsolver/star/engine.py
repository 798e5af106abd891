"""The Star engine: Monte Carlo tree search with all-moves-as-first (RAVE) statistics,
the exact solver near the end, and simple players to measure it against.

Contracts
---------
* :meth:`Engine.analyse` returns an :class:`EngineResult`: a legal move, the value
  (Black's final score minus White's, Black's side), whether it is proved (``exact``)
  and ``lower <= value <= upper`` (proved: the solver's answer, or what each colour
  already has and the most it could reach).
* With at most ``solver_empty`` live empty cells the exact solver runs first under a
  node limit; when it finishes the answer is exact (``method`` ``"solver"``, ``best``
  every optimal move). Otherwise the tree search gives the move and an estimate
  (``method`` ``"engine"``): the mean final score difference of the playouts through
  the chosen move.
* Playouts fill the board at random (passing never helps, see
  :mod:`szsolver.star.solver`) and are scored by the shift flood fill. Selection mixes
  each move's mean result with its all-moves-as-first mean (moves are worth much the
  same whenever they are played, in a connection game), weighted toward the latter
  while a move has few visits.
* The pie rule: exchanging the colours of every stone and the side to move negates
  the value, so after Black's first stone swapping is worth minus the value of the
  position as it stands; the engine swaps when it estimates Black ahead there. So
  Black's first stone, on a board without stones, is worth ``-|v|``, ``v`` the value
  of the position after it (White takes the better of its move and the swap): there
  the tree selects by the lesser of a stone's reward and its swap's, and values and
  judges each first stone so (:func:`opens_swap`). With
  ``pass`` the game can end only after the opponent passed: the engine then ends it
  when the score now is better for it than its estimate of playing on.
* Deterministic: the budget is fixed work, planned from the seconds by :func:`budget`
  (solver nodes at :data:`SOLVER_NODES_PER_SECOND`, iterations at the cost
  :func:`iteration_seconds` of the position), and the random numbers come from SHA-256
  of the position string and the engine's seed
  (:func:`szsolver.rules.seeds.playout_rng_v1`). The parts planned add up to the
  budget, so ``best --time S`` takes about S seconds on the project's 2-core machine
  (less where the solver proves the value early).
* :meth:`Engine.judge` values the engine's move and another one from ONE tree, built
  once: :data:`JUDGE_SHARE` of the iterations pick the engine's move, the rest at most
  goes through the other move.
* Progress (:meth:`Engine.analyse`'s ``progress``): ``progress("solver", nodes, node
  limit)`` as the exact solver starts (0 nodes) and goes on (the solver's ``progress``),
  then ``progress("tree", done, total)`` every
  :data:`REPORT_ITERATIONS` iterations of the tree search. The tree grows in chunks,
  which give the same tree as one run, so reporting never changes the answer.

>>> from szsolver.star.position import Position, format_move
>>> res = Engine(iterations=300).analyse(Position())
>>> res.method, res.exact, isinstance(res.turn, int), -31 <= res.value <= 31
('engine', False, True, True)
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass, field

from .. import interrupt
from ..errors import InputError
from ..limits import Budget, check_seconds, fixed_work
from ..rules.seeds import playout_rng_v1
from .groups import BLACK, grid_mask, grid_score
from .position import PASS, SWAP, Position, format_move, position_string
from .solver import dead_cells, solve

__all__ = ["Engine", "EngineResult", "Budget", "budget", "iteration_seconds",
           "RandomPlayer", "GreedyPlayer", "EnginePlayer", "play_game",
           "ITERATIONS_PER_SECOND", "SOLVER_EMPTY", "DEFAULT_SECONDS", "opens_swap"]

#: iterations per second of budget on the standard board from the start (what
#: ``Engine(iterations=...)`` counts as its seconds; a budget in seconds buys the
#: iterations :func:`iteration_seconds` says the position affords)
ITERATIONS_PER_SECOND = 10_000
#: The tree search's CPU seconds per iteration: ``a + b * empty cells`` (a playout
#: fills them all; the tree's selection is the rest, and grows with the tree). Fitted
#: on ``check --time-limit 3`` at 10 positions of uniformly random play on the
#: standard board (24,000-77,000 iterations each; load average 6-7 on the 2-core
#: machine): 114 us an iteration at 75 empty cells, 76-82 at 34-41, 60 at 18, within
#: 0.95-1.1 of ``(4.0e-5, 1.0e-6)``; then raised by 1.15, since ``best --time 3``,
#: where the tree has the whole budget, took 1.10-1.22 of it in CPU time at the fit.
ITERATION_COST = (4.6e-5, 1.15e-6)
#: the exact solver is tried with at most this many live empty cells
SOLVER_EMPTY = 14
#: solver nodes per second of budget (the pure-Python search runs about 100,000/s)
SOLVER_NODES_PER_SECOND = 100_000
#: Where the solver is tried, its share of the budget (the tree search has the rest
#: when it does not finish; so late a tree iteration is cheap).
SOLVER_SHARE = 0.8
#: :meth:`Engine.judge`: the share of the iterations that picks the engine's move; the
#: other move gets at most the rest (more visits through it, or a search after it).
JUDGE_SHARE = 0.8
DEFAULT_SECONDS = 1.0
#: RAVE: the weight of the all-moves-as-first mean is sqrt(K / (3 n + K))
RAVE_K = 300
EXPLORATION = 0.4
MIN_ITERATIONS = 16
MAX_ITERATIONS = 1_000_000
#: iterations of the tree search between progress reports (a tenth of a second's budget)
REPORT_ITERATIONS = 1_000


@dataclass
class EngineResult:
    """The answer of :meth:`Engine.analyse`; see the module doc for the contracts."""
    position: str
    turn: int
    value: float
    exact: bool
    method: str
    lower: int
    upper: int
    best: list[int] = field(default_factory=list)
    candidates: list[dict] = field(default_factory=list)
    pv: list[int] = field(default_factory=list)
    iterations: int = 0
    nodes: int = 0
    seconds: float = 0.0
    board: object = None

    def to_json(self) -> dict:
        b = self.board
        return {"game": "star", "position": self.position, "turn": format_move(self.turn, b),
                "value": self.value, "exact": self.exact, "method": self.method,
                "lower": self.lower, "upper": self.upper,
                "best": [format_move(m, b) for m in self.best],
                "pv": [format_move(m, b) for m in self.pv],
                "candidates": [{**c, "turn": format_move(c["turn"], b)}
                               for c in self.candidates],
                "iterations": self.iterations, "nodes": self.nodes,
                "seconds": round(self.seconds, 3)}


def iteration_seconds(pos: Position) -> float:
    """The tree search's seconds per iteration at ``pos`` (:data:`ITERATION_COST`)."""
    a, b = ITERATION_COST
    return a + b * pos.empty.bit_count()


def budget(pos: Position, seconds: float, *, solver: bool = False) -> Budget:
    """The one conversion of seconds into fixed work at ``pos``: a pure function of the
    position's empty cells and the arguments. ``solver``: the exact solver is tried
    first, with :data:`SOLVER_SHARE` of the seconds (at least 1,000 nodes); the tree
    search has the rest. The parts add up to ``seconds``, except that a budget below the
    solver's least nodes still gives the tree search its share."""
    return fixed_work(seconds, iteration_seconds(pos), solver_share=SOLVER_SHARE if solver else 0,
                      nodes_per_second=SOLVER_NODES_PER_SECOND, least_nodes=1000,
                      least_iterations=MIN_ITERATIONS, most_iterations=MAX_ITERATIONS)


class _Node:
    __slots__ = ("move", "side", "children", "untried", "n", "w", "total", "amaf_n", "amaf_w")

    def __init__(self, move: int, side: int, untried: list[int]):
        self.move = move            # the move that led here
        self.side = side            # the colour to move here
        self.children: list[_Node] = []
        self.untried = untried
        self.n = 0
        self.w = 0.0                # reward sum, from the view of the colour that moved here
        self.total = 0.0            # sum of final values (Black's side) through here
        self.amaf_n: dict[int, int] = {}
        self.amaf_w: dict[int, float] = {}


def opens_swap(pos: Position) -> bool:
    """Whether a stone played at ``pos`` opens the swap: Black's first stone, on a board
    without stones (:meth:`Position.swap_open` after it)."""
    return pos.side == BLACK and pos.passes == 0 and not (pos.black | pos.white)


def first_stone_cap(board) -> int:
    """The most a first stone can be worth to Black (the pie rule): 0, and -1 where the
    board's total is odd, since then no filled board is level and the value of the
    position after the stone, a filled board's (passing never helps), is not 0."""
    return -1 if board.total % 2 else 0


def _first_stone(value: float, board) -> float:
    """A first stone's value (Black's side) from the value ``value`` of the position
    after it: White swaps when Black is ahead there, so Black gets the lesser of
    ``value`` and ``-value``, at most :func:`first_stone_cap`."""
    return min(-abs(value), first_stone_cap(board))


def _reward(value: int, colour: int) -> float:
    """A playout's reward in [0, 1] for ``colour``: mostly the win, a little the margin."""
    v = value if colour == BLACK else -value
    win = 1.0 if v > 0 else 0.0 if v < 0 else 0.5
    return 0.9 * win + 0.1 * (0.5 + v / 124)


class Engine:
    """MCTS with RAVE and the exact solver near the end (see the module doc).

    ``seconds`` or ``iterations``: the budget (seconds become fixed work at each
    position by :func:`budget`; ``iterations``: exactly that many, the solver's nodes
    as for ``iterations / ITERATIONS_PER_SECOND`` seconds). ``seed``: any text or
    number. ``solver_empty``: try the solver with at most this many live empty cells
    (0: never)."""

    def __init__(self, seconds: float | None = None, *, iterations: int | None = None,
                 seed=0, solver_empty: int = SOLVER_EMPTY):
        check_seconds(seconds, "the engine's budget")
        if iterations is not None:
            iterations = max(MIN_ITERATIONS, min(MAX_ITERATIONS, iterations))
        self.fixed_iterations = iterations
        self.seconds = seconds or (iterations / ITERATIONS_PER_SECOND if iterations
                                   else DEFAULT_SECONDS)
        self.seed = seed
        self.solver_empty = solver_empty

    def plan(self, pos: Position) -> Budget:
        """The work the budget buys at ``pos`` (:func:`budget`; ``iterations`` given:
        exactly those)."""
        live = (pos.empty & ~_dead(pos)).bit_count()
        plan = budget(pos, self.seconds, solver=live <= self.solver_empty)
        if self.fixed_iterations is not None:
            plan = Budget(plan.seconds, self.fixed_iterations, plan.solver_nodes)
        return plan

    # --- the answer -------------------------------------------------------------------
    def analyse(self, pos: Position, progress=None) -> EngineResult:
        """A move and a value for ``pos`` (InputError when the game is over).
        ``progress``: see the module doc; the answer is the same with or without it."""
        if pos.is_over():
            raise InputError("the game is over: there is no move to play")
        t0 = time.monotonic()
        plan = self.plan(pos)
        if plan.solver_nodes:
            if progress is not None:
                progress("solver", 0, plan.solver_nodes)
            res = solve(pos, node_limit=plan.solver_nodes, progress=progress)
            interrupt.raise_if_absorbed(res.stopped)
            if res.exact and res.best_complete:
                return EngineResult(position_string(pos), res.best[0], res.value, True,
                                    "solver", res.value, res.value, list(res.best),
                                    pv=list(res.pv), nodes=res.nodes,
                                    seconds=time.monotonic() - t0, board=pos.board)
            lower, upper, nodes = res.lower, res.upper, res.nodes
        else:
            lower, upper, nodes = *value_bounds(pos), 0
        grow = self._search(pos, plan.iterations, progress=progress)
        return self._result(pos, grow.root, lower, upper, nodes, t0)[0]

    def judge(self, pos: Position, move: int, progress=None) -> tuple[EngineResult, float]:
        """The engine's answer at ``pos`` (the tree search alone: a caller that wants a
        proof has tried the solver) and its estimate of ``move`` (Black's side), both
        from ONE tree, built once: :data:`JUDGE_SHARE` of the budget's iterations pick
        the engine's move, then at most the rest run through ``move`` until it has as
        many visits as the most visited move. A search after the move would be no match
        for the estimate of the best move: it searches for the opponent, and is
        optimistic for the opponent by about a point (measured on the 5x6 board at 1 s).
        ``swap`` is valued from the same tree (minus the best stone's value); a pass
        that does not end the game and a move on a dead cell (which the tree leaves
        out) get a search after the move on the rest of the iterations. So the whole
        judgement costs the budget's iterations at most. ``progress``: as
        :meth:`analyse`'s, for the tree search."""
        if pos.is_over():
            raise InputError("the game is over: there is no move to play")
        t0 = time.monotonic()
        total = self.plan(pos).iterations if self.fixed_iterations is None \
            else self.fixed_iterations
        first = max(MIN_ITERATIONS, int(JUDGE_SHARE * total))
        rest = max(total - first, MIN_ITERATIONS)
        grow = self._search(pos, first, progress=progress, total=total)
        res, stone = self._result(pos, grow.root, *value_bounds(pos), 0, t0)
        after = pos.after(move)
        root = grow.root
        if move == res.turn:
            return res, res.value
        if after.is_over():
            return res, float(after.value())
        if move == SWAP:
            return res, -stone
        child = next((c for c in root.children if c.move == move), None)
        if child is None and move not in root.untried:
            # a pass that plays on, or a dead cell: the tree has neither
            other = Engine(iterations=rest, seed=self.seed, solver_empty=0)
            return res, other.analyse(after).value
        top = max((c.n for c in root.children), default=0)
        want = max(MIN_ITERATIONS, min(top, rest))
        have = child.n if child is not None else 0
        if have < want:
            grow(want - have, forced=move)
            child = next(c for c in root.children if c.move == move)
        res.iterations = root.n
        res.seconds = time.monotonic() - t0
        value = child.total / child.n
        return res, round(_first_stone(value, pos.board) if opens_swap(pos) else value, 2)

    def _result(self, pos, root, lower, upper, nodes, t0) -> tuple[EngineResult, float]:
        """The answer from the tree below ``root``, and the value of its most visited
        stone (Black's side, before a swap or pass replaces it)."""
        mover = pos.side
        ranked = sorted(root.children, key=lambda c: (-c.n, c.move))
        best = ranked[0]
        stone = value = best.total / best.n if best.n else 0.0
        move = best.move
        first = opens_swap(pos)

        def worth(c):
            """A root move's estimate (Black's side): a first stone's with the swap."""
            v = c.total / c.n
            return _first_stone(v, pos.board) if first else v
        if first:
            value = worth(best) if best.n else 0.0
        if pos.swap_open():
            # swap is worth minus the value of the position as it stands (White to move)
            if value > 0:
                move, value = SWAP, -value
        if pos.passes == 1:
            now = pos.value()
            if (now - value) * (1 if mover == BLACK else -1) > 0:
                move, value = PASS, float(now)
        value = min(max(value, lower), upper)
        cands = [{"turn": c.move, "visits": c.n, "value": round(worth(c), 2) if c.n else None}
                 for c in ranked[:8]]
        pv, node = [], best
        while node is not None and node.n >= 8:
            pv.append(node.move)
            node = max(node.children, key=lambda c: c.n, default=None)
        if first and stone > 0:
            pv = [best.move, SWAP]      # White swaps; the tree's line below is unswapped
        return EngineResult(position_string(pos), move, round(value, 2), False, "engine",
                            lower, upper, [move], cands, pv if move == best.move else [move],
                            root.n, nodes, time.monotonic() - t0, board=pos.board), stone

    # --- the tree search --------------------------------------------------------------
    def _search(self, pos: Position, iterations: int, progress=None, total=None):
        """The function that grows the tree of ``pos`` (``grow(k, forced=move)``: k more
        iterations, each through ``move`` at the root), after ``iterations`` of them;
        its root is ``grow.root``. ``progress``: told ``("tree", done, total)`` as they
        run (``total``: the iterations the caller plans in all, default these)."""
        b = pos.board
        rng = playout_rng_v1("star-engine", position_string(pos), self.seed)
        live = pos.empty & ~_dead(pos)
        cells = [c for c in range(b.size) if live >> c & 1]
        root = _Node(-1, pos.side, cells[:])
        rng.shuffle(root.untried)

        def grow(k, forced=None):
            self._grow(pos, root, rng, cells, k, forced)
        chunk = iterations if progress is None else REPORT_ITERATIONS
        for done in range(0, iterations, chunk):     # the same tree as one run
            if progress is not None:
                progress("tree", done, total or iterations)
            grow(min(chunk, iterations - done))
        grow.root = root
        return grow

    def _grow(self, pos, root, rng, cells, iterations, forced=None) -> None:
        b = pos.board
        pie = opens_swap(pos)
        bits = b.grid_bit
        gb0, gw0 = grid_mask(b, pos.black), grid_mask(b, pos.white)
        total = b.total
        for _ in range(iterations):
            node, path = root, [root]
            taken = set()
            grids = [gb0, gw0]            # by colour (BLACK 0): a node's mover is side ^ 1
            if forced is not None:          # the first move is given
                node = next((c for c in root.children if c.move == forced), None)
                if node is None:
                    root.untried.remove(forced)
                    rest = [c for c in cells if c != forced]
                    rng.shuffle(rest)
                    node = _Node(forced, root.side ^ 1, rest)
                    root.children.append(node)
                path.append(node)
                taken.add(forced)
                grids[node.side ^ 1] |= 1 << bits[forced]
            # selection
            while not node.untried and node.children:
                node = self._select(node, pie and node is root)
                path.append(node)
                taken.add(node.move)
                grids[node.side ^ 1] |= 1 << bits[node.move]
            # expansion
            if node.untried:
                move = node.untried.pop()
                rest = [c for c in cells if c not in taken and c != move]
                rng.shuffle(rest)
                child = _Node(move, node.side ^ 1, rest)
                node.children.append(child)
                node = child
                path.append(node)
                taken.add(move)
                grids[node.side ^ 1] |= 1 << bits[move]
            gb = grids[BLACK]
            # playout: the remaining cells at random, alternately from the side to move
            rest = [c for c in cells if c not in taken]
            rng.shuffle(rest)
            side = node.side
            owner = {}
            for c in rest:
                if side == BLACK:
                    gb |= 1 << bits[c]
                owner[c] = side
                side ^= 1
            black_score = grid_score(b, gb)
            value = 2 * black_score - total
            for n in path:
                if n.move >= 0:
                    owner[n.move] = n.side ^ 1
            # back-propagation, with the all-moves-as-first statistics
            for n in path:
                n.n += 1
                n.total += value
                mover_here = n.side ^ 1
                n.w += _reward(value, mover_here)
                r = _reward(value, n.side)
                an, aw = n.amaf_n, n.amaf_w
                for c, who in owner.items():
                    if who == n.side:
                        an[c] = an.get(c, 0) + 1
                        aw[c] = aw.get(c, 0.0) + r

    @staticmethod
    def _select(node: _Node, pie: bool = False) -> _Node:
        """UCB over RAVE-mixed rewards; ``pie``: ``node`` is a first stone's (the
        opponent then swaps where that is better for it: a reward r becomes the lesser of
        r and 1 - r, the swap's, as rewards are symmetric between the colours)."""
        log_n = math.log(node.n + 1)
        beta = math.sqrt(RAVE_K / (3 * node.n + RAVE_K))
        an, aw = node.amaf_n, node.amaf_w
        best, best_score = None, -1.0
        for c in node.children:
            q = c.w / c.n
            k = an.get(c.move, 0)
            aq = aw[c.move] / k if k else q
            if pie:
                q, aq = min(q, 1.0 - q), min(aq, 1.0 - aq)
            score = (1 - beta) * q + beta * aq + EXPLORATION * math.sqrt(log_n / c.n)
            if score > best_score:
                best, best_score = c, score
        return best


def _dead(pos: Position) -> int:
    return dead_cells(pos.board, pos.groups, pos.empty)


def value_bounds(pos: Position) -> tuple[int, int]:
    """The value's proved bounds at ``pos`` (Black's side): what each colour already has
    and the most it could reach; with the pie rule where it applies (White may swap:
    the value is ``-|v|``, ``v`` that of the position as it stands, so at most
    :func:`first_stone_cap`; before Black's first stone at most 0, White's answer to a
    pass being to end the game level)."""
    from .solver import _Search
    lo, hi = _Search(pos, None, None).bounds(pos.black, pos.white)
    if pos.swap_open():
        return -max(abs(lo), abs(hi)), min(-max(0, lo, -hi), first_stone_cap(pos.board))
    if opens_swap(pos):
        return lo, min(hi, 0)
    return lo, hi


# --- players ------------------------------------------------------------------------------

class RandomPlayer:
    """A uniformly random stone (never passes, never swaps)."""
    name = "random"

    def __init__(self, seed=0):
        self.rng = playout_rng_v1("star-random-player", seed)

    def move(self, pos: Position) -> int:
        return self.rng.choice(pos.legal_turns(passes=False))


class GreedyPlayer:
    """The stone that gains the most now (own score minus the opponent's after it),
    then the one next to the most stones; ties at random."""
    name = "greedy"

    def __init__(self, seed=0):
        self.rng = playout_rng_v1("star-greedy-player", seed)

    def move(self, pos: Position) -> int:
        sign = 1 if pos.side == BLACK else -1
        nmask = pos.board.neighbour_mask
        stones = pos.black | pos.white
        best, pick = None, []
        for m in pos.legal_turns(passes=False):
            if m < 0:
                continue
            key = (sign * pos.after(m).value(), (nmask[m] & stones).bit_count(),
                   len(pos.board.border_of[m]))
            if best is None or key > best:
                best, pick = key, [m]
            elif key == best:
                pick.append(m)
        return self.rng.choice(pick)


class EnginePlayer:
    """The engine's move."""
    name = "engine"

    def __init__(self, engine: Engine):
        self.engine = engine

    def move(self, pos: Position) -> int:
        return self.engine.analyse(pos).turn


def play_game(black, white, start: Position | None = None, tags: dict | None = None):
    """Play a game between two players (objects with ``move(position)``); a GameRecord."""
    from .record import GameRecord
    start = start or Position()
    tags = dict(tags or {})
    if start != Position(start.board):
        tags["Position"] = position_string(start)
    elif start.board.name != "5x6":
        tags["Board"] = start.board.name
    game = GameRecord(tags)
    while not game.final.is_over():
        p = game.final
        game.play((black if p.side == BLACK else white).move(p))
    return game
