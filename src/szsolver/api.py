"""The front door's own pieces: :func:`solve`, whose turns print on the position's board,
and :class:`Game`, a recorded game with every position. Both are re-exported by
:mod:`szsolver`; they sit above the rules, the formats and the endgame solver.

>>> game = Game.example()
>>> len(game.turns), str(game.turns[0]), game.final.scores()
(32, '44n66', (16, 14))
>>> [str(p) == str(q) for p, q in [(game.positions()[0], game.start),
...                                (game.positions()[-1], game.final)]]
[True, True]
"""
from __future__ import annotations

import os
from types import MappingProxyType

from .errors import InputError, ParseError
from .formats import record
from .formats.sources import on_disk
from .inputs import SHOWN_PATH, cut
from .rules.text import position_string

__all__ = ["solve", "Game"]


def _position(position):
    """A Position, or the package's Position read from a position string."""
    from .rules.backends import as_position
    return as_position(position)


def solve(position, **options):
    """Solve ``position`` (a Position of either back end, or a position string) exactly,
    or as far as the limits allow: :func:`szsolver.endgame.solver.solve` with the same
    keyword options (``time_limit``, ``node_limit``, ``all_turns``...), its result's
    turns (``best``, ``pv``, each ``turns[i].turn``) as Turns that print as turn text on
    the position's own board. Needs the compiled extension (UnsupportedError if not built).
    """
    from .endgame.solver import solve as solve_exactly
    return solve_exactly(_position(position), **options)


class Game:
    """A recorded game, replayed and checked: its tags, turns and every position.

    ``Game(tags, turns)`` builds one (turns as text like ``44n66`` or int codes);
    :meth:`load` reads a game record or JSON game from a path or the text itself;
    :meth:`example` is the rulebook's example game. Bad input raises ParseError,
    IllegalTurnError (naming the round and side) or InvalidPositionError. The record
    itself (:class:`szsolver.formats.record.GameRecord`) is ``game.record``.
    """

    def __init__(self, tags: dict | None = None, turns=(), *, backend=None):
        self.record = record.GameRecord(tags, turns, backend=backend)

    @classmethod
    def _of(cls, rec: record.GameRecord) -> "Game":
        game = cls.__new__(cls)
        game.record = rec
        return game

    @classmethod
    def load(cls, source, *, rule=None, backend=None) -> "Game":
        """The game in ``source``: a path (text or ``pathlib.Path``) to a ``.szg``
        record or JSON game, such text itself, or a JSON game as a dict (what
        :meth:`to_json` gives). ``rule`` replays it under another rule. ParseError when
        ``source`` holds a position rather than a game, or is none of these."""
        if isinstance(source, dict):
            if source.get("type") != "game" and "turns" not in source:
                # as for text: {} or a position's JSON is not taken for an empty game
                raise ParseError("not a game: a JSON game has 'turns' (a position's JSON "
                                 "is read with szsolver.Position)")
            rec = record.parse_game_json(source, backend)
            return cls._of(rec if rule is None else rec.with_rule(rule))
        if isinstance(source, os.PathLike):
            source = os.fspath(source)
            if not on_disk(source):      # what is there (a directory, a loop) says itself
                raise InputError(f"no such game file: {cut(source, SHOWN_PATH)}")
        if not isinstance(source, str):
            raise ParseError("a game is a path, a record's or JSON game's text, or a JSON "
                             f"game (dict), not {type(source).__name__}")
        _, rec = record.load_source(source, rule, backend)
        if rec is None:
            raise ParseError("not a game: the source holds a position (read it with "
                             "szsolver.Position)")
        return cls._of(rec)

    @classmethod
    def example(cls, *, rule=None, backend=None) -> "Game":
        """The rulebook's example game (2023-07-17, Basic, 5 neutrals each; ``rule``
        replays it under another rule)."""
        rec = record.example_game(backend)
        return cls._of(rec if rule is None else rec.with_rule(rule))

    # --- facts ------------------------------------------------------------------------
    @property
    def tags(self):
        """Tag name to value, as written (``Red``, ``Blue``, ``Date``, ``Result``...):
        a read-only view, since the game was replayed and checked under these tags (a
        game with other tags is ``Game({**game.tags, "Rule": "advanced"}, game.turns)``,
        replayed and checked anew)."""
        return MappingProxyType(self.record.tags)

    @property
    def turns(self) -> list:
        """The turns in play order, as Turns (ints that print as turn text)."""
        return list(self.record.turns)

    @property
    def warnings(self) -> list[str]:
        """Doubts about the record that do not stop the replay (a wrong Result tag)."""
        return list(self.record.warnings)

    @property
    def geometry(self):
        return self.record.geometry

    @property
    def rule(self) -> int:
        return self.record.rule

    @property
    def start(self):
        """The position before the first turn (a copy)."""
        return self.record.start.copy()

    @property
    def final(self):
        """The position after the last turn (a copy; the start when there are none)."""
        return self.record.final.copy()

    def positions(self) -> list:
        """The position before each turn, then the final one (copies): ``len(turns) + 1``
        positions, ``positions()[i]`` the one in which ``turns[i]`` is played."""
        return [self.record.start.copy()] + [p.copy() for p in self.record.positions]

    def __len__(self) -> int:
        return len(self.record.turns)

    def __eq__(self, other) -> bool:
        return isinstance(other, Game) and self.record == other.record

    def __str__(self) -> str:
        """The canonical game record text."""
        return record.game_string(self.record)

    def __repr__(self) -> str:
        return f"Game({len(self)} turns, {position_string(self.record.final)!r})"

    def to_json(self) -> dict:
        """JSON-ready data: ``{"type": "game", "tags": {...}, "turns": ["44n66", ...]}``."""
        return record.game_json(self.record)

    # --- changes ----------------------------------------------------------------------
    def play(self, turn) -> None:
        """Append a turn (text or int code) after checking it (IllegalTurnError naming
        the round and side)."""
        self.record.play(turn)

    def with_rule(self, rule) -> "Game":
        """The same turns replayed under ``rule`` (see :meth:`szsolver.formats.record.GameRecord.with_rule`)."""
        return Game._of(self.record.with_rule(rule))
