"""``szsolver puzzle endgame``: endgame puzzles ("Red to play and win"), each proved by
the exact solver (see :mod:`szsolver.puzzles.endgame`).

Exit codes: 0 done (``check``: the right turn), 1 ``check`` given a wrong turn, 2 bad
input (unknown ID, illegal turn text: one line ``Error: ...``).
"""
from __future__ import annotations

import sys

import click

from ..verdict import describe_value
from .common import Names, WholeRange, emit, examples

CHECK_WRONG = 1


def _value_text(value: int) -> str:
    """A composite value as the result it means, with the value: 'Red wins by 2 points
    (+199)' (the words are every command's, :func:`szsolver.verdict.describe_value`)."""
    return f"{describe_value(value)} ({value:+d})"


def _scores(s: dict | None) -> str:
    return f"{s['red']}-{s['blue']}" if s else "?"


def _describe(p, with_solution: bool) -> tuple[dict, str]:
    from ..formats.notation import diagram
    pos = p.load_position()
    data = p.to_json()
    mover = p.side.capitalize()
    lines = [f"{p.id}: {p.grade} endgame puzzle, {p.rule} rule, {p.turns_left} turns left"
             + (f" (from {p.source})" if p.source else ""),
             f"{mover} to play: one turn keeps the best result ({p.refuted} other turn "
             "groups proved worse by the solver)",
             diagram(pos).rstrip(), f"position: {p.position}"]
    if with_solution:
        lines.append(f"solution: {p.solution}" + (f" (or by symmetry {', '.join(p.also)})"
                                                   if p.also else "")
                     + f": {_value_text(p.value)}, final score {_scores(p.scores)}")
        lines.append("  line: " + " ".join([p.solution, *p.line]))
        for w in p.punishments:
            lines.append(f"  {w['turn']}{' (greedy)' if w['greedy'] else ''}: "
                         f"{_value_text(w['value'])}, loses {w['loss']}; "
                         f"reply {' '.join(w['line'])}, final score {_scores(w['scores'])}")
    else:
        for k in ("solution", "also", "line", "scores", "punishments", "value"):
            data.pop(k, None)
    return data, "\n".join(lines)


def _check(p, turn: str, as_json: bool) -> None:
    from ..puzzles.endgame import check_turn
    r = check_turn(p, turn)
    if r["correct"]:
        text = (f"{r['turn']}: right. It keeps the result: {_value_text(r['value'])}; the proved line "
                f"{' '.join(r['line']) or '(the game ends)'} ends {_scores(r['scores'])}.")
    else:
        text = (f"{r['turn']}: wrong. The best gives: {_value_text(r['best'])}; after "
                f"{r['turn']} the reply line {' '.join(r['line']) or '(the game ends)'} "
                f"gives: {_value_text(r['value'])}, final score {_scores(r['scores'])} "
                f"(loses {r['loss']}).")
    emit(r, text, as_json)
    if not r["correct"]:
        sys.exit(CHECK_WRONG)


@examples("szsolver puzzle endgame daily",
          "szsolver puzzle endgame show eg-basic-medium-7")
@click.group("endgame")
def endgame():
    """Endgame puzzles: find the one turn that keeps the best result."""


@examples("szsolver puzzle endgame show eg-basic-medium-7 --solution")
@endgame.command("show")
@click.argument("puzzle_id")
@click.option("--solution", "with_solution", is_flag=True, help="Also the solution and the punishments.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def show_cmd(puzzle_id, with_solution, as_json):
    """Show the endgame puzzle PUZZLE_ID (e.g. eg-basic-medium-7, eg-basic-d20261122)."""
    from ..puzzles.endgame import puzzle_from_id
    emit(*_describe(puzzle_from_id(puzzle_id), with_solution), as_json)


@examples("szsolver puzzle endgame check eg-basic-easy-3 69n68  # the right turn")
@endgame.command("check")
@click.argument("puzzle_id")
@click.argument("turn")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def check_cmd(puzzle_id, turn, as_json):
    """Check TURN (turn text like 44n66) as the answer to PUZZLE_ID: right (exit 0) or
    wrong (exit 1) with the solver's proved refutation."""
    from ..puzzles.endgame import puzzle_from_id
    _check(puzzle_from_id(puzzle_id), turn, as_json)


@examples("szsolver puzzle endgame daily --date 2026-11-22 --rule advanced")
@endgame.command("daily")
@click.option("--date", default=None, help="YYYY-MM-DD (default: today, UTC).")
@click.option("--rule", type=Names(["basic", "advanced"]), default="basic", show_default=True)
@click.option("--solution", "with_solution", is_flag=True, help="Also the solution and the punishments.")
@click.option("--check", "turn", default=None, help="Check this turn instead of showing the puzzle.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def daily_cmd(date, rule, with_solution, turn, as_json):
    """The endgame puzzle of the day (the same on every machine)."""
    from ..puzzles.endgame import daily
    p = daily(date, rule)
    if turn is not None:
        _check(p, turn, as_json)
    else:
        emit(*_describe(p, with_solution), as_json)


@examples("szsolver puzzle endgame generate --grade easy --seed 1")
@endgame.command("generate")
@click.option("--rule", type=Names(["basic", "advanced"]), default="basic", show_default=True)
@click.option("--grade", type=Names(["easy", "medium", "hard"]), default="medium", show_default=True)
@click.option("--seed", type=WholeRange(1, 999_999_999), default=1, show_default=True)
@click.option("--solution", "with_solution", is_flag=True, help="Also the solution and the punishments.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def generate_cmd(rule, grade, seed, with_solution, as_json):
    """Generate the endgame puzzle eg-RULE-GRADE-SEED from seeded games, proved by the solver."""
    from ..puzzles.endgame import generate
    p = generate(rule, grade, seed)
    data, text = _describe(p, with_solution)
    text += f"\ngenerated in {p.seconds} s from {p.attempts} game(s)"
    emit(data, text, as_json)
