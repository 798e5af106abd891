"""``szsolver show``, ``score`` and ``replay``: look at positions and games.

Each takes SOURCE (a position string, a position or JSON file, or a game record,
inline or as a file; ``-`` for standard input) or ``--example`` (the rulebook's
example game, bundled),
``--rule basic|advanced`` to override the rule (a game is replayed under it) and
``--json`` for programs. A Stargazers or Star record or position (a ``Game`` tag or a
game prefix) goes to that game's module (:mod:`szsolver.cli.games`).
"""
from __future__ import annotations

import os

import click

from .common import BadInput, Names, emit, examples, input_files, load_source_arg, write_file
from .games import dispatch
from ..formats.notation import (diagram, format_turn, position_json, position_string,
                                result_json, score_json)
from ..rules.base import RULE_NAMES, SIDE_NAMES


def _source_options(f):
    f = click.option("--json", "as_json", is_flag=True, help="Print JSON for programs.")(f)
    f = click.option("--rule", type=Names(["basic", "advanced"]),
                     help="Override the rule (a game is replayed under it).")(f)
    f = click.option("--example", is_flag=True,
                     help="Use the bundled rulebook example game instead of SOURCE.")(f)
    return click.argument("source", required=False)(f)


def _load(source, example, rule):
    return load_source_arg(source, example, rule)


def replay_lines(tags: dict, header: str, rows: list, *, final_only: bool = False,
                 diagrams: bool = False) -> list[str]:
    """The text of a game's replay before its final position, for every game of the
    family: the tags, then ``header`` and one line per turn (``rows``: pairs of the
    line and a function drawing the position after that turn, called only with
    ``diagrams``); ``final_only`` leaves out the turns."""
    lines = [f"{k}: {v}" for k, v in tags.items()]
    if tags:
        lines.append("")
    if not final_only and rows:
        lines.append(header)
        for text, draw in rows:
            lines.append(text)
            if diagrams:
                lines += [draw(), ""]
        lines.append("")
    return lines


def _last_turn(game):
    return game.turns[-1] if game is not None and game.turns else None


@examples("szsolver show --example  # the rulebook game's last position",
          "szsolver show --example --svg final.svg --beams  # and a picture")
@click.command()
@_source_options
@click.option("--svg", "svg_file", type=click.Path(dir_okay=False, writable=True),
              help="Also write the position as an SVG picture to this file.")
@click.option("--beams", is_flag=True, help="Draw beams in the SVG picture.")
def show(source, example, rule, as_json, svg_file, beams):
    """Show a position (a game's last one) as a labelled diagram.

    SOURCE is a position string, a position file or a game record (inline or a file),
    or - for standard input; Star and Stargazers records and positions are read too."""
    from .pictures import out_path
    out_path(svg_file, inputs=input_files(source, example=example))
    if dispatch("show", source, example=example, rule=rule, as_json=as_json,
                svg_file=svg_file, beams=beams):
        return
    pos, game = _load(source, example, rule)
    last = _last_turn(game)
    if svg_file:
        from ..formats.svg import position_svg
        write_file(svg_file, position_svg(pos, beams=beams, last_turn=last))
    text = diagram(pos)
    if last is not None:
        i = len(game.turns) - 1
        text += f"\nLast turn: {game.where(i)} {format_turn(last, pos.geometry)}."
    data = {"position": position_json(pos), **result_json(pos),
            "last_turn": None if last is None else format_turn(last, pos.geometry)}
    emit(data, text, as_json, game)


@examples("szsolver score --example  # per side its patterns, per stone its pattern",
          "szsolver score --example --rule advanced --json")
@click.command()
@_source_options
def score(source, example, rule, as_json):
    """Score a position (a game's last one): per side the score, the patterns
    present and each stone's pattern (U R D L = beams up, right, down, left).

    SOURCE is a position string, a position file or a game record (inline or a file),
    or - for standard input; Star and Stargazers records and positions are read too."""
    if dispatch("score", source, example=example, rule=rule, as_json=as_json):
        return
    pos, game = _load(source, example, rule)
    data = score_json(pos)
    lines = [f"Rule: {data['rule']}."]
    for side in ("red", "blue"):
        d = data[side]
        lines.append(f"{side.capitalize()} {d['score']}: "
                     + (" ".join(p["name"] for p in d["patterns"]) or "no stones"))
        for st in d["stones"]:
            lines.append(f"  {st['point']:>5} {st['name']}")
    lines.append(f"{'Result' if data['over'] else 'Standing'}: {data['result']}.")
    emit(data, "\n".join(lines), as_json, game)


@examples("szsolver replay --example  # turn by turn with the scores",
          "szsolver replay --example --svg pictures  # pictures/turn-01.svg ...")
@click.command()
@_source_options
@click.option("--final", "final_only", is_flag=True, help="Show only the final position.")
@click.option("--diagrams", is_flag=True, help="Show the diagram after every turn.")
@click.option("--svg", "svg_dir", default=None, metavar="DIR",
              help="Also draw the position after every turn to DIR/turn-01.svg, turn-02.svg, "
                   "... (DIR is made if missing).")
def replay(source, example, rule, as_json, final_only, diagrams, svg_dir):
    """Replay a game turn by turn with the scores, then its final position.

    SOURCE is a position string, a position file or a game record (inline or a file),
    or - for standard input; Star and Stargazers records and positions are read too."""
    if dispatch("replay", source, example=example, rule=rule, as_json=as_json,
                final_only=final_only, diagrams=diagrams, svg_dir=svg_dir):
        return
    from ..formats.record import game_json
    from .pictures import out_path, replay_pictures, write_all
    out_path(svg_dir, "--svg", "a directory name")
    pos, game = _load(source, example, rule)
    if svg_dir is not None:
        if game is None or not game.turns:
            raise BadInput("--svg draws one picture per turn: give a game record with turns")
        write_all([(os.path.join(svg_dir, name), svg) for name, svg in replay_pictures(game)],
                  directory=svg_dir, inputs=input_files(source, example=example))
    turns, rows = [], []
    for i, t in enumerate(game.turns if game is not None else ()):
        after = game.positions[i]
        r, b = after.scores()
        entry = {"round": game.round_of(i), "side": SIDE_NAMES[game.side_of(i)],
                 "turn": format_turn(t, pos.geometry), "scores": {"red": r, "blue": b},
                 "neutrals_left": {"red": after.red_neutrals, "blue": after.blue_neutrals},
                 "position": position_string(after)}
        turns.append(entry)
        rows.append((f"{entry['round']:>5}  {entry['side']:<4}  {entry['turn']:<8} "
                     f"{r:>4} {b:>4}  red {after.red_neutrals}, blue {after.blue_neutrals}",
                     lambda after=after: diagram(after, status=False)))
    lines = [] if game is None else replay_lines(
        game.tags, "round  side  turn      red blue  neutrals left", rows,
        final_only=final_only, diagrams=diagrams)
    lines.append(diagram(pos))
    data = {"game": None if game is None else game_json(game),
            "rule": RULE_NAMES[pos.rule], "turns": turns,
            "final": position_json(pos), **result_json(pos),
            "warnings": [] if game is None else list(game.warnings)}
    if game is not None:
        used = {"red": game.neutrals[0] - pos.red_neutrals,
                "blue": game.neutrals[1] - pos.blue_neutrals}
        data["neutrals_used"] = used
        lines.append(f"Neutrals used: red {used['red']}, blue {used['blue']}.")
    emit(data, "\n".join(lines), as_json)
