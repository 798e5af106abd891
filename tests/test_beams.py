"""The beam walk and the sight lines (szsolver.rules.beams) against an independent
walk written here from the rules (coordinates stepped one by one, no ``rays``), and
against the implementations that compute the same thing elsewhere: the two
Position back ends (the Cython core walks bitboards), the starmap checker and the
SVG beam pairs. (The starmap tools' own copies of the sight lines were checked equal
to these before they were replaced by them.)"""
import random

import pytest

from szsolver.rules.beams import (beam_pairs, beam_target, pattern_at, pattern_set, patterns,
                                  rule_blockers, sight_lines, sight_rays, sight_segments)
from szsolver.rules.geometry import STARS_ZONE, hex_starmap, square
from szsolver.rules.playout import random_play, seeded_rng
from szsolver.rules.base import ADVANCED, BASIC, BLUE, RED

BOARDS = {"stars-zone": STARS_ZONE, "square-5": square(5), "square-8": square(8),
          "hex-768": hex_starmap()}
GAME_BOARDS = ["stars-zone", "square-5", "square-8"]  # at most 64 points: Positions exist


def walk(g, p, d, own, blockers):
    """First own point along direction d from p, stepping coordinates; -1 if a blocker
    or the edge of the coordinate range comes first. Independent of Geometry.rays."""
    rows = [r for r, _ in g.coords]
    cols = [c for _, c in g.coords]
    (r, c), (dr, dc) = g.coords[p], g.directions[d]
    k = 1
    while min(rows) <= r + k * dr <= max(rows) and min(cols) <= c + k * dc <= max(cols):
        q = g.index.get((r + k * dr, c + k * dc))
        if q is not None:
            if own >> q & 1:
                return q
            if blockers >> q & 1:
                return -1
        k += 1
    return -1


def brute_pattern(g, p, own, blockers):
    return sum(1 << d for d in range(g.n_directions) if walk(g, p, d, own, blockers) >= 0)


def random_sets(g, rng, n_stones):
    pts = list(range(g.size))
    rng.shuffle(pts)
    own = sum(1 << p for p in pts[:n_stones])
    blockers = sum(1 << p for p in pts[n_stones:n_stones + rng.randrange(0, g.size // 4 + 1)])
    other = sum(1 << p for p in pts[n_stones + g.size // 4 + 1:][:n_stones])
    return own, blockers, other


@pytest.mark.parametrize("name", list(BOARDS))
def test_patterns_match_an_independent_walk(name):
    g = BOARDS[name]
    rng = seeded_rng("beams", name)
    for _ in range(40 if g.size < 100 else 8):
        own, blockers, _other = random_sets(g, rng, rng.randrange(1, min(g.size, 64)))
        got = patterns(g, own, blockers)
        assert list(got) == [p for p in range(g.size) if own >> p & 1]
        for p, pat in got.items():
            assert pat == brute_pattern(g, p, own, blockers)
            assert pattern_at(g, p, own, blockers) == pat
        assert pattern_set(g, own, blockers) == sum({1 << pat for pat in got.values()})
        pairs = set()
        for p in got:
            for d in range(g.n_directions):
                q = walk(g, p, d, own, blockers)
                if q >= 0:
                    pairs.add((min(p, q), max(p, q)))
        assert beam_pairs(g, own, blockers) == sorted(pairs)


@pytest.mark.parametrize("name", list(BOARDS))
def test_beam_target_stops_at_the_first_own_point_or_blocker(name):
    g = BOARDS[name]
    rng = seeded_rng("beam target", name)
    for _ in range(200):
        own, blockers, _ = random_sets(g, rng, rng.randrange(1, 40))
        p, d = rng.randrange(g.size), rng.randrange(g.n_directions)
        assert beam_target(g.rays[p][d], own, blockers) == walk(g, p, d, own, blockers)


def test_off_board_bits_are_ignored():
    g = square(3)
    assert patterns(g, 0b11 | 1 << 9 | 1 << 40) == patterns(g, 0b11)
    assert beam_pairs(g, 0b11 | 1 << 12) == [(0, 1)]


def test_rule_blockers_accepts_codes_and_names():
    assert rule_blockers(ADVANCED, 0b110) == rule_blockers("advanced", 0b110) == 0b110
    assert rule_blockers(BASIC, 0b110) == rule_blockers(" Basic ", 0b110) == 0
    with pytest.raises(ValueError):
        rule_blockers("advance", 1)


@pytest.mark.parametrize("name", GAME_BOARDS)
@pytest.mark.parametrize("rule", ["basic", "advanced"])
def test_position_patterns_agree(Position, name, rule):
    """Both back ends' Position.pattern (and the SVG beam pairs) give what beams gives."""
    from szsolver.formats.svg import beam_pairs as svg_beam_pairs
    g = BOARDS[name]
    rng = seeded_rng("beams positions", name, rule)
    for _ in range(25):
        pos = Position(g, rule=rule, stones_per_side=min(16, (g.size - 10) // 2))
        random_play(pos, rng.randrange(0, 2 * pos.stones_per_side + 1), rng, p_neutral=0.3)
        blockers = rule_blockers(rule, pos.neutral)
        for side, own in ((RED, pos.red), (BLUE, pos.blue)):
            want = patterns(g, own, blockers)
            assert {p: pos.pattern(p) for p in want} == want
            assert pos.pattern_set(side) == pattern_set(g, own, blockers)
        for p in range(g.size):
            if not (pos.red | pos.blue) >> p & 1:
                assert pos.pattern(p) == -1
        want_pairs = sorted([(RED, p, q) for p, q in beam_pairs(g, pos.red, blockers)]
                            + [(BLUE, p, q) for p, q in beam_pairs(g, pos.blue, blockers)])
        assert svg_beam_pairs(pos) == want_pairs


@pytest.mark.parametrize("name", list(BOARDS))
@pytest.mark.parametrize("rule", [BASIC, ADVANCED, "basic", "advanced"])
def test_star_patterns_agree(name, rule):
    from szsolver.starmaps.model import star_patterns
    g = BOARDS[name]
    rng = seeded_rng("beams stars", name, rule)
    for _ in range(10):
        stars, blocked, _ = random_sets(g, rng, min(g.n_patterns, g.size // 2))
        assert star_patterns(g, stars, blocked, rule) == patterns(g, stars, rule_blockers(rule, blocked))


def brute_sight_ray(g, p, d, blocked, cut):
    """Free points along d from p, stepping coordinates; a blocked point is skipped,
    or ends the ray when ``cut``."""
    rows = [r for r, _ in g.coords]
    cols = [c for _, c in g.coords]
    (r, c), (dr, dc) = g.coords[p], g.directions[d]
    out = []
    k = 1
    while min(rows) <= r + k * dr <= max(rows) and min(cols) <= c + k * dc <= max(cols):
        q = g.index.get((r + k * dr, c + k * dc))
        k += 1
        if q is None:
            continue
        if blocked >> q & 1:
            if cut:
                break
            continue
        out.append(q)
    return out


@pytest.mark.parametrize("name", list(BOARDS))
@pytest.mark.parametrize("cut", [False, True])
def test_sight_lines_match_an_independent_walk(name, cut):
    g = BOARDS[name]
    rng = random.Random(f"sight {name} {cut}")
    for _ in range(4 if g.size < 100 else 1):
        blocked = g.fixed_neutral_mask | sum(1 << p for p in rng.sample(range(g.size), g.size // 8))
        rays = sight_rays(g, blocked, cut)
        lines = sight_lines(g, blocked, cut)
        segs = dict(sight_segments(g, blocked, cut))
        assert sight_segments(g, blocked, cut, rays=rays) == list(segs.items())
        for p in range(g.size):
            for d in range(g.n_directions):
                assert rays[p][d] == sum(1 << q for q in brute_sight_ray(g, p, d, blocked, cut))
        free = [p for p in range(g.size) if not blocked >> p & 1]
        for d in range(g.n_directions):
            e = g.opposite[d]
            want, seen = [], set()
            for p in free:
                if p not in seen:
                    line = (tuple(reversed(brute_sight_ray(g, p, e, blocked, cut))) + (p,)
                            + tuple(brute_sight_ray(g, p, d, blocked, cut)))
                    seen.update(line)
                    want.append(line)
            assert lines[d] == want
            if d < e:
                assert segs[d] == [sum(1 << q for q in line) for line in want]
        assert sorted(segs) == [d for d in range(g.n_directions) if d < g.opposite[d]]
