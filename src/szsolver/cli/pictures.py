"""Pictures the commands write: a game turn by turn (``replay --svg DIR``), a solved
position with its line of play (``solve --svg FILE``), checking an output path before
any work (:func:`out_path`), and writing several output files all or nothing."""
from __future__ import annotations

import os

from ..inputs import SHOWN_PATH, cut
from .common import BadInput, not_an_input, output_error, write_file


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
    (``inputs``, and SOURCE as :func:`~szsolver.cli.common.command_inputs` knows it):
    checked for all of them before any is written."""
    from .common import command_inputs
    seen = {}
    for path, _text in files:
        not_an_input(path, "--svg", [*inputs, *command_inputs()],
                     instead="give another directory")
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


def replay_pictures(game) -> list[tuple[str, str]]:
    """(file name, SVG) for every turn of ``game``: the position after the turn, the
    turn marked, captioned with its number, round, side and text, then side to move,
    scores and rule. Names are ``turn-01.svg`` ... (zero-padded so they sort)."""
    from ..formats.notation import format_turn
    from ..formats.svg import position_caption, position_svg
    from ..rules.base import SIDE_NAMES
    n = len(game.turns)
    width = max(2, len(str(n)))
    out = []
    for i, turn in enumerate(game.turns):
        after = game.positions[i]
        head = (f"after turn {i + 1} of {n} (round {game.round_of(i)}): "
                f"{SIDE_NAMES[game.side_of(i)]} {format_turn(turn, after.geometry)}")
        caption = "\n".join([head] + position_caption(after))
        out.append((f"turn-{i + 1:0{width}d}.svg",
                    position_svg(after, last_turn=turn, caption=caption)))
    return out


def line_picture(pos, res) -> str:
    """The position with the solver's line of play drawn on it: the best turn is 1,
    the principal variation goes on 2, 3, ...; each stone in its side's colour and
    each neutral it places in the neutral colour, both with the turn's number. The
    caption gives the value (exact or the proved bounds) and the line as text."""
    from ..formats.notation import format_turn
    from ..formats.palette import NEUTRAL_STONE, STONE_COLOURS
    from ..formats.svg import position_caption, position_svg
    from ..rules.base import turn_neutral, turn_stone
    g = pos.geometry
    line = list(res.pv) or list(res.best[:1])
    numbered = {}
    side = pos.side
    for k, t in enumerate(line, 1):
        numbered[turn_stone(t)] = (STONE_COLOURS[side], str(k))
        if turn_neutral(t) >= 0:
            numbered[turn_neutral(t)] = (NEUTRAL_STONE, str(k))
        side ^= 1
    if res.exact:
        value = f"value {res.value:+d} (Red's side, exact)"
    else:
        value = f"value not proved: {res.lower:+d} .. {res.upper:+d}"
    text = " ".join(format_turn(t, g) for t in line) + f" (numbered 1-{len(line)})"
    caption = [f"{value}; best turn {format_turn(line[0], g)}" if line else value]
    if len(line) > 1:
        caption.append("line: " + text)
    caption += position_caption(pos)
    return position_svg(pos, numbered=numbered, caption="\n".join(caption))
