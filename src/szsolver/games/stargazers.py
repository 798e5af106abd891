"""Stargazers (Dale W. Walton, 2023) as the registry knows it: its records and position
strings (``[Game "stargazers"]``, ``stargazers:12-star:...``), pictures, exact solver,
engine and judge (:mod:`szsolver.stargazers`), and its answers to the family's
commands. A turn is one or two placements (``17`` or ``17,23``)."""
from __future__ import annotations

import os
import time

from .. import interrupt
from ..errors import InputError
from ..rules.bits import bit_list
from ..verdict import VERDICT_COUNTS, turns_listed, verdict_count, wins_by
from .contract import Answer, Entry
from .views import (annotate_progress, answer, engine_progress, exact_turns_in_reach,
                    progress_line, tagged, warnings_of)

NAME = "stargazers"
TITLE = "Stargazers"


def load(source, rule=None):
    """(position, game or None) from a Stargazers record, position string or JSON."""
    from ..stargazers.record import load_text
    return load_text(source.text)


def legal_turns(pos) -> list:
    """Every turn the side to move may make: one placement, or two when two are left
    in its turn, in the order they are placed (each must be legal when it is placed,
    so two cells make two turns when either may go first, and one when only one may:
    a stone can be inspired only through the turn's first)."""
    from ..stargazers.record import Turn
    out = []
    for c in pos.legal_placements():
        q = pos.after(c)
        if pos.placements_left < 2 or q.is_over() or q.side != pos.side:
            out.append(Turn((c,)))
            continue
        out.extend(Turn((c, d)) for d in q.legal_placements())
    return out


def parse_turn(text: str, pos=None):
    from ..stargazers.record import parse_turn as parse
    return parse(text)


def format_turn(turn, pos=None) -> str:
    return str(turn)


def diagram(pos) -> str:
    from ..stargazers.record import diagram as sg_diagram
    return sg_diagram(pos)


def position_text(pos) -> str:
    return str(pos)


def svg(pos, **options) -> str:
    from ..stargazers.svg import position_svg
    return position_svg(pos, **options)


def solve_position(pos, *, all_turns: bool = False, time_limit: float | None = None,
                   node_limit: int | None = None, progress=None):
    """:func:`szsolver.stargazers.solver.solve`: the ``margin`` exact, or ``stopped``
    with the proved ``lower`` and ``upper`` (for the side to move)."""
    from ..stargazers.solver import solve
    return solve(pos, all_turns=all_turns, node_limit=node_limit, time_limit=time_limit,
                 progress=progress)


def check_turn(pos, turn, *, time_limit: float | None = None, progress=None):
    from ..stargazers.analysis import check
    return check(pos, turn, time_limit=time_limit, progress=progress)


def annotate_game(game, *, exact_turns: int | None = None, time_per_turn=None,
                  solver_time=None, progress=None):
    from ..stargazers.analysis import ENGINE_SECONDS, EXACT_TURNS, annotate
    return annotate(game, time_limit=solver_time,
                    engine_seconds=time_per_turn or ENGINE_SECONDS,
                    exact_turns=EXACT_TURNS if exact_turns is None else exact_turns,
                    progress=progress)


# --- the commands -------------------------------------------------------------------------

def _position_object(pos) -> dict:
    """The position as ``show --json`` gives it (``position``: its string)."""
    return {"type": "position", "game": NAME, "board": pos.board.name,
            "protocol": pos.protocol, "red": bit_list(pos.red), "blue": bit_list(pos.blue),
            "side": pos.side_name, "placements_left": pos.placements_left,
            "position": str(pos)}


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
        "placements_left": pos.placements_left, "placed_in_turn": pos.placed_in_turn,
        "over": pos.is_over(), "scores": {"red": r, "blue": b},
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


def show(pos, game, o):
    """The position (a game's last one) as a diagram; ``--svg`` draws it."""
    last = game.turns[-1] if game is not None and game.turns else ()
    files = ((o.svg, svg(pos, last_turn=last)),) if o.svg else ()
    out = diagram(pos)
    if last:
        out += f"\nLast turn: {game.where(len(game.turns) - 1)} {last}."
    data = {**_position_json(pos), "position": _position_object(pos),
            "last_turn": str(last) if last else None}
    return answer(data, out, game, files)


def score(pos, game, o):
    """Scores, uninspired stones, assured scores and potentials."""
    d = _position_json(pos)
    lines = [f"{TITLE} {d['board']}, protocol {d['protocol']}."]
    for side, other in (("red", "blue"), ("blue", "red")):
        un = d["uninspired"][other]
        lines.append(f"{side.capitalize()} {d['scores'][side]} (assured {d['assured'][side]}, "
                     f"potential {d['potential'][side]}): uninspired {other} stones "
                     + (" ".join(map(str, un)) if un else "none"))
    if d["decided"] and not d["over"]:
        lines.append(f"Decided early: {d['decided']} wins whatever is placed.")
    lines.append(f"{'Result' if d['over'] else 'Standing'}: {d['result']}.")
    return answer(d, "\n".join(lines), game)


def replay(pos, game, o):
    """A game turn by turn with the scores, then its final position."""
    from ..stargazers.svg import position_caption
    from .views import replay_lines
    pictures = None
    if o.svg is not None:
        if game is None or not game.turns:
            raise InputError("--svg draws one picture per turn: give a game record with turns")
        width = max(2, len(str(len(game.turns))))
        files = []
        for i, t in enumerate(game.turns):
            after = game.positions[i]
            cap = "\n".join([f"after turn {i + 1} of {len(game.turns)}: {game.where(i)} {t}"]
                            + position_caption(after))
            files.append((os.path.join(o.svg, f"turn-{i + 1:0{width}d}.svg"),
                          svg(after, last_turn=t, caption=cap)))
        pictures = (o.svg, tuple(files))
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
        game.tags, "round  side  turn       red blue", rows, final_only=o.final,
        diagrams=o.diagrams)
    lines.append(diagram(pos))
    final = _position_json(pos)
    data = {"game": None if game is None else _game_json(game), "turns": turns,
            "final": final, **{k: final[k] for k in ("scores", "over", "winner", "result")},
            "warnings": list(warnings_of(game))}
    return Answer(data, "\n".join(lines), warnings_of(game), pictures=pictures)


def _game_json(game) -> dict:
    """A record as JSON: the family's ``type``, ``tags`` and ``turns``, and the
    ``record`` text (what ``load`` reads back)."""
    from ..stargazers.record import game_string
    return {"type": "game", "game": NAME, "tags": dict(game.tags),
            "turns": [str(t) for t in game.turns], "record": game_string(game)}


def _value_words(margin: int, winner: str) -> str:
    """'red wins by 2 points' / 'blue wins the tie (red is left unable to place)'."""
    if margin == 0:
        loser = "blue" if winner == "red" else "red"
        return f"{winner} wins the tie ({loser} is left unable to place)"
    return wins_by(winner, abs(margin))


def solve(pos, game, o):
    """Exact value, best placements, every placement's value (``--all-turns``), a line;
    a limit that stops the search gives the proved bounds and exit code 3, Ctrl-C 130."""
    every = bool(o.all_turns or o.top)
    with progress_line(o, not o.as_json, lines=True) as show:
        s = solve_position(pos, all_turns=every, node_limit=o.node_limit,
                           time_limit=o.time_limit, progress=engine_progress(show))
    red = 1 if s.side == "red" else -1      # the family's values are the first side's
    lower, upper = sorted((red * s.lower, red * s.upper))
    data = {"game": NAME, "position": str(pos), "side_to_move": s.side,
            "value": None if s.margin is None else red * s.margin, "exact": s.exact,
            "lower": lower, "upper": upper, "margin": s.margin, "winner": s.winner,
            "best": [str(c) for c in s.best], "pv": [str(c) for c in s.pv],
            "nodes": s.nodes, "seconds": round(s.seconds, 3), "unit": "placement",
            "stopped": s.stopped, "complete": s.exact and s.stopped is None}
    interrupted = interrupt.stopped_by_ctrl_c(s.stopped)     # what was proved printed, no picture
    if not s.exact:
        return answer(data, f"Not proved: {s.stopped}; {s.lower:+d} <= margin <= "
                            f"{s.upper:+d} for {s.side} (to place).", game,
                      exit_code=130 if interrupted else 3)
    files = ()
    if o.svg and not interrupted:
        labels = {c: str(k + 1) for k, c in enumerate(s.pv[:9])}
        files = ((o.svg, svg(pos, labels=labels)),)
    moves = sorted(s.moves.items(), key=lambda kv: (-kv[1], not s.wins[kv[0]], kv[0]))
    if o.top:
        moves = moves[:o.top]
    if every:
        data["turns"] = [{"turn": str(c), "value": red * m, "margin": m, "wins": s.wins[c]}
                         for c, m in moves]
    mover = "the game is over" if pos.is_over() else "to place"
    lines = [f"Value for {s.side} ({mover}): margin {s.margin:+d}: "
             f"{_value_words(s.margin, s.winner)}.",
             "Best placements: " + (" ".join(map(str, s.best)) or "none (the game is over)"),
             "Line: " + (" ".join(map(str, s.pv)) or "-")]
    if every:
        lines.append("Every placement (margin for the side to place):")
        lines += [f"  {c:>4}  {m:+d}  {'win' if s.wins[c] else 'loss'}" for c, m in moves]
    if s.stopped is not None:
        lines.append(f"Stopped: {s.stopped}.")
    lines.append(f"{s.nodes:,} nodes, {s.seconds:.2f} s.")
    return answer(data, "\n".join(lines), game, files, exit_code=130 if interrupted else 0)


def best(pos, game, o):
    """The engine's placement: proved near the end, estimated earlier."""
    from ..stargazers.assured import status
    from ..stargazers.engine import ROUGH_ITERATIONS, Engine
    from .views import counted, rough
    if pos.is_over():
        raise InputError("the game is over: there is no placement to make")
    with progress_line(o, not o.as_json) as show:
        a = Engine(o.time or 1.0, wall_clock=o.wall_clock).analyse(pos, engine_progress(show))
    if a.method == "solver":
        lines = [f"Best placement: {a.move} (proved optimal). Margin {a.value:+d} for "
                 f"{a.side}: {'a win' if a.win_rate else 'a loss'}.",
                 ("All optimal placements: " if a.best_complete else
                  "Optimal placements proved before the limit (others not checked): ")
                 + " ".join(map(str, a.best)),
                 "Line: " + " ".join(map(str, a.pv))]
    else:
        lines = [f"Best placement: {a.move} (engine, not proved). Estimated margin "
                 f"{a.value:+.1f} for {a.side}, won in {100 * a.win_rate:.0f}% of playouts"
                 f"{rough(a.iterations, ROUGH_ITERATIONS)}.",
                 "Candidates: " + ", ".join(f"{c['placement']} ({counted(c['visits'], 'visit')}, "
                                           f"{100 * c['win_rate']:.0f}%)"
                                           for c in a.candidates[:5]),
                 "Expected line: " + " ".join(map(str, a.pv))]
    st = status(pos)
    lines.append(f"Assured red {st.assured[0]}, blue {st.assured[1]}; potential red "
                 f"{st.potential[0]}, blue {st.potential[1]}.")
    lines.append(f"{counted(a.iterations, 'iteration')}, {counted(a.nodes, 'solver node')}, "
                 f"{a.seconds:.1f} s.")
    return answer(a.to_json(str(pos)), "\n".join(lines), game)


def check(pos, game, o):
    """Was TURN (``17`` or ``17,23``) optimal, or the game's N-th turn (``--turn N``)?"""
    from .views import turn_to_judge
    pos, turn = turn_to_judge(pos, game, o, "the turn to judge (like 17 or 17,23)")
    start = time.monotonic()
    with progress_line(o, not o.as_json) as show:
        res = check_turn(pos, turn, time_limit=o.time_limit, progress=engine_progress(show))
    data = {**res.to_json(), "seconds": round(time.monotonic() - start, 3)}
    if o.turn_number is not None:
        data = {"turn_number": o.turn_number, **data}
    how = "proved" if res.method == "solver" else "estimated by the engine, not proved"
    optimal = res.optimal or (res.best,)
    best = turns_listed(map(str, optimal), 6, " or ") + \
        ("" if not res.exact or res.best_complete else
         " (proved before the limit; others not checked)")
    text = (f"{res.mover.capitalize()} {res.turn}: {res.verdict} ({how}). Best turn "
            f"{best}; value {res.best_value:+g} best, {res.played_value:+g} played "
            f"(Red's side, 100 a point; a tie is +1 or -1 for who wins it).")
    if not res.exact:
        text += "\n" + res.proved_text()
    return answer(data, text, game)


def check_exact_turns(n):
    from ..stargazers.analysis import EXACT_TURNS
    from ..stargazers.solver import MAX_EMPTY_WITHOUT_LIMIT
    exact_turns_in_reach(n, TITLE, "turns", "empty cells", MAX_EMPTY_WITHOUT_LIMIT,
                         EXACT_TURNS)


def annotate(pos, game, o):
    """Judge every turn of a game: exactly with at most ``exact_turns`` empty cells
    (default :data:`~szsolver.stargazers.analysis.EXACT_TURNS`)."""
    check_exact_turns(o.exact_turns)
    if game is None:
        raise InputError("annotate needs a game record, not a position")
    start = time.monotonic()
    with progress_line(o, True, lines=not o.as_json) as show:
        checks = annotate_game(game, exact_turns=o.exact_turns, time_per_turn=o.time_per_turn,
                               solver_time=o.solver_time, progress=annotate_progress(show))
    seconds = time.monotonic() - start
    lines = ["round  side  turn       verdict      method  best"]
    for i, c in enumerate(checks):
        lines.append(f"{game.round_of(i):>5}  {c.mover:<4}  {str(c.turn):<9}  {c.verdict:<11}  "
                     f"{c.method:<6}  {turns_listed(map(str, c.optimal or (c.best,)), 4)}")
    summary = {}
    for side in ("red", "blue"):
        mine = [c for c in checks if c.mover == side]
        counts = {v: sum(c.verdict == v for c in mine) for v in VERDICT_COUNTS}
        summary[side] = {"turns": len(mine), "judged_exactly": sum(c.exact for c in mine),
                         **{VERDICT_COUNTS[v]: n for v, n in counts.items()}}
        lines.append(f"{side.capitalize()}: " + ", ".join(verdict_count(n, v)
                                                          for v, n in counts.items()))
    turns = [{"number": i + 1, "round": game.round_of(i),
              "side": ("red", "blue")[game.side_of(i)], **c.to_json()}
             for i, c in enumerate(checks)]
    data = {"type": "annotation", "game": _game_json(game), "turns": turns,
            "summary": summary, "seconds": round(seconds, 1)}
    return answer(data, "\n".join(lines), game)


ENTRY = Entry(
    name=NAME, title=TITLE, aliases=(), detect=tagged(NAME), load=load,
    legal_turns=legal_turns, parse_turn=parse_turn, format_turn=format_turn,
    diagram=diagram, svg=svg, position_text=position_text, solve=solve_position,
    check=check_turn, annotate=annotate_game,
    options={"show": ("svg",), "score": (), "replay": ("final", "diagrams", "svg", "force"),
             "best": ("time", "wall_clock"), "check": ("turn", "turn_number", "time_limit"),
             "solve": ("all_turns", "top", "time_limit", "node_limit", "svg"),
             "annotate": ("time_per_turn", "exact_turns", "solver_time")},
    commands={"show": show, "score": score, "replay": replay, "best": best, "check": check,
              "solve": solve, "annotate": annotate},
    check_exact_turns=check_exact_turns)
