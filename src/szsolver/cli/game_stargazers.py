"""Stargazers through the shared commands (``show``, ``score``, ``replay``, and the
analysis commands ``best``, ``check``, ``annotate``, ``solve``).

:mod:`szsolver.cli.games` routes a record with ``[Game "stargazers"]`` or a position
string starting ``stargazers:`` here; each function takes the SOURCE's text and the
command's options by name, and refuses the Stars' Zone-only ones (``--rule``,
``--beams``) with one line.
"""
from __future__ import annotations

import os

from .common import BadInput, counted, emit, rough, write_file
from ..verdict import verdict_count
from ..errors import UnsupportedError
from ..rules.bits import bit_list

NAME = "Stargazers"


def _load(text: str):
    """(position, game or None) from a record or position string."""
    from ..stargazers.record import load_text
    return load_text(text)


def _emit(game, data, text: str, as_json: bool) -> None:
    """Print a game's warnings (``Warning: ...`` on stderr), then the answer: warnings
    come only once the input has passed every check, so bad input stays one line."""
    import click
    for w in game.warnings if game is not None else ():
        click.echo(f"Warning: {w}", err=True)
    emit(data, text, as_json)


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
    _emit(game, data, out, as_json)


def score(text, *, example=False, rule=None, as_json=False, **_ignored):
    """Scores, uninspired stones, assured scores and potentials."""
    _refuse(**{"--rule": rule})
    pos, game = _load(text)
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
    _emit(game, d, "\n".join(lines), as_json)


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
    from .game import replay_lines
    turns, rows = [], []
    for i, t in enumerate(game.turns if game is not None else ()):
        after = game.positions[i]
        r, b = after.scores()
        entry = {"round": game.round_of(i), "side": ("red", "blue")[game.side_of(i)],
                 "turn": str(t), "scores": {"red": r, "blue": b}, "position": str(after)}
        turns.append(entry)
        rows.append((f"{entry['round']:>5}  {entry['side']:<4}  {entry['turn']:<9} "
                     f"{r:>4} {b:>4}", lambda after=after: diagram(after)))
    lines = [] if game is None else replay_lines(
        game.tags, "round  side  turn       red blue", rows, final_only=final_only,
        diagrams=diagrams)
    lines.append(diagram(pos))
    data = {"game": None if game is None else {"tags": game.tags, "record": game_string(game)},
            "turns": turns, "final": _position_json(pos),
            "warnings": [] if game is None else list(game.warnings)}
    _emit(game, data, "\n".join(lines), as_json)


# --- analysis -----------------------------------------------------------------------------

def _value_words(margin: int, winner: str) -> str:
    """'red wins by 2 points' / 'blue wins the tie (red is left unable to place)'."""
    if margin == 0:
        loser = "blue" if winner == "red" else "red"
        return f"{winner} wins the tie ({loser} is left unable to place)"
    return f"{winner} wins by {abs(margin)} point{'s' if abs(margin) != 1 else ''}"


def solve(text, *, example=False, rule=None, as_json=False, all_turns=False, top=None,
          time_limit=None, node_limit=None, tt_size=None, svg_file=None, threads=None,
          workers=None, scheduler=None, two_turn_bounds=False):
    """Exact value, best placements, every placement's value (``--all-turns``), a line."""
    import sys
    import types
    from ..games import get
    _refuse(**{"--rule": rule, "--tt-size": tt_size, "--threads": threads,
               "--workers": workers, "--scheduler": scheduler,
               "--two-turn-bounds": two_turn_bounds})
    if svg_file is not None and not svg_file.strip():
        raise BadInput("--svg needs a file name")
    pos, game = _load(text)
    a = get("stargazers").commands["solve"](pos, game, types.SimpleNamespace(
        all_turns=all_turns, top=top, time_limit=time_limit, node_limit=node_limit,
        svg=svg_file, as_json=as_json, progress=None))
    for path, picture in a.files:
        write_file(path, picture)
    _emit(game, a.data, a.text, as_json)
    if a.exit_code:
        sys.exit(a.exit_code)


def best(text, *, example=False, rule=None, as_json=False, seconds=None, wall_clock=False,
         **_ignored):
    """The engine's placement: proved near the end, estimated earlier."""
    from ..errors import InputError
    from ..stargazers.engine import ROUGH_ITERATIONS, Engine
    _refuse(**{"--rule": rule})
    pos, game = _load(text)
    if pos.is_over():
        raise InputError("the game is over: there is no placement to make")
    a = Engine(seconds or 1.0, wall_clock=wall_clock).analyse(pos)
    if a.method == "solver":
        lines = [f"Best placement: {a.move} (proved optimal). Margin {a.value:+d} for "
                 f"{a.side}: {'a win' if a.win_rate else 'a loss'}.",
                 "All optimal placements: " + " ".join(map(str, a.best)),
                 "Line: " + " ".join(map(str, a.line))]
    else:
        lines = [f"Best placement: {a.move} (engine, not proved). Estimated margin "
                 f"{a.value:+.1f} for {a.side}, won in {100 * a.win_rate:.0f}% of playouts"
                 f"{rough(a.iterations, ROUGH_ITERATIONS)}.",
                 "Candidates: " + ", ".join(f"{c['placement']} ({counted(c['visits'], 'visit')}, "
                                           f"{100 * c['win_rate']:.0f}%)"
                                           for c in a.candidates[:5]),
                 "Expected line: " + " ".join(map(str, a.line))]
    from ..stargazers.assured import status
    st = status(pos)
    lines.append(f"Assured red {st.assured[0]}, blue {st.assured[1]}; potential red "
                 f"{st.potential[0]}, blue {st.potential[1]}.")
    lines.append(f"{counted(a.iterations, 'iteration')}, {a.nodes:,} solver nodes, "
                 f"{a.seconds:.1f} s.")
    _emit(game, a.to_json(), "\n".join(lines), as_json)


def check(text, *, example=False, rule=None, as_json=False, args=(), number=None,
          time_limit=None, **_ignored):
    """Was TURN (``17`` or ``17,23``) optimal, or the game's N-th turn (``--turn N``)?"""
    from ..stargazers.analysis import check as check_turn
    _refuse(**{"--rule": rule})
    args = list(args)
    if len(args) > 1:
        raise BadInput(f"too many arguments: {' '.join(args)} (see 'szsolver check --help')")
    pos, game = _load(text)
    if number is not None:
        if args:
            raise BadInput("give TURN or --turn N, not both")
        if game is None:
            raise BadInput("--turn N needs a game record, not a position")
        if not 1 <= number <= len(game.turns):
            raise BadInput(f"--turn {number}: the game has turns 1 to {len(game.turns)}")
        pos, turn = game.position_before(number - 1), game.turns[number - 1]
    else:
        if not args:
            raise BadInput("missing TURN: give the turn to judge (like 17 or 17,23), or "
                           "--turn N with a game record")
        turn = args[0]
    res = check_turn(pos, turn, time_limit=time_limit)
    data = res.to_json()
    if number is not None:
        data = {"turn_number": number, **data}
    how = "proved" if res.method == "solver" else "estimated"
    text_out = (f"{res.mover.capitalize()} {res.turn}: {res.verdict} ({how}). Best turn "
                f"{res.best}; value {res.best_value:+g} best, {res.played_value:+g} played "
                f"(Red's side, 100 a point; a tie is +1 or -1 for who wins it).")
    _emit(game, data, text_out, as_json)


def annotate(text, *, example=False, rule=None, as_json=False, time_per_turn=None,
             solver_time=None, html_file=None, exact_turns=None, threads=None, **_ignored):
    """Judge every turn of a game: exactly with at most ``exact_turns`` empty cells
    (default :data:`~szsolver.stargazers.analysis.EXACT_EMPTIES`)."""
    from ..stargazers.analysis import ENGINE_SECONDS, EXACT_EMPTIES
    from ..stargazers.analysis import annotate as annotate_game
    from ..stargazers.solver import MAX_EMPTY_WITHOUT_LIMIT
    _refuse(**{"--rule": rule, "--html": html_file, "--threads": threads})
    if exact_turns is not None and not 0 <= exact_turns <= MAX_EMPTY_WITHOUT_LIMIT:
        raise BadInput(f"--exact-turns {exact_turns}: a {NAME} game proves turns with at most "
                       f"{MAX_EMPTY_WITHOUT_LIMIT} empty cells (0 to {MAX_EMPTY_WITHOUT_LIMIT}, "
                       f"default {EXACT_EMPTIES}: the exact solver's reach)")
    _pos, game = _load(text)
    if game is None:
        raise BadInput("annotate needs a game record, not a position")
    checks = annotate_game(game, time_limit=solver_time,
                           engine_seconds=time_per_turn or ENGINE_SECONDS,
                           exact_empties=EXACT_EMPTIES if exact_turns is None else exact_turns)
    lines = ["round  side  turn       verdict      method  best"]
    for i, c in enumerate(checks):
        lines.append(f"{game.round_of(i):>5}  {c.mover:<4}  {str(c.turn):<9}  {c.verdict:<11}  "
                     f"{c.method:<6}  {c.best}")
    summary = {}
    for side in ("red", "blue"):
        mine = [c for c in checks if c.mover == side]
        counts = {v: sum(c.verdict == v for c in mine)
                  for v in ("optimal", "inaccuracy", "mistake", "blunder")}
        summary[side] = counts
        lines.append(f"{side.capitalize()}: " + ", ".join(verdict_count(n, v)
                                                          for v, n in counts.items()))
    data = {"game": "stargazers", "turns": [c.to_json() for c in checks], "summary": summary}
    _emit(game, data, "\n".join(lines), as_json)
