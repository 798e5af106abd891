# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""The fast back end: the same Position API as :mod:`szsolver.rules.reference`, on
64-bit bitboards, with the hot paths (turn generation, make/unmake, scoring)
as C inline functions declared in ``_core.pxd`` for the solver to share.

>>> from szsolver.rules.text import START
>>> p = Position(START)
>>> len(p.legal_turns())      # 54 stones, each alone or with a neutral on 53 others
2916
>>> p.play("44n66"); p.legal_turns()[:2]
[Turn('14'), Turn('14n15')]
"""
from libc.stdlib cimport calloc, free
from libc.stdint cimport uint64_t

from . import zobrist
from .base import position_svg_or_none, rule_code, side_code, turn_error as _turn_error
from .text import (checked_take_back, checked_turn, parse_turn, position_fields, position_repr, position_string,
                   turn_code, turn_table)


cdef bb_t full_key_c(const Board* b, const State* s) noexcept nogil:
    """Zobrist key from scratch (make/unmake keep ``s.key`` incrementally)."""
    cdef bb_t k = 0
    cdef bb_t m
    cdef int kind, p
    for kind in range(3):
        m = s.stones[kind] if kind < 2 else s.neutral
        while m:
            p = sz_ctz(m)
            m &= m - 1
            k ^= b.key_stone[kind][p]
    k ^= b.key_left[0][s.left[0]] ^ b.key_left[1][s.left[1]]
    if s.side == C_BLUE:
        k ^= b.key_side
    if s.rule == C_ADVANCED:
        k ^= b.key_rule
    return k


cdef class BoardTables:
    """C tables for one Geometry (rays, lines, symmetries, zobrist keys)."""

    def __cinit__(self, geometry):
        cdef Board* b
        cdef int p, d, i, j, k, a
        if geometry.size > CORE_MAX_POINTS:
            raise ValueError(f"the {geometry.name} board has {geometry.size} points; the core "
                             f"handles at most {CORE_MAX_POINTS}")
        if geometry.n_directions > CORE_MAX_DIRS:
            raise ValueError(f"{geometry.n_directions} directions; the core handles at most {CORE_MAX_DIRS}")
        if len(geometry.symmetries) > CORE_MAX_SYMS:
            raise ValueError("too many symmetries for the core")
        self.board = b = <Board*>calloc(1, sizeof(Board))
        if b == NULL:
            raise MemoryError()
        self.geometry = geometry
        b.size = geometry.size
        b.ndirs = geometry.n_directions
        b.full = <bb_t>geometry.full_mask
        b.fixed_neutral = <bb_t>geometry.fixed_neutral_mask
        for p in range(b.size):
            for d in range(b.ndirs):
                b.ray[p][d] = <bb_t>geometry.ray_masks[p][d]
        # Lines: each point's full line along each axis, grouped by axis.
        k = 0
        a = 0
        for d in range(b.ndirs):
            e = geometry.opposite[d]
            if e < d:
                continue
            b.axis_first[a] = k
            seen = set()
            contig = True
            span = 0
            not_first = not_last = 0
            for pt in range(b.size):          # pt is a Python int: 1 << pt must not overflow
                bit = 1 << pt
                line = geometry.ray_masks[pt][d] | geometry.ray_masks[pt][e] | bit
                if line in seen or bin(line).count("1") < 2:
                    continue
                seen.add(line)
                lo = (line & -line).bit_length() - 1
                hi = line.bit_length() - 1
                n_pts = bin(line).count("1")
                contig = contig and hi - lo == n_pts - 1
                span = max(span, n_pts)
                not_first |= line & ~(1 << lo)
                not_last |= line & ~(1 << hi)
                if k >= CORE_MAX_LINES:
                    raise ValueError("too many lines for the core")
                b.line[k] = <bb_t>line
                k += 1
                # the ray towards d runs to higher point numbers iff its points are above pt
                towards_d_up = geometry.ray_masks[pt][d] > bit if geometry.ray_masks[pt][d] \
                    else geometry.ray_masks[pt][e] < bit
                b.axis_up[a] = d if towards_d_up else e
                b.axis_down[a] = e if towards_d_up else d
            b.axis_contig[a] = contig
            b.axis_span[a] = span
            b.axis_not_first[a] = <bb_t>not_first
            b.axis_not_last[a] = <bb_t>not_last
            a += 1
        b.naxes = a
        b.axis_first[a] = k
        b.nlines = k
        b.nsyms = len(geometry.symmetries)
        for i, sym in enumerate(geometry.symmetries):
            for p in range(b.size):
                b.sym[i][p] = sym.point_map[p]
        for i in range(3):
            for p in range(CORE_MAX_POINTS):
                b.key_stone[i][p] = <bb_t>zobrist.STONE_KEYS[i * 64 + p]
        for i in range(2):
            for j in range(16):
                b.key_left[i][j] = <bb_t>zobrist.NEUTRALS_LEFT_KEYS[i * zobrist.MAX_NEUTRALS + j]
        b.key_side = <bb_t>zobrist.SIDE_KEY
        b.key_rule = <bb_t>zobrist.RULE_KEY
        self.turns = turn_table(geometry)

    def __dealloc__(self):
        free(self.board)


_TABLES = {}


def tables_for(geometry):
    """The (cached) C tables of a geometry. Keyed by the whole geometry (a frozen
    dataclass: name, points, directions, fixed neutrals...), so two boards that
    share a name or points but not directions never share tables."""
    t = _TABLES.get(geometry)
    if t is None:
        t = _TABLES[geometry] = BoardTables(geometry)
    return t


cdef inline int _side(side) except -1:
    """The side's index into the two-side tables; a bad side is a ParseError, never an
    out-of-bounds read."""
    if type(side) is int and (side == 0 or side == 1):  # the common case, no Python call
        return <int>side
    return side_code(side)


cdef class Position:
    """A Stars' Zone position (the compiled back end; the same API and answers as
    :class:`szsolver.rules.reference.Position`).

    ``Position(text)`` reads a position string (``str(position)`` gives it back);
    ``Position(geometry, red=..., ...)`` builds one from its fields (those not given
    are the start's); the constructor checks the position could arise in play
    (InvalidPositionError; ParseError for a bad string). ``play`` makes a checked turn
    (text like '44n66' or a code), ``take_back`` undoes one; ``make``/``unmake`` are
    the unchecked pair the searches use."""

    backend = "core"

    def __init__(self, source=None, geometry=None, *, red=None, blue=None, neutral=None,
                 red_neutrals=None, blue_neutrals=None, side=None, rule=None,
                 stones_per_side=None):
        """``Position(text)`` reads a position string; ``Position(geometry, red=..., ...)``
        builds one from its fields (those not given are the start's). See
        :class:`szsolver.rules.reference.Position`."""
        (geometry, red, blue, neutral, red_neutrals, blue_neutrals, side, rule,
         stones_per_side) = position_fields(source, geometry, red, blue, neutral, red_neutrals,
                                            blue_neutrals, side, rule, stones_per_side)
        self.tables = tables_for(geometry)
        self.board = self.tables.board
        self.geometry = geometry
        self.st.stones[0] = <bb_t>red
        self.st.stones[1] = <bb_t>blue
        self.st.neutral = <bb_t>neutral
        self.st.left[0] = red_neutrals
        self.st.left[1] = blue_neutrals
        self.st.side = side
        self.st.rule = rule
        self.st.stones_per_side = stones_per_side
        self.st.key = full_key_c(self.board, &self.st)

    @classmethod
    def from_string(cls, text, geometry=None):
        """The position a position string describes (on Stars' Zone unless ``geometry``)."""
        return cls(text, geometry)

    cpdef Position copy(self):
        """An independent copy (positions change in place when turns are played)."""
        cdef Position p = Position.__new__(Position)
        p.st = self.st
        p.board = self.board
        p.tables = self.tables
        p.geometry = self.geometry
        return p

    def __reduce__(self):
        return (_rebuild, (self.geometry, self.st.stones[0], self.st.stones[1], self.st.neutral,
                           self.st.left[0], self.st.left[1], self.st.side, self.st.rule,
                           self.st.stones_per_side))

    # --- plain facts -------------------------------------------------------------------
    @property
    def red(self):
        """Red's stones: a bitmask over the board's points."""
        return self.st.stones[0]

    @property
    def blue(self):
        """Blue's stones: a bitmask over the board's points."""
        return self.st.stones[1]

    @property
    def neutral(self):
        """The neutral stones on the board (the centre's included): a bitmask."""
        return self.st.neutral

    @property
    def red_neutrals(self):
        """Neutral stones left in Red's supply."""
        return self.st.left[0]

    @property
    def blue_neutrals(self):
        """Neutral stones left in Blue's supply."""
        return self.st.left[1]

    @property
    def side(self):
        """The side to move: RED (0) or BLUE (1)."""
        return self.st.side

    @property
    def rule(self):
        """BASIC (0) or ADVANCED (1): whether neutral stones block beams."""
        return self.st.rule

    @property
    def stones_per_side(self):
        """Own stones each side places in a whole game (16 on the Stars' Zone board)."""
        return self.st.stones_per_side

    @property
    def key(self):
        """Zobrist hash of the whole state (stones, neutrals left, side, rule)."""
        return self.st.key

    @property
    def empty(self):
        """The empty points: a bitmask."""
        return self.board.full & ~(self.st.stones[0] | self.st.stones[1] | self.st.neutral)

    @property
    def ply(self):
        """Turns played so far (each turn places exactly one own stone)."""
        return sz_popcount(self.st.stones[0]) + sz_popcount(self.st.stones[1])

    @property
    def turns_left(self):
        """Turns still to play, both sides together."""
        return 2 * self.st.stones_per_side - self.ply

    def stones(self, side):
        """The stones of ``side`` (RED/BLUE or 'red'/'blue'): a bitmask."""
        return self.st.stones[_side(side)]

    def neutrals_left(self, side):
        """Neutral stones left in the supply of ``side``."""
        return self.st.left[_side(side)]

    def is_over(self):
        """Whether both sides have placed all their stones."""
        return bool(is_over_c(&self.st))

    def __eq__(self, other):
        return (hasattr(other, "neutral") and self.geometry.name == other.geometry.name and
                (self.red, self.blue, self.neutral, self.red_neutrals, self.blue_neutrals,
                 self.side, self.rule) == (other.red, other.blue, other.neutral,
                                           other.red_neutrals, other.blue_neutrals,
                                           other.side, other.rule))

    def __hash__(self):
        return self.st.key

    def __str__(self):
        return position_string(self)

    def __repr__(self):
        return position_repr(self)

    # --- turns -------------------------------------------------------------------------
    def parse_turn(self, text):
        """The Turn that ``text`` ('44n66') names on this board, legal or not (ParseError)."""
        return parse_turn(text, self.geometry)

    def is_legal(self, turn):
        """Whether ``turn`` (text or int code) is legal here (ParseError for bad text)."""
        return _turn_error(self, turn_code(self.geometry, turn)) is None

    def legal_turns(self):
        """All legal turns as Turns (ints that print as turn text), in the same order as
        the reference back end. The Turns are shared objects from the board's table."""
        cdef int buf[CORE_MAX_TURNS]
        cdef int n = gen_turns_c(self.board, &self.st, buf)
        cdef tuple table = self.tables.turns
        return [table[buf[i]] for i in range(n)]

    def play(self, turn):
        """Make a turn given as text ('44n66') or an int code, after checking it:
        IllegalTurnError naming why it is illegal, ParseError for bad text."""
        make_c(self.board, &self.st, checked_turn(self, turn))

    cpdef make(self, int turn):
        """Make a turn. Assumes it is legal (see :meth:`play`)."""
        make_c(self.board, &self.st, turn)

    cpdef unmake(self, int turn):
        """Take back ``turn``, which must be the last turn made. Assumes it is (see
        :meth:`take_back`)."""
        unmake_c(self.board, &self.st, turn)

    def take_back(self, turn):
        """Take back the last turn made, given as text ('44n66') or an int code, after
        checking the position holds it: IllegalTurnError naming what does not fit."""
        unmake_c(self.board, &self.st, checked_take_back(self, turn))

    # --- scoring -----------------------------------------------------------------------
    cdef bb_t _blockers(self):
        return self.st.neutral if self.st.rule == C_ADVANCED else 0

    def pattern(self, int point):
        """The pattern (bit d = beam in direction d) of the stone on ``point``, or -1."""
        cdef bb_t beam[CORE_MAX_DIRS]
        cdef bb_t bit
        cdef int d, pat = 0, side
        if not 0 <= point < self.board.size:
            return -1
        bit = (<bb_t>1) << point
        if self.st.stones[0] & bit:
            side = 0
        elif self.st.stones[1] & bit:
            side = 1
        else:
            return -1
        beam_masks(self.board, self.st.stones[side], self._blockers(), beam)
        for d in range(self.board.ndirs):
            if beam[d] & bit:
                pat |= 1 << d
        return pat

    def patterns(self, side):
        """{point: pattern} for each of the side's stones."""
        cdef bb_t beam[CORE_MAX_DIRS]
        cdef bb_t own = self.st.stones[_side(side)], m
        cdef int p, d, pat
        beam_masks(self.board, own, self._blockers(), beam)
        out = {}
        m = own
        while m:
            p = sz_ctz(m)
            m &= m - 1
            pat = 0
            for d in range(self.board.ndirs):
                if (beam[d] >> p) & 1:
                    pat |= 1 << d
            out[p] = pat
        return out

    def pattern_set(self, side):
        """Bitmask over patterns: bit k set when some stone of ``side`` shows pattern k."""
        return pattern_set_c(self.board, self.st.stones[_side(side)], self._blockers())

    def score(self, side):
        """The score of ``side`` now: how many distinct patterns its stones show."""
        return score_c(self.board, &self.st, _side(side))

    def scores(self):
        """(red score, blue score) now (final once the game is over)."""
        return score_c(self.board, &self.st, 0), score_c(self.board, &self.st, 1)

    def value(self):
        """100 * (red score - blue score) + (red neutrals left - blue neutrals left)."""
        return value_c(self.board, &self.st)

    def winner(self):
        """'red', 'blue' or 'draw' once the game is over (the sign of :meth:`value`:
        scores, then neutrals left); None before (the value then says who leads)."""
        if not self.is_over():
            return None
        v = value_c(self.board, &self.st)
        return "red" if v > 0 else "blue" if v < 0 else "draw"

    # --- symmetry ----------------------------------------------------------------------
    cpdef Position transformed(self, int sym):
        """The position with the board mapped by symmetry number ``sym``."""
        if not 0 <= sym < self.board.nsyms:
            raise ValueError(f"no symmetry {sym}")
        cdef Position p = self.copy()
        p.st.stones[0] = map_mask_c(self.board, sym, self.st.stones[0])
        p.st.stones[1] = map_mask_c(self.board, sym, self.st.stones[1])
        p.st.neutral = map_mask_c(self.board, sym, self.st.neutral)
        p.st.key = full_key_c(self.board, &p.st)
        return p

    def canonical(self):
        """The symmetric image with the smallest (red, blue, neutral) masks, and its symmetry."""
        cdef int i, best_sym = 0
        cdef bb_t r, bl, n, br = 0, bb = 0, bn = 0
        for i in range(self.board.nsyms):
            r = map_mask_c(self.board, i, self.st.stones[0])
            bl = map_mask_c(self.board, i, self.st.stones[1])
            n = map_mask_c(self.board, i, self.st.neutral)
            if i == 0 or (r, bl, n) < (br, bb, bn):
                br, bb, bn, best_sym = r, bl, n, i
        return self.transformed(best_sym), best_sym

    def with_rule(self, rule):
        """A copy under ``rule`` (BASIC/ADVANCED or its name)."""
        cdef Position p = self.copy()
        p.st.rule = rule_code(rule)
        p.st.key = full_key_c(self.board, &p.st)
        return p

    def _repr_svg_(self):
        """The position as SVG, so that it shows as a picture in a notebook."""
        return position_svg_or_none(self)


def _rebuild(geometry, red, blue, neutral, rl, bl, side, rule, sps):
    return Position(geometry, red=red, blue=blue, neutral=neutral, red_neutrals=rl,
                    blue_neutrals=bl, side=side, rule=rule, stones_per_side=sps)


# --- C-level benchmarks (figures for benchmarks/bench_core.py) -------------------------------

def bench_scoring(list positions, long iterations):
    """Score both sides of each position in turn, ``iterations`` scorings in all,
    at C level; returns a checksum. A varied set keeps branch prediction honest."""
    cdef long i, total = 0
    cdef int n = len(positions), j
    cdef State* states = <State*>calloc(n, sizeof(State))
    cdef Board* board = (<Position>positions[0]).board
    for j in range(n):
        states[j] = (<Position>positions[j]).st
    with nogil:
        j = 0
        for i in range(iterations):
            total += value_c(board, &states[j])
            j += 1
            if j == n:
                j = 0
    free(states)
    return total


def bench_make_unmake(Position pos, long iterations):
    """Generate the turns once, then make and unmake them round-robin ``iterations``
    times at C level; returns a checksum of keys."""
    cdef int buf[CORE_MAX_TURNS]
    cdef State s = pos.st
    cdef int n = gen_turns_c(pos.board, &s, buf)
    cdef long i
    cdef bb_t acc = 0
    if n == 0:
        return 0
    with nogil:
        for i in range(iterations):
            make_c(pos.board, &s, buf[i % n])
            acc ^= s.key
            unmake_c(pos.board, &s, buf[i % n])
    return acc


def bench_gen_turns(Position pos, long iterations):
    """Generate all legal turns ``iterations`` times; returns the total count."""
    cdef int buf[CORE_MAX_TURNS]
    cdef long i, total = 0
    with nogil:
        for i in range(iterations):
            total += gen_turns_c(pos.board, &pos.st, buf)
    return total


def score_changes(Position pos, own, blockers):
    """For each point x of ``pos``'s board outside ``own`` and ``blockers`` (masks):
    ``(x, score_with, scored, score_blocked, scored_blocked)``: the score of ``own`` plus
    a stone on x, and with a blocker on x, each as the incremental scores (``Gains``)
    give it and as ``pattern_set_c`` scores the whole board (for tests: they agree)."""
    cdef Gains g
    cdef const Board* b = pos.board
    cdef bb_t o = <bb_t>own, k = <bb_t>blockers, one
    cdef int x
    gains_init(b, &g, o, k)
    if g.base != sz_popcount(pattern_set_c(b, o, k)):
        raise AssertionError("gains_init's score differs from pattern_set_c's")
    out = []
    for x in range(b.size):
        one = (<bb_t>1) << x
        if (o | k) & one:
            continue
        out.append((x, score_with(b, &g, x), sz_popcount(pattern_set_c(b, o | one, k)),
                    score_blocked(b, &g, x), sz_popcount(pattern_set_c(b, o, k | one))))
    return out


def gains_after_stone(Position pos, own, blockers, int x):
    """The incremental scores' state (``Gains``) of ``own`` plus a stone on x, made by
    ``gains_add_stone`` and by ``gains_init`` (for tests: the two agree): each as
    (score, pattern masks, sight masks, own stones' patterns, stones per pattern)."""
    cdef Gains g, h
    cdef const Board* b = pos.board
    cdef bb_t o = <bb_t>own, k = <bb_t>blockers
    gains_init(b, &g, o, k)
    gains_add_stone(b, &g, x)
    gains_init(b, &h, o | ((<bb_t>1) << x), k)
    return _gains_state(b, &g), _gains_state(b, &h)


cdef _gains_state(const Board* b, const Gains* g):
    cdef int p, a
    return (g.own, g.blk, g.base, g.present, g.once, g.twice, g.thrice,
            tuple(g.up_sees[a] for a in range(b.naxes)),
            tuple(g.down_sees[a] for a in range(b.naxes)),
            tuple(g.pat[p] for p in range(b.size) if (g.own >> p) & 1),
            tuple(g.cnt[p] for p in range(1 << b.ndirs)))
