"""Starmap puzzles in and out: JSON, a one-line string, text for paper, SVG.

Published API (other modules build on these names):

- :func:`puzzle_to_json` / :func:`puzzle_from_json`: a dict (JSON-ready) and back,
  validated; ``solution`` (a star bitmask) may ride along.
- :func:`puzzle_string` / :func:`parse_puzzle_string`: one line, stable, canonical
  (the same puzzle always gives the same string), for puzzle IDs and collections.
- :func:`puzzle_text` / :func:`puzzle_from_text`: the board in its true shape for
  solving on paper, with a legend; parses back.
- :func:`puzzle_svg`: a picture in the designer's palette, with or without the solution.
- :func:`stars_to_points` / :func:`stars_from_points`: a star bitmask as point names.

Givens show their *pattern* as a number: the sum of the values of the directions
in which the star has a beam. Square-cell boards: up 1, right 2, down 4, left 8,
written as one hex digit 0..f. Hex board: w 1, e 2, nw 4, ne 8, sw 16, se 32,
written as two decimal digits 00..63.

>>> from szsolver.rules.geometry import STARS_ZONE
>>> from szsolver.starmaps.model import Puzzle
>>> p = Puzzle(STARS_ZONE, blocked=STARS_ZONE.fixed_neutral_mask | 1 << STARS_ZONE.index[(2, 4)],
...            givens=((STARS_ZONE.index[(4, 4)], 5),))
>>> puzzle_string(p)
'stars-zone;basic;x=24;g=44:5'
>>> parse_puzzle_string(puzzle_string(p)) == p
True
>>> puzzle_from_json(puzzle_to_json(p)) == p
True
>>> puzzle_from_text(puzzle_text(p)) == p
True
"""
from __future__ import annotations

import re
from html import escape

from ..errors import InputError, InvalidPuzzleError, ParseError
from ..inputs import cut, is_digits, shown
from ..formats.notation import json_loads, json_object, json_scalar_kind
from ..formats.palette import BACKGROUND, BLOCKED, GIVEN_STAR, GRID, PLACED_STAR
from ..formats.patterns import beam_names, format_pattern, legend, parse_pattern, pattern_digits
from ..formats.sources import read_source
from ..formats.svg import point_xy
from ..rules.base import ADVANCED, RULE_NAMES, rule_code
from ..rules.geometry import Geometry, by_name
from .model import Puzzle, SolutionCheck, solution_problems, star_patterns

FORMAT = "szsolver-starmap-puzzle"
VERSION = 1


# --- points -------------------------------------------------------------------------------

def _board(name, error=InvalidPuzzleError) -> Geometry:
    """The board a puzzle names; ``error`` (an InputError class) when there is none."""
    if isinstance(name, Geometry):
        return name
    if not isinstance(name, str):
        raise error(f"board must be a name like stars-zone, square-8 or hex, not {name!r}")
    try:
        return by_name(name)
    except ValueError as e:
        raise error(str(e)) from None


def _parse_point(g: Geometry, text) -> int:
    if not isinstance(text, str):
        raise InvalidPuzzleError(f"bad point {text!r}: expected a string like '44' or '10,3'")
    try:
        return g.parse_point(text)
    except InputError:
        raise
    except ValueError as e:
        raise ParseError(str(e)) from None


def stars_to_points(g: Geometry, stars: int) -> list[str]:
    """A star bitmask as a list of point names in reading order."""
    return [g.coord_text(p) for p in range(g.size) if stars >> p & 1]


def stars_from_points(g: Geometry, names) -> int:
    """Inverse of :func:`stars_to_points` (also accepts one string separated by spaces,
    dots or semicolons)."""
    if isinstance(names, str):
        names = names.replace(";", " ").replace(".", " ").split()
    if not isinstance(names, (list, tuple)):
        raise InvalidPuzzleError("a solution must be a list of points")
    m = 0
    for t in names:
        p = _parse_point(g, t)
        if m >> p & 1:
            raise InvalidPuzzleError(f"point {t} listed twice")
        m |= 1 << p
    return m


_POINT_SYNTAX = re.compile(r"\s*([0-9][0-9]|-?[0-9]+\s*,\s*-?[0-9]+)\s*", re.ASCII)


def points_and_off_board(g: Geometry, names) -> tuple[int, list[str]]:
    """Like :func:`stars_from_points`, but names that are written as points and are not
    on the board (``11`` on the Stars' Zone board) are returned as a list instead of
    raising: (bitmask of the points on the board, [names off the board]). Text that is
    no point name at all raises ParseError; a point listed twice InvalidPuzzleError."""
    if isinstance(names, str):
        names = names.replace(";", " ").replace(".", " ").split()
    if not isinstance(names, (list, tuple)):
        raise InvalidPuzzleError("a solution must be a list of points")
    m, off, seen = 0, [], set()
    for t in names:
        if not isinstance(t, str):
            raise InvalidPuzzleError(f"bad point {t!r}: expected a string like '44' or '10,3'")
        key = t.strip()
        if key in seen:
            raise InvalidPuzzleError(f"point {key} listed twice")
        seen.add(key)
        try:
            p = g.parse_point(t)
        except ValueError as e:
            if _POINT_SYNTAX.fullmatch(t):
                off.append(key)
                continue
            raise ParseError(str(e)) from None
        if m >> p & 1:
            raise InvalidPuzzleError(f"point {g.coord_text(p)} listed twice")
        m |= 1 << p
    return m, off


def solution_from_text(g: Geometry, text: str) -> tuple[int, list[str]]:
    """A claimed solution from text: JSON (a list of points, or an object with
    ``solution``, or with ``solutions`` holding one, as ``puzzle solve --json`` prints
    it), the puzzle's picture with the placed stars marked ``*`` (what ``puzzle show
    --solution`` and ``puzzle solve`` print), or point names separated by spaces,
    newlines, ';' or '.'.
    Returns (bitmask of points on the board, [names off the board]); see
    :func:`points_and_off_board`. ParseError / InvalidPuzzleError name what is wrong."""
    s = text.strip()
    if not s:
        raise InvalidPuzzleError("empty solution")
    kind = json_scalar_kind(s)
    if kind is not None and kind != "a number":     # 44 is a point
        raise InvalidPuzzleError(f"a solution in JSON is a list of points or an object with "
                                 f"'solution', not {kind}")
    if s[0] in "[{":
        data = json_loads(s, "solution")
        if isinstance(data, dict):
            if "solution" not in data and isinstance(data.get("solutions"), list):
                data = _one_solution(data["solutions"])       # puzzle solve --json
            elif "solution" not in data:
                raise InvalidPuzzleError("the JSON has no 'solution'")
            else:
                data = data["solution"]
        return points_and_off_board(g, data)
    if re.search(rf"^{_HEADER}:", s, re.MULTILINE):       # the text puzzle show prints
        if len(re.findall(rf"^{_HEADER}:", s, re.MULTILINE)) > 1:
            raise InvalidPuzzleError("the text shows more than one puzzle picture: give one "
                                     "solution")
        p, placed = puzzle_and_stars_from_text(s)
        if p.geometry is not g:
            raise InvalidPuzzleError(f"the solution's picture is of the {p.geometry.name} "
                                     f"board, the puzzle is on {g.name}")
        if not placed:
            raise InvalidPuzzleError("the puzzle text shows no stars placed (a solution marks "
                                     "them with *, as puzzle show --solution prints it)")
        return placed, []
    return points_and_off_board(g, s)


def _one_solution(solutions: list):
    """The only solution of a list (what ``puzzle solve --json`` gives)."""
    if len(solutions) != 1:
        raise InvalidPuzzleError(f"the JSON lists {len(solutions)} solutions under "
                                 "'solutions': give one")
    return solutions[0]


def _inline_solution(text: str) -> bool:
    """Could ``text`` (no file on disk) be a solution written inline (JSON, or point
    names), rather than the name of a file? Points separated by spaces are, whatever
    they hold ('44 zz' names its bad point, not a missing file), and so are digits of
    any script ('１５' is told the digits a point takes, not that no file has that
    name)."""
    s = text.strip()
    return (not s or s[0] in "[{" or re.fullmatch(r"[\d\s,;.-]+", s) is not None
            or (len(s.split()) > 1 and re.match(r"\d", s) is not None))


def check_to_json(p: Puzzle, check: SolutionCheck, pid: str | None = None) -> dict:
    """The JSON of a checked solution, as ``szsolver puzzle check --json`` prints it and
    the web API answers it: the puzzle string, its ID when it has one, then
    :meth:`SolutionCheck.to_json`."""
    data = {"puzzle": puzzle_string(p)}
    if pid:
        data["id"] = pid
    data.update(check.to_json())
    return data


def read_solution(g: Geometry, source: str) -> tuple[int, list[str]]:
    """:func:`solution_from_text` of SOURCE: a file when it names one, else the text
    (InputError ``no such solution file`` for text that is neither)."""
    return solution_from_text(g, read_source(source, inline=_inline_solution,
                                             missing="no such solution file"))


# --- JSON ---------------------------------------------------------------------------------

def puzzle_to_json(p: Puzzle, solution: int | None = None) -> dict:
    """A JSON-ready dict. Fixed neutral points (the Stars' Zone centre) are implied by
    the board and not listed under ``blocked``."""
    g = p.geometry
    d = {
        "format": FORMAT,
        "version": VERSION,
        "board": g.name,
        "rule": RULE_NAMES[p.rule],
        "blocked": stars_to_points(g, p.blocked & ~g.fixed_neutral_mask),
        "givens": [{"point": g.coord_text(q), "pattern": pat, "beams": beam_names(pat, g)}
                   for q, pat in p.givens],
        "stars": p.n_stars,
    }
    if solution is not None:
        d["solution"] = stars_to_points(g, solution)
    return d


def puzzle_from_json(d, geometry: Geometry | None = None) -> Puzzle:
    """A Puzzle from :func:`puzzle_to_json`'s dict (or its JSON text). Unknown extra keys
    (ids, grades, ...) are ignored; everything read is validated."""
    return puzzle_and_solution_from_json(d, geometry)[0]


def puzzle_and_solution_from_json(d, geometry: Geometry | None = None) -> tuple[Puzzle, int | None]:
    """Like :func:`puzzle_from_json`, also returning the ``solution`` bitmask (or None)."""
    if isinstance(d, (str, bytes)):
        d = json_loads(d, "puzzle JSON")
    d = json_object(d, "puzzle JSON")
    if "format" in d and d["format"] != FORMAT:
        raise InvalidPuzzleError(f"not a starmap puzzle: format {d['format']!r}")
    if "version" in d and d["version"] != VERSION:
        raise InvalidPuzzleError(f"unsupported puzzle version {d['version']!r}")
    if "board" not in d and geometry is None:
        raise InvalidPuzzleError("puzzle has no 'board'")
    g = geometry if geometry is not None else _board(d["board"])
    if geometry is not None and "board" in d and d["board"] != g.name:
        raise InvalidPuzzleError(f"puzzle is for board {d['board']!r}, not {g.name}")
    rule = rule_code(d.get("rule", "basic"))
    blocked_list = d.get("blocked", [])
    if not isinstance(blocked_list, list):
        raise InvalidPuzzleError("'blocked' must be a list of points")
    blocked = stars_from_points(g, blocked_list) | g.fixed_neutral_mask
    givens_in = d.get("givens", [])
    if not isinstance(givens_in, list):
        raise InvalidPuzzleError("'givens' must be a list")
    givens = []
    for item in givens_in:
        if isinstance(item, dict):
            if "point" not in item or "pattern" not in item:
                raise InvalidPuzzleError("a given needs 'point' and 'pattern'")
            q, pat = item["point"], item["pattern"]
        elif isinstance(item, (list, tuple)) and len(item) == 2:
            q, pat = item
        else:
            raise InvalidPuzzleError(f"bad given {item!r}")
        if isinstance(pat, bool) or not isinstance(pat, int):
            raise InvalidPuzzleError(f"given pattern {pat!r} must be an integer")
        point = _parse_point(g, q)
        if isinstance(item, dict) and "beams" in item:
            beams = item["beams"]
            if not isinstance(beams, list) or sorted(map(str, beams)) != sorted(beam_names(pat, g)):
                raise InvalidPuzzleError(f"given {q}: 'beams' disagrees with pattern {pat}")
        givens.append((point, pat))
    puzzle = Puzzle(g, blocked=blocked, givens=tuple(givens), rule=rule)
    if "stars" in d and d["stars"] != puzzle.n_stars:
        raise InvalidPuzzleError(f"'stars' is {d['stars']!r}, the {g.name} board needs {puzzle.n_stars}")
    solution = None
    if d.get("solution") is not None:
        solution = stars_from_points(g, d["solution"])
        problems = solution_problems(puzzle, solution)
        if problems:      # never show or trust a recorded solution that is not one
            raise InvalidPuzzleError(f"the recorded 'solution' is not a solution: "
                                     f"{problems[0]}")
    return puzzle, solution


def is_inline_puzzle(text: str) -> bool:
    """Could ``text`` be a puzzle written inline (rather than a file name)? True for
    several lines, a puzzle string (it has a ';') or JSON: what :func:`load_puzzle`
    reads as the puzzle itself, never as a path (the command line tells puzzle IDs
    from the rest with it too)."""
    return "\n" in text or ";" in text or text.lstrip().startswith(("{", "["))


def load_puzzle(source: str) -> tuple[Puzzle, int | None]:
    """A puzzle (and its solution if recorded) from a file or an inline form: JSON,
    a puzzle string, or the text form. An InputError (a ValueError) naming the
    problem: InvalidPuzzleError for a malformed puzzle, ParseError for text that does
    not parse."""
    text = read_source(source, inline=is_inline_puzzle, missing="no such puzzle file")
    s = text.strip()
    if not s:
        raise InvalidPuzzleError("empty puzzle")
    kind = json_scalar_kind(s)
    if kind is not None:
        raise InvalidPuzzleError(f"puzzle JSON must be an object (a puzzle), not {kind}")
    if s[0] in "{[":
        return puzzle_and_solution_from_json(json_loads(s, "puzzle JSON"))
    if "\n" not in s:
        return parse_puzzle_string(s), None
    return puzzle_from_text(s), None


# --- one-line string ----------------------------------------------------------------------

def puzzle_string(p: Puzzle) -> str:
    """``board;rule;x=blocked;g=givens``: blocked points joined by '.', givens as
    ``point:pattern`` joined by '.', both in reading order; fixed neutrals implied.
    Canonical: equal puzzles give equal strings."""
    g = p.geometry
    blocked = ".".join(stars_to_points(g, p.blocked & ~g.fixed_neutral_mask))
    givens = ".".join(f"{g.coord_text(q)}:{format_pattern(g, pat)}" for q, pat in p.givens)
    return f"{g.name};{RULE_NAMES[p.rule]};x={blocked};g={givens}"


def parse_puzzle_string(s: str) -> Puzzle:
    parts = s.strip().split(";")
    if len(parts) != 4 or not parts[2].startswith("x=") or not parts[3].startswith("g="):
        raise ParseError(f"bad puzzle string {shown(s.strip(), 60)}: expected board;rule;x=...;g=...")
    g = _board(parts[0], ParseError)
    rule = rule_code(parts[1])
    blocked = stars_from_points(g, [t for t in parts[2][2:].split(".") if t]) | g.fixed_neutral_mask
    givens = []
    for item in (t for t in parts[3][2:].split(".") if t):
        q, sep, pat = item.partition(":")
        if not sep:
            raise ParseError(f"bad given {item!r}: expected point:pattern")
        givens.append((_parse_point(g, q), parse_pattern(g, pat)))
    return Puzzle(g, blocked=blocked, givens=tuple(givens), rule=rule)


# --- text for paper -----------------------------------------------------------------------

_HEADER = "starmap puzzle"


def _layout(g: Geometry):
    """(rows, cols, cell width, {point: (line, column)}) of the text picture."""
    r0 = min(r for r, _ in g.coords)
    c0 = min(c for _, c in g.coords)
    pos = {}
    if g.cell == "hex":
        # axial layout: row i is shifted half a cell per row, so x = 2j + i half-cells
        xmin = min(2 * c + r for r, c in g.coords)
        w = 4 if pattern_digits(g) == 2 else 2
        for p, (r, c) in enumerate(g.coords):
            pos[p] = (r - r0, (2 * c + r - xmin) * (w // 2))
    else:
        w = 2 + (pattern_digits(g) - 1)
        for p, (r, c) in enumerate(g.coords):
            pos[p] = (r - r0, (c - c0) * w)
    return r0, c0, w, pos


def task_text(p: Puzzle) -> str:
    """What to do, in the solver's terms: ``place 8 more stars on '.' points so that
    the 16 stars (with the 8 givens) show every pattern exactly once``."""
    k = len(p.givens)
    more = p.n_stars - k
    if not k:
        return f"place {more} stars on '.' points so that they show every pattern exactly once"
    return (f"place {more} more star{'s' if more != 1 else ''} on '.' points so that the "
            f"{p.n_stars} stars (with the {k} given{'s' if k != 1 else ''}) show every pattern "
            "exactly once")


def puzzle_text(p: Puzzle, solution: int | None = None) -> str:
    """The board in its true shape: ``.`` empty, ``#`` blocked, a given shows its
    pattern number; with a solution, the other stars show theirs after a ``*``."""
    g = p.geometry
    r0, c0, w, pos = _layout(g)
    nd = pattern_digits(g)
    pats = star_patterns(g, solution, p.blocked, p.rule) if solution is not None else {}
    given = dict(p.givens)
    nrows = max(r for r, _ in g.coords) - r0 + 1
    width = max(x for _, x in pos.values()) + w
    lines = [[" "] * width for _ in range(nrows)]
    for q, (y, x) in pos.items():
        if p.blocked >> q & 1:
            cell = "#"
        elif q in given:
            cell = format_pattern(g, given[q])
        elif q in pats:
            cell = "*" + format_pattern(g, pats[q])
        else:
            cell = "."
        cell = cell.rjust(nd + 1)
        for k, ch in enumerate(cell):
            lines[y][x + k] = ch
    label_w = len(str(nrows + r0 - 1))
    rule = RULE_NAMES[p.rule]
    cut = "blocked points also cut beams" if p.rule == ADVANCED else "blocked points do not cut beams"
    head = [f"{_HEADER}: board {g.name}, rule {rule}", task_text(p) + ";",
            f"# = blocked ({cut}); {legend(g)};",
            "a solution lists the points of the stars you placed, row then column ("
            + ("44 is row 4, column 4" if g.cell != "hex" else "10,3 is row 10, cell 3") + ")."]
    if solution is not None:
        head.append("solution: * marks the stars you place, with their patterns.")
    out = head + [""]
    if g.cell != "hex":
        cols = sorted({c for _, c in g.coords})
        two = max(cols) >= 10 and w < 3  # column numbers 10+ as tens over ones
        for part in (("tens", "ones") if two else ("all",)):
            hdr = [" "] * width
            for c in cols:
                t = {"all": str(c), "ones": str(c % 10),
                     "tens": str(c // 10) if c >= 10 else " "}[part].rjust(nd + 1)
                for k, ch in enumerate(t):
                    hdr[(c - c0) * w + k] = ch
            out.append(" " * (label_w + 1) + "".join(hdr).rstrip())
    for y, row in enumerate(lines):
        out.append(str(y + r0).rjust(label_w) + " " + "".join(row).rstrip())
    if g.cell == "hex":
        out.append("")
        out.append("rows are i (top to bottom); row i holds cells j = "
                   + ("max(17-i,1)..min(48-i,32)" if g.name == "hex-768" else "its listed cells")
                   + " left to right; w/e run along a row, nw/se and ne/sw run between rows.")
    return "\n".join(out) + "\n"


def puzzle_from_text(text: str) -> Puzzle:
    """Inverse of :func:`puzzle_text` (a solution shown in it is ignored)."""
    return puzzle_and_stars_from_text(text)[0]


def puzzle_and_stars_from_text(text: str) -> tuple[Puzzle, int]:
    """:func:`puzzle_from_text`, and the stars the text shows placed (``*``, as
    :func:`puzzle_text` draws a solution), a bitmask (0 when none is shown)."""
    lines = text.splitlines()
    head = next((ln for ln in lines if ln.startswith(_HEADER + ":")), None)
    if head is None:
        raise ParseError(f"not a starmap puzzle text: no '{_HEADER}:' line")
    try:
        after = head.split(":", 1)[1]
        fields = dict(part.strip().split(" ", 1) for part in after.split(","))
        g = _board(fields["board"].strip(), ParseError)
        rule = rule_code(fields["rule"].strip())
    except (KeyError, ValueError):
        raise ParseError(f"bad puzzle header {shown(head)}") from None
    r0, _c0, _w, pos = _layout(g)
    label_w = len(str(max(r for r, _ in g.coords)))
    on_board = {y for y, _ in pos.values()}
    rows = {}
    for ln in lines:
        m = re.match(r" *([0-9]+) ", ln, re.ASCII)
        if m and m.start(1) < label_w < m.end(1):     # a row label wider than any row's
            raise ParseError(f"row {cut(m.group(1))} is not on the {g.name} board")
        t = ln[:label_w].strip()
        if is_digits(t) and len(ln) > label_w and ln[label_w] == " ":
            y = int(t) - r0
            if y not in on_board:
                raise ParseError(f"row {t} is not on the {g.name} board")
            if y in rows:
                raise ParseError(f"row {t} appears twice in the puzzle text")
            rows[y] = ln[label_w + 1:]
    nd = pattern_digits(g)
    # every point of a row shows something, and nothing else is on the row
    rest = {y: list(text) for y, text in rows.items()}
    for q, (y, x) in pos.items():
        if y not in rows:
            raise ParseError(f"row {y + r0} missing from the puzzle text")
        if not rows[y][x:x + nd + 1].strip():
            raise ParseError(f"row {y + r0}: a point shows nothing (use . for an empty "
                             "point)")
        rest[y][x:x + nd + 1] = " " * len(rest[y][x:x + nd + 1])
    for y, chars in sorted(rest.items()):
        if "".join(chars).strip():
            raise ParseError(f"row {y + r0}: {''.join(chars).strip()!r} is not on a point "
                             "of the board")
    blocked = g.fixed_neutral_mask
    givens = []
    placed = 0
    for q, (y, x) in pos.items():
        cell = rows[y][x:x + nd + 1].strip()
        if cell.startswith("*"):
            placed |= 1 << q
            continue
        if cell == ".":
            continue
        if cell == "#":
            blocked |= 1 << q
            continue
        givens.append((q, parse_pattern(g, cell)))
    return Puzzle(g, blocked=blocked, givens=tuple(givens), rule=rule), placed


# --- SVG ----------------------------------------------------------------------------------

def svg_points(g: Geometry, step: float):
    """(centres, directions) of :func:`puzzle_svg`'s picture, what a layer drawn over
    it (the web page's clickable points, its beams) needs: each point's centre in the
    picture's units (:func:`szsolver.formats.svg.point_xy` times ``step``, the distance
    between neighbours) and each direction of ``g.directions`` as a unit vector."""
    xy = [(x * step, y * step) for x, y in point_xy(g)]
    if g.cell == "hex":
        import math
        h = math.sqrt(3) / 2
        # axial (i, j): x = j + i/2, y = i * sqrt(3)/2
        dirs = [(dc + dr / 2, dr * h) for dr, dc in g.directions]
    else:
        dirs = [(float(dc), float(dr)) for dr, dc in g.directions]
    return xy, dirs


def puzzle_caption(p: Puzzle, solution: int | None = None, pid: str | None = None,
                   grade: str | None = None) -> list[str]:
    """The caption lines of a puzzle picture: the puzzle ID and grade when known
    (else the board), then the rule and what to do (or that the solution is shown)."""
    g = p.geometry
    first = f"{pid} ({grade})" if pid and grade else pid or f"starmap puzzle on {g.name}"
    k = len(p.givens)
    rule = f"{RULE_NAMES[p.rule]} rule"
    if solution is not None:
        second = f"{rule}; solution: {p.n_stars - k} stars placed (blue), {k} given (red)"
    elif g.cell == "hex":
        second = f"{rule}; place {p.n_stars - k} more stars; points: row i, cell j (i,j)"
    else:
        more = p.n_stars - k
        second = (f"{rule}; place {more} {'more ' if k else ''}star{'s' if more != 1 else ''}: "
                  "every pattern once")
    return [first, second]


def puzzle_svg(p: Puzzle, solution: int | None = None, step: float | None = None,
               caption=True, pid: str | None = None, grade: str | None = None) -> str:
    """An SVG picture: background #00007f, grid #ffff00, givens #ff3838 with their
    pattern number and short ticks toward their beams, blocked points as grey
    crossed-out squares (palette.BLOCKED, unlike any stone); with a solution the
    placed stars are #00bfff with their ticks. Hex boards are drawn as hexagonal cells.
    ``caption``: True (default) writes :func:`puzzle_caption` (with ``pid`` and
    ``grade`` when given) under the board; a string writes that; False none."""
    import math
    g = p.geometry
    if step is None:
        # the picture's units (other code overlays layers in them): 40 per point, 22 on
        # the hex board; the hex picture is shown larger (zoom) so its numbers read
        step = 40.0 if g.cell != "hex" else 22.0
    zoom = 1.0 if g.cell != "hex" else 30.0 / 22.0
    xy, dirs = svg_points(g, step)
    pad = step * (1.2 if g.cell != "hex" else 1.6)
    xs = [x for x, _ in xy]
    ys = [y for _, y in xy]
    if caption is True:
        lines = puzzle_caption(p, solution, pid, grade)
    elif caption:
        lines = str(caption).split("\n")
    else:
        lines = []
    cap_fs = max(14.0, step * 0.36)
    ox, oy = min(xs) - pad, min(ys) - pad
    wdt = max(xs) - min(xs) + 2 * pad
    below = pad * (0.55 if g.cell != "hex" else 0.8) if lines else pad  # room under the board
    hgt = max(ys) - min(ys) + pad + below + (cap_fs * 1.4 * len(lines) + cap_fs * 0.5 if lines else 0)
    if lines:  # a long caption line gets a smaller font rather than running off
        cap_fs = min(cap_fs, 0.95 * wdt / (0.55 * max(len(t) for t in lines)))
    out = [(f'<svg xmlns="http://www.w3.org/2000/svg" width="{wdt * zoom:.0f}" height="{hgt * zoom:.0f}" '
            f'viewBox="{ox:.1f} {oy:.1f} {wdt:.1f} {hgt:.1f}">'),
           f'<title>{escape(puzzle_string(p))}</title>',
           f'<rect x="{ox:.1f}" y="{oy:.1f}" width="{wdt:.1f}" height="{hgt:.1f}" fill="{BACKGROUND}"/>']
    grid = []
    if g.cell == "hex":
        rad = step / math.sqrt(3)
        for (x, y) in xy:
            pts = " ".join(f"{x + rad * math.cos(math.radians(30 + 60 * k)):.1f},"
                           f"{y + rad * math.sin(math.radians(30 + 60 * k)):.1f}" for k in range(6))
            grid.append(f'<polygon points="{pts}"/>')
        out.append(f'<g fill="none" stroke="{GRID}" stroke-width="{step / 22:.2f}">' + "".join(grid) + "</g>")
    else:
        for q in range(g.size):
            for d, ray in enumerate(g.rays[q]):
                if d in (1, 2) and ray:  # right and down: each segment once
                    r = ray[0]
                    grid.append(f'<line x1="{xy[q][0]:.1f}" y1="{xy[q][1]:.1f}" '
                                f'x2="{xy[r][0]:.1f}" y2="{xy[r][1]:.1f}"/>')
        out.append(f'<g stroke="{GRID}" stroke-width="{step / 20:.2f}">' + "".join(grid) + "</g>")
    rad = step * (0.3 if g.cell != "hex" else 0.4)
    tick = step * (0.62 if g.cell != "hex" else 0.6)
    if g.cell != "hex":  # coordinates, as in the text form: columns on top, rows on the left
        fs = step * 0.32
        for c in sorted({c for _, c in g.coords}):
            out.append(f'<text x="{c * step:.1f}" y="{min(ys) - pad * 0.55:.1f}" font-family="sans-serif" '
                       f'font-size="{fs:.1f}" text-anchor="middle" fill="{GRID}">{c}</text>')
        for r in sorted({r for r, _ in g.coords}):
            out.append(f'<text x="{min(xs) - pad * 0.55:.1f}" y="{r * step + fs * 0.35:.1f}" '
                       f'font-family="sans-serif" font-size="{fs:.1f}" text-anchor="middle" '
                       f'fill="{GRID}">{r}</text>')
    else:  # row numbers i left of each row; cell numbers j above the top row and below
        # the bottom row (a j runs down-right from the top, up-left from the bottom)
        fs = step * 0.4
        h = math.sqrt(3) / 2 * step
        attrs = f'font-family="sans-serif" font-size="{fs:.1f}" fill="{GRID}"'
        for r in sorted({r for r, _ in g.coords}):
            q = min((q for q in range(g.size) if g.coords[q][0] == r), key=lambda q: xy[q][0])
            out.append(f'<text x="{xy[q][0] - step * 0.7:.1f}" y="{xy[q][1] + fs * 0.35:.1f}" '
                       f'{attrs} text-anchor="end">{r}</text>')
        r_top, r_bottom = min(r for r, _ in g.coords), max(r for r, _ in g.coords)
        for q in range(g.size):
            r = g.coords[q][0]
            if r in (r_top, r_bottom):
                dy = -h * 0.75 if r == r_top else h * 0.75 + fs * 0.7
                dx = -step * 0.19 if r == r_top else step * 0.19
                out.append(f'<text x="{xy[q][0] + dx:.1f}" y="{xy[q][1] + dy:.1f}" {attrs} '
                           f'font-style="italic" text-anchor="middle">{g.coords[q][1]}</text>')
    half = rad * 0.85
    for q in range(g.size):
        if p.blocked >> q & 1:  # a crossed-out square: nothing can stand here
            x, y = xy[q]
            out.append(f'<g class="blocked"><rect x="{x - half:.1f}" y="{y - half:.1f}" '
                       f'width="{2 * half:.1f}" height="{2 * half:.1f}" fill="{BLOCKED}"/>'
                       f'<path d="M{x - half * 0.6:.1f},{y - half * 0.6:.1f}L{x + half * 0.6:.1f},'
                       f'{y + half * 0.6:.1f}M{x - half * 0.6:.1f},{y + half * 0.6:.1f}L'
                       f'{x + half * 0.6:.1f},{y - half * 0.6:.1f}" stroke="{BACKGROUND}" '
                       f'stroke-width="{step / 16:.2f}"/></g>')
    pats = star_patterns(g, solution, p.blocked, p.rule) if solution is not None else {}
    stars = dict(pats)
    stars.update(dict(p.givens))
    given = dict(p.givens)
    for q in sorted(stars):
        pat = stars[q]
        colour = GIVEN_STAR if q in given else PLACED_STAR
        x, y = xy[q]
        ticks = []
        for d, (ux, uy) in enumerate(dirs):
            if pat >> d & 1:
                n = math.hypot(ux, uy)
                ux, uy = ux / n, uy / n
                ticks.append(f'<line x1="{x + ux * rad:.1f}" y1="{y + uy * rad:.1f}" '
                             f'x2="{x + ux * tick:.1f}" y2="{y + uy * tick:.1f}"/>')
        out.append(f'<g stroke="{colour}" stroke-width="{step / 6.5:.2f}" stroke-linecap="round">'
                   + "".join(ticks) + "</g>")
        out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{rad:.1f}" fill="{colour}"/>')
        if q in given:
            text = format_pattern(g, pat)
            size = rad * (1.05 if len(text) == 1 else 0.95)
            out.append(f'<text x="{x:.1f}" y="{y + size * 0.36:.1f}" font-family="sans-serif" '
                       f'font-size="{size:.1f}" font-weight="bold" text-anchor="middle" '
                       f'fill="{BACKGROUND}">{text}</text>')
    if lines:
        base = max(ys) + below
        out.append(f'<g class="caption" font-family="sans-serif" font-size="{cap_fs:.1f}" '
                   f'fill="{GRID}" text-anchor="middle">')
        for k, line in enumerate(lines):
            out.append(f'<text x="{ox + wdt / 2:.1f}" y="{base + cap_fs * (1.4 * k + 1.0):.1f}">'
                       f'{escape(line)}</text>')
        out.append("</g>")
    out.append("</svg>")
    return "\n".join(out) + "\n"
