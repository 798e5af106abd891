"""The settled part of a Stargazers position (assured scores, potentials, dead and safe
stones) checked against what happens next: random continuations to the end, and every
continuation of small endgames."""
import random

import pytest

from szsolver.rules.bits import mask_of
from szsolver.stargazers import fast
from szsolver.stargazers.assured import status


def _all_ends(p, out, limit=20000):
    """Every finished position reachable from ``p`` (depth first, up to ``limit``)."""
    if len(out) >= limit:
        return
    if p.is_over():
        out.append(p)
        return
    for c in p.legal_placements():
        _all_ends(p.after(c), out, limit)


def _check(s, later):
    ins = later.inspired()
    for side in (0, 1):
        assert not s.dead[side] & ins[side], "a dead stone came back"
        assert s.safe[side] & ~ins[side] == 0, "a safe stone went dark"


@pytest.mark.parametrize("protocol", ["1-2", "1"])
def test_bounds_hold_on_random_continuations(protocol):
    rng = random.Random(f"assured-{protocol}")
    for _ in range(12):
        p = fast.Position(board=rng.choice(["12-star", "18-star"]), protocol=protocol)
        history = []
        while not p.is_over():
            history.append(status(p))
            p.play(rng.choice(p.legal_placements()))
            for s in history[-3:]:
                _check(s, p)
        final = p.scores()
        for s in history:
            _check(s, p)
            for side in (0, 1):
                assert s.assured[side] <= final[side] <= s.potential[side]
            if s.decided is not None:
                assert s.decided == p.winner()
        end = status(p)
        assert end.assured == end.potential == final and end.decided == p.winner()


def test_bounds_hold_on_every_continuation_of_small_endgames():
    rng = random.Random("assured-exhaustive")
    checked = 0
    while checked < 4:
        p = fast.Position(protocol=rng.choice(["1-2", "1"]))
        while not p.is_over() and p.empty.bit_count() > 7:
            p.play(rng.choice(p.legal_placements()))
        if p.is_over():
            continue
        s = status(p)
        ends = []
        _all_ends(p, ends)
        for q in ends:
            _check(s, q)
            for side in (0, 1):
                assert s.assured[side] <= q.scores()[side] <= s.potential[side]
        checked += 1


def test_dead_stone_by_hand():
    # one stone a turn; red 2's lines: E blue 3, NE blue 9, NW blue 8, W the adjacent star
    # 1 (SW and SE leave the board at once): every line is closed for good, so red 2 is
    # dead, whatever is placed later
    p = fast.Position(board="12-star", protocol="1", red=mask_of([2, 46, 47]),
                      blue=mask_of([3, 8, 9]))
    s = status(p)
    assert s.dead[0] >> 2 & 1
    assert s.assured[1] >= 1
    assert not s.dead[1] & (1 << 3)     # blue 3 sees star 34 (NE) across 10 18 26
    ends = []
    _all_ends(p, ends, limit=200)
    assert ends and all(not q.inspired()[0] >> 2 & 1 for q in ends)
