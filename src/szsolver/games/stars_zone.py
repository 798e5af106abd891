"""Stars' Zone (星域) as the registry knows it: its records and position strings (the
default: a record without a Game tag, a position string without a game prefix),
pictures, the exact endgame solver (:mod:`szsolver.endgame`), the engine, the judge
(:mod:`szsolver.analysis`), and its answers to the family's commands. A turn is a
stone and optionally a neutral (``44n66``)."""
from __future__ import annotations

import os
import re
import time

from .. import interrupt
from ..errors import InputError
from ..formats.notation import format_turn
from ..verdict import ESTIMATE_MARGIN, describe_value, turns_listed, verdict_count
from .contract import Answer, Entry
from .views import (annotate_progress, answer, counted, engine_progress, iterations_words,
                    line_words, progress_line, replay_lines, rough, solve_lines, turn_to_judge,
                    warnings_of)

NAME = "stars-zone"


def detect(text: str) -> bool:
    from ..formats.sources import game_of_text
    return game_of_text(text) is None


def load(source, rule=None):
    """(position, game or None) from the text read (``source.text``), else SOURCE as
    given (a path, ``-``, the text itself: :func:`szsolver.formats.record.load_source`)
    or the bundled rulebook game (``source.example``); ``rule`` replays it under
    another rule."""
    from ..formats.record import example_path, example_position, load_source, load_text
    given = source.given
    if source.text is not None and not source.example:
        return load_text(source.text, rule)
    if source.example:
        if given is not None:
            raise InputError("give SOURCE or --example, not both")
        if source.example_turns_left is not None:
            return example_position(source.example_turns_left, rule), None
        given = example_path()
    elif given is None:
        raise InputError("missing SOURCE: a position string, a position or game file, "
                         "- for standard input, or --example")
    return load_source(given, rule)


def legal_turns(pos) -> list:
    return list(pos.legal_turns())


def parse_turn(text: str, pos):
    from ..rules.text import checked_turn
    return checked_turn(pos, text)


def turn_text(turn, pos) -> str:
    return format_turn(turn, pos.geometry)


def diagram(pos) -> str:
    from ..formats.notation import diagram as sz_diagram
    return sz_diagram(pos)


def position_text(pos) -> str:
    from ..formats.notation import position_string
    return position_string(pos)


def svg(pos, **options) -> str:
    from ..formats.svg import position_svg
    return position_svg(pos, **options)


def solve_position(pos, *, all_turns: bool = False, time_limit: float | None = None,
                   node_limit: int | None = None, **options):
    """:func:`szsolver.endgame.solver.solve`: ``value`` exact, or ``stopped`` with the
    proved ``lower`` and ``upper`` (Red's side); ``options``: its others (``tt_size``,
    ``threads``, ``progress``)."""
    from ..endgame.solver import solve
    return solve(pos, all_turns=all_turns, time_limit=time_limit, node_limit=node_limit,
                 **options)


def check_turn(pos, turn, *, time_limit: float | None = None, progress=None):
    from ..analysis.check import check, checked_turn_to_judge
    from ..rules.backends import to_core
    core = to_core(pos)
    return check(core, checked_turn_to_judge(core, turn), time_limit=time_limit, progress=progress)


def annotate_game(game, *, exact_turns: int | None = None, **options):
    from ..analysis.annotate import EXACT_TURNS, SOLVER_TIME, annotate
    options.setdefault("solver_time", SOLVER_TIME)
    return annotate(game, exact_turns=EXACT_TURNS if exact_turns is None else exact_turns,
                    **options)


# --- the words of the answers -------------------------------------------------------------

def _article(verdict: str) -> str:
    return {"optimal": "optimal", "inaccuracy": "an inaccuracy", "mistake": "a mistake",
            "blunder": "a blunder"}[verdict]


def _signed(v) -> str:
    return "?" if v is None else f"{v:+d}"


def _score_bounds_text(sb) -> str:
    if not sb:
        return ""
    (rf, rb), (bf, bb) = sb["red"], sb["blue"]
    return (f"Red's final score {rf}..{rb}, Blue's {bf}..{bb} (CP-SAT bounds, any play)")


def _trivial_note(res) -> str:
    """A note when the proved bounds on the value after the turn are the trivial ones
    (any final scores, any neutral stones left), as early in a game."""
    from ..bounds.value import trivial_bounds
    from ..formats.notation import parse_position
    after = parse_position(res.position, res.geometry)
    after.play(res.turn)
    lo, hi = trivial_bounds(after)
    if res.lower["played_value"] <= lo and res.upper["played_value"] >= hi:
        return " These are the trivial bounds: nothing tighter is proved this early."
    return ""


def check_text(res) -> str:
    """One short paragraph for a player (see :func:`szsolver.analysis.check.check`)."""
    from ..verdict import winner_words
    g = res.geometry
    t = format_turn(res.turn, g)
    mover = "Red" if res.mover == 0 else "Blue"
    # mid-sentence ("after the best turn 35n75 Red wins 15-14"): the rest counted in brackets
    best = " or ".join(format_turn(b, g) for b in res.best[:6]) + \
        (f" (and {len(res.best) - 6} more)" if len(res.best) > 6 else "")
    sc = res.scores or {}
    if res.method == "solver":
        after = winner_words(res.played_value, sc.get("played"))
        if res.verdict == "optimal":
            who, _sp, rest = after.partition(" ")
            still = f"still {after}" if after.startswith("a draw") else f"{who} still {rest}"
            text = f"{t} was optimal (proved): {still}."
            others = [format_turn(b, g) for b in res.best if b != res.turn]
            if others:
                text += f" Equally good: {turns_listed(others, 8)}."
            return text
        return (f"{t} was {_article(res.verdict)} (proved): {mover} gives away {res.loss} in "
                f"value ({_signed(res.best_value)} -> {_signed(res.played_value)}, Red's side); "
                f"after it {after}, after the best turn {best} "
                f"{winner_words(res.best_value, sc.get('best'))}.")
    lo, hi = res.lower, res.upper
    proved = (f"Proved: value after {t} between {_signed(lo['played_value'])} and "
              f"{_signed(hi['played_value'])}")
    if lo["played_value"] == hi["played_value"]:      # bounds that meet: the value
        proved = f"Proved: value after {t} {_signed(lo['played_value'])}"
    if res.played_exact:
        proved = f"Proved: value after {t} {_signed(res.played_value)} " \
                 f"({winner_words(res.played_value, sc.get('played'))})"
    sbt = _score_bounds_text(res.score_bounds)
    if sbt:
        proved += f"; {sbt}"
    if res.method == "engine":
        head = f"{t} was {_article(res.verdict)} " + (
            "(the verdict is proved, the values are engine estimates)" if res.verdict_proved
            else "(estimated by the engine, not proved)")
        if res.verdict == "optimal" and res.best != [res.turn]:
            body = (f"the engine's choice {best} is not clearly better (value about "
                    f"{_signed(res.best_value)} against {_signed(res.played_value)}, Red's side)")
        elif res.verdict == "optimal":
            body = f"the engine finds nothing better (value about {_signed(res.played_value)}, Red's side)"
        else:
            body = (f"{mover} gives away about {res.loss} in value ({_signed(res.best_value)} -> "
                    f"{_signed(res.played_value)}, Red's side); the engine prefers {best}")
        cut = (" The time limit cut the engine's search short: a rougher estimate."
               if res.engine_stopped else "")
        lines = [f"{head}: {body}.{cut}"]
        if res.engine_line:
            lines.append("Engine's line (estimated): "
                         + " ".join(format_turn(x, g) for x in res.engine_line))
        lines.append(f"{proved}.{_trivial_note(res)}")
        return "\n".join(lines)
    if res.verdict is None:
        return f"{t}: no verdict within the time limit. {proved}."
    return f"{t} was {_article(res.verdict)} (decided by proved bounds, values not exact). {proved}."



def best_text(res, geometry) -> str:
    from ..verdict import describe_estimate, describe_value
    t = format_turn(res.turn, geometry)
    lines = []
    if res.method == "solver":
        lines.append(f"Best turn: {t} (proved optimal). Value {_signed(res.value)} "
                     f"(Red's side): {describe_value(res.value)}.")
        lines.append(("All optimal turns: " if res.best_complete else
                      "Optimal turns proved before the limit (others not checked): ")
                     + " ".join(format_turn(b, geometry) for b in res.best))
        lines.append(line_words([format_turn(b, geometry) for b in res.pv], res.pv_complete))
    else:
        lines.append(f"Best turn: {t} (engine, not proved). Estimated value {_signed(res.value)} "
                     f"(Red's side): {describe_estimate(res.value)}{rough(res.iterations)}.")
        if res.candidates:
            lines.append("Candidates: " + ", ".join(
                f"{format_turn(c['turn'], geometry)} ({counted(c['visits'], 'visit')}, about "
                f"{c['estimate']:+.0f})" for c in res.candidates[:5]))
        if res.pv:
            lines.append("Expected line: " + " ".join(format_turn(b, geometry) for b in res.pv))
        proved = f"Proved: value between {_signed(res.lower)} and {_signed(res.upper)}"
        sbt = _score_bounds_text(res.score_bounds)
        lines.append(proved + (f"; {sbt}." if sbt else "."))
        if res.stopped:
            lines.append(f"(The exact solver stopped: {res.stopped}.)")
    from ..engine.search import MAX_ITERATIONS
    lines.append(f"{iterations_words(res.iterations, MAX_ITERATIONS)}, "
                 f"{counted(res.nodes, 'solver node')}, {res.seconds:.1f} s.")
    return "\n".join(lines)



def annotation_text(ann) -> str:
    """The annotated game as a table, the proved part apart from the estimated one."""
    from ..analysis.annotate import accuracy_text
    g = ann.game
    geo = g.geometry
    lines = []
    tags = g.tags
    red = f"{tags['Red']} (Red)" if "Red" in tags else "Red"
    blue = f"{tags['Blue']} (Blue)" if "Blue" in tags else "Blue"
    head = f"{red} - {blue}, {['basic', 'advanced'][g.rule]} rule, " \
           f"neutrals {g.neutrals[0]}+{g.neutrals[1]}"
    lines.append(head + ".")
    marks = {"optimal": "", "inaccuracy": "?!", "mistake": "?", "blunder": "??", None: ""}

    def row(num, k, r):
        best = turns_listed((format_turn(b, geo) for b in r.best), 4)
        side = "red" if r.mover == 0 else "blue"
        played = format_turn(r.turn, geo) + marks[r.verdict]
        note = "  (verdict proved)" if r.verdict_proved and not r.exact else ""
        return (f"  {num:>4} {g.round_of(k):>5} {side:<4} {played:<9} {_signed(r.value_before):>6} "
                f"{_signed(r.played_value):>6} {r.loss if r.loss is not None else '?':>4}  "
                f"{r.verdict or 'open':<10} {best}{note}")

    header = "  turn round side played     before  after loss  verdict    best"
    split = None
    if ann.proved_from is not None:
        split = ann.numbers.index(ann.proved_from)
    est = range(len(ann.turns)) if split is None else range(split)
    if len(est):
        first, last = ann.numbers[est[0]], ann.numbers[est[-1]]
        lines.append("")
        lines.append(f"Estimated (turns {first}-{last}: engine estimates, not proved; "
                     "values Red's side):")
        lines.append(f"  (a loss under {ESTIMATE_MARGIN}, half a point, is within the estimates' "
                     "precision")
        lines.append("   and counts as 0, unless the proved bounds show it)")
        lines.append(header)
        for k in est:
            lines.append(row(ann.numbers[k], k, ann.turns[k]))
    if split is not None:
        lines.append("")
        lines.append(f"Proved (turns {ann.proved_from}-{ann.numbers[-1]}: exact solver; "
                     "values Red's side):")
        lines.append(header)
        for k in range(split, len(ann.turns)):
            lines.append(row(ann.numbers[k], k, ann.turns[k]))
    lines.append("")
    for name in ("red", "blue"):
        s = ann.summary[name]
        counts = ", ".join(verdict_count(s[k], w) + (f" ({s[k + '_proved']} proved)" if s[k] else "")
                           for k, w in (("inaccuracies", "inaccuracy"), ("mistakes", "mistake"),
                                        ("blunders", "blunder")))
        lines.append(f"{name.capitalize()}: {accuracy_text(s)}; {counts}.")
    final = g.final
    r, b = final.scores()
    from ..limits import seconds_text
    lines.append(f"Final: {r}-{b}. {seconds_text(ann.seconds)} "
                 f"({seconds_text(ann.cpu_seconds)} of CPU).")
    return "\n".join(lines)



def _text(res, g, side: int, top: int | None = None) -> str:
    lines = solve_lines(res.to_json(g))
    tt = res.tt
    lines.append(f"Nodes: {res.nodes:,} in {res.seconds:.3f} s ({res.nodes_per_second:,.0f}/s); "
                 f"TT {tt['tt_hits']:,}/{tt['tt_probes']:,} hits, {tt['tt_stores']:,} stores, "
                 f"fill {tt['tt_fill']:.1%}")
    if res.turns is not None:
        lines.append("")
        mover = "Red" if side == 0 else "Blue"
        lines.append(f"Turn values (Red's side, best first for {mover} to move; turns on one "
                     "line are equal by a symmetry):")
        groups = _groups(res.turns)
        for members in groups[:top]:
            t0 = members[0]
            if t0.exact:
                val = f"{t0.value:+6d}"
            else:
                val = f"[{t0.lower:+d}, {t0.upper:+d}]"
            lines.append(f"  {val}  " + " ".join(format_turn(m.turn, g) for m in members))
        if top is not None and len(groups) > top:
            rest = sum(len(m) for m in groups[top:])
            lines.append(f"  ... and {rest} more turn{'s' if rest != 1 else ''} "
                         f"(--top {top}: the {top} best lines only)")
    if not res.exact:
        lines.append("Not proved: `szsolver best POSITION` gives the engine's estimate of the "
                     "best turns, `szsolver check POSITION TURN` judges a turn.")
    return "\n".join(lines)


def _groups(turns) -> list[list]:
    """The turns by symmetry group, in the order the solver gives them (best first for
    the side to move)."""
    groups: dict[int, list] = {}
    for t in turns:
        groups.setdefault(t.group, []).append(t)
    return list(groups.values())


class _Feedback:
    """The solver's progress as ``solve`` shows it on stderr (``show``, a progress
    line of :func:`progress_printer`): the proved bounds as each probe narrows
    them, the probe that did it, the best turn so far (the root turn that proved
    the side to move's bound), the nodes searched and the nodes per second. Each
    probe is a milestone (a plain line off a terminal); between probes the line on
    a terminal counts the nodes as they are searched. It reports what the solver
    tells (:class:`~szsolver.endgame.solver.Progress`), nothing else."""

    def __init__(self, show, geometry):
        self.show = show
        self.geometry = geometry
        self.start = time.monotonic()
        self.last = None            # the last Progress
        self.doing = None           # what the solver does after the value (best turns...)

    def __call__(self, msg) -> None:
        from ..endgame.solver import Progress
        if isinstance(msg, Progress):
            if self.last is None:   # the search starts: its tables are ready
                self.start = time.monotonic()
            self.last, self.doing = msg, None
            self.show.note(self.live)
        else:                       # "best turns: 3/483 turns, ...": the nodes come live
            self.doing = re.sub(r" \([\d,]+ nodes\)$", "", str(msg))
            self.show(self.live)

    def live(self) -> str:
        """The line now, with the nodes searched so far."""
        p = self.last
        nodes = p.node_counter() if p is not None else 0
        parts = []
        if p is not None:
            lo, hi = p.bounds
            if lo == hi:
                parts.append(f"value {lo:+d} (proved)")
            elif p.probes == 0:
                parts.append(f"{lo:+d} <= value <= {hi:+d} (static bounds, before the "
                             "first probe)")
            else:
                test = ">=" if p.proved_at_least else "<"
                parts.append(f"{lo:+d} <= value <= {hi:+d} (probe {p.probes}: value "
                             f"{test} {p.gamma:+d})")
            if p.best is not None and lo != hi:
                parts.append(f"best so far {format_turn(p.best, self.geometry)}")
            if lo != hi and not self.doing and p.root_counter is not None:
                i, n, j, m = p.root_counter()     # how far the running probe is
                if n:
                    where = f"probe {p.probes + 1} at root turn {min(i, n)} of {n}"
                    parts.append(where + (f", reply {min(j, m)} of {m}" if m else ""))
        if self.doing:
            parts.append(self.doing)
        if nodes:
            seconds = time.monotonic() - self.start
            rate = nodes / seconds if seconds > 0 else 0.0
            parts.append(f"{nodes:,} nodes, {rate:,.0f} nodes/s")
        return "; ".join(parts) or "working"


# A table this full keeps replacing proved entries: a larger one would save work.
FULL_TABLE = 0.9


def _full_table_notes(res) -> tuple:
    """A note when the transposition table filled up, with the size to try."""
    tt = res.tt or {}
    entries = tt.get("tt_entries") or 0
    if entries and tt.get("tt_fill", 0.0) >= FULL_TABLE:
        from ..endgame.solver import TT_ENTRY_BYTES
        return (f"Note: the transposition table filled up ({entries:,} entries, "
                f"{entries * TT_ENTRY_BYTES / 2**20:.1f} MiB); a larger --tt-size (e.g. {4 * entries}) "
                "may solve faster, memory permitting.",)
    return ()



def replay_pictures(game) -> list[tuple[str, str]]:
    """(file name, SVG) for every turn of ``game``: the position after the turn, the
    turn marked, captioned with its number, round, side and text, then side to move,
    scores and rule. Names are ``turn-01.svg`` ... (zero-padded so they sort)."""
    from ..formats.svg import position_caption, position_svg
    from ..rules.base import SIDE_NAMES
    n = len(game.turns)
    width = max(2, len(str(n)))
    out = []
    for i, turn in enumerate(game.turns):
        after = game.positions[i]
        head = (f"after turn {i + 1} of {n} (round {game.round_of(i)}): "
                f"{SIDE_NAMES[game.side_of(i)]} {format_turn(turn, after.geometry)}")
        caption = "\n".join([head] + position_caption(after))
        out.append((f"turn-{i + 1:0{width}d}.svg",
                    position_svg(after, last_turn=turn, caption=caption)))
    return out


def line_picture(pos, res) -> str:
    """The position with the solver's line of play drawn on it: the best turn is 1,
    the principal variation goes on 2, 3, ...; each stone in its side's colour and
    each neutral it places in the neutral colour, both with the turn's number. The
    caption gives the value (exact or the proved bounds) and the line as text."""
    from ..formats.palette import NEUTRAL_STONE, STONE_COLOURS
    from ..formats.svg import position_caption, position_svg
    from ..rules.base import turn_neutral, turn_stone
    g = pos.geometry
    line = list(res.pv) or list(res.best[:1])
    numbered = {}
    side = pos.side
    for k, t in enumerate(line, 1):
        numbered[turn_stone(t)] = (STONE_COLOURS[side], str(k))
        if turn_neutral(t) >= 0:
            numbered[turn_neutral(t)] = (NEUTRAL_STONE, str(k))
        side ^= 1
    if res.exact:
        value = f"value {res.value:+d} (Red's side, exact)"
    else:
        value = f"value not proved: {res.lower:+d} .. {res.upper:+d}"
    text = " ".join(format_turn(t, g) for t in line) + f" (numbered 1-{len(line)})"
    caption = [f"{value}; best turn {format_turn(line[0], g)}" if line else value]
    if len(line) > 1:
        caption.append("line: " + text)
    caption += position_caption(pos)
    return position_svg(pos, numbered=numbered, caption="\n".join(caption))


# --- the commands -------------------------------------------------------------------------

def show(pos, game, o):
    """The position (a game's last one) as a diagram, with the scores."""
    from ..formats.notation import position_json, result_json
    if o.beams and not o.svg:
        raise InputError("--beams draws the beams in the SVG picture: give --svg FILE too")
    last = game.turns[-1] if game is not None and game.turns else None
    files = ((o.svg, svg(pos, beams=o.beams, last_turn=last)),) if o.svg else ()
    text = diagram(pos)
    if last is not None:
        i = len(game.turns) - 1
        text += f"\nLast turn: {game.where(i)} {format_turn(last, pos.geometry)}."
    data = {"position": position_json(pos), **result_json(pos),
            "last_turn": None if last is None else format_turn(last, pos.geometry)}
    return answer(data, text, game, files)


def score(pos, game, o):
    """Per side the score, the patterns present and each stone's pattern."""
    from ..formats.notation import score_json
    data = score_json(pos)
    lines = [f"Rule: {data['rule']}."]
    for side in ("red", "blue"):
        d = data[side]
        lines.append(f"{side.capitalize()} {d['score']}: "
                     + (" ".join(p["name"] for p in d["patterns"]) or "no stones"))
        for st in d["stones"]:
            lines.append(f"  {st['point']:>5} {st['name']}")
    lines.append(f"{'Result' if data['over'] else 'Standing'}: {data['result']}.")
    return answer(data, "\n".join(lines), game)


def replay(pos, game, o):
    """A game turn by turn with the scores, then its final position."""
    from ..formats.notation import board_json, diagram as sz_diagram, position_json, \
        position_string, result_json
    from ..formats.record import game_json
    from ..rules.base import RULE_NAMES, SIDE_NAMES
    pictures = None
    if o.svg is not None:
        if game is None or not game.turns:
            raise InputError("--svg draws one picture per turn: give a game record with turns")
        pictures = (o.svg, tuple((os.path.join(o.svg, name), picture)
                                 for name, picture in replay_pictures(game)))
    turns, rows = [], []
    for i, t in enumerate(game.turns if game is not None else ()):
        after = game.positions[i]
        r, b = after.scores()
        entry = {"round": game.round_of(i), "side": SIDE_NAMES[game.side_of(i)],
                 "turn": format_turn(t, pos.geometry), "scores": {"red": r, "blue": b},
                 "neutrals_left": {"red": after.red_neutrals, "blue": after.blue_neutrals},
                 "position": position_string(after), **board_json(after.geometry)}
        turns.append(entry)
        rows.append((f"{entry['round']:>5}  {entry['side']:<4}  {entry['turn']:<8} "
                     f"{r:>4} {b:>4}  red {after.red_neutrals}, blue {after.blue_neutrals}",
                     lambda after=after: sz_diagram(after, status=False)))
    lines = [] if game is None else replay_lines(
        game.tags, "round  side  turn      red blue  neutrals left", rows,
        final_only=o.final, diagrams=o.diagrams)
    lines.append(diagram(pos))
    data = {"game": None if game is None else game_json(game),
            "rule": RULE_NAMES[pos.rule], "turns": turns,
            "final": position_json(pos), **result_json(pos),
            "warnings": list(warnings_of(game))}
    if game is not None:
        used = {"red": game.neutrals[0] - pos.red_neutrals,
                "blue": game.neutrals[1] - pos.blue_neutrals}
        data["neutrals_used"] = used
        lines.append(f"Neutrals used: red {used['red']}, blue {used['blue']}.")
    return Answer(data, "\n".join(lines), warnings_of(game), pictures=pictures)


def _engine_events(tell):
    """The engine's partial answers (:meth:`szsolver.engine.search.Engine.analyse`'s
    progress) told to ``tell``, the family's engine callback (None: nothing)."""
    if tell is None:
        return None

    def progress(part):
        plan = part.budget                  # None: on the clock
        total = None if plan is None else \
            plan.solver_nodes if part.partial == "solver" else plan.iterations
        tell(part.partial, part.iterations, total)
    return progress


def best(pos, game, o):
    """The engine's turn with its value: proved near the end, estimated earlier."""
    from ..engine.search import COMMAND_START, DEFAULT_SECONDS, Engine
    if pos.is_over():
        raise InputError("the game is over: there is no turn to play")
    # the command's own start-up is part of the budget (a fixed figure: deterministic)
    eng = Engine(o.time or DEFAULT_SECONDS, wall_clock=o.wall_clock, bounds=True,
                 spent=COMMAND_START)
    with progress_line(o, not o.as_json) as show:
        res = eng.analyse(pos, progress=_engine_events(engine_progress(show)))
    return answer(res.to_json(pos.geometry), best_text(res, pos.geometry), game)


def check(pos, game, o):
    """Was TURN optimal in the position, or the game's N-th turn (``--turn N``)?"""
    from ..analysis.annotate import turn_number
    from ..analysis.check import check as check_core, checked_turn_to_judge
    from ..rules.backends import to_core
    pos, turn = turn_to_judge(pos, game, o, "the turn to judge (like 44n66)",
                              first=lambda game: turn_number(game, 0))
    core = to_core(pos)
    turn = checked_turn_to_judge(core, turn)
    with progress_line(o, not o.as_json) as show:
        res = check_core(core, turn, time_limit=o.time_limit, progress=show)
    data = res.to_json()
    if o.turn_number is not None:
        data = {"turn_number": o.turn_number, **data}
    return answer(data, check_text(res), game)


def solve(pos, game, o):
    """Value, winner, best turns, principal variation (and every turn's value); a limit
    that stops the search gives the proved bounds and exit code 3, an interrupt 130."""
    all_turns = o.all_turns or o.top is not None
    with progress_line(o, not (o.as_json or o.quiet), lines=True) as show:
        res = solve_position(pos, time_limit=o.time_limit, node_limit=o.node_limit,
                             tt_size=o.tt_size, all_turns=all_turns, threads=o.threads or 1,
                             progress=show and _Feedback(show, pos.geometry))
    interrupted = interrupt.stopped_by_ctrl_c(res.stopped)
    # after Ctrl-C: the proved part printed, no picture, no note
    files = ((o.svg, line_picture(pos, res)),) if o.svg and not interrupted else ()
    data = res.to_json(pos.geometry)
    if o.top is not None and res.turns is not None:
        shown = {t.group for members in _groups(res.turns)[:o.top] for t in members}
        data["turns"] = [t for t in data["turns"] if t["group"] in shown]
    return answer(data, _text(res, pos.geometry, pos.side, o.top), game, files,
                   notes=() if interrupted else _full_table_notes(res),
                   # scripts tell "not proved" from exact; Ctrl-C from a limit
                   exit_code=0 if res.exact else 130 if interrupted else 3)


def check_exact_turns(n):
    from ..analysis.annotate import EXACT_TURNS
    if n is not None and n > EXACT_TURNS:
        raise InputError(f"--exact-turns {n}: at most {EXACT_TURNS} turns left "
                         "(the exact solver's horizon without a limit)")


def annotate(pos, game, o):
    """Judge every turn of a game: the last turns proved, earlier ones estimated."""
    check_exact_turns(o.exact_turns)
    if game is None:
        raise InputError("annotate needs a game record, not a position")
    if not game.turns:
        raise InputError("the game has no turns to judge")
    if o.html and not os.path.isdir(os.path.dirname(os.path.abspath(o.html))):
        raise InputError(f"cannot write {o.html}: no such directory")   # before the work
    # off a terminal too (a log of a long run), unless stdout is JSON for a program
    options = {} if o.time_per_turn is None else {"time_per_turn": o.time_per_turn}
    if o.solver_time is not None:
        options["solver_time"] = o.solver_time
    with progress_line(o, True, lines=not o.as_json) as show:
        ann = annotate_game(game, exact_turns=o.exact_turns, progress=annotate_progress(show),
                            threads=o.threads or 1, **options)
    files = ()
    if o.html:
        from ..analysis.report import annotation_html
        files = ((o.html, annotation_html(ann)),)
    return answer(ann.to_json(), annotation_text(ann), game, files)


ENTRY = Entry(
    name=NAME, title="Stars' Zone", aliases=("starszone", "sz"), detect=detect, load=load,
    legal_turns=legal_turns, parse_turn=parse_turn, format_turn=turn_text,
    diagram=diagram, svg=svg, position_text=position_text, solve=solve_position,
    check=check_turn, annotate=annotate_game,
    options={"show": ("rule", "svg", "beams"), "score": ("rule",),
             "replay": ("rule", "final", "diagrams", "svg", "force"),
             "best": ("rule", "time", "wall_clock"),
             "check": ("rule", "turn", "turn_number", "time_limit"),
             "solve": ("rule", "all_turns", "top", "time_limit", "node_limit", "tt_size",
                       "threads", "quiet", "svg", "two_turn_bounds", "workers", "scheduler"),
             "annotate": ("rule", "time_per_turn", "exact_turns", "solver_time", "threads",
                          "html")},
    commands={"show": show, "score": score, "replay": replay, "best": best, "check": check,
              "solve": solve, "annotate": annotate},
    check_exact_turns=check_exact_turns)
