"""Writing the pictures the commands draw (each game's entry in :mod:`szsolver.games`
draws them: a game turn by turn for ``replay --svg DIR``, a solved position with its
line of play for ``solve --svg FILE``): checking an output path before any work
(:func:`out_path`), writing several output files all or nothing (:func:`write_all`),
and a replay's pictures as one set, never mixed with an earlier replay's
(:func:`write_replay`)."""
from __future__ import annotations

import os
import re

from ..inputs import SHOWN_PATH, cut
from .common import (BadInput, earlier_outputs, not_an_input, not_removing_an_input,
                     output_error, refuse_earlier, remove_earlier, write_file)

#: the names of a replay's pictures, every game's: ``turn-01.svg`` ... (Stars' Zone,
#: Stargazers), ``move-001.svg`` ... (Star); group 1 is the naming
REPLAY_PICTURE = re.compile(r"(turn|move)-[0-9]+\.svg")


def out_path(value: str | None, option: str = "--svg", what: str = "a file name",
             inputs=(), outputs=()) -> str | None:
    """An output path option, checked before any work: None, or a path that can be
    written - BadInput (one line) for ``""``, for the same file as one the command
    reads (``inputs``) or another of its outputs (``outputs``: (option, path) pairs;
    see :func:`~szsolver.cli.common.not_an_input`), for a file name that is a directory
    or that cannot be opened for writing (tried, and removed again if it was not there:
    no such directory, permissions, /proc, a read-only disk; a full disk is the
    system's, see :func:`~szsolver.cli.common.output_error`), and for a directory name
    (``what`` "a directory name") that is an existing file."""
    if value is None:
        return value
    if not value.strip():
        raise BadInput(f"{option} needs {what}")
    if what == "a directory name":
        if os.path.exists(value) and not os.path.isdir(value):
            raise BadInput(f"cannot make directory {cut(value, SHOWN_PATH)}: File exists")
        return value
    not_an_input(value, option, inputs, outputs)
    if os.path.isdir(value):
        raise BadInput(f"{option}: {cut(value, SHOWN_PATH)} is a directory, not a file")
    existed = os.path.exists(value)
    try:                        # the one sure test (permissions, /proc, a read-only disk)
        with open(value, "a", encoding="utf-8"):
            pass
    except OSError as e:
        raise output_error(value, e) from None
    if not existed:             # made by the test (through a dangling link: its target)
        os.remove(os.path.realpath(value))
    return value


def write_all(files: list[tuple[str, str]], directory: str | None = None,
              inputs=()) -> None:
    """Write every (path, text), or nothing: ``directory`` (when given) is made first if
    it is missing; each file is written whole (:func:`write_file`); when any write
    fails, the files made so far (and a directory made here) are removed and one line
    names the problem: exit code 2 for a path that cannot be opened, 1 for a full disk
    (see :func:`output_error`). None of the files may be one the command reads
    (``inputs``): checked for all of them before any is written."""
    seen = {}
    for path, _text in files:
        not_an_input(path, "--svg", inputs, instead="give another directory")
        real = os.path.realpath(path)
        if real in seen:
            raise BadInput(f"two outputs would be one file, {path}: give other names")
        seen[real] = path
    made = None
    written: list[str] = []
    try:
        if directory is not None:
            if not os.path.isdir(directory):
                try:
                    os.makedirs(directory)
                except OSError as e:
                    raise output_error(directory, e, action="make directory") from None
                made = directory
        for path, text in files:
            existed = os.path.exists(path)
            write_file(path, text)
            if not existed:
                written.append(os.path.realpath(path))
    except BaseException:
        for path in written:
            try:
                os.remove(path)
            except OSError:
                pass
        if made is not None:
            try:
                os.removedirs(made)
            except OSError:
                pass
        raise


def replay_pictures_in(directory: str, naming: str | None = None) -> list[str]:
    """The paths of the replay pictures (:data:`REPLAY_PICTURE`) in ``directory``, sorted:
    of every naming, or only ``naming``'s (``turn``, ``move``); none when it is missing."""
    return earlier_outputs(directory, REPLAY_PICTURE, naming)


def write_replay(directory: str, files: list[tuple[str, str]], inputs=(),
                 force: bool = False) -> None:
    """Write a replay's pictures into ``directory`` as one set (:func:`write_all`):
    without ``force``, refused (one line, exit code 2, nothing written) when
    ``directory`` holds any of them or an earlier replay's pictures; with ``force``,
    once all are written, every earlier replay picture that this set does not replace
    is removed, of either naming (another game's too), so the folder never holds a
    mixed set."""
    for path, _text in files:
        not_an_input(path, "--svg", inputs, instead="give another directory")
    if not force:
        refuse_earlier([p for p, _ in files] + replay_pictures_in(directory), "--svg")
    else:
        not_removing_an_input(replay_pictures_in(directory), "--svg", inputs)
    write_all(files, directory=directory, inputs=inputs)
    if force:
        remove_earlier(directory, REPLAY_PICTURE, keep=[p for p, _ in files])
