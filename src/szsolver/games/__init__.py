"""The registry of the family's games: Stars' Zone, Star and Stargazers, each one
:class:`~szsolver.games.contract.Entry` under one contract (see
:mod:`szsolver.games.contract`: the vocabulary, the commands, the options).

The command line, the web app and batch work find a game here and only here: by its
name or an alias (:func:`get`), or by the text they were given (:func:`of_text`: a
record's Game tag or a position string's prefix; Stars' Zone when there is neither).
Each game's own package (:mod:`szsolver.star`, :mod:`szsolver.stargazers`, and for
Stars' Zone the rules, formats, endgame, engine and analysis) sits below this one.

>>> [g.name for g in GAMES]
['stars-zone', 'star', 'stargazers']
>>> get("STARGAZERS").title, get("sz").name
('Stargazers', 'stars-zone')
>>> of_text('[Game "star"] 1. E5').name, of_text("1. 44n66 64").name
('star', 'stars-zone')
>>> get("go")
Traceback (most recent call last):
...
szsolver.errors.UnsupportedError: unknown game 'go': the games are stars-zone, star, stargazers
"""
from __future__ import annotations

from ..errors import UnsupportedError
from . import star, stargazers, stars_zone
from .contract import COMMANDS, Answer, Entry, Source

__all__ = ["GAMES", "COMMANDS", "DEFAULT", "Entry", "Source", "Answer", "get", "of_text",
           "names", "stars_zone_only"]

#: every game of the family, Stars' Zone (the default) first
GAMES: tuple[Entry, ...] = (stars_zone.ENTRY, star.ENTRY, stargazers.ENTRY)
#: the game a text without a Game tag or game prefix belongs to
DEFAULT: Entry = stars_zone.ENTRY

_BY_NAME = {key: g for g in GAMES for key in (g.name, *g.aliases)}


def names() -> list[str]:
    """The games' names, Stars' Zone first."""
    return [g.name for g in GAMES]


def get(name: str) -> Entry:
    """The game called ``name`` (its name or an alias, in any case); UnsupportedError
    (bad input) naming the games otherwise."""
    from ..inputs import name_key, shown
    key = name_key(name) if isinstance(name, str) else None
    if key not in _BY_NAME:
        raise UnsupportedError(f"unknown game {shown(str(name))}: the games are "
                               + ", ".join(names()))
    return _BY_NAME[key]


def of_text(text: str) -> Entry:
    """The game ``text`` (a record, a position string, JSON of either) belongs to: the
    first other game whose ``detect`` takes it, else Stars' Zone, whose reader then
    refuses a Game tag naming no game of the family."""
    for g in GAMES:
        if g is not DEFAULT and g.detect(text):
            return g
    return DEFAULT


def stars_zone_only(what: str, entry: Entry) -> None:
    """For what only Stars' Zone offers (``potential``, ``batch deep-solve``, the web's
    potential map): UnsupportedError (bad input, one line) naming ``what`` and the game
    when ``entry`` is another game. The one place where that is refused."""
    if entry is not DEFAULT:
        raise UnsupportedError(f"{what} is not available for {entry.name} positions and games")
