"""The settled part of a Stargazers position (assured scores, potentials, dead and safe
stones) checked against what happens next: random continuations to the end, and every
continuation of small endgames."""
import random

import pytest

from szsolver.rules.bits import mask_of
from szsolver.stargazers import fast, reference
from szsolver.stargazers.assured import continuations, status
from szsolver.stargazers.base import SIDE_NAMES
from szsolver.stargazers.solver import solve
from szsolver.stargazers.svg import position_caption


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
    for _ in range(8):
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


def _every_end(p, out):
    """Every finished position at the end of every line of play from ``p`` (plain
    enumeration on the reference rules: no memo, no shortcut)."""
    if p.is_over():
        out.append(p)
        return
    for c in p.legal_placements():
        _every_end(p.after(c), out)


def _late(rng, board, protocol, empties):
    while True:
        p = fast.Position(board=board, protocol=protocol)
        while not p.is_over() and p.empty.bit_count() > empties:
            p.play(rng.choice(p.legal_placements()))
        if not p.is_over():
            return p


@pytest.mark.parametrize("protocol", ["1-2", "1"])
def test_late_bounds_are_the_lowest_and_highest_final_scores(protocol):
    # every line of play to the end, enumerated on the reference rules: the assured
    # score is the lowest final score, the potential the highest, and the game is
    # decided exactly when every line ends with the same winner
    rng = random.Random(f"assured-exact-{protocol}")
    exact = decided = 0
    for k in range(10):
        p = _late(rng, rng.choice(["12-star", "18-star"]), protocol, 6 + k % 3)
        s = status(p)
        ends = []
        _every_end(reference.Position(str(p)), ends)
        for side in (0, 1):
            finals = [q.scores()[side] for q in ends]
            if s.exact:
                assert (s.assured[side], s.potential[side]) == (min(finals), max(finals))
            else:
                assert s.assured[side] <= min(finals) <= max(finals) <= s.potential[side]
        for q in ends:
            _check(s, q)
        winners = {q.winner() for q in ends}
        if s.exact:
            assert (s.decided is not None) == (len(winners) == 1)
        if s.decided is not None:
            assert winners == {s.decided}
            # the picture's caption says so
            assert f"decided: {SIDE_NAMES[s.decided]} wins" in position_caption(p)[0]
        exact += s.exact
        decided += s.decided is not None
    assert exact == 10 and decided >= 2      # the look at every line did its job


def test_a_decided_game_is_won_under_best_play_too():
    # the exact solver (minimax, an independent search) names the same winner wherever
    # the game is declared over early
    rng = random.Random("assured-solver")
    seen = 0
    for k in range(30):
        p = _late(rng, "12-star", rng.choice(["1-2", "1"]), 7)
        while not p.is_over():
            s = status(p)
            if s.decided is not None:
                assert solve(p, all_turns=False).winner == SIDE_NAMES[s.decided]
                seen += 1
                break
            p.play(rng.choice(p.legal_placements()))
    assert seen >= 10


def test_proved_bounds_hold_without_the_exact_look():
    # the proofs alone (node limit 0) bound the scores of every line of play
    rng = random.Random("assured-exhaustive")
    for k in range(4):
        p = _late(rng, "12-star", rng.choice(["1-2", "1"]), 7)
        s = status(p, node_limit=0)
        assert not s.exact
        ends = []
        _all_ends(p, ends)
        for q in ends:
            _check(s, q)
            for side in (0, 1):
                assert s.assured[side] <= q.scores()[side] <= s.potential[side]
            if s.decided is not None:
                assert q.winner() == s.decided


def test_a_node_limit_too_small_keeps_the_proved_bounds():
    p = _late(random.Random("assured-limit"), "12-star", "1-2", 10)
    assert continuations(p, node_limit=3) is None
    s, proved = status(p, node_limit=3), status(p, node_limit=0)
    assert not s.exact and (s.assured, s.potential) == (proved.assured, proved.potential)


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
