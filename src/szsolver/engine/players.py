"""Players: the baselines the engine is measured against, and a game runner.

A player is any object with a ``name`` and ``choose(position) -> turn``. Every
player here is deterministic: its randomness (tie breaks, random turns) comes from
``seeded_rng`` over its seed and the position string (hashlib, never ``hash()``),
so the same game is played on every machine.

* :class:`RandomPlayer`: a uniformly random stone, sometimes with a random neutral
  (``rules.playout.random_turn``).
* :class:`GreedyPlayer`: the stone that most raises its own score minus the
  opponent's (a stone never changes the opponent's score, so: its own score after
  the turn), ties broken at random; never a neutral.
* :class:`PotentialGreedyPlayer`: a stone from its own CP-SAT best placement
  (``bounds.potential.potential``), the one scoring most right now; under the
  Advanced rule it also places a neutral of that placement while it has one.
* :class:`EnginePlayer`: the engine (``engine.search.Engine``).
"""
from __future__ import annotations

from ..formats.notation import position_string
from ..rules.playout import random_turn, seeded_rng
from ..rules.base import ADVANCED, NO_NEUTRAL, encode_turn


def _empties(pos) -> list[int]:
    return [q for q in range(pos.geometry.size) if pos.empty >> q & 1]


def own_score_with(pos, point: int) -> int:
    """The side to move's score after its stone goes on ``point`` (no neutral)."""
    pos.make(encode_turn(point, NO_NEUTRAL))
    s = pos.score(pos.side ^ 1)
    pos.unmake(encode_turn(point, NO_NEUTRAL))
    return s


class RandomPlayer:
    """A random stone on an empty point; a random neutral with probability 0.35."""

    def __init__(self, seed=0):
        self.seed = seed
        self.name = "random"

    def choose(self, pos) -> int:
        return random_turn(pos, seeded_rng(self.name, self.seed, position_string(pos)))


class GreedyPlayer:
    """The stone that most raises (own score - opponent's score); no neutrals."""

    def __init__(self, seed=0):
        self.seed = seed
        self.name = "greedy"

    def choose(self, pos) -> int:
        me = pos.side
        best, best_v = [], None
        work = pos.copy()
        for p in _empties(pos):
            t = encode_turn(p, NO_NEUTRAL)
            work.make(t)
            v = work.score(me) - work.score(me ^ 1)
            work.unmake(t)
            if best_v is None or v > best_v:
                best, best_v = [p], v
            elif v == best_v:
                best.append(p)
        rng = seeded_rng(self.name, self.seed, position_string(pos))
        return encode_turn(rng.choice(best), NO_NEUTRAL)


class PotentialGreedyPlayer:
    """A stone from the side's own CP-SAT best placement (the potential): the one
    scoring most now; under the Advanced rule with a planned neutral as well."""

    def __init__(self, seed=0, time_limit: float | None = 10.0):
        self.seed = seed
        self.time_limit = time_limit
        self.name = "potential-greedy"

    def choose(self, pos) -> int:
        from ..bounds.potential import potential
        res = potential(pos, pos.side, time_limit=self.time_limit)
        work = pos.copy()
        stones = [p for p in res.placement if pos.empty >> p & 1] or _empties(pos)
        scored = [(own_score_with(work, p), p) for p in stones]
        top = max(v for v, _ in scored)
        rng = seeded_rng(self.name, self.seed, position_string(pos))
        stone = rng.choice(sorted(p for v, p in scored if v == top))
        neutral = NO_NEUTRAL
        if pos.rule == ADVANCED and pos.neutrals_left(pos.side):
            planned = [q for q in res.neutrals if q != stone and pos.empty >> q & 1]
            if planned:
                neutral = planned[0]
        return encode_turn(stone, neutral)


class EnginePlayer:
    """The engine as a player (see :class:`szsolver.engine.search.Engine`)."""

    def __init__(self, engine, name: str = "engine"):
        self.engine = engine
        self.name = name

    def choose(self, pos) -> int:
        return self.engine.analyse(pos).turn


PLAYERS = {"random": RandomPlayer, "greedy": GreedyPlayer,
           "potential-greedy": PotentialGreedyPlayer}


def play_game(red, blue, start, tags: dict | None = None):
    """Play a game from ``start`` (a position; not changed) between two players.
    Returns a :class:`szsolver.formats.record.GameRecord` (tags: Red, Blue, the rule and
    neutrals of the start, Result)."""
    from ..formats.record import GameRecord
    from ..rules.base import RULE_NAMES
    t = {"Rule": RULE_NAMES[start.rule],
         "Neutrals": f"{start.red_neutrals} {start.blue_neutrals}",
         "Red": red.name, "Blue": blue.name}
    if start.ply:
        t = {"Rule": RULE_NAMES[start.rule], "Position": position_string(start),
             "Red": red.name, "Blue": blue.name}
    t.update(tags or {})
    game = GameRecord(t, (), backend=type(start))
    players = (red, blue)
    while not game.final.is_over():
        pos = game.final
        game.play(players[pos.side].choose(pos.copy()))
    r, b = game.final.scores()
    game.tags["Result"] = f"{r}-{b}"
    return game

