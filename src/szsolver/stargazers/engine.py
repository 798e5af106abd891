"""The Stargazers engine: Monte Carlo tree search over single placements, and the
exact solver near the end.

Each iteration walks the tree by UCT (mean result for the side that placed, plus an
exploration term), adds one placement, then finishes the game with random legal
placements on the fast rules and scores it: 1 for a win (ties decided as in play),
0 for a loss. The placement played is the most visited one; its estimate is the
mean final margin of the games through it. Seeds come from :mod:`szsolver.rules.seeds`
style text (hashlib), so a given budget gives the same answer on every run.

When at most :data:`EXACT_TURNS` playable cells are empty the exact solver
(:mod:`.solver`) answers instead, within :data:`SOLVER_SHARE` of the budget at
:data:`EXACT_NODES` nodes a second (beyond that the search goes on as above, on the
rest).

A budget is fixed work planned from the seconds by :func:`budget`: solver nodes, and
iterations at the cost :func:`iteration_seconds` of the position (its board and empty
cells), so that the answer does not depend on the machine's load, and the parts add up
to the seconds: ``best --time S`` takes about S seconds on the project's 2-core
machine, on every board. :meth:`Engine.judge` spends the same budget in all (its
shares: :data:`JUDGE_FIRST`, :data:`JUDGE_SECOND`, the rest for the two turns' focus).

Progress (:meth:`Engine.analyse`'s and :meth:`Engine.judge`'s ``progress``):
``progress("solver", nodes, node limit)`` as the exact solver starts (0 nodes) and
goes on (the solver's ``progress``), then
``progress("tree", done, total)`` every :data:`REPORT_ITERATIONS` iterations of the
tree search (``total`` None on the clock). The tree grows in chunks, which give the
same tree as one run, so reporting never changes the answer.

>>> from szsolver.stargazers.fast import Position
>>> a = Engine(0.05, seed="doc").analyse(Position())
>>> a.method, a.move in Position().legal_placements()
('engine', True)
"""
from __future__ import annotations

import hashlib
import math
import random
import time
from dataclasses import dataclass, field

from .. import interrupt
from ..errors import InputError
from ..limits import Budget, check_seconds, fixed_work
from ..rules.bits import popcount
from .base import BLUE, RED, SIDE_NAMES, side_of_placement
from .fast import inspired_mask, legal_mask

__all__ = ["Engine", "EngineResult", "Budget", "budget", "iteration_seconds", "EXACT_TURNS",
           "EXACT_NODES", "random_player", "greedy_player", "engine_player", "play_game"]

#: the exact solver takes over at this many empty playable cells (or fewer)
EXACT_TURNS = 12
#: ... within this many search nodes per second of budget, at least 2 000 (the solver
#: visits about 20 000 - 40 000 nodes a CPU second; measured under a check's limit on
#: 12-star positions of 12 empty cells, 27 000 a second, start-up included)
EXACT_NODES = 30_000
#: where the solver is tried, its share of the budget (the tree search has the rest
#: when it does not prove the value)
SOLVER_SHARE = 0.5
#: The tree search's CPU seconds per iteration: ``a + b * empty cells * playable cells``
#: (a playout fills the empty cells, each placement's legality and the score work on
#: masks as wide as the board). Measured on the project's 2-core machine (load average
#: 7), 80-400 iterations from the start, a third and two thirds of random play: 1.48,
#: 1.16 and 0.63 ms an iteration on the 12-star board (39 cells), 4.5, 3.3 and 1.9 on
#: 18-star (66), 12.6, 9.7 and 5.6 on 27-star (111). ``b`` is the fit (1.0e-6, within
#: 0.85-1.1 of each) raised by 1.1, as Stars' Zone's cost model is, so that a budget
#: ends a little early rather than late (measured: ``best --time 3`` took 0.8 of it in
#: CPU time on the 18-star board at 1.28; the 12-star board from the start now buys
#: 580 iterations a second, where it bought 500).
ITERATION_COST = (5e-5, 1.1e-6)
#: :meth:`Engine.judge`: the first search's share of the budget's iterations, and (for
#: a turn of two placements) the share that chooses the engine's second placement; the
#: rest at most goes to the focus on the two turns
JUDGE_FIRST, JUDGE_SECOND = 0.6, 0.2
_C = 0.7   # UCT exploration
#: below this many iterations an estimate is a rough guess (measured: 50 iterations
#: barely visit each of the 30-60 placements once and lose to the greedy player; from
#: 150 on the engine wins nearly every game against it: docs/stargazers.md)
ROUGH_ITERATIONS = 150
#: judging a turn, the engine's turn and the played one each rest on at least this
#: many playouts (fewer left one lucky playout deciding "the best value")
MIN_JUDGE_VISITS = 32
#: iterations of the tree search between progress reports (a tenth of a second's budget)
REPORT_ITERATIONS = 50


def _rng(seed) -> random.Random:
    digest = hashlib.sha256(f"stargazers-engine:{seed}".encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


def _bits(m: int) -> list:
    out = []
    while m:
        low = m & -m
        out.append(low.bit_length() - 1)
        m ^= low
    return out


def _finish(board, protocol, red, blue, rng):
    """Play random legal placements to the end: (winner, red margin)."""
    n = popcount(red | blue)
    while True:
        side = side_of_placement(n, protocol)[0]
        own, enemy = (red, blue) if side == RED else (blue, red)
        legal = legal_mask(board, own, enemy)
        if not legal:
            break
        c = rng.choice(_bits(legal))
        if side == RED:
            red |= 1 << c
        else:
            blue |= 1 << c
        n += 1
    rs = popcount(blue & ~inspired_mask(board, blue, red))
    bs = popcount(red & ~inspired_mask(board, red, blue))
    winner = (RED if rs > bs else 1 - RED) if rs != bs else 1 - side
    return winner, rs - bs


class _Node:
    __slots__ = ("side", "untried", "children", "visits", "wins", "margin")

    def __init__(self, side, legal):
        self.side = side            # the side to place here
        self.untried = legal        # placements not yet expanded
        self.children = {}          # placement -> _Node
        self.visits = 0
        self.wins = 0.0             # wins of the side that placed into this node
        self.margin = 0             # sum of final margins for that side


@dataclass
class EngineResult:
    """The engine's answer (Stars' Zone's and Star's :class:`EngineResult` by name;
    it works a placement at a time, so its ``move`` is the placement to play, not a
    turn of one or two placements). ``method``: 'solver' (proved) or 'engine'
    (estimated); ``value``: the final margin for the side to move
    (proved, or the mean over the playouts through ``move``); ``win_rate`` (engine) or
    1.0 / 0.0 (solver); ``candidates``: [{placement, visits, win_rate, margin}], most
    visited first; ``best``: every proved-best placement (solver; ``best_complete``
    False: the node limit stopped the solver after it proved the value, before it
    checked every placement, and ``best`` holds those proved best by then);
    ``iterations``, ``nodes``, ``seconds`` (CPU)."""
    move: int
    method: str
    value: float
    win_rate: float
    side: str
    candidates: list = field(default_factory=list)
    best: list = field(default_factory=list)
    pv: list = field(default_factory=list)
    iterations: int = 0
    nodes: int = 0
    seconds: float = 0.0
    best_complete: bool = False

    def to_json(self, position: str | None = None) -> dict:
        """The family's ``best`` keys (:data:`szsolver.games.contract.SHAPES`): the
        ``turn`` is the placement (``unit``), ``value`` Red's side; ``margin`` is the
        side to move's."""
        red = 1 if self.side == "red" else -1
        return {"game": "stargazers", "position": position, "turn": str(self.move),
                "unit": "placement", "method": self.method,
                "exact": self.method == "solver", "value": red * self.value,
                "margin": self.value, "win_rate": self.win_rate, "side": self.side,
                "candidates": [{"turn": str(c["placement"]),
                                **{k: v for k, v in c.items() if k != "placement"}}
                               for c in self.candidates],
                "best": [str(c) for c in self.best], "best_complete": self.best_complete,
                "pv": [str(c) for c in self.pv], "iterations": self.iterations, "nodes": self.nodes,
                "seconds": round(self.seconds, 3)}


def iteration_seconds(position) -> float:
    """The tree search's seconds per iteration at ``position`` (:data:`ITERATION_COST`)."""
    a, b = ITERATION_COST
    return a + b * popcount(position.empty) * popcount(position.board.playable)


def budget(position, seconds: float, *, solver: bool = False) -> Budget:
    """The one conversion of seconds into fixed work at ``position``: a pure function of
    its board, its empty cells and the arguments. ``solver``: the exact solver is tried
    first, with :data:`SOLVER_SHARE` of the seconds at :data:`EXACT_NODES` a second (at
    least 2,000 nodes); the tree search has the rest (at least one iteration). The parts
    add up to ``seconds``, except that a budget below the solver's least nodes still
    gives the tree search its share."""
    return fixed_work(seconds, iteration_seconds(position),
                      solver_share=SOLVER_SHARE if solver else 0, nodes_per_second=EXACT_NODES,
                      least_nodes=2000)


class Engine:
    """``Engine(seconds, seed=...)``: ``analyse(position)`` gives an :class:`EngineResult`.
    ``seconds`` is a budget of fixed work (:func:`budget`; ``wall_clock=True``: real
    seconds of tree search instead). ``exact``: use the solver near the end."""

    def __init__(self, seconds: float = 1.0, *, seed="0", wall_clock: bool = False,
                 exact: bool = True):
        check_seconds(seconds, "the engine's budget", none_ok=False)
        self.seconds = seconds
        self.seed = seed
        self.wall_clock = wall_clock
        self.exact = exact

    def analyse(self, position, progress=None) -> EngineResult:
        """The engine's placement at ``position``; ``progress``: see the module doc
        (the answer is the same with or without it)."""
        if position.is_over():
            raise InputError("the game is over: there is no placement to make")
        start, began = time.process_time(), time.monotonic()
        side = position.side
        plan = self.plan(position)
        if plan.solver_nodes:
            from .solver import solve
            nodes = plan.solver_nodes
            if progress is not None:
                progress("solver", 0, nodes)
            s = solve(position, all_turns=False, node_limit=nodes, progress=progress)
            interrupt.raise_if_absorbed(s.stopped)
            if s.exact and s.best:
                move = s.pv[0] if s.pv else s.best[0]       # the search's own choice
                return EngineResult(move=move, method="solver", value=s.margin,
                                win_rate=1.0 if s.winner == SIDE_NAMES[side] else 0.0,
                                side=SIDE_NAMES[side], best=s.best, pv=s.pv,
                                nodes=s.nodes, seconds=time.process_time() - start,
                                best_complete=s.best_complete)
        return self._search(position, start, plan.iterations, progress, began)

    def plan(self, position) -> Budget:
        """The work the budget buys at ``position`` (:func:`budget`; the solver is tried
        with ``exact`` and at most :data:`EXACT_TURNS` empty cells)."""
        return budget(position, self.seconds,
                      solver=self.exact and popcount(position.empty) <= EXACT_TURNS)

    def _search(self, position, start, iterations, progress=None, began=None) -> EngineResult:
        """The tree search's answer after ``iterations`` (``wall_clock``: until the
        budget's seconds from ``began``, the analysis's start, are spent)."""
        tree = _Tree(position, _rng(f"{self.seed}:{position}"))
        if self.wall_clock:
            deadline = (began or time.monotonic()) + self.seconds
            tree.run(1)
            while time.monotonic() < deadline:
                if progress is not None and tree.iterations % REPORT_ITERATIONS == 0:
                    progress("tree", tree.iterations, None)
                tree.run(1)
        else:
            _grow(tree, iterations, progress)
        root = tree.root
        ranked = sorted(root.children.items(), key=lambda kv: (-kv[1].visits, kv[0]))
        cands = [{"placement": c, "visits": ch.visits,
                  "win_rate": round(ch.wins / ch.visits, 3),
                  "margin": round(ch.margin / ch.visits, 2)} for c, ch in ranked]
        best_c, best = ranked[0]
        line = tree.line(8)
        return EngineResult(move=best_c, method="engine", value=round(best.margin / best.visits, 2),
                        win_rate=round(best.wins / best.visits, 3),
                        side=SIDE_NAMES[position.side], candidates=cands, pv=line,
                        iterations=tree.iterations, seconds=time.process_time() - start)

    def judge(self, position, turn, progress=None) -> dict:
        """Estimates for judging ``turn`` (one or two placements of the side to move)
        at ``position``, both from ONE tree, so that they are comparable: the search
        picks the engine's turn (the most visited line of as many placements), then
        as many fresh iterations run through each of the two turns, and each value is
        the mean of its fresh ones alone (the iterations that chose the engine's turn
        value it too high). The shares add up to the budget's iterations (:func:`budget`,
        the tree search alone): :data:`JUDGE_FIRST` for the first search,
        :data:`JUDGE_SECOND` for the second placement, the rest at most (split between
        the two turns) for the focus. Two separate searches would not do: each is optimistic for the side it searches for, so the value after a turn
        (searched for the opponent) sits below the value before it (searched for the
        mover) by the searches' bias alone, and the engine's own turn was judged a
        blunder. Returns ``{"best": placements, "best_value": v, "played_value": v,
        "visits": {...}, "iterations": n}``: values are mean final margins (points)
        for the mover. ``progress``: told as the first search's iterations run (see
        the module doc)."""
        turn = list(turn)
        tree = _Tree(position, _rng(f"{self.seed}:{position}"))
        total = budget(position, self.seconds).iterations
        two = len(turn) > 1
        first = max(1, int((JUDGE_FIRST if two else JUDGE_FIRST + JUDGE_SECOND) * total))
        _grow(tree, first, progress)
        # The engine's turn, a placement at a time: the most visited placement, then
        # (for a second placement) more iterations through it before choosing among
        # its children, which the first run left with a visit or two each.
        best = tree.line(1)
        while len(best) < len(turn):
            tree.run(int(JUDGE_SECOND * total), forced=best)
            nxt = tree.line(len(best) + 1, start=best)
            if len(nxt) == len(best):
                break
            best = nxt
        # Both turns' estimates from fresh iterations, as many for each, run after the
        # choice: the engine's turn was chosen for the highest mean, so the iterations
        # that chose it value it too high (the winner's curse: two seeds' choices, each
        # judged by the other's tree, came out 1.9 points apart at the median, 2.4 at
        # four times the budget), and the played turn's must match them.
        left = max(total - tree.iterations, 0)
        want = max(MIN_JUDGE_VISITS, left // 2)
        best_value = _fresh(tree, best, want)
        played_value = best_value if turn == best else _fresh(tree, turn, want)
        return {"best": best, "best_value": best_value, "played_value": played_value,
                "visits": {"best": want, "played": want}, "iterations": tree.iterations}


def _fresh(tree, line, k: int) -> float:
    """The mean final margin, for the side that made them, of ``k`` more iterations
    through ``line`` (placements from the root): these alone, not the node's earlier
    ones."""
    node = tree.node(line)
    before = (node.margin, node.visits) if node is not None else (0, 0)
    tree.run(k, forced=line)
    node = tree.node(line)
    return (node.margin - before[0]) / (node.visits - before[1])


def _grow(tree, iterations: int, progress=None) -> None:
    """``tree.run(iterations)``, in chunks of :data:`REPORT_ITERATIONS` (the same tree)
    telling ``progress("tree", done, iterations)`` before each, when it is given."""
    chunk = iterations if progress is None else REPORT_ITERATIONS
    for done in range(0, iterations, chunk):
        if progress is not None:
            progress("tree", done, iterations)
        tree.run(min(chunk, iterations - done))


class _Tree:
    """The search tree of one analysis: ``run(k)`` adds k iterations (``forced``: the
    first placements of each, a line from the root, as a focus on one turn)."""

    def __init__(self, position, rng):
        self.position = position
        self.rng = rng
        self.root = _Node(position.side, _bits(position.legal_mask()))
        self.iterations = 0

    def run(self, iterations: int, forced=()) -> None:
        position, rng, root = self.position, self.rng, self.root
        board, protocol = position.board, position.protocol
        for _ in range(iterations):
            self.iterations += 1
            stones = [position.red, position.blue]           # by side: RED 0, BLUE 1
            n = popcount(position.red | position.blue)
            node, path = root, [root]
            # the forced line (its nodes made where missing), then selection by UCT
            for c in forced:
                child = node.children.get(c)
                if child is None:
                    node.untried.remove(c)
                    child = self._expand(node, c, stones, n, board, protocol)
                stones[node.side] |= 1 << c
                n += 1
                node = child
                path.append(node)
            while not node.untried and node.children:
                log_n = math.log(node.visits)
                c, child = max(node.children.items(),
                               key=lambda kv: kv[1].wins / kv[1].visits
                               + _C * math.sqrt(log_n / kv[1].visits))
                stones[node.side] |= 1 << c
                n += 1
                node = child
                path.append(node)
            # expansion
            if node.untried:
                c = node.untried.pop(rng.randrange(len(node.untried)))
                child = self._expand(node, c, stones, n, board, protocol)
                stones[node.side] |= 1 << c
                n += 1
                path.append(child)
            winner, margin = _finish(board, protocol, stones[RED], stones[BLUE], rng)
            for parent, child in zip(path, path[1:]):
                child.visits += 1
                if winner == parent.side:
                    child.wins += 1
                child.margin += margin if parent.side == RED else -margin
            root.visits += 1

    @staticmethod
    def _expand(node, c, stones, n, board, protocol):
        """The child of ``node`` after placing ``c`` (``stones`` before it)."""
        after = list(stones)
        after[node.side] |= 1 << c
        s2 = side_of_placement(n + 1, protocol)[0]
        child = _Node(s2, _bits(legal_mask(board, after[s2], after[1 - s2])))
        node.children[c] = child
        return child

    def node(self, placements):
        """The node after ``placements`` from the root (None: not in the tree)."""
        node = self.root
        for c in placements:
            node = node.children.get(c)
            if node is None:
                return None
        return node

    def line(self, length: int, start=()) -> list:
        """The most visited line from the root (``start``: its first placements), at
        most ``length`` placements."""
        line, node = list(start), self.node(start)
        while node.children and len(line) < length:
            c, node = max(node.children.items(), key=lambda kv: (kv[1].visits, -kv[0]))
            line.append(c)
        return line


# --- players ------------------------------------------------------------------------------

def random_player(seed="0"):
    """A player choosing uniformly among the legal placements."""
    rng = _rng(f"random:{seed}")
    return lambda pos: rng.choice(pos.legal_placements())


def greedy_player(seed="0"):
    """A player taking the placement that leaves the best margin on the board for
    itself now (ties broken at random)."""
    rng = _rng(f"greedy:{seed}")

    def play(pos):
        side = pos.side
        best, best_m = [], None
        for c in pos.legal_placements():
            q = pos.after(c)
            r, b = q.scores()
            m = r - b if side == RED else b - r
            if best_m is None or m > best_m:
                best, best_m = [c], m
            elif m == best_m:
                best.append(c)
        return rng.choice(best)
    return play


def engine_player(seconds: float = 0.5, seed="0"):
    eng = Engine(seconds, seed=seed)
    return lambda pos: eng.analyse(pos).move


def play_game(position, red, blue) -> object:
    """Play ``red`` and ``blue`` (functions position -> placement) from ``position`` to
    the end; the final position."""
    p = position.copy()
    while not p.is_over():
        p.play((red if p.side == RED else blue)(p))
    return p
