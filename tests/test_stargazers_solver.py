"""The exact Stargazers solver against a brute-force minimax on the reference rules."""
import random

import pytest

from szsolver.errors import UnsupportedError
from szsolver.stargazers import fast, reference
from szsolver.stargazers.base import BLUE, RED
from szsolver.stargazers.solver import move_values, solve


def brute(p) -> int:
    """Red's value by plain minimax over every continuation (reference rules):
    2 * (red score - blue score) at the end, or +1 / -1 for a tie Red wins / loses."""
    legal = p.legal_placements()
    if not legal:
        r, b = p.scores()
        if r != b:
            return 2 * (r - b)
        return 1 if p.side == BLUE else -1
    values = [brute(p.after(c)) for c in legal]
    return max(values) if p.side == RED else min(values)


def endgame(seed, empties, name="12-star", protocol="1-2"):
    rng = random.Random(seed)
    while True:
        p = fast.Position(board=name, protocol=protocol)
        while not p.is_over() and p.empty.bit_count() > empties:
            p.play(rng.choice(p.legal_placements()))
        if not p.is_over() and len(p.legal_placements()) >= 2:
            return p


def margin_of(v, side):
    m = v // 2 if v % 2 == 0 else 0
    return m if side == RED else -m


@pytest.mark.parametrize("protocol", ["1-2", "1"])
@pytest.mark.parametrize("seed", range(5))
def test_solver_matches_brute_force(protocol, seed):
    p = endgame(f"solver-{protocol}-{seed}", 6 + seed % 2, protocol=protocol)
    q = reference.Position(str(p))
    s = solve(p)
    children = {c: brute(q.after(c)) for c in q.legal_placements()}
    root = max(children.values()) if q.side == RED else min(children.values())
    assert s.margin == margin_of(root, q.side)
    assert s.winner == ("red" if root > 0 else "blue")
    assert s.best == sorted(c for c, v in children.items() if v == root)
    assert s.moves == {c: margin_of(v, q.side) for c, v in children.items()}
    assert s.wins == {c: (v > 0) == (q.side == RED) for c, v in children.items()}
    # the line is legal and ends in the value
    r = reference.Position(str(p))
    for c in s.pv:
        r.play(c)
    assert len(s.pv) == 0 or brute(r) == root


def test_solver_on_the_18_star_board():
    p = endgame("solver-18", 6, name="18-star")
    q = reference.Position(str(p))
    s = solve(p, all_turns=False)
    v = brute(q)
    assert s.margin == margin_of(v, q.side) and s.best and all(
        brute(q.after(c)) == v for c in s.best)


def test_limits():
    """A limit that strikes is no error (the family's contract): the answer says what
    stopped the search and gives the bounds proved, which hold the true margin."""
    p = endgame("solver-limits", 12)
    s = solve(p, node_limit=5)
    assert not s.exact and s.margin is None and s.best == [] and s.pv == []
    assert "limit of 5 nodes before proving the value" in s.stopped
    true = solve(p)
    assert true.exact and true.stopped is None and true.lower == true.upper == true.margin
    assert s.lower <= true.margin <= s.upper
    for bad in (0, -1, 1.5):
        with pytest.raises(UnsupportedError):
            solve(p, node_limit=bad)
    for bad in (0, -1.0, float("nan"), float("inf")):
        with pytest.raises(UnsupportedError):
            solve(p, time_limit=bad)
    # every placement's value: a limit leaves the ones not proved by then at None
    values = move_values(p, node_limit=5)
    assert set(values) == set(p.legal_placements()) and None in values.values()
    for bad in (0, float("nan")):
        with pytest.raises(UnsupportedError):
            move_values(p, node_limit=bad)
    # too deep without a limit: refused at once, as the command does (with a limit it runs)
    deep = fast.Position("stargazers:12-star:1-2:r=9,30:b=16,23")
    with pytest.raises(UnsupportedError, match="35 empty playable cells .at most 16"):
        solve(deep)
    s = solve(deep, node_limit=50)
    assert not s.exact and "limit of 50 nodes" in s.stopped and s.lower <= s.upper


def test_a_limit_after_the_value_keeps_the_value():
    """Every placement's value asked for, a limit striking after the root's value was
    proved: the value stays proved, with the best placement found, and the answer says
    the rest is incomplete."""
    p = endgame("solver-limits", 12)
    whole = solve(p)
    root_nodes = solve(p, all_turns=False).nodes
    s = solve(p, node_limit=root_nodes + 1)
    assert s.exact and s.margin == whole.margin and s.lower == s.upper == s.margin
    assert "after proving the value" in s.stopped
    assert s.best and set(s.best) <= set(whole.best)


def test_the_solver_tells_its_nodes_and_answers_the_same():
    """``progress`` hears the nodes every 1,024 (and the limit); a search stopped at
    its node limit answers as without it."""
    p = fast.Position()
    told = []
    res = solve(p, node_limit=5_000, progress=lambda *e: told.append(e))
    plain = solve(p, node_limit=5_000)
    assert (res.margin, res.lower, res.upper, res.stopped, res.nodes) == \
        (plain.margin, plain.lower, plain.upper, plain.stopped, plain.nodes)
    assert told == [("solver", 1024 * k, 5_000) for k in range(1, 5)]


def test_a_limit_after_the_value_keeps_the_best_placements_proved_by_then():
    p = fast.Position("stargazers:12-star:1-2:r=4,6,10,11,13,21,24,26,30,31,33,35,37,44,46:"
                      "b=2,3,7,8,9,14,19,20,29,40,42,43,45,47")
    full = solve(p, all_turns=False)
    assert full.best == [23, 25] and full.best_complete and full.stopped is None
    lo, hi = 1, full.nodes          # the fewest nodes that prove the value
    while lo < hi:
        mid = (lo + hi) // 2
        if solve(p, all_turns=False, node_limit=mid).exact:
            hi = mid
        else:
            lo = mid + 1
    s = solve(p, all_turns=False, node_limit=lo)
    assert s.exact and s.margin == full.margin and not s.best_complete
    assert "before every best turn" in s.stopped
    assert s.best and set(s.best) < set(full.best)


def test_every_best_turn_of_two_placements_can_be_played_in_the_order_listed():
    """A stone may be inspired only through the other of its turn, so only one order of
    the two is legal: each best turn is listed in an order it can be played in (once,
    ascending where both orders can be), checked placement by placement by the rules.
    (Before, pairs were sorted: (43, 47) here, and 43 cannot come first.)"""
    from szsolver.stargazers.fast import Position as Fast
    for text in ("stargazers:12-star:1-2:r=2,3,4,6,7,20,30,33,36,42,44,45,46:"
                 "b=10,11,13,14,18,21,25,26,29,31,35,39",
                 "stargazers:12-star:1-2:r=2,4,7,16,18,21,25,28,29,30,31,44,48:"
                 "b=9,10,11,14,20,23,26,32,36,39,42,47"):
        p = Fast(text)
        r = solve(p, all_turns=False, turn_length=2)
        pairs = [t for t in r.best_turns if len(t) == 2]
        assert pairs and len({frozenset(t) for t in pairs}) == len(pairs)
        for a, b in pairs:
            q = p.copy()
            assert q.is_legal(a)
            q.play(a)
            assert q.is_legal(b)
            both = p.copy()
            if a > b and both.is_legal(b):
                both.play(b)
                assert not both.is_legal(a)      # descending only where ascending cannot
