"""The analysis board's light work, done in the server's own process: reading
positions, games and limits from request values, and what the board shows of a
position or a game. Nothing here reads a file named by a request: text is parsed
as text (:func:`szsolver.formats.record.parse_source_text`), never opened as a path.

Every function raises an :class:`szsolver.errors.InputError` (a ValueError) with a
one-line message for bad input.
"""
from __future__ import annotations

from ..errors import IllegalTurnError, InputError, ParseError, UnsupportedError
from ..inputs import shown
from ..limits import check_seconds

TIME_CAP = 10.0          # seconds: the most any request may ask of the solver or CP-SAT
DEFAULT_TIME = 5.0       # seconds, when a request gives no time limit
MAX_TURNS = 200          # turns in a game sent by the board (a full game has 32)


def time_limit_from(value, name: str = "time_limit", default: float = DEFAULT_TIME,
                    cap: float = TIME_CAP) -> float:
    """A request's ``name`` (``time_limit``, ``time_per_turn``): a positive finite number
    of seconds (see :mod:`szsolver.limits`), cut to ``cap`` (None: ``default``).
    UnsupportedError naming ``name`` and ``cap`` for anything else."""
    if value is None:
        return min(default, cap)
    return check_seconds(value, name, most=cap, cut=True)


def seconds_from_text(value, name: str):
    """A number of seconds written in a query (``0.5``, ``2``): its number (an int when
    written as one, so a message shows it as written), None for None; ``NaN`` and
    ``inf`` as floats, for :func:`time_limit_from` to refuse as the body's NaN and
    Infinity are (it checks the range); ParseError naming ``name`` for anything else."""
    from ..inputs import MAX_DIGITS, is_decimal, is_digits
    if value is None:
        return None
    word = value.strip().lower() if isinstance(value, str) else None
    if word in ("nan", "inf", "-inf", "infinity", "-infinity"):
        return float(word)
    if not is_decimal(value):
        raise ParseError(f"{name} must be a number of seconds, got {shown(value)}")
    whole = word.lstrip("-")
    if is_digits(whole) and len(whole) <= MAX_DIGITS:
        return int(word)
    return float(value)


def flag_from(value, name: str) -> bool:
    if value is None:
        return False
    if not isinstance(value, bool):
        raise ParseError(f"{name} must be true or false, got {shown(value)}")
    return value


def text_from(value, name: str) -> str:
    if not isinstance(value, str):
        from ..formats.notation import json_kind
        raise ParseError(f"{name} must be a string, got {json_kind(value)}")
    return value


def position_from(value):
    """A position from a request value: a position string, a JSON position or game (an
    object, or its text), or a game record's text (then its last position)."""
    return position_and_game_from(value)[0]


def position_and_game_from(value):
    """(position, game or None) from a request value, as :func:`position_from`: the
    game when the value is one (a record or a JSON game), whose warnings the answer
    then carries, as the commands' ``--json`` does."""
    from ..formats.notation import parse_position_json
    from ..formats.record import parse_game_json, parse_source_text
    if isinstance(value, dict):
        if value.get("type") == "game" or "turns" in value:
            game = parse_game_json(value)
            return game.final, game
        return parse_position_json(value), None
    if value is None:
        raise ParseError("missing 'position': a position string, a JSON position or a game record")
    return parse_source_text(text_from(value, "position"))


def _as_text(value) -> str | None:
    import json
    if isinstance(value, dict):
        return json.dumps(value)
    return value if isinstance(value, str) else None


def game_of(value):
    """The registry's entry of the game a request's ``position`` or ``source`` (text,
    or a JSON object) is of: its Game tag or ``star:``/``stargazers:`` prefix
    (:func:`szsolver.games.of_text`, as the command line finds it), else Stars' Zone."""
    from .. import games
    text = _as_text(value)
    return games.DEFAULT if text is None else games.of_text(text)


def family_source(value):
    """(the game's registry entry, the value as text, position, record or None) for a
    request's value of a game of the family other than Stars' Zone (see
    :func:`game_of`), read by that game (InputError naming the problem); None for
    Stars' Zone's, which the endpoints read themselves."""
    from .. import games
    entry = game_of(value)
    if entry is games.DEFAULT:
        return None
    text = _as_text(value)
    pos, record = entry.load(games.Source(given=text, text=text))
    return entry, text, pos, record


def _one_source(body: dict) -> str:
    """Which of ``source``, ``game`` and ``example`` a request gives (exactly one)."""
    given = [k for k in ("source", "game", "example") if body.get(k) is not None]
    if len(given) != 1:
        raise ParseError("give exactly one of 'source', 'game' or 'example'")
    return given[0]


def family_game_source(body: dict):
    """:func:`family_source` of a request's game (``source``, ``game`` or ``example``,
    as :func:`game_from` reads them): a Star or Stargazers game, else None."""
    key = _one_source(body)
    return None if key == "example" else family_source(body[key])


def game_from(body: dict):
    """A game from a request: ``source`` (a game record, a JSON game or a position
    string, as text), ``game`` (a JSON game object) or ``example: true`` (the
    rulebook game). A position becomes a game starting there."""
    from ..formats.record import GameRecord, example_game, parse_game_json, parse_source_text
    key = _one_source(body)
    if key == "example":
        if body["example"] is not True:
            raise ParseError("example must be true")
        return example_game()
    if key == "game":
        if not isinstance(body["game"], dict):
            raise ParseError("game must be a JSON game object")
        turns = body["game"].get("turns")
        if isinstance(turns, list) and len(turns) > MAX_TURNS:
            raise ParseError(f"a game has at most {MAX_TURNS} turns")
        return parse_game_json(body["game"])
    pos, game = parse_source_text(text_from(body["source"], "source"))
    if game is None:
        from ..formats.notation import position_string
        game = GameRecord({"Position": position_string(pos)})
    return game


def side_from(value, pos) -> int:
    """``red``, ``blue`` (any case, as the command line reads it) or None (the side
    to move)."""
    from ..inputs import name_key
    from ..rules.base import SIDE_NAMES
    if value is None:
        return pos.side
    key = name_key(value) if isinstance(value, str) else None
    if key not in SIDE_NAMES:
        raise ParseError(f"side must be 'red' or 'blue', got {shown(value)}"
                         + (" (a map is of one side)" if key == "both" else ""))
    return SIDE_NAMES.index(key)


def _points_layer(pos) -> str:
    """Transparent circles over every point of a position picture, to click on."""
    from ..formats.svg import click_layer, point_xy
    g = pos.geometry
    return click_layer([(x, y, 0.48, g.coord_text(p)) for p, (x, y) in enumerate(point_xy(g))])


def board_svg(pos, last_turn=None, *, labels=None, fills=None) -> str:
    """The CLI's picture of ``pos`` (beams drawn, the last turn marked) with a layer
    to draw on and a layer of clickable points."""
    from ..formats.svg import position_svg
    svg = position_svg(pos, beams=True, last_turn=last_turn, labels=labels, fills=fills).rstrip()
    if not svg.endswith("</svg>"):
        raise AssertionError("position_svg did not end with </svg>")
    return svg[:-len("</svg>")] + _points_layer(pos) + "</svg>\n"


def geometry_data(g, blank: str = "-") -> dict:
    """A board for the pages' scripts: its points (name, row, column) in point order,
    the directions as (row, column) steps (the scripts walk the rays themselves, as
    :attr:`szsolver.rules.geometry.Geometry.rays` does) and each pattern's name
    (:func:`szsolver.formats.patterns.pattern_name`; ``blank`` for the pattern of no
    beam on boards that are not square)."""
    from ..formats.patterns import pattern_name
    return {"board": g.name, "cell": g.cell, "n_patterns": g.n_patterns,
            "directions": list(g.direction_names),
            "steps": [list(d) for d in g.directions],
            "points": [{"name": g.coord_text(p), "row": r, "col": c} for p, (r, c) in enumerate(g.coords)],
            "pattern_names": [pattern_name(k, g, blank=blank) for k in range(g.n_patterns)]}


def bare_board_svg(pos) -> str:
    """The picture of ``pos``'s board with no stone placed (the fixed neutrals drawn,
    the caption a start's), a layer ``<g class="sz-stones">`` for the page to draw a
    position's stones, beams and last turn on, then :func:`board_svg`'s layers."""
    from ..formats.svg import position_svg
    empty = type(pos)(pos.geometry, rule=pos.rule)
    svg = position_svg(empty, beams=True).rstrip()
    if not svg.endswith("</svg>"):
        raise AssertionError("position_svg did not end with </svg>")
    return svg[:-len("</svg>")] + '<g class="sz-stones"></g>\n' + _points_layer(pos) + "</svg>\n"


def picture_colours() -> dict:
    """The palette's colours the analysis page draws stones, beams and marks in."""
    from ..formats.palette import BACKGROUND, BLUE_STONE, GRID, NEUTRAL_STONE, RED_STONE
    return {"background": BACKGROUND, "grid": GRID, "red": RED_STONE, "blue": BLUE_STONE,
            "neutral": NEUTRAL_STONE}


def score_json(pos) -> dict:
    """The JSON of ``szsolver score --json``."""
    from ..formats.notation import score_json
    return score_json(pos)


def _check_last_turn(pos, turn) -> None:
    """InputError unless ``turn`` can be the turn that led to ``pos``: a stone of the
    side that moved last where it says, its neutral (if any) a neutral on the board
    (the board marks it: a mark on an empty point, or on the other side's stone, would
    show what was not played)."""
    from ..formats.notation import format_turn
    from ..rules.base import SIDE_NAMES
    mover = 1 - pos.side
    own = pos.red if mover == 0 else pos.blue
    text = format_turn(turn, pos.geometry)
    if not own >> turn.stone & 1:
        raise InputError(f"last_turn {text} cannot lead to this position: point "
                         f"{text.split('n')[0]} holds no {SIDE_NAMES[mover]} stone")
    if turn.neutral >= 0 and not pos.neutral >> turn.neutral & 1:
        raise InputError(f"last_turn {text} cannot lead to this position: point "
                         f"{text.split('n')[1]} holds no neutral")


def position_view(pos, last_turn=None) -> dict:
    """What the board shows of a position: the picture, the score JSON, and who may
    place what."""
    from ..formats.notation import format_turn, parse_turn, position_json
    from ..rules.base import SIDE_NAMES
    g = pos.geometry
    if last_turn is not None:
        last_turn = parse_turn(text_from(last_turn, "last_turn"), g)
        _check_last_turn(pos, last_turn)
    over = pos.is_over()
    left = pos.red_neutrals if pos.side == 0 else pos.blue_neutrals
    return {"position": position_json(pos), "svg": board_svg(pos, last_turn),
            "score": score_json(pos), "side": SIDE_NAMES[pos.side], "over": over,
            "neutrals_left_to_move": 0 if over else left,
            "last_turn": None if last_turn is None else format_turn(last_turn, g)}


def game_view(game) -> dict:
    """A game for the board: its JSON, record text, every position (the start first)
    and per turn its text, round and side; for the page's own rules (``game.js``)
    the start as JSON, the stones a side places, the board
    (:func:`geometry_data`), its bare picture (:func:`bare_board_svg`) and the
    colours to draw stones in."""
    from ..formats.notation import format_turn, position_json, position_string
    from ..formats.record import game_json, game_string
    from ..rules.base import SIDE_NAMES
    g = game.geometry
    return {"game": game_json(game), "record": game_string(game),
            "positions": [position_string(game.start)] + [position_string(p) for p in game.positions],
            "turns": [{"turn": format_turn(t, g), "round": game.round_of(i),
                       "side": SIDE_NAMES[game.side_of(i)]} for i, t in enumerate(game.turns)],
            "board": g.name, "warnings": list(game.warnings),
            "start": position_json(game.start), "stones_per_side": game.start.stones_per_side,
            "geometry": geometry_data(g), "svg": bare_board_svg(game.start),
            "colours": picture_colours()}


def family_game_view(entry, text: str, pos, record) -> dict:
    """A Star or Stargazers game (or position: a game of no turns starting there) for
    the analysis board, which has no rules of its own for these games: ``family``
    true, the game's name and title, the names of its sides, the record as given,
    every position's string (the start first) and per turn its text, round and side,
    all from the game's entry in the registry. The board then asks for each position
    it shows (:func:`family_line_view`)."""
    start = pos if record is None else record.start
    after = [] if record is None else list(record.positions)
    return {"family": True, "game": entry.name, "title": entry.title,
            "sides": list(record.SIDES) if record is not None else _sides(entry, pos),
            "record": text,
            "positions": [entry.position_text(p) for p in [start, *after]],
            "turns": [] if record is None else _turn_rows(entry, record),
            "warnings": [] if record is None else list(record.warnings)}


def _turn_rows(entry, record) -> list:
    """Each turn of a Star or Stargazers record: its text, round and side."""
    return [{"turn": entry.format_turn(t, record.position_before(i)), "round": record.round_of(i),
             "side": record.SIDES[record.side_of(i)]}
            for i, t in enumerate(record.turns)]


def turns_from(value) -> list:
    """A request's ``turns``: a list of turn texts (at most :data:`MAX_TURNS`)."""
    if not isinstance(value, list) or not all(isinstance(t, str) for t in value):
        raise ParseError("turns must be a list of turns, each a string like \"E5\" or \"17,23\"")
    if len(value) > MAX_TURNS:
        raise ParseError(f"a line has at most {MAX_TURNS} turns, got {len(value)}")
    return value


def family_line_view(entry, text: str, pos, record, turns: list) -> dict:
    """A line of a Star or Stargazers game as the analysis board plays it: ``turns``
    (their text) played one by one from the start of the game read from ``text`` (a
    record's start, or the position given), each checked by the game's own record
    (InputError naming the round, the side and why for one that is not legal). The
    answer is the position after them as the board shows it: its string, its picture
    (the game's own, the last turn marked, with :func:`szsolver.formats.svg.click_layer`'s
    targets), ``score``
    (``szsolver score --json``), ``legal`` (every legal turn's text, its placements in the order they are made, none once the game
    is over), ``to_move`` and the ``round`` of the next turn, ``unfinished`` (the
    game's own record ends in a turn in progress: no turn follows it, ``legal`` is
    empty and ``to_move`` is the side still placing), the line's ``record``
    (the game's tags, its Result tag only for the game's own turns) and ``turns`` (each
    one's text, round and side)."""
    from .. import games
    from ..formats.record import tag_line
    own = False
    if record is None:
        tags = {"Game": entry.name, "Position": entry.position_text(pos)}
    else:
        tags = dict(record.tags)
        own = turns == [t["turn"] for t in _turn_rows(entry, record)]
        if not own:
            tags.pop("Result", None)
    head = "".join(tag_line(k, v) + "\n" for k, v in tags.items())
    _pos, line = entry.load(games.Source(given=head, text=head))
    for t in turns:
        line.play(t)
    final, n = line.final, len(line)
    unfinished = False
    if n:
        # a record keeps a last turn in progress (a Stargazers turn of one placement
        # where it has two): the game's own record may end so, a line played on the
        # board has whole turns only
        before = line.position_before(n - 1)
        legal = entry.legal_turns(before)
        if line.turns[-1] not in legal:
            some = ", ".join(entry.format_turn(t, before) for t in legal[:3])
            if not own:
                raise IllegalTurnError(f"{line.where(n - 1)}: {turns[-1]} is not a whole turn "
                                       f"(legal turns here: {some}{' ...' if len(legal) > 3 else ''})")
            unfinished = True
    over = final.is_over()
    return {"family": True, "game": entry.name, "position": entry.position_text(final),
            "svg": entry.svg(final, targets=True,
                             last_turn=line.turns[-1] if n else None),
            "score": entry.answer("score", final, None).data,
            "legal": [] if over or unfinished else [entry.format_turn(t, final)
                                                    for t in entry.legal_turns(final)],
            "unfinished": unfinished,
            "to_move": None if over else line.SIDES[line.side_of(n - 1 if unfinished else n)],
            "round": line.round_of(n),
            "record": line.record_text(lambda t: entry.format_turn(t, line.start)),
            "turns": _turn_rows(entry, line)}


def _sides(entry, pos) -> list:
    """The names of a game's sides as its answers use them (the score's keys)."""
    return list(entry.answer("score", pos, None).data["scores"])


def family_position_view(entry, pos) -> dict:
    """A Star or Stargazers position as the board shows it: its string, its picture
    (the game's own), and ``szsolver score --json`` of it."""
    return {"family": True, "game": entry.name, "position": entry.position_text(pos),
            "svg": entry.svg(pos), "score": entry.answer("score", pos, None).data}


def check_board(pos) -> None:
    """The solver and CP-SAT jobs take Stars' Zone positions given as position strings."""
    if pos.geometry.size > 64:
        raise UnsupportedError(f"the {pos.geometry.name} board is too large for the analysis tools")


def require_keys(body: dict, allowed: set, required: set = frozenset()) -> None:
    """Unknown or missing keys in a request body: ParseError naming the first."""
    unknown = sorted(set(body) - allowed)
    if unknown:
        raise ParseError(f"unknown key {unknown[0]!r} (expected: {', '.join(sorted(allowed))})")
    missing = sorted(required - set(body))
    if missing:
        raise ParseError(f"missing key {missing[0]!r}")


__all__ = ["TIME_CAP", "DEFAULT_TIME", "time_limit_from", "seconds_from_text", "flag_from", "position_from",
           "game_of", "family_source", "family_game_source", "family_game_view", "family_line_view", "turns_from", "family_position_view", "game_from", "side_from", "board_svg", "bare_board_svg", "geometry_data", "picture_colours", "score_json", "position_view", "game_view",
           "require_keys", "InputError"]
