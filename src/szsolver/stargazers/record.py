"""Stargazers game records (tag pairs, then numbered rounds) and text diagrams.

    [Game "stargazers"]
    [Board "12-star"]
    [Protocol "1-2"]
    [Red "A"]
    [Result "3-1"]

    1. 9 16,23
    2. 30,31 25

A placement is its cell index; a turn of two placements is ``16,23``. A round is
Red's turn then Blue's; a set-up start with Blue to move starts ``N...``. Tags:

- ``Game`` must be ``stargazers`` (it is what tells a Stargazers record from a Stars'
  Zone one);
- ``Board``: ``12-star`` (default), ``18-star`` or ``27-star``;
- ``Protocol``: ``1-2`` (default: Red places one stone, then two a turn) or ``1``;
- ``Position``: a set-up start (a position string; it carries board and protocol, so
  those tags, if given, must agree); in the middle of a turn, the record's first turn
  is the placement that finishes it;
- ``Result``: the final scores ``red-blue`` (``3-1``), or ``*``; one the replay
  contradicts is kept but reported in :attr:`GameRecord.warnings`;
- any other tag (``Red``, ``Blue``, ``Date``...) is kept as is.

A turn has two placements except Red's first under ``1-2``, every turn under ``1``, a
last turn cut short because its side could not place again (the game then ends), and
the record's last turn while the game goes on (a turn in progress).

>>> g = parse_game('[Game "stargazers"] 1. 9 16,23 2. 30')
>>> [str(t) for t in g.turns], g.final.side_name, g.final.placements_left
(['9', '16,23', '30'], 'red', 1)
>>> print(game_string(g), end="")
[Game "stargazers"]
<BLANKLINE>
1. 9 16,23
2. 30
"""
from __future__ import annotations

import re

from ..errors import IllegalTurnError, ParseError
from ..inputs import is_digits, number, one_word, shown
from ..formats.notation import json_object
from ..formats.record import (RecordedGame, answer_inside, looks_like_record,
                              read_numbered_game)
from .base import PREFIX, protocol_name
from .fast import Position
from .geometry import board as board_named

__all__ = ["Turn", "GameRecord", "parse_game", "game_string", "parse_turn", "load_text",
           "diagram", "GAME_NAME"]

GAME_NAME = "stargazers"


class Turn(tuple):
    """A turn: a tuple of one or two cell indices, printed ``17`` or ``17,23``."""

    def __str__(self) -> str:
        return ",".join(map(str, self))


def parse_turn(text: str) -> Turn:
    """The Turn ``text`` names (``17`` or ``17,23``); ParseError otherwise."""
    t = str(text).strip()
    # the advice: its cells joined by commas ('2 3' is 2,3, not 23)
    one_word(t, f"bad Stargazers turn {shown(str(text))}: a turn",
             ",".join(x for x in re.split(r"[\s,]+", t) if x), parse_turn)
    parts = t.split(",")
    if not 1 <= len(parts) <= 2 or not all(is_digits(p) for p in parts):
        raise ParseError(f"bad Stargazers turn {shown(str(text))}: a cell index like 17, "
                         "or two like 17,23")
    cells = [number(p, "a Stargazers cell index") for p in parts]
    if len(cells) == 2 and cells[0] == cells[1]:
        raise ParseError(f"turn {text}: the same cell twice")
    return Turn(cells)


def _turns_before(pos) -> int:
    """The number of the turn ``pos`` starts or is in the middle of, from 0: the turns
    played before it (a record starting in the middle of a turn has its rest as its
    first turn)."""
    n = pos.ply
    if pos.protocol == "1":
        return n
    return 0 if n == 0 else 1 + (n - 1) // 2


class GameRecord(RecordedGame):
    """A Stargazers game: tags, start, turns, replayed and checked.

    Attributes: ``tags``, ``board``, ``protocol``, ``start``, ``turns`` (Turns),
    ``positions`` (after each turn), ``final``, ``warnings``. Construction replays every
    turn and raises IllegalTurnError (ParseError for bad text) naming the round and side
    of the first bad one.
    """

    RESULT_EXAMPLE = "3-1"

    def __init__(self, tags: dict | None = None, turns=()):
        self.tags = self.checked_tags(tags)
        self.game_tag(self.tags, GAME_NAME, "Stargazers")
        self.start = _start_position(self.tags)
        self.board = self.start.board
        self.protocol = self.start.protocol
        self._replay(turns)

    @property
    def turns_before(self) -> int:
        return _turns_before(self.start)

    def _before_play(self, i: int) -> None:
        """A turn of one placement is the game's last, where the turn had two."""
        if i and len(self.turns[-1]) < self._full(self.position_before(i - 1)) \
                and not self.final.is_over():
            raise IllegalTurnError(f"{self.where(i - 1)}: a one-placement turn where the "
                                   "side still had a placement to make")

    def _next(self, turn):
        """A turn (text ``17,23``, a cell or a tuple of cells) checked and made."""
        if isinstance(turn, int):
            turn = Turn([turn])
        elif isinstance(turn, str):
            turn = parse_turn(turn)
        else:
            turn = Turn(turn)
        if not 1 <= len(turn) <= 2:
            raise ParseError("a turn is one or two placements")
        pos = self.final.copy()
        if pos.is_over():
            raise IllegalTurnError(f"a turn after the game ended ({pos.side_name} could not "
                                   "place)")
        full = self._full(pos)
        if len(turn) > full:
            raise IllegalTurnError(f"{len(turn)} placements where the turn has {full}")
        for c in turn:
            pos.play(c)
        return turn, pos

    @staticmethod
    def _full(pos) -> int:
        """Placements in the turn that starts at ``pos``."""
        return pos.placements_left


def _start_position(tags: dict) -> Position:
    protocol = protocol_name(tags["Protocol"]) if "Protocol" in tags else None
    b = board_named(tags["Board"]) if "Board" in tags else None
    if "Position" in tags:
        pos = Position(tags["Position"])
        if b is not None and b.name != pos.board.name:
            raise ParseError(f"Board tag {b.name} disagrees with the Position tag's "
                             f"{pos.board.name}")
        if protocol is not None and protocol != pos.protocol:
            raise ParseError(f"Protocol tag {protocol} disagrees with the Position tag's "
                             f"{pos.protocol}")
        return pos       # in the middle of a turn too: the first turn finishes it
    return Position(board=b, protocol=protocol or "1-2")


def parse_game(text: str) -> GameRecord:
    """The GameRecord the text describes; ParseError / IllegalTurnError naming the problem.
    Each of Red's turns follows its round number ``N.``; a record may start with
    Blue's turn as ``N...``. Read as every record of the family is
    (:func:`szsolver.formats.record.read_numbered_game`: comments, a result after the
    turns)."""
    def new_game(tags):
        game = GameRecord(tags, ())
        return game, game.round_of(0), game.side_of(0)

    def play(game, token, where):
        try:
            turn = parse_turn(token)
        except ParseError as e:
            raise ParseError(f"{where}: {e}") from None
        game.play(turn)
    return read_numbered_game(text.lstrip("\ufeff"), new_game, play,
                              check=lambda _game, token: parse_turn(token))


def game_string(game: GameRecord) -> str:
    """The canonical record: one tag per line, a blank line, one round per line."""
    return game.record_text(str)


def load_text(text: str):
    """(position, game or None) from a Stargazers record or position string, or the
    JSON the commands print (``score --json``: the position string under ``position``;
    ``show --json``: the position under ``position``, its string under its
    ``position``; ``replay --json`` and ``annotate --json``: the game under ``game``,
    its record under the game's ``record``; read by
    :func:`szsolver.formats.record.answer_inside`)."""
    s = text.strip().lstrip("\ufeff")
    if s.startswith("{") and not looks_like_record(s):
        data = answer_inside(json_object(s, "Stargazers JSON"))   # show, replay, annotate...
        if isinstance(data.get("record"), str):
            return load_text(data["record"])        # the game's JSON: its record
        if "turns" in data:     # the family's game JSON without the record: tags, turns
            tags, turns = data.get("tags", {}), data["turns"]
            if not isinstance(tags, dict) or not all(isinstance(v, str) for v in tags.values()):
                raise ParseError("game JSON: tags must be an object of strings")
            if not isinstance(turns, list) or not all(isinstance(t, str) for t in turns):
                raise ParseError('game JSON: turns must be a list of turn strings like "16,23"')
            game = GameRecord({"Game": "stargazers", **tags}, turns)
            return game.final, game
        if isinstance(data.get("position"), str) and data["position"].lower().startswith(PREFIX):
            return Position(data["position"]), None
        raise ParseError("a Stargazers JSON input holds a position string under 'position' "
                         "(show --json, score --json), or a game's turns or record under "
                         "'game' (replay --json, annotate --json)")
    if s.lower().startswith(PREFIX + ":"):
        return Position(s), None
    game = parse_game(text)
    return game.final, game


# --- diagrams -----------------------------------------------------------------------------

def diagram(pos, marks: dict | None = None) -> str:
    """The board as text, top row first: an empty cell shows its index, ``*`` a star,
    ``R``/``B`` an inspired stone, ``r``/``b`` an uninspired one; ``marks`` ({cell: text})
    overrides cells. Then the side to move (or the result) and the scores."""
    b = pos.board
    ins_r, ins_b = pos.inspired()
    cols = [2 * q + r for q, r in b.coords]
    left = min(cols)
    rows: dict = {}
    for c, (q, r) in enumerate(b.coords):
        if marks and c in marks:
            s = str(marks[c])
        elif b.stars >> c & 1:
            s = "*"
        elif pos.red >> c & 1:
            s = "R" if ins_r >> c & 1 else "r"
        elif pos.blue >> c & 1:
            s = "B" if ins_b >> c & 1 else "b"
        else:
            s = str(c)
        rows.setdefault(r, []).append((2 * (cols[c] - left), s))
    lines = []
    for r in sorted(rows, reverse=True):
        line = ""
        for x, s in sorted(rows[r]):
            line = line.ljust(x) + s.rjust(3)
        lines.append(line.rstrip())
    red, blue = pos.scores()
    if pos.is_over():
        state = f"Game over: {pos.result_text()}."
    else:
        state = (f"{pos.side_name.capitalize()} to place ({pos.placements_left} "
                 f"placement{'s' if pos.placements_left > 1 else ''} left in the turn).")
    lines.append(f"Stargazers {b.name}, protocol {pos.protocol}. {state} "
                 f"Score red {red}, blue {blue}.")
    return "\n".join(lines)
