"""Endgame puzzles ("Red to play and win"): a late position of a real-looking game in
which exactly one turn, up to the board's symmetries, keeps the best result.

Every puzzle is proved by the exact solver (:func:`szsolver.endgame.solver.solve`): the
position's value is exact, every turn group but the solution's is proved worse (a
null-window probe of each child), and each tempting wrong turn (the greedy turn, then
the next stones by greedy gain) carries its punishment: its exact value and the
solver's proved reply line.

Grades (turns left = plies to the end of the game, each side's turn counting one):

========  ==========  ==========  ==========================================================
grade     Basic       Advanced    also required
========  ==========  ==========  ==========================================================
easy      2-3         2-3         one optimal turn group (up to symmetry)
medium    4-5         4           and the solution is not the greedy turn or places a neutral
hard      6           5           and the solution is not the greedy turn
========  ==========  ==========  ==========================================================

The greedy turn is the stone, without a neutral, that most raises the mover's score
minus the opponent's. Deeper positions fit the idea, but their proofs take from 30 s
to minutes (docs/endgame-puzzles.md), so the generator stops at these depths.

IDs (``puzzle_id``) reproduce a puzzle on any machine:

* ``eg-basic-medium-7``: generator seed 7 for that rule and grade. Candidates come
  from games played by a seeded mix of greedy and random turns
  (:class:`szsolver.rules.seeds.SplitMix64` over ``puzzle_seed_v1("endgame", rule,
  grade, seed, attempt)``); the first qualifying position wins. The published
  collection stores seeds 1..count (``endgame-<rule>.json`` beside this module, in ``szsolver.puzzles``).
* ``eg-basic-ex4``: the rulebook example game (replayed under the rule) 4 turns before
  its end, when that position qualifies.
* ``eg-basic-d20261122``: the daily puzzle, picked from the collection by the date.
"""
from __future__ import annotations

import datetime as _dt
import json
import re
import time
from dataclasses import dataclass, field
from importlib.resources import files

from ..errors import InvalidPuzzleError, UnknownPuzzleError
from ..inputs import choice, date_of_digits, iso_date, is_digits, name_key, shown
from ..rules.backends import default_position_class
from ..rules.base import ADVANCED, BASIC, NO_NEUTRAL, RULE_NAMES, SIDE_NAMES, encode_turn, \
    rule_code, turn_neutral
from ..rules.seeds import puzzle_rng_v1, puzzle_seed_v1
from ..rules.text import checked_turn, position_string, turn_table
from ..endgame.solver import solve as _solve, turn_orbits

# The solver's techniques the published lines were proved with. Which of several
# equally optimal lines a search settles on depends on them (the Advanced two-turn
# bounds change it), and a published puzzle never changes: generation and checking
# keep these, whatever the solver's default.
LINE_OPTIONS = ("tt", "leaf", "tables", "order", "dom", "mono")


def solve(position, **kwargs):
    """The exact solver (``endgame.solver.solve``) with ``LINE_OPTIONS``."""
    return _solve(position, options=list(LINE_OPTIONS), **kwargs)

__all__ = ["GRADES", "TURNS_LEFT", "EndgamePuzzle", "greedy_turns", "prove", "generate",
           "puzzle_id", "parse_id", "puzzle_from_id", "load_collection", "collection_index",
           "daily_id", "daily", "check_turn", "build_collection", "FORMAT"]

FORMAT = "szsolver-endgame-puzzles"
GENERATOR_VERSION = 1
GRADES = ("easy", "medium", "hard")
# turns left each grade takes, tried from the deepest down within one game
TURNS_LEFT = {BASIC: {"easy": (3, 2), "medium": (5, 4), "hard": (6,)},
              ADVANCED: {"easy": (3, 2), "medium": (4,), "hard": (5,)}}
PUNISHED = 3            # wrong turns punished besides the greedy turn: the next best by value
MAX_ATTEMPTS = 400      # games per seed before the generator gives up
# candidates whose value takes more nodes to prove are skipped: bounds the generation time
# (about 2 s of CPU per skipped candidate); every published puzzle's value needs at most 3.2 M
SCREEN_NODES = 4_000_000
# weekday -> grade of the daily puzzle (Monday first)
WEEKDAY_GRADES = ("easy", "easy", "medium", "medium", "hard", "medium", "hard")
# the daily picks among seeds 1..DAILY_SEEDS (and the example game's puzzles) of a grade,
# so that puzzles added to the collection later never change a date's puzzle
DAILY_SEEDS = 20
COLLECTION_FILES = {BASIC: "endgame-basic.json", ADVANCED: "endgame-advanced.json"}

_ID = re.compile(r"eg-(basic|advanced)-(?:(easy|medium|hard)-([1-9][0-9]{0,8})|ex([2-8])|d([0-9]{8}))")


# --- the puzzle ---------------------------------------------------------------------------

@dataclass
class EndgamePuzzle:
    """A proved endgame puzzle. Values are the rules' composite value, Red's side
    (100 * score difference + neutral tie-break); turns are turn text."""
    id: str
    rule: str
    grade: str
    position: str
    solution: str            # one optimal turn; its symmetric images are listed in ``also``
    value: int
    turns_left: int
    also: list = field(default_factory=list)     # the solution's images under symmetries
    line: list = field(default_factory=list)     # the proved line after the solution
    scores: dict = field(default_factory=dict)   # final scores of that line
    greedy: list = field(default_factory=list)   # the greedy turns
    neutral: bool = False                        # the solution places a neutral
    turns: int = 0                               # legal turns
    groups: int = 0                              # legal turns up to symmetry
    refuted: int = 0                             # groups proved worse than the solution
    punishments: list = field(default_factory=list)
    seed: str = ""
    attempts: int = 0
    seconds: float = 0.0
    source: str | None = None                    # the collection ID a daily puzzle is

    @property
    def side(self) -> str:
        return SIDE_NAMES[1] if self.position.split()[1] == "B" else SIDE_NAMES[0]

    def to_json(self) -> dict:
        d = {k: getattr(self, k) for k in (
            "id", "rule", "grade", "position", "solution", "value", "turns_left", "also",
            "line", "scores", "greedy", "neutral", "turns", "groups", "refuted",
            "punishments", "seed", "attempts", "seconds")}
        d["side"] = self.side
        if self.source is not None:
            d["source"] = self.source
        return d

    @classmethod
    def from_json(cls, d: dict) -> "EndgamePuzzle":
        try:
            kw = {k: d[k] for k in cls.__dataclass_fields__ if k in d}
            return cls(**kw)
        except (KeyError, TypeError) as e:
            raise InvalidPuzzleError(f"bad endgame puzzle: {e}") from None

    def load_position(self):
        return default_position_class()(self.position)


def _gain(pos, stone: int) -> int:
    """The mover's score minus the opponent's after its stone on ``stone`` (no neutral)."""
    me = pos.side
    t = encode_turn(stone, NO_NEUTRAL)
    pos.make(t)
    v = pos.score(me) - pos.score(me ^ 1)
    pos.unmake(t)
    return v


def _empties(pos) -> list[int]:
    return [q for q in range(pos.geometry.size) if pos.empty >> q & 1]


def greedy_turns(pos) -> list[int]:
    """The greedy turns (codes): the stones without neutral that most raise the mover's
    score minus the opponent's."""
    work = pos.copy()
    gains = {p: _gain(work, p) for p in _empties(pos)}
    top = max(gains.values())
    return [encode_turn(p, NO_NEUTRAL) for p, v in gains.items() if v == top]


def _loss(v_best: int, v: int, red_moves: bool) -> int:
    return v_best - v if red_moves else v - v_best


def prove(pos, *, require_non_greedy: bool = False, require_tactic: bool = False,
          node_limit: int | None = SCREEN_NODES):
    """The puzzle in ``pos`` proved, as a dict of EndgamePuzzle fields (no id/grade/seed),
    or None when ``pos`` is no puzzle: the game is over, more than one turn group is
    optimal, or (``require_non_greedy``) the solution is a greedy turn, or
    (``require_tactic``) it is neither a non-greedy stone nor places a neutral, or the
    solver cannot prove the value within ``node_limit`` nodes (a node limit is
    deterministic, so the same positions are skipped on every machine; None: no limit).

    The proof is the exact solver's: the position's value is exact and every turn group
    other than the solution's is proved worse by a null-window probe of its child
    (``solve``'s ``best``); the punished turns (the greedy turn, then the most tempting
    others by greedy gain: stones alone, then the solution's stone with another neutral)
    get their exact value and the solver's proved reply line."""
    if pos.is_over():
        return None
    red_moves = pos.side == 0
    greedy = set(greedy_turns(pos))
    res = solve(pos, node_limit=node_limit)
    if not res.exact:
        return None
    if not (getattr(res, "best_complete", True) and getattr(res, "pv_complete", True)):
        # the limit screens the value search only: when it also stopped the optimal
        # turns or the line, prove them in full (a partial ``best`` would look unique)
        res = solve(pos)
    orbits = turn_orbits(pos)
    best = set(res.best)
    best_orbits = [o for o in orbits if best.intersection(o)]
    if len(best_orbits) != 1:
        return None
    sol_turns = sorted(best_orbits[0])
    non_greedy = not greedy.intersection(sol_turns)
    if require_non_greedy and not non_greedy:
        return None
    solution = sol_turns[0]
    has_neutral = turn_neutral(solution) != NO_NEUTRAL
    if require_tactic and not (non_greedy or has_neutral):
        return None
    table = turn_table(pos.geometry)
    text = lambda t: str(table[t])  # noqa: E731
    orbit_of = {t: i for i, o in enumerate(orbits) for t in o}
    work = pos.copy()
    gains = {p: _gain(work, p) for p in _empties(pos)}
    tempting = sorted((encode_turn(p, NO_NEUTRAL) for p in gains), key=lambda t: (-gains[t & 63], t))
    seen = {orbit_of[solution]}
    chosen = []
    for t in tempting:
        if orbit_of[t] not in seen and len(chosen) < PUNISHED + 1:
            seen.add(orbit_of[t])
            chosen.append(t)
    punishments = []
    for t in chosen:
        child = pos.copy()
        child.make(t)
        r = solve(child)
        assert r.exact and _loss(res.value, r.value, red_moves) > 0, "a wrong turn loses"
        punishments.append({"turn": text(t), "greedy": t in greedy, "value": r.value,
                            "loss": _loss(res.value, r.value, red_moves),
                            "line": [text(x) for x in r.pv], "scores": r.scores})
    line = ([text(t) for t in res.pv[1:]] if res.pv and res.pv[0] == solution
            else _line_after(pos, solution, text))
    return {"position": position_string(pos), "solution": text(solution), "value": res.value,
            "turns_left": pos.turns_left, "also": [text(t) for t in sol_turns[1:]],
            "line": line, "scores": res.scores, "greedy": [text(t) for t in sorted(greedy)],
            "neutral": has_neutral, "turns": sum(len(o) for o in orbits), "groups": len(orbits),
            "refuted": len(orbits) - 1, "punishments": punishments}


def _line_after(pos, turn: int, text) -> list:
    child = pos.copy()
    child.make(turn)
    return [text(x) for x in solve(child).pv]


# --- generation ---------------------------------------------------------------------------

def _start(rule: int):
    return default_position_class()(rule=RULE_NAMES[rule])


def _play_game(rule: int, rng) -> list:
    """The positions of one seeded game (before each turn, then the final one): each turn
    the greedy stone with probability 0.6 (ties by the rng), else a random stone; a
    random neutral with probability 0.25 while the side has one."""
    pos = _start(rule)
    out = [pos.copy()]
    while not pos.is_over():
        empties = _empties(pos)
        if rng.random() < 0.6:
            gains = {p: _gain(pos, p) for p in empties}
            top = max(gains.values())
            cands = [p for p in empties if gains[p] == top]
            stone = cands[rng.below(len(cands))]
        else:
            stone = empties[rng.below(len(empties))]
        neutral = NO_NEUTRAL
        if pos.neutrals_left(pos.side) and rng.random() < 0.25:
            rest = [q for q in empties if q != stone]
            neutral = rest[rng.below(len(rest))]
        pos.play(encode_turn(stone, neutral))
        out.append(pos.copy())
    return out


def _requirements(grade: str) -> dict:
    return {"easy": {}, "medium": {"require_tactic": True},
            "hard": {"require_non_greedy": True}}[grade]


def generate(rule, grade: str, seed: int, progress=None) -> EndgamePuzzle:
    """The puzzle ``eg-<rule>-<grade>-<seed>``: seeded games are played until one has a
    qualifying position at the grade's turns left (tried deepest first)."""
    rule = rule_code(rule)
    grade = choice(str(grade), GRADES, "grade", UnknownPuzzleError)
    t0 = time.perf_counter()
    for attempt in range(MAX_ATTEMPTS):
        rng = puzzle_rng_v1("endgame", RULE_NAMES[rule], grade, seed, attempt)
        positions = _play_game(rule, rng)
        for k in TURNS_LEFT[rule][grade]:
            pos = positions[len(positions) - 1 - k]
            found = prove(pos, **_requirements(grade))
            if found is not None:
                return EndgamePuzzle(id=puzzle_id(rule, grade, seed), rule=RULE_NAMES[rule],
                                     grade=grade, seed=str(seed), attempts=attempt + 1,
                                     seconds=round(time.perf_counter() - t0, 2), **found)
        if progress is not None:
            progress(f"attempt {attempt + 1}: no {grade} puzzle")
    raise UnknownPuzzleError(f"no {grade} puzzle found for seed {seed} in {MAX_ATTEMPTS} games")


def grade_of(found: dict, rule) -> str | None:
    """The grade a proved position earns under ``rule`` by the table in the module doc
    (None: none)."""
    k = found["turns_left"]
    non_greedy = not set(found["greedy"]).intersection([found["solution"], *found["also"]])
    for grade in GRADES:
        if k in TURNS_LEFT[rule_code(rule)][grade]:
            if grade == "easy" or (grade == "medium" and (non_greedy or found["neutral"])) \
                    or non_greedy:
                return grade
    return None


def example_puzzle(rule, k: int) -> EndgamePuzzle:
    """``eg-<rule>-ex<k>``: the example game ``k`` turns before its end, if a puzzle."""
    from ..formats.record import example_game
    rule = rule_code(rule)
    pid = f"eg-{RULE_NAMES[rule]}-ex{k}"
    rec = example_game().with_rule(RULE_NAMES[rule])
    pos = default_position_class()(position_string(rec.position_before(len(rec.turns) - k)))
    t0 = time.perf_counter()
    found = prove(pos)
    grade = grade_of(found, rule) if found else None
    if grade is None:
        raise UnknownPuzzleError(f"no puzzle {pid}: the example game {k} turns before the "
                                 "end is not a puzzle of any grade")
    return EndgamePuzzle(id=pid, rule=RULE_NAMES[rule], grade=grade, seed=f"ex{k}",
                         attempts=1, seconds=round(time.perf_counter() - t0, 2), **found)


# --- IDs, the collection, the daily puzzle ------------------------------------------------

def puzzle_id(rule, grade: str, seed) -> str:
    return f"eg-{RULE_NAMES[rule_code(rule)]}-{grade}-{seed}"


def parse_id(pid: str):
    """('seed', rule, grade, n) | ('example', rule, k) | ('daily', rule, date) from an ID;
    UnknownPuzzleError (one line) for anything else."""
    m = _ID.fullmatch(name_key(str(pid)))      # any case: EG-BASIC-MEDIUM-7
    if not m:
        raise UnknownPuzzleError(f"no endgame puzzle {shown(str(pid))}: IDs look like "
                                 "eg-basic-medium-7, eg-advanced-ex4 or eg-basic-d20261122")
    rule = rule_code(m.group(1))
    if m.group(2):
        return ("seed", rule, m.group(2), int(m.group(3)))
    if m.group(4):
        return ("example", rule, int(m.group(4)))
    return ("daily", rule, _date(m.group(5)))


def _date(text):
    if isinstance(text, _dt.date):
        return text
    if text is None:
        return _dt.datetime.now(_dt.timezone.utc).date()
    t = str(text).strip()
    return date_of_digits(t) if is_digits(t) else iso_date(t)


def collection_files(directory=None) -> list:
    root = files("szsolver.puzzles") if directory is None else __import__("pathlib").Path(directory)
    return [root / name for name in COLLECTION_FILES.values() if (root / name).is_file()]


def load_collection(directory=None) -> list[EndgamePuzzle]:
    """Every published endgame puzzle (default: the installed package data)."""
    out = []
    for path in collection_files(directory):
        data = json.loads(path.read_text(encoding="utf-8"))
        if data.get("format") != FORMAT:
            raise InvalidPuzzleError(f"{path}: not an endgame puzzle collection")
        out.extend(EndgamePuzzle.from_json(d) for d in data["puzzles"])
    return out


_INDEX = None


def collection_index() -> dict:
    global _INDEX
    if _INDEX is None:
        _INDEX = {p.id: p for p in load_collection()}
    return _INDEX


def daily_id(date=None, rule=BASIC) -> str:
    return f"eg-{RULE_NAMES[rule_code(rule)]}-d{_date(date).isoformat().replace('-', '')}"


def daily(date=None, rule=BASIC) -> EndgamePuzzle:
    """The endgame puzzle of the day (default today, UTC): the grade by the weekday
    (:data:`WEEKDAY_GRADES`), the puzzle of that grade and rule picked by
    ``puzzle_seed_v1("endgame-daily", rule, date)`` from the collection's seeds
    1..:data:`DAILY_SEEDS` and example-game puzzles of that grade, sorted by ID."""
    d = _date(date)
    rule = rule_code(rule)
    grade = WEEKDAY_GRADES[d.weekday()]
    pool = sorted((p for p in collection_index().values()
                   if p.rule == RULE_NAMES[rule] and p.grade == grade and _in_daily_pool(p)),
                  key=lambda p: p.id)
    if not pool:
        raise UnknownPuzzleError(f"the collection holds no {RULE_NAMES[rule]} {grade} "
                                 "endgame puzzle for the daily")
    pick = pool[puzzle_seed_v1("endgame-daily", RULE_NAMES[rule], d.isoformat()) % len(pool)]
    out = EndgamePuzzle.from_json(pick.to_json())
    out.id, out.source = daily_id(d, rule), pick.id
    return out


def _in_daily_pool(p: EndgamePuzzle) -> bool:
    kind, *rest = parse_id(p.id)
    return kind == "example" or (kind == "seed" and rest[-1] <= DAILY_SEEDS)


def puzzle_from_id(pid: str, progress=None) -> EndgamePuzzle:
    """The puzzle an ID names: from the collection when it holds it, else rebuilt."""
    kind, rule, *rest = parse_id(pid)
    if kind == "daily":
        return daily(rest[0], rule)
    stored = collection_index().get(name_key(str(pid)))
    if stored is not None:
        return stored
    if kind == "example":
        return example_puzzle(rule, rest[0])
    return generate(rule, rest[0], rest[1], progress=progress)


# --- checking an answer -------------------------------------------------------------------

def check_turn(puzzle: EndgamePuzzle, turn) -> dict:
    """Judge ``turn`` (text or code) in ``puzzle``: the value of the position after it is
    proved by the solver, right iff it equals the puzzle's value. Returns a dict: turn,
    correct, value, loss, line (the proved reply line) and scores at its end.
    IllegalTurnError/ParseError for a turn that is not legal there."""
    pos = puzzle.load_position()
    code = checked_turn(pos, turn)
    red_moves = pos.side == 0
    child = pos.copy()
    child.make(code)
    r = solve(child)
    table = turn_table(pos.geometry)
    return {"id": puzzle.id, "turn": str(table[code]), "correct": r.value == puzzle.value,
            "value": r.value, "best": puzzle.value,
            "loss": _loss(puzzle.value, r.value, red_moves),
            "line": [str(table[t]) for t in r.pv], "scores": r.scores}


# --- building the published collection ----------------------------------------------------

def build_collection(directory: str, counts: dict, rules=(BASIC, ADVANCED), log=print,
                     examples: bool = True) -> None:
    """Generate seeds 1..counts[grade] of each grade and rule (plus the example game's
    qualifying positions) and write one file per rule; a rule's file is rewritten
    after each puzzle, so a stopped build keeps what it proved."""
    import os
    for rule in rules:
        items = []
        path = os.path.join(directory, COLLECTION_FILES[rule])

        def write():
            from ..formats.sources import write_text_file
            write_text_file(path, json.dumps({"format": FORMAT, "rule": RULE_NAMES[rule],
                                              "generator": GENERATOR_VERSION, "puzzles": items},
                                             indent=1) + "\n")
        if examples:
            for k in range(2, max(max(v) for v in TURNS_LEFT[rule].values()) + 1):
                try:
                    p = example_puzzle(rule, k)
                except UnknownPuzzleError:
                    continue
                items.append(p.to_json())
                log(f"{p.id}: {p.grade}, {p.seconds} s")
                write()
        for grade in GRADES:
            for s in range(1, counts.get(grade, 0) + 1):
                p = generate(rule, grade, s)
                items.append(p.to_json())
                log(f"{p.id}: {p.turns_left} turns left, {p.attempts} game(s), {p.seconds} s")
                write()
