"""Text forms of positions and turns (round-trip exactly; errors are one line).

Turn text and the position string are the rules' own canonical forms
(:mod:`szsolver.rules.text`, re-exported here); this module adds parsing into a
chosen back end, JSON, pattern names and the diagram.

Turn: ``44`` puts an own stone on (4,4); ``44n66`` also puts a neutral on (6,6).

Position string: the board's rows separated by ``/``, each listing that row's
points left to right with ``.`` empty, ``R`` red, ``B`` blue, ``N`` neutral; then
side to move (``R``/``B``), red neutrals left, blue neutrals left, rule.

>>> from szsolver.rules.reference import Position
>>> p = parse_position(START, backend=Position)
>>> position_string(p) == START
True
>>> t = parse_turn("44n66", p.geometry); format_turn(t, p.geometry)
'44n66'
"""
from __future__ import annotations

from ..errors import ParseError
from ..inputs import cut, json_int, shown
from ..rules.base import BLUE, RED, RULE_NAMES, SIDE_NAMES, rule_code
from ..rules.geometry import STARS_ZONE, Geometry
from .patterns import pattern_list, pattern_name  # re-exported: one home in formats.patterns
from ..rules.text import (SIDE_LETTERS, START, board_of, format_turn, parse_position_fields,
                          parse_turn, position_string)

__all__ = ["START", "SIDE_LETTERS", "format_turn", "parse_turn", "position_string",
           "parse_position_fields", "parse_position", "pattern_name", "pattern_list",
           "position_json", "board_json", "json_loads", "json_object", "parse_position_json", "result_text",
           "diagram"]


def _default_backend():
    """The default back end: the core when built, else the reference."""
    from ..rules.backends import default_position_class
    return default_position_class()


def parse_position(text: str, geometry: Geometry = STARS_ZONE, backend=None):
    """Parse and check a position string; returns a Position of ``backend``
    (a Position class; default the fast core when built, else the reference).
    ParseError for a malformed string, InvalidPositionError for an impossible position."""
    if backend is None:
        backend = _default_backend()
    return backend(text, geometry)


# --- patterns -----------------------------------------------------------------------------

# --- JSON ---------------------------------------------------------------------------------

_POSITION_JSON_KEYS = {"type", "board", "red", "blue", "neutral", "side", "neutrals_left",
                       "rule", "position"}


def board_json(geometry) -> dict:
    """``{"board": NAME}``: how JSON names the board of a position, in a position's JSON
    (:func:`position_json`) and beside the position string of every answer about a
    position (``score``, ``best``, ``check``, ``solve`` and ``annotate --json``, each
    turn of ``replay --json``), so that the answer read back as SOURCE is on that board
    (a position string alone is read on the Stars' Zone board)."""
    return {"board": board_of(geometry).name}


def position_json(pos) -> dict:
    """A position as JSON-ready data (either back end).

    Stones are ``[row, col]`` lists in point order; ``neutral`` includes fixed
    neutrals (the centre). ``position`` repeats the position string for people;
    :func:`parse_position_json` checks that it agrees.
    """
    g = pos.geometry

    def points(mask):
        return [list(g.coords[p]) for p in range(g.size) if mask >> p & 1]

    return {
        "type": "position",
        **board_json(g),
        "red": points(pos.red),
        "blue": points(pos.blue),
        "neutral": points(pos.neutral),
        "side": SIDE_NAMES[pos.side],
        "neutrals_left": {"red": pos.red_neutrals, "blue": pos.blue_neutrals},
        "rule": RULE_NAMES[pos.rule],
        "position": position_string(pos),
    }


def json_loads(text, what: str = "JSON"):
    """``json.loads`` for input: ParseError with one line for malformed JSON, for JSON
    nested too deeply to read (``json.loads`` raises RecursionError), for a whole number
    of more than :data:`szsolver.inputs.MAX_DIGITS` digits (:func:`szsolver.inputs.json_int`,
    the one ``parse_int`` of JSON input), for bytes that are not UTF-8 and for an object
    with a key twice (which of the two was meant?). A leading UTF-8 byte-order mark is
    skipped.

    >>> json_loads("[" * 100000)
    Traceback (most recent call last):
    ...
    szsolver.errors.ParseError: JSON: nested too deeply
    >>> json_loads('{"position": "a", "position": "b"}')
    Traceback (most recent call last):
    ...
    szsolver.errors.ParseError: malformed JSON: the key 'position' twice in one object
    """
    import json
    if isinstance(text, str) and text.startswith("\ufeff"):
        text = text[1:]
    elif isinstance(text, (bytes, bytearray)) and text.startswith(b"\xef\xbb\xbf"):
        text = text[3:]
    try:
        return json.loads(text, parse_int=json_int, object_pairs_hook=_once_each)
    except json.JSONDecodeError as e:
        raise ParseError(f"malformed JSON: {e.msg} at line {e.lineno}, column {e.colno}") from None
    except ParseError:              # a number of too many digits (json_int)
        raise
    except RecursionError:
        raise ParseError(f"{what}: nested too deeply") from None
    except ValueError as e:  # an integer of more than 4300 digits, bytes not UTF-8
        raise ParseError(f"malformed JSON: {str(e).splitlines()[0]}") from None


def _once_each(pairs) -> dict:
    out = {}
    for k, v in pairs:
        if k in out:
            raise ParseError(f"malformed JSON: the key {cut(k)!r} twice in one object")
        out[k] = v
    return out


def json_object(data, what: str) -> dict:
    """``data`` as a JSON object: text is parsed first (:func:`json_loads`). ParseError
    (one line) when it is malformed or not an object; ``what`` names it in the message."""
    if isinstance(data, (str, bytes)):
        data = json_loads(data, what)
    if not isinstance(data, dict):
        raise ParseError(f"{what} must be an object, not {json_kind(data)}")
    return data


def json_kind(data) -> str:
    """A JSON value's kind as an error names it: 'an object', 'a list', 'a string',
    'true or false', 'null' or 'a number'."""
    return {dict: "an object", list: "a list", str: "a string", bool: "true or false",
            type(None): "null"}.get(type(data), "a number")


def json_scalar_kind(text: str) -> str | None:
    """:func:`json_kind` of ``text`` when it is JSON holding a single value that is not
    an object or a list (``null``, ``5``, ``"44"``, ``true``), else None: input that is
    JSON, only not the object a reader wants.

    >>> json_scalar_kind(" null "), json_scalar_kind("5"), json_scalar_kind("44n66")
    ('null', 'a number', None)
    """
    import json
    t = text.strip().removeprefix("\ufeff")
    if not t or t[0] in "{[":
        return None
    try:
        return json_kind(json.loads(t, parse_int=json_int))
    except (ValueError, RecursionError):
        return None


def parse_position_json(data, backend=None):
    """Inverse of :func:`position_json`; ``data`` is a dict or JSON text.

    Either the structured keys (red, blue, neutral, side, neutrals_left, rule) or
    just ``position`` (a position string) must be given; when both are, they must
    agree. Points may be ``[row, col]`` or ``"44"``. ParseError names the problem,
    InvalidPositionError a position that cannot arise in play.
    """

    if backend is None:
        backend = _default_backend()
    data = json_object(data, "position JSON")
    unknown = sorted(set(data) - _POSITION_JSON_KEYS)
    if unknown:
        raise ParseError(f"position JSON: unknown key {unknown[0]!r}")
    if data.get("type", "position") != "position":
        raise ParseError(f"position JSON: type must be 'position', got {data['type']!r}")
    board = data.get("board", STARS_ZONE.name)
    if not isinstance(board, str):
        raise ParseError("position JSON: board must be a name like 'stars-zone'")
    g = board_of(board)
    structured = {"red", "blue", "neutral", "side", "neutrals_left", "rule"}
    given = structured & set(data)
    from_string = None
    if "position" in data:
        if not isinstance(data["position"], str):
            raise ParseError("position JSON: position must be a position string")
        from_string = backend(data["position"], g)
        if not given:
            return from_string
    missing = sorted(structured - given)
    if missing:
        raise ParseError(f"position JSON: missing key {missing[0]!r}")

    def mask(name):
        pts = data[name]
        if not isinstance(pts, list):
            raise ParseError(f"position JSON: {name} must be a list of points")
        m = 0
        for pt in pts:
            if isinstance(pt, str):
                try:
                    p = g.parse_point(pt)
                except ValueError as e:
                    raise ParseError(str(e)) from None
            elif (isinstance(pt, list) and len(pt) == 2
                  and all(isinstance(x, int) and not isinstance(x, bool) for x in pt)):
                if tuple(pt) not in g.index:
                    raise ParseError(f"position JSON: {name} point {pt} is off the {g.name} board")
                p = g.index[tuple(pt)]
            else:
                raise ParseError(f"position JSON: bad {name} point {pt!r}: use [row, col] or \"44\"")
            if m >> p & 1:
                raise ParseError(f"position JSON: {name} point {g.coord_text(p)} listed twice")
            m |= 1 << p
        return m

    side = data["side"]
    if side not in SIDE_NAMES:
        raise ParseError(f"position JSON: side must be 'red' or 'blue', got {shown(side)}")
    left = data["neutrals_left"]
    if not isinstance(left, dict) or set(left) != {"red", "blue"}:
        raise ParseError('position JSON: neutrals_left must be {"red": n, "blue": n}')
    for who, v in left.items():
        if not isinstance(v, int) or isinstance(v, bool):
            raise ParseError(f"position JSON: neutrals_left's {who} must be a whole number, "
                             f"got {shown(v)}")
    pos = backend(g, red=mask("red"), blue=mask("blue"), neutral=mask("neutral"),
                  red_neutrals=left["red"], blue_neutrals=left["blue"],
                  side=SIDE_NAMES.index(side), rule=rule_code(data["rule"]))
    if from_string is not None and from_string != pos:
        raise ParseError("position JSON: 'position' disagrees with the stones, side, "
                         "neutrals or rule given")
    return pos


# --- the diagram --------------------------------------------------------------------------

def result_text(pos) -> str:
    """Who is ahead (or has won) by the rules' result order: score, then neutrals left.

    >>> from szsolver.rules.reference import Position
    >>> result_text(Position())
    'scores tied 0-0, neutrals left 5-5'
    """
    r, b = pos.scores()
    over = pos.is_over()
    if r != b:
        who = "red" if r > b else "blue"
        return f"{who} {'wins' if over else 'leads'} {r}-{b}"
    if pos.red_neutrals != pos.blue_neutrals:
        who = "red" if pos.red_neutrals > pos.blue_neutrals else "blue"
        return (f"{who} {'wins' if over else 'leads'} on neutrals: {r}-{b}, neutrals left "
                f"{pos.red_neutrals}-{pos.blue_neutrals}")
    return (f"{'draw' if over else 'scores tied'} {r}-{b}, neutrals left "
            f"{pos.red_neutrals}-{pos.blue_neutrals}")


def diagram(pos, *, coordinates: bool = True, status: bool = True) -> str:
    """The board in its true shape for people: R red, B blue, N neutral, ``.`` empty,
    with row numbers on the left and column numbers on top (as in rules.md), then
    side to move, neutrals left, rule and scores.

    >>> from szsolver.rules.reference import Position
    >>> print(diagram(Position(), status=False))
         1 2 3 4 5 6 7 8 9
      1        . .
      2      . . . . . .
      3    . . . . . . .
      4  . . . . . . . .
      5  . . . . N . . . .
      6    . . . . . . . .
      7    . . . . . . .
      8    . . . . . .
      9          . .
    """
    g = pos.geometry
    rows = sorted({r for r, _ in g.coords})
    cols = sorted({c for _, c in g.coords})
    cmin, cmax = cols[0], cols[-1]
    w = max(len(str(c)) for c in cols)           # cell width (before the separating space)
    rw = max(len(str(r)) for r in rows)
    lines = []
    if coordinates:
        lines.append(" " * (rw + 4) + " ".join(str(c).rjust(w) for c in range(cmin, cmax + 1)))
    for r in rows:
        cells = []
        for c in range(cmin, cmax + 1):
            p = g.index.get((r, c))
            if p is None:
                ch = " "
            else:
                bit = 1 << p
                ch = ("R" if pos.red & bit else "B" if pos.blue & bit
                      else "N" if pos.neutral & bit else ".")
            cells.append(ch.rjust(w))
        body = " ".join(cells).rstrip()
        lines.append((f"  {str(r).rjust(rw)}  " if coordinates else "") + body)
    if status:
        r_score, b_score = pos.scores()
        if pos.is_over():
            lines.append(f"Game over after {pos.ply} turns.")
        else:
            lines.append(f"{SIDE_NAMES[pos.side].capitalize()} to move, round {pos.ply // 2 + 1} "
                         f"(turn {pos.ply + 1} of {2 * pos.stones_per_side}).")
        lines.append(f"Neutrals left: red {pos.red_neutrals}, blue {pos.blue_neutrals}.  "
                     f"Rule: {RULE_NAMES[pos.rule]}.")
        lines.append(f"Score: red {r_score}, blue {b_score}.  "
                     f"{'Result' if pos.is_over() else 'Standing'}: {result_text(pos)}.")
    return "\n".join(lines)


def result_json(pos) -> dict:
    """Scores and result facts shared by the JSON outputs (``show``, ``score``, ``replay``)."""
    r, b = pos.scores()
    over = pos.is_over()
    return {"scores": {"red": r, "blue": b},
            "neutrals_left": {"red": pos.red_neutrals, "blue": pos.blue_neutrals},
            "value": pos.value(), "over": over, "winner": pos.winner() if over else None,
            "result": result_text(pos)}


def score_json(pos) -> dict:
    """What ``szsolver score --json`` prints: per side the score, the patterns present and
    each stone's pattern, then :func:`result_json`."""
    g = pos.geometry
    out = {"rule": RULE_NAMES[pos.rule], "position": position_string(pos), **board_json(g)}
    for side in (RED, BLUE):
        pats = pos.patterns(side)
        present = pattern_list(pos.pattern_set(side))
        out[SIDE_NAMES[side]] = {
            "score": pos.score(side),
            "patterns": [{"pattern": k, "name": pattern_name(k, g)} for k in present],
            "stones": [{"point": g.coord_text(p), "row": g.coords[p][0], "col": g.coords[p][1],
                        "pattern": k, "name": pattern_name(k, g)}
                       for p, k in sorted(pats.items())],
        }
    out.update(result_json(pos))
    return out
