"""The ``szsolver`` command line (click).

Shared pieces every command uses live here: :class:`BadInput` (one-line error,
exit code 2), :func:`load_position` (position string, position file or game
record) and :func:`emit` (text for people, ``--json`` for programs). Commands of
each concern live in their own ``cli_*`` module and register on :data:`main`.
"""
from __future__ import annotations

import json
import sys

import click


class BadInput(click.ClickException):
    """Bad input: printed as one line 'Error: ...', exit code 2."""
    exit_code = 2


class _Group(click.Group):
    """Turns ValueError from the library, and click's own usage errors (a bad
    option value, a missing argument), into a one-line BadInput: no usage dump."""

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except ValueError as e:
            raise BadInput(str(e).splitlines()[0] if str(e) else type(e).__name__) from None
        except click.UsageError as e:
            cmd = e.ctx.command_path if e.ctx is not None else ctx.command_path
            raise BadInput(f"{e.format_message()} (see '{cmd} --help')") from None


@click.group(cls=_Group)
@click.version_option(package_name="szsolver")
def main():
    """Analysis toolkit for Stars' Zone (星域) and Starmaps puzzles."""


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
    from .record import load_source
    pos, game = load_source(source, rule)
    for w in game.warnings if game is not None else ():
        click.echo(f"Warning: {w}", err=True)
    return pos, game


def _register() -> None:
    # Each concern's commands; a module that is not there yet is simply absent.
    import importlib
    for name in ("cli_game", "cli_solve", "cli_potential", "cli_puzzle"):
        try:
            importlib.import_module(f"szsolver.{name}")
        except ModuleNotFoundError as e:
            if e.name != f"szsolver.{name}":
                raise


_register()

if __name__ == "__main__":  # pragma: no cover
    # Run as a script this module is __main__, not szsolver.cli, where the commands
    # registered: go through the package module.
    from szsolver.cli import main as _main
    sys.exit(_main())
