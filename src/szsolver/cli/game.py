"""``szsolver show``, ``score`` and ``replay``: look at positions and games.

Each takes SOURCE (a position string, a position or JSON file, or a game record,
inline or as a file; ``-`` for standard input) or ``--example`` (the rulebook's
example game, bundled),
``--rule basic|advanced`` to override the rule (a game is replayed under it) and
``--json`` for programs. A Stargazers or Star record or position (a ``Game`` tag or a
game prefix) is that game's: every game through one code path
(:func:`szsolver.cli.games.run`).
"""
from __future__ import annotations

import click

from .common import BadInput, Names, examples, input_files
from .games import run


def _source_options(f):
    f = click.option("--json", "as_json", is_flag=True, help="Print JSON for programs.")(f)
    f = click.option("--rule", type=Names(["basic", "advanced"]),
                     help="Override the rule (a game is replayed under it).")(f)
    f = click.option("--example", is_flag=True,
                     help="Use the bundled rulebook example game instead of SOURCE.")(f)
    return click.argument("source", required=False)(f)


@examples("szsolver show --example  # the rulebook game's last position",
          "szsolver show --example --svg final.svg --beams  # and a picture")
@click.command()
@_source_options
@click.option("--svg", "svg", type=click.Path(dir_okay=False, writable=True),
              help="Also write the position as an SVG picture to this file.")
@click.option("--beams", is_flag=True, help="Draw beams in the SVG picture.")
def show(source, example, rule, as_json, svg, beams):
    """Show a position (a game's last one) as a labelled diagram.

    SOURCE is a position string, a position file or a game record (inline or a file),
    or - for standard input; Star and Stargazers records and positions are read too."""
    from .pictures import out_path
    out_path(svg, inputs=input_files(source, example=example))
    run("show", source, example=example, as_json=as_json, rule=rule, svg=svg, beams=beams)


@examples("szsolver score --example  # per side its patterns, per stone its pattern",
          "szsolver score --example --rule advanced --json")
@click.command()
@_source_options
def score(source, example, rule, as_json):
    """Score a position (a game's last one): per side the score, the patterns
    present and each stone's pattern (U R D L = beams up, right, down, left).

    SOURCE is a position string, a position file or a game record (inline or a file),
    or - for standard input; Star and Stargazers records and positions are read too."""
    run("score", source, example=example, as_json=as_json, rule=rule)


@examples("szsolver replay --example  # turn by turn with the scores",
          "szsolver replay --example --svg pictures  # pictures/turn-01.svg ...")
@click.command()
@_source_options
@click.option("--final", "final", is_flag=True, help="Show only the final position.")
@click.option("--diagrams", is_flag=True, help="Show the diagram after every turn.")
@click.option("--svg", "svg", default=None, metavar="DIR",
              help="Also draw the position after every turn to DIR/turn-01.svg, turn-02.svg, "
                   "... (a Star game's moves: move-001.svg, move-002.svg, ...; numbered "
                   "with zeros so they sort; DIR is made if missing).")
@click.option("--force", is_flag=True,
              help="Replace the pictures of an earlier replay in DIR, removing those this "
                   "game does not draw (refused without it).")
def replay(source, example, rule, as_json, final, diagrams, svg, force):
    """Replay a game turn by turn with the scores, then its final position.

    SOURCE is a position string, a position file or a game record (inline or a file),
    or - for standard input; Star and Stargazers records and positions are read too."""
    from .pictures import out_path
    if force and svg is None:
        raise BadInput("--force replaces an earlier replay's pictures in the --svg folder: "
                       "give --svg DIR too")
    out_path(svg, "--svg", "a directory name")
    run("replay", source, example=example, as_json=as_json, rule=rule, final=final,
        diagrams=diagrams, svg=svg, force=force)
