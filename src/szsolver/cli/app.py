"""The ``szsolver`` command: the group, its error handling, and every command
registered by name. Each command module imports only what it needs, inside the
command, so ``szsolver show`` never loads OR-Tools or the solver."""
from __future__ import annotations

import click

from . import analysis, batch, endgame_puzzle, game, potential, puzzle, puzzle_gen, solve, web
from .common import BadInput


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


for _command in (game.show, game.score, game.replay, solve.solve_cmd, potential.potential_cmd,
                 puzzle.starmap_cmd, puzzle.puzzle, analysis.check_cmd, analysis.best_cmd,
                 analysis.annotate_cmd, analysis.selfplay_cmd, web.serve_cmd, batch.batch):
    main.add_command(_command)
for _command in (puzzle_gen.generate_cmd, puzzle_gen.daily_cmd, puzzle_gen.show_cmd):
    puzzle.puzzle.add_command(_command)
puzzle.puzzle.add_command(endgame_puzzle.endgame)
