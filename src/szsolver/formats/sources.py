"""Input that is "a file path, or the text itself", read the same way everywhere.

Commands and loaders take a SOURCE that names a file or is the content written
inline (a position string, a puzzle string, JSON, a list of points); ``-`` is
standard input. :func:`read_source` decides which and returns the text;
:func:`read_text_file` and :func:`read_stdin` read a file or standard input as
UTF-8 text (a byte-order mark is dropped; a binary file is refused).
:func:`write_text_file` writes an output file whole or not at all, and
:func:`same_file` tells whether two paths name one file (an output that would
replace an input).

>>> read_source("stars-zone;basic;x=;g=44:5")   # not a file: the text itself
'stars-zone;basic;x=;g=44:5'

:func:`game_of_text` tells the other games of the family from Stars' Zone: a game
record with a ``[Game "NAME"]`` tag, or a position string with the prefix ``NAME:``.

>>> game_of_text('[Game "stargazers"] [Board "12-star"] 1. 17')
'stargazers'
>>> game_of_text("stargazers:12-star:r=;b=;red:1"), game_of_text("star:5x6:...")
('stargazers', 'star')
>>> game_of_text('[Rule "basic"] 1. 44n66') is None
True
"""
from __future__ import annotations

import errno
import os
import re
import stat
import sys
from collections.abc import Callable

from ..errors import InputError
from ..inputs import SHOWN_PATH, cut, json_int

__all__ = ["read_source", "read_text_file", "read_stdin", "write_text_file", "same_file",
           "on_disk", "STDIN", "MAX_BYTES", "GAMES", "STARS_ZONE_GAME", "game_of_text"]

#: the games besides Stars' Zone, by the name used in their Game tag and position prefix
GAMES = ("stargazers", "star")
#: Stars' Zone's name in a Game tag (its records need none: a record without one is
#: Stars' Zone)
STARS_ZONE_GAME = "stars-zone"

# a tag's name in any case, as the readers take it (formats.record.tag_name)
_GAME_TAG = re.compile(r'\[\s*Game\s+"([^"\\\n]*)"\s*\]', re.IGNORECASE)
_PREFIX = re.compile(r"\s*\ufeff?\s*([a-z-]+):", re.IGNORECASE)


def game_of_text(text: str) -> str | None:
    """The name of the game (one of :data:`GAMES`) that ``text`` (a record or position
    string) belongs to, or None for Stars' Zone (no Game tag, no game prefix). A
    Game tag naming no game of :data:`GAMES` is left to the Stars' Zone reader, which
    reads ``[Game "stars-zone"]`` (:data:`STARS_ZONE_GAME`) and refuses any other name."""
    if text.lstrip().lstrip("\ufeff").startswith("{"):
        found = _game_of_json(text)
        if found is not False:
            return found
    m = _GAME_TAG.search(text)
    if m is not None:
        name = m.group(1).strip().lower()
        return name if name in GAMES else None
    m = _PREFIX.match(text)
    if m is not None and m.group(1).lower() in GAMES:
        return m.group(1).lower()
    return None

def _game_of_json(text: str) -> str | None | bool:
    """The game of a JSON object as the commands print them: ``"game": NAME``, or a
    position string or record naming it, at the top or one level down (``show --json``
    holds the position's JSON, ``replay --json`` the game's). None for Stars' Zone;
    False for text that is no JSON (a record may open with a ``{comment}``)."""
    import json
    try:
        data = json.loads(text.strip().lstrip("\ufeff"), parse_int=json_int)
    except (ValueError, RecursionError):
        return False

    def name_in(d, depth):
        if not isinstance(d, dict):
            return None
        name = d.get("game")
        if isinstance(name, str):
            return name.strip().lower() if name.strip().lower() in GAMES else None
        for key in ("position", "record"):
            if isinstance(d.get(key), str) and not d[key].lstrip().startswith("{"):
                found = game_of_text(d[key])
                if found:
                    return found
        if depth:
            for key in ("game", "position", "final"):
                found = name_in(d.get(key), depth - 1)
                if found:
                    return found
        return None
    return name_in(data, 1)


#: the SOURCE that means standard input
STDIN = "-"
#: the largest input read (bytes): every format here is far smaller; this keeps a
#: device like /dev/zero from filling the memory
MAX_BYTES = 16 * 2 ** 20


def _text(data: bytes, name: str) -> str:
    """``data`` as UTF-8 text without a byte-order mark; InputError for anything else."""
    if len(data) > MAX_BYTES:
        raise InputError(f"cannot read {cut(name, SHOWN_PATH)}: larger than "
                         f"{MAX_BYTES // 2 ** 20} MiB, not a position, game or puzzle")
    if b"\0" in data:
        raise InputError(f"cannot read {cut(name, SHOWN_PATH)}: not a text file")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise InputError(f"cannot read {cut(name, SHOWN_PATH)}: not a text file "
                         "(UTF-8 expected)") from None


def read_text_file(path: str) -> str:
    """The text of the file ``path`` (see :func:`_text`); InputError ``cannot read
    PATH: <reason>`` when it cannot be read: a directory, a symlink loop, a link to
    nothing, a file not readable, a named pipe nothing writes to (read at once, never waited
    for: a pipe from ``<(cmd)`` has its writer and is read to its end)."""
    try:
        # not blocked by a named pipe without a writer; blocking again for the read
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as e:
        raise InputError(f"cannot read {cut(path, SHOWN_PATH)}: {_why(path, e)}") from None
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise InputError(f"cannot read {cut(path, SHOWN_PATH)}: it is a directory")
        os.set_blocking(fd, True)
        with os.fdopen(fd, "rb", closefd=False) as f:
            data = f.read(MAX_BYTES + 1)
    except OSError as e:
        raise InputError(f"cannot read {cut(path, SHOWN_PATH)}: {_why(path, e)}") from None
    finally:
        os.close(fd)
    if not data and stat.S_ISFIFO(mode):
        raise InputError(f"cannot read {cut(path, SHOWN_PATH)}: a pipe with nothing written "
                         "to it (is anything writing to it?)")
    return _text(data, path)


def write_text_file(path: str, text: str) -> None:
    """Write ``text`` to ``path`` whole or not at all: into a temporary file in the same
    directory, flushed to disk, then put in place with ``os.replace``, so a failure or
    Ctrl-C leaves the old file (or none), never half of the new one. A symbolic link
    is written through (its target is replaced); a path that is not a regular file (a
    terminal, a pipe, ``/dev/stdout``) is written directly. OSError as ``open`` raises it.
    """
    try:
        mode = os.stat(path).st_mode
    except (OSError, ValueError):
        mode = None
    if mode is not None and not stat.S_ISREG(mode):
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        return
    target = os.path.realpath(path)
    folder, name = os.path.split(target)
    tmp = os.path.join(folder, f".{name}.tmp{os.getpid()}")
    try:
        f = open(tmp, "w", encoding="utf-8")
    except PermissionError:
        if mode is None:
            raise
        # a file that may be written in a folder that may not: written in place
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        return
    try:
        with f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        if mode is not None:
            try:
                os.chmod(tmp, stat.S_IMODE(mode))      # the file keeps its permissions
            except OSError:
                pass
        os.replace(tmp, target)
    except BaseException:
        try:
            os.remove(tmp)
        except OSError:
            pass
        raise


def same_file(a: str, b: str) -> bool:
    """Do paths ``a`` and ``b`` name one existing file (``./c.szg`` and ``c.szg``, a
    symbolic link and its target, two hard links)? False when either is missing."""
    try:
        return os.path.samefile(a, b)
    except (OSError, ValueError):
        return False


def stdin_is(path: str) -> bool:
    """Is standard input the existing file ``path`` (``< c.szg``), by device and inode?
    False when it is a terminal, a pipe or closed, or ``path`` is missing."""
    try:
        a, b = os.fstat(0), os.stat(path)
    except (OSError, ValueError):
        return False
    return stat.S_ISREG(a.st_mode) and (a.st_dev, a.st_ino) == (b.st_dev, b.st_ino)


def _why(path: str, error: OSError) -> str:
    """Why ``path`` could not be read, in a few words."""
    if error.errno == errno.ELOOP:
        return "a symlink loop (too many levels of symbolic links)"
    if error.errno == errno.ENOENT and os.path.islink(path):
        return f"a symbolic link to {cut(os.readlink(path), SHOWN_PATH)}, which does not exist"
    return error.strerror or str(error)


def read_stdin() -> str:
    """Standard input as text (SOURCE ``-``)."""
    stream = sys.stdin
    if stream is None:
        raise InputError("cannot read standard input: there is none")
    buffer = getattr(stream, "buffer", None)
    try:
        if buffer is not None:
            data = buffer.read(MAX_BYTES + 1)
        else:
            text = stream.read(MAX_BYTES + 1)
            data = text.encode("utf-8", "surrogateescape") if isinstance(text, str) else text
    except OSError as e:
        raise InputError(f"cannot read standard input: {e.strerror or e}") from None
    return _text(data, "standard input")


def read_source(source: str, *, inline: Callable[[str], bool] | None = None,
                missing: str = "no such file", directory: str | None = None) -> str:
    """The text of ``source``: standard input for ``-``, the content of the file when
    ``source`` names an existing path, else ``source`` itself.

    - A path that cannot be read (including a directory, unless ``directory`` is
      given, and a binary file) raises InputError ``cannot read SOURCE: <reason>``.
    - ``directory``: what the source should have been; a directory then raises
      InputError ``SOURCE is a directory, not <directory>``.
    - ``inline``: when given, a ``source`` that is no path must pass ``inline(source)``
      to count as text; otherwise it is taken for a missing file and raises InputError
      ``<missing>: SOURCE``.

    >>> read_source("44", inline=lambda s: ";" in s, missing="no such puzzle file")
    Traceback (most recent call last):
    ...
    szsolver.errors.InputError: no such puzzle file: 44
    """
    if source == STDIN:
        return read_stdin()
    if directory is not None and os.path.isdir(source):
        raise InputError(f"{cut(source, SHOWN_PATH)} is a directory, not {directory}")
    if on_disk(source):
        return read_text_file(source)
    if inline is not None and not inline(source):
        raise InputError(f"{missing}: {cut(source, SHOWN_PATH)}")
    return source.removeprefix("\ufeff")


def on_disk(source: str) -> bool:
    """Does ``source`` name something on disk, a file or not, readable or not (a
    symlink loop and a link to nothing count, so that reading them says so)? False for
    text that cannot be a path."""
    try:
        return os.path.lexists(source)
    except (ValueError, OSError):   # a NUL byte, a name too long for the system
        return False
