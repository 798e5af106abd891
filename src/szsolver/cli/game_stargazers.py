"""Stargazers through the shared commands (``show``, ``score``, ``replay``, and the
analysis commands ``best``, ``check``, ``annotate``, ``solve``).

:mod:`szsolver.cli.games` routes a record with ``[Game "stargazers"]`` or a position
string starting ``stargazers:`` here; each function takes the SOURCE's text and the
command's options by name, and refuses the Stars' Zone-only ones (``--rule``,
``--beams``) with one line.
"""
from __future__ import annotations

import os

from .common import BadInput, emit, write_file
from ..rules.bits import bit_list

NAME = "Stargazers"


def _load(text: str):
    """(position, game or None); a game's warnings go to stderr as ``Warning: ...``."""
    import click
    from ..stargazers.record import load_text
    pos, game = load_text(text)
    for w in game.warnings if game is not None else ():
        click.echo(f"Warning: {w}", err=True)
    return pos, game


def _refuse(**options) -> None:
    """BadInput for a Stars' Zone option given to a Stargazers source."""
    for option, value in options.items():
        if value:
            raise BadInput(f"{option} is a Stars' Zone option; it does not apply to "
                           f"{NAME} positions and games")


def _position_json(pos) -> dict:
    from ..stargazers.assured import status
    s = status(pos)
    ins = pos.inspired()
    unins = pos.uninspired()
    r, b = pos.scores()
    winner = pos.winner()
    return {
        "game": "stargazers", "board": pos.board.name, "protocol": pos.protocol,
        "position": str(pos), "side_to_move": pos.side_name,
        "placements_left": pos.placements_left, "over": pos.is_over(),
        "scores": {"red": r, "blue": b},
        "uninspired": {"red": bit_list(unins[0]), "blue": bit_list(unins[1])},
        "inspired": {"red": bit_list(ins[0]), "blue": bit_list(ins[1])},
        "dead": {"red": bit_list(s.dead[0]), "blue": bit_list(s.dead[1])},
        "assured": {"red": s.assured[0], "blue": s.assured[1]},
        "potential": {"red": s.potential[0], "blue": s.potential[1]},
        "decided": None if s.decided is None else ("red", "blue")[s.decided],
        "winner": None if winner is None else ("red", "blue")[winner],
        "result": pos.result_text(),
        "legal": pos.legal_placements(),
    }


def show(text, *, example=False, rule=None, as_json=False, svg_file=None, beams=False,
         **_ignored):
    """The position (a game's last one) as a diagram; ``--svg`` draws it."""
    from ..stargazers.record import diagram
    _refuse(**{"--rule": rule, "--beams": beams})
    if svg_file is not None and not svg_file.strip():
        raise BadInput("--svg needs a file name")
    pos, game = _load(text)
    last = game.turns[-1] if game is not None and game.turns else ()
    if svg_file:
        from ..stargazers.svg import position_svg
        write_file(svg_file, position_svg(pos, last_turn=last))
    out = diagram(pos)
    if last:
        out += f"\nLast turn: {game.where(len(game.turns) - 1)} {last}."
    data = {**_position_json(pos), "last_turn": str(last) if last else None}
    emit(data, out, as_json)


def score(text, *, example=False, rule=None, as_json=False, **_ignored):
    """Scores, uninspired stones, assured scores and potentials."""
    _refuse(**{"--rule": rule})
    pos, _game = _load(text)
    d = _position_json(pos)
    lines = [f"{NAME} {d['board']}, protocol {d['protocol']}."]
    for side, other in (("red", "blue"), ("blue", "red")):
        un = d["uninspired"][other]
        lines.append(f"{side.capitalize()} {d['scores'][side]} (assured {d['assured'][side]}, "
                     f"potential {d['potential'][side]}): uninspired {other} stones "
                     + (" ".join(map(str, un)) if un else "none"))
    if d["decided"] and not d["over"]:
        lines.append(f"Decided early: {d['decided']} wins whatever is placed.")
    lines.append(f"{'Result' if d['over'] else 'Standing'}: {d['result']}.")
    emit(d, "\n".join(lines), as_json)


def replay(text, *, example=False, rule=None, as_json=False, final_only=False,
           diagrams=False, svg_dir=None, **_ignored):
    """A game turn by turn with the scores, then its final position."""
    from ..stargazers.record import diagram, game_string
    _refuse(**{"--rule": rule})
    pos, game = _load(text)
    if svg_dir is not None:
        if not svg_dir.strip():
            raise BadInput("--svg needs a directory name")
        if game is None or not game.turns:
            raise BadInput("--svg draws one picture per turn: give a game record with turns")
        from ..stargazers.svg import position_caption, position_svg
        from .pictures import write_all
        width = max(2, len(str(len(game.turns))))
        files = []
        for i, t in enumerate(game.turns):
            after = game.positions[i]
            cap = "\n".join([f"after turn {i + 1} of {len(game.turns)}: {game.where(i)} {t}"]
                            + position_caption(after))
            files.append((os.path.join(svg_dir, f"turn-{i + 1:0{width}d}.svg"),
                          position_svg(after, last_turn=t, caption=cap)))
        write_all(files, directory=svg_dir)
    lines, turns = [], []
    if game is not None:
        for k, v in game.tags.items():
            lines.append(f"{k}: {v}")
        if game.tags:
            lines.append("")
        if not final_only and game.turns:
            lines.append("round  side  turn       red blue")
        for i, t in enumerate(game.turns):
            after = game.positions[i]
            r, b = after.scores()
            entry = {"round": game.round_of(i), "side": ("red", "blue")[game.side_of(i)],
                     "turn": str(t), "scores": {"red": r, "blue": b},
                     "position": str(after)}
            turns.append(entry)
            if final_only:
                continue
            lines.append(f"{entry['round']:>5}  {entry['side']:<4}  {entry['turn']:<9} "
                         f"{r:>4} {b:>4}")
            if diagrams:
                lines.append(diagram(after))
                lines.append("")
        if not final_only and game.turns:
            lines.append("")
    lines.append(diagram(pos))
    data = {"game": None if game is None else {"tags": game.tags, "record": game_string(game)},
            "turns": turns, "final": _position_json(pos),
            "warnings": [] if game is None else list(game.warnings)}
    emit(data, "\n".join(lines), as_json)
