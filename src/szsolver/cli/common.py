"""What every command shares: :class:`BadInput` (one-line error, exit code 2), the
option types for limits and names (:data:`SECONDS`, :func:`whole_number`,
:class:`WholeRange`, :class:`Names`: read by :mod:`szsolver.inputs`), SOURCE with
``--example`` (:func:`source_argument`, :func:`load_source_arg`, :func:`load_position`),
:func:`emit` (text for people, ``--json`` for programs), :func:`write_file` and the
progress line on a terminal."""
from __future__ import annotations

import json
import math
import sys
import threading
import time

import click

#: the largest whole number a limit may be (the C search counts in 64-bit integers)
MAX_WHOLE = 2 ** 63 - 1
#: ``solve --example`` and ``potential --example``: the rulebook game's position with
#: this many turns left (an endgame the solver proves in a moment)
EXAMPLE_TURNS_LEFT = 6


class BadInput(click.ClickException):
    """Bad input: printed as one line 'Error: ...', exit code 2."""
    exit_code = 2


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


class WholeNumber(click.ParamType):
    """A whole number from ``minimum`` to ``maximum`` (default :data:`MAX_WHOLE`),
    written in ASCII digits (no ``+``, ``_``, ``1e6`` or ``0x``)."""
    name = "integer"

    def __init__(self, minimum: int = 1, maximum: int = MAX_WHOLE):
        self.minimum, self.maximum = minimum, maximum

    def convert(self, value, param, ctx):
        from ..errors import InputError
        try:
            return _whole(value, self.minimum, self.maximum)
        except InputError as e:
            self.fail(str(e), param, ctx)


class WholeRange(click.IntRange):
    """``click.IntRange`` (the same help text), its text read as :class:`WholeNumber`
    reads it."""

    def convert(self, value, param, ctx):
        from ..errors import InputError
        lo = self.min if self.min is not None else -MAX_WHOLE
        hi = self.max if self.max is not None else MAX_WHOLE
        try:
            return _whole(value, lo, hi)
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


def whole_number(minimum: int = 1, maximum: int = MAX_WHOLE) -> WholeNumber:
    """The option type of a count or limit (``--node-limit``, ``--tt-size``...)."""
    return WholeNumber(minimum, maximum)


# --- SOURCE -------------------------------------------------------------------------------



def source_argument(example_help: str = "Use the bundled rulebook example game instead of "
                                        "SOURCE."):
    """SOURCE (optional) and ``--example``, for commands that read a position or game."""
    def deco(f):
        f = click.option("--example", is_flag=True, help=example_help)(f)
        return click.argument("source", required=False)(f)
    return deco


def load_source_arg(source: str | None, example: bool, rule: str | None,
                    turns_left: int | None = None, warn: bool = True):
    """(position, game or None) from SOURCE or ``--example`` (exactly one of them).
    ``--example`` is the bundled rulebook game; with ``turns_left`` its position with
    that many turns still to play (and no game). ``warn``: see :func:`load_position`."""
    if example:
        if source is not None:
            raise BadInput("give SOURCE or --example, not both")
        from ..formats.record import example_path
        if turns_left is not None:
            return example_position(turns_left, rule), None
        source = example_path()
    elif source is None:
        raise BadInput("missing SOURCE: a position string, a position or game file, "
                       "- for standard input, or --example")
    return load_position(source, rule, warn)


def example_position(turns_left: int, rule: str | None = None):
    """The rulebook game's position with ``turns_left`` turns still to play."""
    from ..formats.record import example_game
    game = example_game()
    if rule is not None:
        game = game.with_rule(rule)
    return game.positions[len(game.turns) - turns_left - 1]


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
    """A game's warnings on stderr, one ``Warning: ...`` line each (None: nothing)."""
    for w in game.warnings if game is not None else ():
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
    """Write an output file (an SVG picture, a puzzle); a path that cannot be
    written is bad input: one line, exit code 2, nothing half-written left behind."""
    import os
    if not path.strip():
        raise BadInput("an output file needs a name, got ''")
    try:
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
    except OSError as e:
        if os.path.isfile(path) and os.path.getsize(path) == 0:
            os.remove(path)
        raise BadInput(f"cannot write {path}: {e.strerror}") from None


class _ProgressLine:
    """One updating line on stderr: the last message and the seconds since the start,
    redrawn every second by a daemon thread, so that a long proof (one probe can take
    minutes) still shows that the command is working. :func:`end_progress` stops it,
    and so does the end of the command's click context, before an error is printed."""

    def __init__(self):
        self.start = time.monotonic()
        self.msg = "working"           # until the command says what it is doing
        self.drawn = 0.0
        self.lock = threading.Lock()
        self.done = threading.Event()
        ctx = click.get_current_context(silent=True)
        if ctx is not None:
            ctx.call_on_close(self.close)
        threading.Thread(target=self._tick, daemon=True).start()

    def _draw(self) -> None:
        with self.lock:
            if not self.done.is_set():
                elapsed = time.monotonic() - self.start
                click.echo(f"\r\033[K{self.msg}, {elapsed:.0f} s", err=True, nl=False)
                self.drawn = time.monotonic()

    def _tick(self) -> None:
        while not self.done.wait(1.0):
            self._draw()

    def __call__(self, msg: str) -> None:
        self.msg = msg
        now = time.monotonic()
        if now - self.drawn >= 0.1:     # a fast stream of messages: a few redraws a second
            self._draw()

    def close(self) -> None:
        with self.lock:
            if not self.done.is_set():
                self.done.set()
                click.echo("\r\033[K", err=True, nl=False)


def progress_printer(enabled: bool = True):
    """A progress callback: one updating line on stderr (with the seconds spent), only
    when it is a terminal; None otherwise. Close it with :func:`end_progress`."""
    if not enabled or not sys.stderr.isatty():
        return None
    return _ProgressLine()


def end_progress(show) -> None:
    """Clear the progress line and stop its clock, if one was shown (safe twice)."""
    if show is not None:
        show.close()
