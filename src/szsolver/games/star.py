"""Star (Craige Schensted, 1983) as the registry knows it: its records and position
strings (``[Game "star"]``, ``star:5x6:...``), pictures, exact solver, engine and
judge (:mod:`szsolver.star`), and its answers to the family's commands. A turn is a
move: a cell, ``swap`` or ``pass``."""
from __future__ import annotations

import os

from .. import interrupt
from ..errors import InputError
from .contract import Answer, Entry
from .views import (annotate_progress, answer, engine_progress, exact_turns_in_reach,
                    progress_line, tagged, warnings_of)

NAME = "star"


def load(source, rule=None):
    """(position, game or None) from a Star record, position string or JSON."""
    from ..star.record import parse_source_text
    return parse_source_text(source.text)


def legal_turns(pos) -> list:
    return pos.legal_turns()


def parse_turn(text: str, pos):
    from ..star.position import parse_move
    return parse_move(text, pos.board)


def format_turn(turn, pos) -> str:
    from ..star.position import format_move
    return format_move(turn, pos.board)


def diagram(pos) -> str:
    from ..star.position import diagram as star_diagram
    return star_diagram(pos)


def position_text(pos) -> str:
    from ..star.position import position_string
    return position_string(pos)


def svg(pos, **options) -> str:
    """:func:`szsolver.star.svg.position_svg` (``last_turn``: the move to mark)."""
    from ..star.svg import position_svg
    return position_svg(pos, **options)


def solve_position(pos, *, all_turns: bool = False, time_limit: float | None = None,
                   node_limit: int | None = None, progress=None):
    """:func:`szsolver.star.solver.solve`: ``value`` exact, or ``stopped`` with the
    proved ``lower`` and ``upper`` (Black's side)."""
    from ..star.solver import solve
    return solve(pos, all_turns=all_turns, node_limit=node_limit, time_limit=time_limit,
                 progress=progress)


def check_turn(pos, turn, *, time_limit: float | None = None, progress=None):
    from ..star.analysis import check
    return check(pos, turn, time_limit=time_limit, progress=progress)


def annotate_game(game, *, exact_turns: int | None = None, time_per_turn=None,
                  progress=None):
    from ..star.analysis import EXACT_TURNS, annotate
    return annotate(game, time_per_turn=time_per_turn,
                    # check's default, so that check --turn N and annotate's row N agree
                    exact_turns=EXACT_TURNS if exact_turns is None else exact_turns,
                    progress=progress)


# --- the commands -------------------------------------------------------------------------

def show(pos, game, o):
    """The position (a game's last one) as a diagram, with the scores."""
    from ..star.position import format_move
    from ..star.record import position_json, result_json
    last = game.turns[-1] if game is not None and game.turns else None
    files = ((o.svg, svg(pos, last_turn=last)),) if o.svg else ()
    out = diagram(pos)
    if last is not None:
        out += f"\nLast move: {game.where(len(game.turns) - 1)} {format_move(last, pos.board)}."
    data = {"position": position_json(pos), **result_json(pos),
            "last_turn": None if last is None else format_move(last, pos.board)}
    return answer(data, out, game, files)


def score(pos, game, o):
    """The scores of the position (a game's last one) and each colour's stars."""
    from ..star.record import score_json
    data = score_json(pos)
    lines = [f"Board {data['board']}."]
    for colour in ("black", "white"):
        stars = data["stars"][colour]
        lines.append(f"{colour.capitalize()} {data['scores'][colour]}: "
                     + (f"{len(stars)} star{'s' if len(stars) != 1 else ''}" if stars
                        else "no stars"))
        for st in stars:
            cells = " ".join(st["cells"][:8]) + (" ..." if len(st["cells"]) > 8 else "")
            lines.append(f"  {st['points']:>2} point{'s' if st['points'] != 1 else ' '} "
                         f"({st['border_cells']} border cells): {cells}")
    lines.append(f"{'Result' if data['over'] else 'Standing'}: {data['result']}.")
    return answer(data, "\n".join(lines), game)


def replay(pos, game, o):
    """A game move by move with the scores, then its final position."""
    from ..star.position import COLOUR_NAMES, diagram as star_diagram, format_move, \
        position_string
    from ..star.record import game_json, position_json, result_json
    from .views import replay_lines
    pictures = None
    if o.svg is not None:
        if game is None or not game.turns:
            raise InputError("--svg draws one picture per move: give a game record with moves")
        files = []
        for i, (m, after) in enumerate(zip(game.turns, game.positions)):
            caption = (f"{game.where(i)}: {format_move(m, pos.board)}; "
                       f"black {after.scores()[0]}, white {after.scores()[1]}")
            files.append((os.path.join(o.svg, f"move-{i + 1:03d}.svg"),
                          svg(after, last_turn=m if m >= 0 else None, caption=caption)))
        pictures = (o.svg, tuple(files))
    turns, rows = [], []
    for i, m in enumerate(game.turns if game is not None else ()):
        after = game.positions[i]
        b, w = after.scores()
        entry = {"round": game.round_of(i), "side": COLOUR_NAMES[game.side_of(i)],
                 "turn": format_move(m, pos.board), "scores": {"black": b, "white": w},
                 "position": position_string(after)}
        turns.append(entry)
        rows.append((f"{entry['round']:>5}  {entry['side']:<6}  {entry['turn']:<5} "
                     f"{b:>5} {w:>5}", lambda after=after: star_diagram(after, status=False)))
    lines = [] if game is None else replay_lines(
        game.tags, "round  colour  move   black white", rows, final_only=o.final,
        diagrams=o.diagrams)
    lines.append(diagram(pos))
    data = {"game": None if game is None else game_json(game), "turns": turns,
            "final": position_json(pos), **result_json(pos),
            "warnings": list(warnings_of(game))}
    return Answer(data, "\n".join(lines), warnings_of(game), pictures=pictures)


def solve(pos, game, o):
    """The exact value of a late position, its optimal moves, a line of best play and
    (``--all-turns``) every move's value; a limit that stops the search gives proved
    bounds and exit code 3, Ctrl-C the same and 130."""
    from ..star.position import format_move
    from ..star.solver import describe
    with progress_line(o, not o.as_json, lines=True) as show:
        res = solve_position(pos, all_turns=o.all_turns or o.top is not None,
                             node_limit=o.node_limit, time_limit=o.time_limit,
                             progress=engine_progress(show))
    b = pos.board
    data = res.to_json()
    if o.top is not None and res.turns is not None:
        data["turns"] = data["turns"][:o.top]
    lines = [f"Position: {res.position}",
             f"Empty cells: {res.empty} ({res.dead} dead)."]
    if res.exact:
        lines.append(f"Value: {res.value:+d} (Black's side, exact): {describe(res.value)}.")
        if res.best:
            lines.append("Best moves: " + " ".join(format_move(m, b) for m in res.best))
        if res.pv:
            lines.append("Line of best play: " + " ".join(format_move(m, b) for m in res.pv))
        if res.stopped:
            left = " and ".join(x for x, ok in (("best moves", res.best_complete),
                                              ("line", res.pv_complete)) if not ok)
            lines.append(f"Stopped: {res.stopped} after the value was proved ({left} "
                         "incomplete).")
    else:
        lines.append(f"Value: not proved ({res.stopped}); {res.lower:+d} <= value <= "
                     f"{res.upper:+d}.")
    if res.turns is not None:
        lines.append("Move values (Black's side, best first for the side to move):")
        for mv in res.turns[:o.top]:
            lines.append(f"  {mv.value:+4d}  {format_move(mv.turn, b)}")
    lines.append(f"Nodes: {res.nodes:,} in {res.seconds:.2f} s.")
    interrupted = interrupt.stopped_by_ctrl_c(res.stopped)   # what was proved printed, no picture
    files = ()
    if o.svg and not interrupted:
        caption = (f"Value {res.value:+d}: {describe(res.value)}; best "
                   + " ".join(format_move(m, b) for m in res.best[:6])) if res.exact else \
            f"Value between {res.lower:+d} and {res.upper:+d} (not proved)"
        files = ((o.svg, svg(pos, caption=caption)),)
    return answer(data, "\n".join(lines), game, files,
                  exit_code=130 if interrupted else 0 if res.exact else 3)


def best(pos, game, o):
    """The engine's move with its value: proved near the end, estimated earlier."""
    from ..star.engine import MAX_ITERATIONS, Engine
    from ..star.position import format_move
    from ..star.solver import describe
    from .views import counted, iterations_words, rough
    if pos.is_over():
        raise InputError("best: the game is over: there is no move to play")
    with progress_line(o, not o.as_json) as show:
        res = Engine(o.time).analyse(pos, engine_progress(show))
    b = pos.board
    m = format_move(res.turn, b)
    if res.exact:
        lines = [f"Best move: {m} (proved optimal). Value {res.value:+d} (Black's side): "
                 f"{describe(int(res.value))}.",
                 "All optimal moves: " + " ".join(format_move(x, b) for x in res.best)]
    else:
        lines = [f"Best move: {m} (engine, not proved). Estimated value {res.value:+.1f} "
                 f"(Black's side){rough(res.iterations)}.",
                 "Candidates: " + ", ".join(
                     f"{format_move(c['turn'], b)} ({counted(c['visits'], 'visit')}, "
                     f"about {c['value']:+.1f})" for c in res.candidates[:5]),
                 f"Proved: value between {res.lower:+d} and {res.upper:+d}."]
    if res.pv:
        lines.append(("Line of best play: " if res.exact else "Expected line: ")
                     + " ".join(format_move(x, b) for x in res.pv))
    lines.append(f"{iterations_words(res.iterations, MAX_ITERATIONS)}, "
                 f"{counted(res.nodes, 'solver node')}, {res.seconds:.1f} s.")
    return answer(res.to_json(), "\n".join(lines), game)


def check(pos, game, o):
    """Was the move optimal? ``o.turn``: TURN (a move like ``D3``), or
    ``o.turn_number``: the game's move N (counting from 1)."""
    from .views import turn_to_judge
    pos, move = turn_to_judge(pos, game, o, "the move to judge (like D3)")
    if isinstance(move, str):
        move = parse_turn(move, pos)
    with progress_line(o, not o.as_json) as show:
        res = check_turn(pos, move, time_limit=o.time_limit, progress=engine_progress(show))
    data = res.to_json()
    if o.turn_number is not None:
        data = {"turn_number": o.turn_number, **data}
    return answer(data, res.text(), game)


def check_exact_turns(n):
    from ..star.analysis import EXACT_TURNS
    from ..star.solver import MAX_EMPTY_WITHOUT_LIMIT
    exact_turns_in_reach(n, "Star", "moves", "live empty cells", MAX_EMPTY_WITHOUT_LIMIT,
                         EXACT_TURNS)


def annotate(pos, game, o):
    """Judge every move of a game: proved with at most ``exact_turns`` live empty cells
    (moves left), estimated by the engine before."""
    check_exact_turns(o.exact_turns)
    if game is None:
        raise InputError("annotate needs a game record, not a position")
    with progress_line(o, True, lines=not o.as_json) as show:
        ann = annotate_game(game, exact_turns=o.exact_turns, time_per_turn=o.time_per_turn,
                            progress=annotate_progress(show))
    return answer(ann.to_json(), ann.text(), game)


ENTRY = Entry(
    name=NAME, title="Star", aliases=(), detect=tagged(NAME), load=load,
    legal_turns=legal_turns, parse_turn=parse_turn, format_turn=format_turn,
    diagram=diagram, svg=svg, position_text=position_text, solve=solve_position,
    check=check_turn, annotate=annotate_game,
    options={"show": ("svg",), "score": (), "replay": ("final", "diagrams", "svg", "force"),
             "best": ("time",), "check": ("turn", "turn_number", "time_limit"),
             "solve": ("all_turns", "top", "time_limit", "node_limit", "svg"),
             "annotate": ("time_per_turn", "exact_turns")},
    commands={"show": show, "score": score, "replay": replay, "best": best, "check": check,
              "solve": solve, "annotate": annotate},
    check_exact_turns=check_exact_turns)
