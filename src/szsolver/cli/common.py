"""What every command shares: :class:`BadInput` (one-line error, exit code 2),
:func:`load_position` (position string, position file or game record),
:func:`emit` (text for people, ``--json`` for programs), :func:`write_file` and the
progress line on a terminal."""
from __future__ import annotations

import json
import sys

import click


class BadInput(click.ClickException):
    """Bad input: printed as one line 'Error: ...', exit code 2."""
    exit_code = 2


def emit(data, text: str, as_json: bool) -> None:
    """Print ``data`` as JSON or ``text`` for people."""
    if as_json:
        click.echo(json.dumps(data, indent=2, ensure_ascii=False))
    else:
        click.echo(text)


def write_file(path: str, text: str) -> None:
    """Write an output file (an SVG picture, a puzzle); a path that cannot be
    written is bad input: one line, exit code 2, nothing half-written left behind."""
    import os
    try:
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
    except OSError as e:
        if os.path.isfile(path) and os.path.getsize(path) == 0:
            os.remove(path)
        raise BadInput(f"cannot write {path}: {e.strerror}") from None


def load_position(source: str, rule: str | None = None):
    """A position from SOURCE: a position string, a file holding one (or a JSON
    position), or a game record, inline or a file (its last position). Returns
    (position, game or None). ``rule`` overrides the rule (a game is replayed
    under it). Raises ValueError naming the problem. A game's warnings (e.g. a
    Result tag the replay contradicts) go to stderr as ``Warning: ...`` lines."""
    from ..formats.record import load_source
    pos, game = load_source(source, rule)
    for w in game.warnings if game is not None else ():
        click.echo(f"Warning: {w}", err=True)
    return pos, game


def progress_printer(enabled: bool = True):
    """A progress callback: one updating line on stderr, only when it is a terminal."""
    if not enabled or not sys.stderr.isatty():
        return None

    def show(msg: str) -> None:
        click.echo("\r\033[K" + msg, err=True, nl=False)
    return show


def end_progress(show) -> None:
    """Clear the progress line, if one was shown."""
    if show is not None:
        click.echo("\r\033[K", err=True, nl=False)
