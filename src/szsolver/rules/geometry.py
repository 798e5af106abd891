"""Board geometry as data: points, directions, beams (rays) and symmetries.

A :class:`Geometry` is everything the rules need to know about a board's shape.
The game core, the reference implementation, the CP-SAT models and the puzzle
tools all take one, so a new board (square N x N, the hex starmap board, a
Stargazers board) is a new ``Geometry``, not a new core.

Points are numbered 0..n-1 in reading order (row by row, left to right); that
number is the point's bit in a bitboard. Directions are numbered in pattern-bit
order: a stone's *pattern* has bit ``d`` set when it has a beam in direction
``d``. On square-cell boards the order is up, right, down, left (bit 0..3), as
in the rules.

>>> g = STARS_ZONE
>>> len(g), g.index[(5, 5)], g.coords[0]
(55, 27, (1, 4))
>>> [g.coords[q] for q in g.rays[g.index[(4, 4)]][0]]   # up from (4,4)
[(3, 4), (2, 4), (1, 4)]
>>> len(g.symmetries)
4
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

from ..errors import ParseError, UnsupportedError
from ..inputs import MAX_DIGITS, is_digits, name_key, number, one_word, shown

Coord = tuple[int, int]
Matrix = tuple[tuple[int, int], tuple[int, int]]

SQUARE_DIRECTIONS: tuple[Coord, ...] = ((-1, 0), (0, 1), (1, 0), (0, -1))
SQUARE_DIRECTION_NAMES = ("up", "right", "down", "left")

# Axial hex directions of the starmaps hex board (starmaps.md), in pattern-bit order.
HEX_DIRECTIONS: tuple[Coord, ...] = ((0, -1), (0, 1), (-1, 0), (-1, 1), (1, -1), (1, 0))
HEX_DIRECTION_NAMES = ("w", "e", "nw", "ne", "sw", "se")

_IDENTITY: Matrix = ((1, 0), (0, 1))


def _mul(a: Matrix, b: Matrix) -> Matrix:
    return tuple(tuple(sum(a[i][k] * b[k][j] for k in range(2)) for j in range(2))
                 for i in range(2))  # type: ignore[return-value]


def _apply(m: Matrix, v: Coord) -> Coord:
    return (m[0][0] * v[0] + m[0][1] * v[1], m[1][0] * v[0] + m[1][1] * v[1])


def _group(generators: tuple[Matrix, ...]) -> list[Matrix]:
    """The finite matrix group the generators span, identity first."""
    found = [_IDENTITY]
    frontier = [_IDENTITY]
    while frontier:
        nxt = []
        for m in frontier:
            for g in generators:
                p = _mul(g, m)
                if p not in found:
                    found.append(p)
                    nxt.append(p)
        frontier = nxt
    return found


# Square lattice: quarter turn and transposition generate all 8 candidates.
SQUARE_LINEAR: tuple[Matrix, ...] = (((0, -1), (1, 0)), ((0, 1), (1, 0)))
# Hex lattice (axial): sixth turn (q,r)->(-r,q+r) and the swap (q,r)->(r,q): 12 candidates.
HEX_LINEAR: tuple[Matrix, ...] = (((0, -1), (1, 1)), ((0, 1), (1, 0)))


@dataclass(frozen=True)
class Symmetry:
    """A board symmetry: where each point goes and where each direction goes."""
    name: str
    point_map: tuple[int, ...]      # point_map[p] = image of point p
    direction_map: tuple[int, ...]  # direction_map[d] = image of direction d

    def map_pattern(self, pattern: int) -> int:
        """The pattern a stone shows after the board is transformed."""
        out = 0
        for d, e in enumerate(self.direction_map):
            if pattern >> d & 1:
                out |= 1 << e
        return out

    def map_mask(self, mask: int) -> int:
        """Image of a point set given as a bitmask."""
        out = 0
        while mask:
            low = mask & -mask
            out |= 1 << self.point_map[low.bit_length() - 1]
            mask ^= low
        return out


@dataclass(frozen=True)
class Geometry:
    """A board: its points, its directions, and the beams and symmetries they imply.

    ``coords`` lists the points in reading order; ``directions`` are (drow, dcol)
    steps in pattern-bit order and must come in opposite pairs. ``fixed_neutrals``
    are points that hold a neutral stone before play (the Stars' Zone centre).
    """
    name: str
    coords: tuple[Coord, ...]
    directions: tuple[Coord, ...] = SQUARE_DIRECTIONS
    direction_names: tuple[str, ...] = SQUARE_DIRECTION_NAMES
    fixed_neutrals: tuple[Coord, ...] = ()
    cell: str = "square"  # "square" or "hex": how pictures draw it
    linear_candidates: tuple[Matrix, ...] = field(default=SQUARE_LINEAR, repr=False)

    def __post_init__(self):
        if len(set(self.coords)) != len(self.coords):
            raise ValueError(f"{self.name}: repeated point")
        if list(self.coords) != sorted(self.coords):
            raise ValueError(f"{self.name}: points must be in reading order")
        for d in self.directions:
            if (-d[0], -d[1]) not in self.directions:
                raise ValueError(f"{self.name}: direction {d} has no opposite")
        for c in self.fixed_neutrals:
            if c not in self.coords:
                raise ValueError(f"{self.name}: fixed neutral {c} is off the board")

    def __len__(self) -> int:
        return len(self.coords)

    @property
    def size(self) -> int:
        return len(self.coords)

    @property
    def n_directions(self) -> int:
        return len(self.directions)

    @property
    def n_patterns(self) -> int:
        return 1 << len(self.directions)

    @cached_property
    def index(self) -> dict[Coord, int]:
        return {c: i for i, c in enumerate(self.coords)}

    @cached_property
    def opposite(self) -> tuple[int, ...]:
        return tuple(self.directions.index((-dr, -dc)) for dr, dc in self.directions)

    @cached_property
    def fixed_neutral_mask(self) -> int:
        m = 0
        for c in self.fixed_neutrals:
            m |= 1 << self.index[c]
        return m

    @cached_property
    def full_mask(self) -> int:
        return (1 << len(self.coords)) - 1

    @cached_property
    def rows(self) -> tuple[tuple[int, ...], ...]:
        """Point indices grouped by row (first coordinate), rows in order."""
        out: dict[int, list[int]] = {}
        for i, (r, _c) in enumerate(self.coords):
            out.setdefault(r, []).append(i)
        return tuple(tuple(v) for _k, v in sorted(out.items()))

    @cached_property
    def rays(self) -> tuple[tuple[tuple[int, ...], ...], ...]:
        """rays[p][d]: the points further along direction d from p, nearest first.

        A beam looks along the whole line, so the ray runs to the edge of the
        coordinate range, skipping nothing but off-board coordinates.
        """
        rmin = min(r for r, _ in self.coords)
        rmax = max(r for r, _ in self.coords)
        cmin = min(c for _, c in self.coords)
        cmax = max(c for _, c in self.coords)
        span = max(rmax - rmin, cmax - cmin) + 1
        index = self.index
        out = []
        for (r, c) in self.coords:
            per_dir = []
            for dr, dc in self.directions:
                ray = []
                for k in range(1, 2 * span + 1):
                    q = index.get((r + k * dr, c + k * dc))
                    if q is not None:
                        ray.append(q)
                per_dir.append(tuple(ray))
            out.append(tuple(per_dir))
        return tuple(out)

    @cached_property
    def ray_masks(self) -> tuple[tuple[int, ...], ...]:
        """ray_masks[p][d]: the ray as a bitmask."""
        return tuple(tuple(sum(1 << q for q in ray) for ray in per_dir)
                     for per_dir in self.rays)

    @cached_property
    def neighbours(self) -> tuple[tuple[int, ...], ...]:
        """Adjacent points (one step in any direction); used for 'good form'."""
        out = []
        for (r, c) in self.coords:
            out.append(tuple(self.index[(r + dr, c + dc)] for dr, dc in self.directions
                             if (r + dr, c + dc) in self.index))
        return tuple(out)

    @cached_property
    def symmetries(self) -> tuple[Symmetry, ...]:
        """The board's symmetries (identity first): lattice maps that keep the
        point set and the direction set, found from the candidate matrices."""
        pts = self.coords
        n = len(pts)
        sr = sum(r for r, _ in pts)
        sc = sum(c for _, c in pts)
        found: list[Symmetry] = []
        for m in _group(self.linear_candidates):
            dmap = []
            for d in self.directions:
                e = _apply(m, d)
                if e not in self.directions:
                    break
                dmap.append(self.directions.index(e))
            else:
                moved = [_apply(m, p) for p in pts]
                tr = sr - sum(r for r, _ in moved)
                tc = sc - sum(c for _, c in moved)
                if tr % n or tc % n:
                    continue
                tr //= n
                tc //= n
                image = [(r + tr, c + tc) for r, c in moved]
                if set(image) != set(pts):
                    continue
                if {(_apply(m, p)[0] + tr, _apply(m, p)[1] + tc) for p in self.fixed_neutrals} \
                        != set(self.fixed_neutrals):
                    continue
                pmap = tuple(self.index[q] for q in image)
                found.append(Symmetry(_matrix_name(m, self.cell), pmap, tuple(dmap)))
        return tuple(found)

    def coord_text(self, p: int) -> str:
        """A point's name: '44' for (4,4) when both coordinates are one digit, else '10,3'."""
        r, c = self.coords[p]
        return f"{r}{c}" if r < 10 and c < 10 else f"{r},{c}"

    def parse_point(self, text: str) -> int:
        """Inverse of :meth:`coord_text`; accepts '44', '4,4' or '10,3' (ASCII digits)."""
        t = text.strip()
        one_word(t, f"bad point {shown(text)}: a point", "".join(t.split()), self.parse_point)
        parts = t.split(",") if "," in t else ([t[0], t[1]] if len(t) == 2 else [])
        if len(parts) != 2 or not all(is_digits(x) and len(x) <= MAX_DIGITS for x in parts):
            raise ParseError(f"bad point {shown(text)}: expected two digits 0-9 like 44 or "
                             "'row,col'")
        r, c = (int(x) for x in parts)
        if (r, c) not in self.index:
            raise ParseError(f"point {shown(text)} is off the {self.name} board")
        return self.index[(r, c)]


def _matrix_name(m: Matrix, cell: str) -> str:
    names = {
        ((1, 0), (0, 1)): "identity",
        ((0, 1), (1, 0)): "transpose",
        ((-1, 0), (0, -1)): "half-turn",
        ((0, -1), (-1, 0)): "anti-transpose",
        ((0, -1), (1, 0)): "quarter-turn",
        ((0, 1), (-1, 0)): "three-quarter-turn",
        ((-1, 0), (0, 1)): "flip-rows",
        ((1, 0), (0, -1)): "flip-cols",
    }
    if cell == "square" and m in names:
        return names[m]
    return "identity" if m == _IDENTITY else f"m{m[0][0]}{m[0][1]}{m[1][0]}{m[1][1]}"


# --- the boards ---------------------------------------------------------------------------

STARS_ZONE_COLUMNS = {1: (4, 5), 2: (3, 8), 3: (2, 8), 4: (1, 8), 5: (1, 9),
                      6: (2, 9), 7: (2, 8), 8: (2, 7), 9: (5, 6)}
CENTRE: Coord = (5, 5)


def stars_zone() -> Geometry:
    """The designer's 55-point board: 54 playable points plus the centre (5,5)."""
    coords = tuple((r, c) for r in range(1, 10)
                   for c in range(STARS_ZONE_COLUMNS[r][0], STARS_ZONE_COLUMNS[r][1] + 1))
    return Geometry("stars-zone", coords, fixed_neutrals=(CENTRE,))


def square(n: int) -> Geometry:
    """An n x n square board, points (1,1)..(n,n)."""
    if not 1 <= n <= 16:
        raise UnsupportedError(f"square board size {n} is out of range 1..16")
    coords = tuple((r, c) for r in range(1, n + 1) for c in range(1, n + 1))
    return Geometry(f"square-{n}", coords)


def hex_starmap() -> Geometry:
    """The 768-cell hex board of starmaps.md: rows i = 1..32,
    cells j = max(17-i, 1) .. min(48-i, 32), six axial directions."""
    coords = tuple((i, j) for i in range(1, 33)
                   for j in range(max(17 - i, 1), min(48 - i, 32) + 1))
    return Geometry("hex-768", coords, HEX_DIRECTIONS, HEX_DIRECTION_NAMES,
                    cell="hex", linear_candidates=HEX_LINEAR)


STARS_ZONE = stars_zone()


def by_name(name: str) -> Geometry:
    """'stars-zone', 'square-N' (or 'NxN'), 'hex' / 'hex-768'."""
    if not isinstance(name, str):
        raise ParseError(f"a board name is text like 'stars-zone', 'square-8' or 'hex', "
                         f"not {type(name).__name__}")
    key = name_key(name)
    if key in ("stars-zone", "starszone", "sz", "game"):
        return STARS_ZONE
    if key in ("hex", "hex-768"):
        return hex_starmap()
    for prefix in ("square-", "square"):
        if key.startswith(prefix) and is_digits(key[len(prefix):]):
            return square(number(key[len(prefix):], "a square board's size", lo=1,
                                 hi=16, error=UnsupportedError))
    if "x" in key:
        a, _, b = key.partition("x")
        if is_digits(a) and a == b:
            return square(number(a, "a square board's size", lo=1, hi=16,
                                 error=UnsupportedError))
    raise ParseError(f"unknown board {shown(name)}: use stars-zone, square-N (N x N) or hex")
