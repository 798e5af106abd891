"""Input that is "a file path, or the text itself", read the same way everywhere.

Commands and loaders take a SOURCE that names a file or is the content written
inline (a position string, a puzzle string, JSON, a list of points). :func:`read_source`
decides which and returns the text.

>>> read_source("stars-zone;basic;x=;g=44:5")   # not a file: the text itself
'stars-zone;basic;x=;g=44:5'
"""
from __future__ import annotations

import os
from collections.abc import Callable

from ..errors import InputError

__all__ = ["read_source"]


def read_source(source: str, *, inline: Callable[[str], bool] | None = None,
                missing: str = "no such file", directory: str | None = None) -> str:
    """The text of ``source``: the content of the file when ``source`` names an existing
    path (UTF-8), else ``source`` itself.

    - A path that cannot be read (including a directory, unless ``directory`` is
      given) raises InputError ``cannot read SOURCE: <reason>``.
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
    if directory is not None and os.path.isdir(source):
        raise InputError(f"{source} is a directory, not {directory}")
    if os.path.exists(source):
        try:
            with open(source, encoding="utf-8") as f:
                return f.read()
        except (OSError, UnicodeDecodeError) as e:
            raise InputError(f"cannot read {source}: {e}") from None
    if inline is not None and not inline(source):
        raise InputError(f"{missing}: {source}")
    return source
