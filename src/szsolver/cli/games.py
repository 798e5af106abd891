"""Which game a SOURCE belongs to, and the command line module that handles it.

``szsolver show``, ``score``, ``replay`` (and the analysis commands) read Stars' Zone
by default. The other games of the family are recognised from the text itself:

- a game record with a ``[Game "NAME"]`` tag, NAME one of :data:`GAMES`
  (``[Game "stargazers"]``), in any case; a record without a Game tag, or with
  ``[Game "stars-zone"]``, is Stars' Zone (which refuses a Game tag naming no game);
- a position string that starts with the game's prefix ``NAME:``
  (``stargazers:12-star:...``); a Stars' Zone position has no such prefix.

The contract for a game's command line module ``szsolver.cli.game_NAME``:

- it defines one function per command it supports, named as the command
  (``show``, ``score``, ``replay``, ``best``, ``check``, ``annotate``, ``solve``...);
- :func:`dispatch` calls it as ``function(text, **options)``: ``text`` is the SOURCE's
  content (read once, so standard input is never read twice) and ``options`` are the
  command's other parameters by their click names (``example``, ``rule``, ``as_json``,
  ``svg_file``...); the function prints its output and raises
  :class:`szsolver.errors.InputError` (or ``BadInput``) for bad input, including an option
  that does not apply to its game;
- a command the module does not define is reported as
  :class:`szsolver.errors.UnsupportedError` naming the command and the game.

A command hooks in with two lines at its top::

    if dispatch("show", source, example=example, rule=rule, as_json=as_json):
        return

Which game a text is: :func:`szsolver.formats.sources.game_of_text` (its examples
are there), also used where only Stars' Zone is read, to name the game given.
"""
from __future__ import annotations

import importlib
import io
import os
import sys

from ..errors import UnsupportedError
from ..formats.sources import GAMES, STDIN, game_of_text, read_stdin, read_text_file

__all__ = ["GAMES", "game_of_text", "read_routed", "dispatch"]


def read_routed(source: str | None) -> tuple[str | None, str | None]:
    """(game name or None, text read or None) for a command's SOURCE.

    ``-`` reads standard input once; when the text is Stars' Zone, standard input is
    put back holding the same bytes, so the Stars' Zone reader sees it unchanged. A file
    is read; a file that cannot be read (or a directory) is left to the Stars' Zone
    reader, which reports it. Anything else is the text itself."""
    if source is None:
        return None, None
    if source == STDIN:
        text = read_stdin()
        name = game_of_text(text)
        if name is None:
            sys.stdin = io.TextIOWrapper(io.BytesIO(text.encode("utf-8")), encoding="utf-8")
        return name, text
    try:
        on_disk = os.path.isfile(source)
    except (ValueError, OSError):
        on_disk = False
    if on_disk:
        try:
            text = read_text_file(source)
        except ValueError:
            return None, None
    else:
        text = source
    return game_of_text(text), text


def dispatch(command: str, source: str | None, **options) -> bool:
    """Run ``command`` for SOURCE's game if it is one of :data:`GAMES`: True when it
    ran (the Stars' Zone command then returns), False for Stars' Zone (and for
    ``--example`` or no SOURCE, which are Stars' Zone's). See the module doc for what
    the game's module receives."""
    if options.get("example") or source is None:
        return False
    name, text = read_routed(source)
    if name is None:
        return False
    module = importlib.import_module(f"szsolver.cli.game_{name}")
    run = getattr(module, command, None)
    if run is None:
        raise UnsupportedError(f"{command} is not available for {name} positions and games")
    from .common import input_files, reading
    with reading(input_files(source)):          # its outputs are checked against SOURCE
        run(text, **options)
    return True
