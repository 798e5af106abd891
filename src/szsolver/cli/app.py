"""The ``szsolver`` command: the group, its error handling, and every command
registered by name. Each command module imports only what it needs, inside the
command, so ``szsolver show`` never loads OR-Tools or the solver.

How a command ends (the group does this for every command, see :class:`_Group`):

- bad input (:class:`szsolver.errors.InputError`, a bad option value, a missing
  argument): one line ``Error: ...`` on stderr, exit code 2;
- Ctrl-C: the command stops within about a second, one line ``Interrupted.`` on
  stderr, exit code 130 (what it proved so far is printed first where a command says
  so, labelled interrupted);
- the system failing (out of memory, a full disk under the output, standard output
  closed, an optional extra not installed): one line ``Error: ...``, exit code 1
  (:class:`~szsolver.cli.common.SystemFailure`; an output path that cannot be opened
  because of the path given stays bad input, see
  :func:`~szsolver.cli.common.output_error`);
- anything else is a bug in szsolver: one line ``Internal error: <type>: <message>``
  on stderr, exit code 1 (``SZSOLVER_DEBUG=1`` shows the traceback instead).
"""
from __future__ import annotations

import errno
import os
import re
import sys

import click

from .. import interrupt
from ..errors import InputError, MissingExtraError
from . import analysis, batch, endgame_puzzle, game, potential, puzzle, puzzle_gen, solve, web
from .common import BadInput, SystemFailure

_DEBUG_ENV = "SZSOLVER_DEBUG"


class InternalError(click.ClickException):
    """A bug in szsolver: one line on stderr (never dressed up as bad input), exit 1."""
    exit_code = 1

    def __init__(self, error: BaseException):
        text = str(error).splitlines()[0] if str(error).strip() else ""
        super().__init__(f"{type(error).__name__}: {text}" if text else type(error).__name__)

    def show(self, file=None):
        click.echo(f"Internal error: {self.format_message()} (a bug in szsolver; set "
                   f"{_DEBUG_ENV}=1 for the traceback)", err=True)


def _one_line(e: BaseException) -> str:
    text = str(e).strip()
    return text.splitlines()[0] if text else type(e).__name__


_POSITION_ROWS = re.compile(r"[.RBN]*(/[.RBN]*)+")


def _usage_message(e: click.UsageError) -> str:
    """click's usage error as one line, with a hint when a position string was given
    unquoted (the shell split it at its spaces)."""
    msg = e.format_message()
    m = re.search(r"unexpected extra arguments? \((.*)\)$", msg)
    if m and e.ctx is not None:
        rows = [v for v in e.ctx.params.values()
                if isinstance(v, str) and _POSITION_ROWS.fullmatch(v.strip())]
        if rows:
            meant = f"{rows[0]} {m.group(1)}"
            return (f"{msg}: a position string has spaces, so quote it: "
                    f"{e.ctx.command_path} \"{meant}\"")
    return msg


def _check_output() -> None:
    """Standard output is there to print on: started with it closed (``>&-``), Python
    has no ``sys.stdout`` and every line the command printed would be lost. One line,
    exit 1, before any work."""
    if sys.stdout is None:
        raise SystemFailure("standard output is closed: nothing could be printed")


def _flush_output() -> None:
    """Flush stdout inside the command, so that a full disk is one line, exit 1 (at
    exit Python would print a traceback-like report); a closed pipe (``| head``) is
    left to click, which ends quietly."""
    _check_output()
    try:
        sys.stdout.flush()
    except OSError as e:
        if e.errno == errno.EPIPE:
            raise
        raise SystemFailure(e.strerror or _one_line(e)) from None


class _Group(click.Group):
    """Ctrl-C, bad input and internal errors, the same for every command (see the
    module doc). Bad input is :class:`~szsolver.errors.InputError` only: any other
    exception, ValueError included, is a bug."""

    def main(self, *args, **kwargs):
        owned = interrupt.install()   # the console script installed it already
        try:
            try:
                _check_output()
                return super().main(*args, **kwargs)
            except SystemFailure as e:     # standard output closed, or full under --help
                if not kwargs.get("standalone_mode", True):
                    raise
                e.show()
                sys.exit(e.exit_code)
            except OSError as e:          # printing --help or --version: click lets it out
                if e.errno == errno.EPIPE or os.environ.get(_DEBUG_ENV):
                    raise
                SystemFailure(e.strerror or _one_line(e)).show()
                sys.exit(SystemFailure.exit_code)
            except SystemExit as e:       # Ctrl-C while click parsed arguments
                if interrupt.requested() and e.code != interrupt.EXIT_CODE:
                    interrupt.exit_interrupted()
                raise
            except (KeyboardInterrupt, click.exceptions.Abort):  # standalone_mode=False
                if interrupt.requested() or not interrupt.installed():
                    interrupt.exit_interrupted()
                raise
        finally:
            if owned:
                interrupt.uninstall()
            elif not interrupt.installed():   # SIGINT ignored: only the flag to forget
                interrupt.reset()

    def resolve_command(self, ctx, args):
        name, cmd, rest = super().resolve_command(ctx, args)
        if cmd is not None:         # an option's error names this command's --help
            ctx.meta["szsolver.command"] = cmd.name
        return name, cmd, rest

    def invoke(self, ctx):
        try:
            with interrupt.armed():
                rv = super().invoke(ctx)
                interrupt.raise_if_interrupted()            # a Ctrl-C the C search absorbed
            _flush_output()
            return rv
        except KeyboardInterrupt:
            interrupt.exit_interrupted()
        except (click.exceptions.Exit, click.exceptions.Abort):
            if interrupt.requested():
                interrupt.exit_interrupted()
            raise
        except SystemExit:
            if interrupt.requested():        # e.g. solve printed its bounds, then exit 130
                interrupt.exit_interrupted()
            _flush_output()
            raise
        except InputError as e:
            if interrupt.requested():
                interrupt.exit_interrupted()
            raise BadInput(_one_line(e)) from None
        except click.UsageError as e:
            cmd = e.ctx.command_path if e.ctx is not None else ctx.command_path
            sub = ctx.meta.get("szsolver.command")
            if cmd == ctx.command_path and sub:     # raised while parsing the command's options
                cmd = f"{cmd} {sub}"
            raise BadInput(f"{_usage_message(e)} (see '{cmd} --help')") from None
        except click.ClickException:
            if interrupt.requested():
                interrupt.exit_interrupted()
            raise
        except Exception as e:  # noqa: BLE001 - not bad input: a bug or the system
            if interrupt.requested():        # a consequence of the interrupt
                interrupt.exit_interrupted()
            if isinstance(e, OSError) and e.errno == errno.EPIPE:
                raise                         # click: the reader went away (| head)
            if isinstance(e, MissingExtraError):   # says what to pip install
                raise SystemFailure(_one_line(e)) from None
            if os.environ.get(_DEBUG_ENV):
                raise
            if isinstance(e, MemoryError):
                raise SystemFailure(f"out of memory{': ' + _one_line(e) if str(e) else ''}") from None
            if isinstance(e, OSError):        # e.g. a full disk under the output
                where = f"{e.filename}: " if e.filename else ""
                raise SystemFailure(f"{where}{e.strerror or _one_line(e)}") from None
            raise InternalError(e) from None


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="szsolver")
def main():
    """Analysis toolkit for Stars' Zone (星域), Starmaps puzzles, and the family's
    other games, Star and Stargazers.

    \b
    Examples:
      szsolver replay --example               # the rulebook game, turn by turn
      szsolver solve --example --all-turns    # an endgame, every turn proved
      szsolver puzzle daily                   # the Starmaps puzzle of the day

    \b
    Star and Stargazers: show, score, replay, solve, best, check and annotate
    read their game records, tagged [Game "star"] or [Game "stargazers"], and
    their position strings, which start with star: or stargazers:
      szsolver show 'stargazers:12-star:1-2:r=9,30:b=16,23' --svg board.svg
      szsolver score '[Game "star"] 1. E5 swap'
      szsolver best 'stargazers:12-star:1-2:r=9,30:b=16,23' --time 1

    Each command's --help leads with examples of its own.
    """


for _command in (game.show, game.score, game.replay, solve.solve_cmd, potential.potential_cmd,
                 puzzle.starmap_cmd, puzzle.puzzle, analysis.check_cmd, analysis.best_cmd,
                 analysis.annotate_cmd, analysis.selfplay_cmd, web.serve_cmd, batch.batch):
    main.add_command(_command)
for _command in (puzzle_gen.generate_cmd, puzzle_gen.daily_cmd, puzzle_gen.show_cmd):
    puzzle.puzzle.add_command(_command)
puzzle.puzzle.add_command(endgame_puzzle.endgame)
