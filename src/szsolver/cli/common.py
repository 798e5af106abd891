"""What every command shares: :class:`BadInput` (one-line error, exit code 2) and
:class:`SystemFailure` (exit code 1; :func:`output_error` tells them apart for an
output file), the option types for limits and names (:data:`SECONDS`,
:func:`whole_number`, :class:`WholeRange`, :class:`Names`: read by
:mod:`szsolver.inputs`), SOURCE with ``--example`` (:func:`source_argument`,
:func:`load_source_arg`, :func:`load_position`), :func:`emit` (text for people,
``--json`` for programs), :func:`write_file` (whole or not at all),
:func:`not_an_input` (an output never replaces what the command reads), the progress
line on a terminal and the help's :func:`examples`."""
from __future__ import annotations

import errno
import json
import math
import sys
import threading
import time

import click

from ..formats.record import example_position  # noqa: F401  (the commands' --example)

#: the largest whole number a limit may be (the C search counts in 64-bit integers)
MAX_WHOLE = 2 ** 63 - 1
#: ``solve --example`` and ``potential --example``: the rulebook game's position with
#: this many turns left (an endgame the solver proves in a moment)
EXAMPLE_TURNS_LEFT = 6


class BadInput(click.ClickException):
    """Bad input: printed as one line 'Error: ...', exit code 2."""
    exit_code = 2


class SystemFailure(click.ClickException):
    """Not bad input, not a bug: the system failed (a full disk, out of memory, an
    optional extra not installed). Printed as one line 'Error: ...', exit code 1."""
    exit_code = 1


#: errors of an output file that are the system's, whatever the path: the disk or the
#: quota full, a file too large for the file system, the device failing, no memory or
#: no file descriptors left
SYSTEM_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO, errno.ENOMEM,
                           errno.EMFILE, errno.ENFILE})


def output_error(path: str, e: OSError, opened: bool = False,
                 action: str = "write") -> click.ClickException:
    """The one-line error ``cannot ACTION PATH: reason`` for an output file (or
    directory) that could not be written. Once the file was ``opened``, a failing write
    or close is the system's (a full disk): :class:`SystemFailure`, exit code 1; so is a
    system error on opening it (:data:`SYSTEM_ERRNOS`). Anything else on opening comes
    from the path given (no such directory, a directory, permission denied, a read-only
    file system): :class:`BadInput`, exit code 2."""
    from ..inputs import SHOWN_PATH, cut
    text = f"cannot {action} {cut(path, SHOWN_PATH)}: {e.strerror or e}"
    if opened or e.errno in SYSTEM_ERRNOS:
        return SystemFailure(text)
    return BadInput(text)


# --- option types -------------------------------------------------------------------------

class Seconds(click.ParamType):
    """A time in seconds: a finite number above 0 and at most
    :data:`szsolver.limits.MAX_SECONDS` (``nan``, ``inf``, ``0``, negative and
    huge numbers are bad input)."""
    name = "seconds"

    def convert(self, value, param, ctx):
        from ..inputs import is_decimal
        from ..limits import MAX_SECONDS
        if isinstance(value, float) and math.isfinite(value) and 0 < value <= MAX_SECONDS:
            return value
        if isinstance(value, str) and not is_decimal(value) \
                and value.strip().lower() not in _NOT_FINITE:
            self.fail(f"{_short(value, quote=True)} is not a number of seconds", param, ctx)
        try:
            x = float(value.strip() if isinstance(value, str) else value)
        except (TypeError, ValueError, OverflowError):
            self.fail(f"{_short(value, quote=True)} is not a number of seconds", param, ctx)
        if not (math.isfinite(x) and x > 0):
            self.fail(f"must be positive (a finite number of seconds), got {_short(value)}",
                      param, ctx)
        if x > MAX_SECONDS:
            self.fail(f"too large: at most {MAX_SECONDS:.0e} seconds, got {_short(value)}",
                      param, ctx)
        return x


class SeedText(click.ParamType):
    """A seed: any text of one line, not empty (an empty one is most often a shell
    variable that was not set), at most :data:`MAX_SEED` characters."""
    name = "text"

    def convert(self, value, param, ctx):
        if not isinstance(value, str):
            value = str(value)
        if not value.strip():
            self.fail("empty: give any text (the same seed gives the same result)", param, ctx)
        if len(value) > MAX_SEED or any(ch in value for ch in "\r\n\0"):
            self.fail(f"one line of at most {MAX_SEED} characters, got {_short(value, quote=True)}",
                      param, ctx)
        return value


MAX_SEED = 200
SEED = SeedText()


#: what ``float()`` reads as NaN or infinite: a number, but not a time limit
_NOT_FINITE = {"nan", "-nan", "inf", "-inf", "infinity", "-infinity"}


def _whole(value, minimum: int, maximum: int) -> int:
    """``value`` (an int, or text read by :func:`szsolver.inputs.number`: ASCII digits,
    a leading ``-`` at most) from ``minimum`` to ``maximum``; InputError otherwise."""
    from ..errors import InputError
    from ..inputs import number
    if isinstance(value, int) and not isinstance(value, bool):
        value = str(value)
    return number(value, "", lo=minimum, hi=maximum, negative=True, error=InputError)


class Beyond(int):
    """A whole number given past the 64-bit range (:data:`MAX_WHOLE`) to an option
    whose range is not the command line's to say (``check --turn``: the game's turns).
    It compares as one past that range, so the command's own check refuses it in its
    own words, and it prints as it was written (cut to
    :data:`szsolver.inputs.SHOWN` characters): ``turn 99999999999999999999 is outside
    the game (turns 1-32)``, not a bound of 64 bits the user never asked about.

    >>> n = Beyond("-99999999999999999999")
    >>> n < -MAX_WHOLE, f"turn {n}"
    (True, 'turn -99999999999999999999')
    """

    def __new__(cls, text: str):
        text = text.strip()
        self = super().__new__(cls, -(MAX_WHOLE + 1) if text.startswith("-") else MAX_WHOLE + 1)
        self.text = text
        return self

    def __str__(self) -> str:
        from ..inputs import cut
        return cut(self.text)

    __repr__ = __str__

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)


def _past_whole(value) -> bool:
    """Is ``value`` the text of a whole number (ASCII digits, a leading ``-`` at most)
    past the 64-bit range, ``-MAX_WHOLE..MAX_WHOLE``?"""
    from ..inputs import is_digits
    if not isinstance(value, str):
        return False
    digits = value.strip().removeprefix("-")
    if not is_digits(digits):
        return False
    digits = digits.lstrip("0")
    width = len(str(MAX_WHOLE))
    return len(digits) > width or len(digits) == width and int(digits) > MAX_WHOLE


def _whole_or_beyond(value, minimum: int, maximum: int, beyond: bool) -> int:
    """:func:`_whole`, and with ``beyond`` a number past the 64-bit range as
    :class:`Beyond` (a negative one only where ``minimum`` is negative; what is below
    ``minimum`` or above ``maximum`` inside that range is still refused here)."""
    if beyond and _past_whole(value) and (minimum < 0 or not value.strip().startswith("-")):
        return Beyond(value)
    return _whole(value, minimum, maximum)


class WholeNumber(click.ParamType):
    """A whole number from ``minimum`` to ``maximum`` (default :data:`MAX_WHOLE`),
    written in ASCII digits (no ``+``, ``_``, ``1e6`` or ``0x``). ``beyond``: the
    command checks the number against a range of its own (the game's turns, its
    horizon, the dates there are), and a number past 64 bits reaches that check as
    :class:`Beyond`, to be refused in the command's words."""
    name = "integer"

    def __init__(self, minimum: int = 1, maximum: int = MAX_WHOLE, beyond: bool = False):
        self.minimum, self.maximum, self.beyond = minimum, maximum, beyond

    def convert(self, value, param, ctx):
        from ..errors import InputError
        try:
            return _whole_or_beyond(value, self.minimum, self.maximum, self.beyond)
        except InputError as e:
            self.fail(str(e), param, ctx)


class WholeRange(click.IntRange):
    """``click.IntRange`` (the same help text), its text read as :class:`WholeNumber`
    reads it (``beyond`` too)."""

    def __init__(self, *args, beyond: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        self.beyond = beyond

    def convert(self, value, param, ctx):
        from ..errors import InputError
        lo = self.min if self.min is not None else -MAX_WHOLE
        hi = self.max if self.max is not None else MAX_WHOLE
        try:
            return _whole_or_beyond(value, lo, hi, self.beyond)
        except InputError as e:
            self.fail(str(e), param, ctx)


class Names(click.Choice):
    """``click.Choice`` of lower-case names (the same help text), read in any case of
    ASCII letters (:func:`szsolver.inputs.name_key`): ``--rule BASIC`` is ``basic``."""

    def convert(self, value, param, ctx):
        from ..inputs import name_key
        if isinstance(value, str) and name_key(value) in self.choices:
            return name_key(value)
        return super().convert(value if not isinstance(value, str) else _short(value),
                               param, ctx)


def _short(value, quote: bool = False) -> str:
    """A value for a one-line message, cut (:func:`szsolver.inputs.shown`)."""
    from ..inputs import cut, shown
    text = str(value).strip()
    return shown(text) if quote else cut(text)


#: ``--time-limit``, ``--time``, ``--time-per-turn``...: positive, finite seconds
SECONDS = Seconds()


def whole_number(minimum: int = 1, maximum: int = MAX_WHOLE, *,
                 beyond: bool = False) -> WholeNumber:
    """The option type of a count or limit (``--node-limit``, ``--tt-size``...);
    ``beyond``: its range is the command's to check (:class:`WholeNumber`)."""
    return WholeNumber(minimum, maximum, beyond)


# --- help ---------------------------------------------------------------------------------

def examples(*lines: str):
    """Lead a command's ``--help`` with worked examples: an ``Examples:`` block right
    after its summary (the first paragraph of its doc; the command list still shows the
    summary alone). Each line is a command that works as written, from any directory,
    optionally followed by ``  # what it shows``; tests/test_cli_help.py runs them.
    Apply it above ``@click.command``."""
    def deco(cmd: click.Command) -> click.Command:
        import inspect
        summary, _, rest = inspect.cleandoc(cmd.help or "").partition("\n\n")
        split = [line.partition("  # ")[::2] for line in lines]
        width = max([len(c) for c, note in split if note] or [0])
        if any(width + len(note) > 72 for _c, note in split if note):
            width = 0                  # notes lined up only where that fits 80 columns
        shown = [f"  {c.ljust(width)}  # {note}" if note else f"  {c}" for c, note in split]
        block = "\b\nExamples:\n" + "\n".join(shown)
        cmd.help = f"{summary}\n\n{block}" + (f"\n\n{rest}" if rest else "")
        return cmd
    return deco


# --- SOURCE -------------------------------------------------------------------------------



def source_argument(example_help: str = "Use the bundled rulebook example game instead of "
                                        "SOURCE."):
    """SOURCE (optional) and ``--example``, for commands that read a position or game."""
    def deco(f):
        f = click.option("--example", is_flag=True, help=example_help)(f)
        return click.argument("source", required=False)(f)
    return deco


def load_source_arg(source, rule: str | None, warn: bool = True):
    """(position, game or None) from what a Stars' Zone command reads (``source``: the
    :class:`szsolver.games.Source` that :func:`szsolver.cli.games.stars_zone_only`
    gives, SOURCE read once, or ``--example``: the bundled rulebook game, or with
    ``example_turns_left`` its position with that many turns still to play and no
    game), read as Stars' Zone (:data:`szsolver.games.DEFAULT`). ``warn``: see
    :func:`load_position`."""
    from ..games import DEFAULT
    pos, game = DEFAULT.load(source, rule)
    if warn:
        show_warnings(game)
    return pos, game


def load_position(source: str, rule: str | None = None, warn: bool = True):
    """A position from SOURCE: ``-`` (standard input), a position string, a file
    holding one (or a JSON position), or a game record, inline or a file (its last
    position). Returns (position, game or None). ``rule`` overrides the rule (a game is
    replayed under it). Raises InputError naming the problem. A game's warnings (e.g. a
    Result tag the replay contradicts) go to stderr as ``Warning: ...`` lines; with
    ``warn=False`` the caller prints them (:func:`show_warnings`) once the rest of its
    input has been checked, so bad input stays one line."""
    from ..formats.record import load_source
    pos, game = load_source(source, rule)
    if warn:
        show_warnings(game)
    return pos, game


def show_warnings(game) -> None:
    """Warnings on stderr, one ``Warning: ...`` line each: a game's (None: nothing) or
    an answer's (a list of them)."""
    warnings = game if isinstance(game, (list, tuple)) else \
        game.warnings if game is not None else ()
    for w in warnings:
        click.echo(f"Warning: {w}", err=True)


# --- output -------------------------------------------------------------------------------

def emit(data, text: str, as_json: bool, game=None) -> None:
    """Print ``data`` as JSON or ``text`` for people. ``game``: the record the answer was
    read from, whose warnings (printed on stderr) the JSON then carries as ``warnings``."""
    if as_json:
        if isinstance(data, dict):
            from ..formats.record import with_warnings
            data = with_warnings(data, game)
        click.echo(json.dumps(data, indent=2, ensure_ascii=False))
    else:
        click.echo(text)


def write_file(path: str, text: str) -> None:
    """Write an output file (an SVG picture, a puzzle) whole or not at all
    (:func:`szsolver.formats.sources.write_text_file`): the file as it was when it
    fails. A path that cannot be opened is bad input (one line, exit code 2); a full
    disk, the device failing, is the system's (one line, exit code 1): see
    :func:`output_error`."""
    from ..formats.sources import write_text_file
    if not path.strip():
        raise BadInput("an output file needs a name, got ''")
    try:
        write_text_file(path, text)
    except OSError as e:
        raise output_error(path, e) from None


def refuse_earlier(paths, option: str) -> None:
    """BadInput (one line, exit code 2, checked before anything is written) when any of
    ``paths`` exists: no output replaces an earlier result unless the person asks with
    ``--force``; ``option`` is the one naming the folder (``--out``, ``--svg``)."""
    import os

    from ..inputs import SHOWN_PATH, cut
    taken = next((p for p in paths if os.path.lexists(p)), None)
    if taken is not None:
        raise BadInput(f"{cut(taken, SHOWN_PATH)} exists (an earlier run?): pass --force "
                       f"to replace it, or {option} another folder")


def earlier_outputs(directory: str, pattern, kind: str | None = None) -> list[str]:
    """The paths in ``directory`` of a command's numbered outputs, an earlier run's
    included: the names ``pattern`` (a compiled regular expression, group 1 the kind of
    output: ``turn``, ``move``, ``game``) matches whole, of any kind or only ``kind``'s;
    sorted, none when ``directory`` is missing."""
    import os
    try:
        names = os.listdir(directory)
    except OSError:
        return []
    found = (pattern.fullmatch(n) for n in names)
    return sorted(os.path.join(directory, m.group(0)) for m in found
                  if m and kind in (None, m.group(1)))


def not_removing_an_input(paths, option: str, inputs=()) -> None:
    """BadInput (one line, exit code 2, checked before anything is written) when
    ``--force`` would remove one of the files the command reads: ``paths`` are the
    earlier outputs it would remove (:func:`remove_earlier`), ``inputs`` as for
    :func:`not_an_input` (a game record named like an earlier replay's picture)."""
    from ..inputs import SHOWN_PATH, cut
    for path in paths:
        for source in inputs:
            if _reads(source, path):
                raise BadInput(f"--force would remove {cut(path, SHOWN_PATH)}, named as an "
                               f"earlier run's output but read as the input: give {option} "
                               "another folder")


def remove_earlier(directory: str, pattern, keep=()) -> None:
    """With ``--force``: remove an earlier run's numbered outputs in ``directory``
    (:func:`earlier_outputs`, of every kind) except the paths in ``keep`` (this
    run's), so the folder never holds a mixed set (``replay --svg``'s pictures,
    ``selfplay``'s records). One line, exit code 1 or 2, naming a file that cannot be
    removed (:func:`output_error`)."""
    import os
    kept = {os.path.realpath(p) for p in keep}
    for path in earlier_outputs(directory, pattern):
        if os.path.realpath(path) not in kept:
            try:
                os.remove(path)
            except FileNotFoundError:
                pass
            except OSError as e:
                raise output_error(path, e, action="remove") from None


def input_files(*sources: str | None, example: bool = False) -> list[str]:
    """The files a command reads, for :func:`not_an_input`: each SOURCE (``-``: the
    file on standard input, if it is one; text written inline and None are left out
    there) and, with ``--example``, the bundled example game."""
    paths = [s for s in sources if s is not None]
    if example:
        from ..formats.record import example_path
        paths.append(example_path())
    return paths


def _reads(source: str | None, path: str) -> bool:
    """Is ``path`` the file the command reads as ``source`` (``-``: the file on
    standard input; by device and inode)?"""
    from ..formats.sources import same_file, stdin_is
    if source == "-":
        return stdin_is(path)
    return bool(source) and same_file(path, source)


def not_an_input(path: str | None, option: str, inputs=(), outputs=(),
                 instead: str = "give another file name") -> None:
    """BadInput (one line, exit code 2, checked before any work) when the output
    ``path`` of ``option`` is the same file as one the command reads (``inputs``:
    SOURCE, PUZZLE... as given, ``-`` the file redirected to standard input; by device
    and inode, so ``./c.szg``, a symbolic link and a hard link count) or as another of its outputs (``outputs``: (option, path)
    pairs): writing it would replace that file. ``instead``: what to do about it."""
    from ..formats.sources import same_file
    if not path:
        return
    for source in inputs:
        if not _reads(source, path):
            continue
        if source == "-":
            raise BadInput(f"{option} {path} would replace the input, the file on standard "
                           f"input: {instead}")
        shown = source if source == path else f"{source} (the same file)"
        raise BadInput(f"{option} {path} would replace the input {shown}: {instead}")
    import os
    for other, other_path in outputs:
        if other_path and (same_file(path, other_path)
                           or os.path.realpath(path) == os.path.realpath(other_path)):
            raise BadInput(f"{option} and {other} name the same file {path}: give two names")


#: Off a terminal a progress line is written as a plain line when something is
#: reached (a proved bound), and at most this often while nothing is: enough for a
#: log to show the command at work, few enough lines to read.
PLAIN_SECONDS = 10.0


class _ProgressLine:
    """Progress on stderr. On a terminal (``tty``): one updating line, the last
    message and the seconds since the start, redrawn every second by a daemon
    thread, so that a long proof (one probe can take minutes) still shows that the
    command is working. Off a terminal: plain lines, one for each milestone
    (:meth:`note`) and, while nothing else is said, the current message every
    :data:`PLAIN_SECONDS`. A message is text, or a function giving it at each redraw
    (live counts). :func:`end_progress` stops it, and so does the end of the
    command's click context, before an error is printed."""

    def __init__(self, tty: bool = True):
        self.tty = tty
        self.start = time.monotonic()
        self.msg = "working"           # until the command says what it is doing
        self.drawn = 0.0
        self.lock = threading.Lock()
        self.done = threading.Event()
        ctx = click.get_current_context(silent=True)
        if ctx is not None:
            ctx.call_on_close(self.close)
        threading.Thread(target=self._tick, daemon=True).start()

    def _text(self) -> str:
        text = self.msg() if callable(self.msg) else self.msg
        elapsed = time.monotonic() - self.start
        return f"{text}, {elapsed:.0f} s" if self.tty else f"{text}, {elapsed:.1f} s"

    def _draw(self) -> None:
        with self.lock:
            if not self.done.is_set():
                text = self._text()
                if self.tty:        # one line, cut to the terminal's width (else it wraps)
                    import shutil
                    width = shutil.get_terminal_size((100, 24)).columns - 1
                    click.echo(f"\r\033[K{text[:max(width, 20)]}", err=True, nl=False)
                else:
                    click.echo(text, err=True)
                self.drawn = time.monotonic()

    def _tick(self) -> None:
        while not self.done.wait(1.0):
            if self.tty or time.monotonic() - max(self.drawn, self.start) >= PLAIN_SECONDS:
                self._draw()

    def __call__(self, msg) -> None:
        """Say what the command is doing now (on a terminal; off one it shows in the
        next plain line that time brings)."""
        self.msg = msg
        now = time.monotonic()
        if self.tty and now - self.drawn >= 0.1:   # a fast stream: a few redraws a second
            self._draw()

    def note(self, msg) -> None:
        """A milestone (a bound proved): drawn at once, a plain line off a terminal."""
        self.msg = msg
        self._draw()

    def close(self) -> None:
        with self.lock:
            if not self.done.is_set():
                self.done.set()
                if self.tty:
                    click.echo("\r\033[K", err=True, nl=False)


def progress_printer(enabled: bool = True, lines: bool = False):
    """A progress callback on stderr (with the seconds spent): one updating line on a
    terminal; off a terminal plain lines with ``lines`` (see :class:`_ProgressLine`),
    else None. Close it with :func:`end_progress`."""
    if not enabled:
        return None
    if sys.stderr.isatty():
        return _ProgressLine()
    return _ProgressLine(tty=False) if lines else None


def end_progress(show) -> None:
    """Clear the progress line and stop its clock, if one was shown (safe twice)."""
    if show is not None:
        show.close()
