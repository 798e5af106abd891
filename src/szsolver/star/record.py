"""Star game records (the tag-pair style of the project's records), JSON, and
reading any Star SOURCE text.

    [Game "star"]
    [Black "Ann"]
    [White "Bob"]
    [Result "17-14"]

    1. E5 swap
    2. D3 F6

Tags (each at most once, any order; values ``"..."`` with ``\\"`` and ``\\\\``
escaped):

- ``Game``: ``star`` (written first by :func:`game_string`; a record of another game
  is refused).
- ``Board``: ``5x6`` (default), ``6x7``, ``4x5``..., with ``-corners`` for the corner
  variant.
- ``Position``: a set-up start as a position string (its board must agree with a
  Board tag).
- ``Result``: the final scores ``"black-white"``, or ``*``. One the replay contradicts
  is kept as written and reported in :attr:`GameRecord.warnings`.
- Anything else (``Black``, ``White``, ``Date``, ``Event``...) is kept as is.

Moves follow as ``N.`` then Black's move and White's move (a cell name, ``pass`` or
``swap``); a set-up with White to move starts ``N...``. Comments, a result after the
moves and the other PGN habits are read as in every record of the family
(:func:`szsolver.formats.record.read_numbered_game`). Canonical text
(:func:`game_string`) round-trips exactly.

>>> g = parse_game('[Game "star"] 1. E5 swap 2. D3 pass 3. pass')
>>> g.final.is_over(), g.final.scores(), g.where(1)
(True, (0, 0), 'round 1, white')
>>> print(game_string(g), end="")
[Game "star"]
<BLANKLINE>
1. E5 swap
2. D3 pass
3. pass
"""
from __future__ import annotations

from ..errors import ParseError
from ..formats.notation import json_loads, json_object
from ..formats.record import (RecordedGame, answer_inside, looks_like_record,
                              read_numbered_game)
from .board import STANDARD, by_name
from .position import (COLOUR_NAMES, GAME_NAME, Position, format_move, parse_move,
                       parse_position, position_string)

__all__ = ["GameRecord", "parse_game", "game_string", "game_json", "parse_game_json",
           "position_json", "parse_source_text", "score_json", "result_json", "result_words"]



class GameRecord(RecordedGame):
    """A Star game: ``tags`` (an ordered dict), the ``start`` position, the ``turns``
    (a move each, as ints) and ``positions`` after each, replayed and checked on construction
    (IllegalTurnError / ParseError naming the round and colour of the first bad move).
    Attributes: ``board``, ``final``, ``warnings``."""

    SIDES = COLOUR_NAMES
    RESULT_EXAMPLE = "17-14"

    def __init__(self, tags: dict | None = None, turns=()):
        self.tags = self.checked_tags(tags)
        self.game_tag(self.tags, GAME_NAME, "Star")
        # the Game tag always comes first, so a record says what it is
        self.tags = {"Game": GAME_NAME, **{k: v for k, v in self.tags.items() if k != "Game"}}
        self.start = _start_position(self.tags)
        self.board = self.start.board
        self._replay(turns)

    def __repr__(self) -> str:
        return f"star.GameRecord({len(self.turns)} turns, {position_string(self.final)!r})"

    @property
    def turns_before(self) -> int:
        """Rounds count from 1 whoever starts: only the colour to move counts."""
        return self.start.side

    def _next(self, move):
        """A move (an int or text like ``D3``) checked and made."""
        code = parse_move(move, self.board) if isinstance(move, str) else move
        return code, self.final.after(code)


def _start_position(tags: dict) -> Position:
    board = by_name(tags["Board"]) if "Board" in tags else None
    if "Position" in tags:
        pos = parse_position(tags["Position"])
        if board is not None and pos.board is not board:
            raise ParseError(f"Board tag says {tags['Board']} but the Position tag is on "
                             f"{pos.board.name}")
        return pos
    return Position(board or STANDARD)


def parse_game(text: str) -> GameRecord:
    """Parse a Star game record (see the module doc); ParseError / IllegalTurnError
    name the problem and where."""
    def new_game(tags):
        game = GameRecord(tags)
        return game, 1, game.start.side
    return read_numbered_game(text, new_game, lambda game, token, _where: game.play(token),
                              "move", COLOUR_NAMES,
                              check=lambda game, token: parse_move(token, game.board))


def game_string(game: GameRecord) -> str:
    """The canonical record: the Game tag first, one tag per line, a blank line, one
    round per line."""
    return game.record_text(lambda m: format_move(m, game.board))


# --- JSON ---------------------------------------------------------------------------------

def _cells(board, mask: int) -> list[str]:
    return [board.name_of(c) for c in range(board.size) if mask >> c & 1]


def position_json(pos: Position) -> dict:
    """A position as JSON-ready data; ``position`` is its string, which reads it back."""
    return {"type": "position", "game": GAME_NAME, "board": pos.board.name,
            "black": _cells(pos.board, pos.black), "white": _cells(pos.board, pos.white),
            "side": COLOUR_NAMES[pos.side], "passes": pos.passes,
            "position": position_string(pos)}


def game_json(game: GameRecord) -> dict:
    """``{"type": "game", "game": "star", "tags": {...}, "turns": ["E5", "swap", ...]}``
    (the family's record JSON)."""
    return {"type": "game", "game": GAME_NAME, "tags": dict(game.tags),
            "turns": [format_move(m, game.board) for m in game.turns]}


def parse_game_json(data) -> GameRecord:
    """Inverse of :func:`game_json` (a dict or JSON text); the moves under ``turns``,
    or under ``moves`` as this module wrote them before."""
    data = json_object(data, "game JSON")
    unknown = sorted(set(data) - {"type", "game", "tags", "turns", "moves"})
    if unknown:
        raise ParseError(f"game JSON: unknown key {unknown[0]!r}")
    if "turns" in data and "moves" in data:
        raise ParseError("game JSON: give turns or moves, not both")
    tags = data.get("tags", {})
    if not isinstance(tags, dict) or not all(isinstance(v, str) for v in tags.values()):
        raise ParseError("game JSON: tags must be an object of strings")
    key = "moves" if "moves" in data else "turns"
    moves = data.get(key, [])
    if not isinstance(moves, list) or not all(isinstance(t, str) for t in moves):
        raise ParseError(f'game JSON: {key} must be a list of move strings like "D3"')
    game = GameRecord(tags)
    for m in moves:
        game.play(m)
    game.warnings.clear()
    game._check_result()
    return game


def parse_source_text(text: str) -> tuple[Position, GameRecord | None]:
    """A Star SOURCE's text: a game record, a position string, or JSON (a position or
    a game as this module writes them). Returns (position, game or None)."""
    t = text.removeprefix("\ufeff").strip()
    if not t:
        raise ParseError("empty input: expected a Star position string or game record")
    if t.startswith("{") and not looks_like_record(t):
        data = json_loads(t, "JSON input")
        if not isinstance(data, dict):
            raise ParseError("JSON input must be an object (a Star position or game)")
        data = answer_inside(data)                  # replay, show, annotate --json...
        if "turns" in data or "moves" in data or data.get("type") == "game":
            game = parse_game_json(data)
            return game.final, game
        if isinstance(data.get("position"), str):
            return parse_position(data["position"]), None
        raise ParseError("JSON input: expected a Star game or a position with its string")
    if looks_like_record(t):
        game = parse_game(t)
        return game.final, game
    if len(t.splitlines()) > 1:
        raise ParseError("a Star position string is one line (a record starts with [Game \"star\"])")
    return parse_position(t), None


# --- scores -------------------------------------------------------------------------------

def result_words(pos: Position) -> str:
    """'Black wins 17-14' when over, else 'black 3, white 1 so far'."""
    b, w = pos.scores()
    if not pos.is_over():
        return f"black {b}, white {w} so far"
    if b == w:
        return f"a draw {b}-{w}"
    return f"{'Black' if b > w else 'White'} wins {b}-{w}"


def score_json(pos: Position) -> dict:
    """The scores (``scores`` keyed ``black`` and ``white``), whether the game is over,
    the winner, and each colour's stars: cells, border cells touched, points."""
    from .reference import reference_groups
    b = pos.board
    stars = {}
    for colour, mask in ((0, pos.black), (1, pos.white)):
        cells = [c for c in range(b.size) if mask >> c & 1]
        stars[COLOUR_NAMES[colour]] = [
            {"cells": [b.name_of(c) for c in group], "border_cells": k, "points": k - 2}
            for group, k in reference_groups(b, cells) if k >= 3]
    return {"game": GAME_NAME, "board": b.name, "position": position_string(pos),
            **result_json(pos), "stars": stars}


def result_json(pos: Position) -> dict:
    """``scores`` (keyed ``black`` and ``white``), ``over``, the ``winner`` (None before
    the end) and the ``result`` in words: what show, score and replay all say."""
    s = pos.scores()
    winner = None
    if pos.is_over():
        winner = "black" if s[0] > s[1] else "white" if s[1] > s[0] else "draw"
    return {"scores": {"black": s[0], "white": s[1]}, "over": pos.is_over(),
            "winner": winner, "result": result_words(pos)}
