"""Every input path is safe: a few hundred malformed inputs, generated from a seed,
through every command that reads positions, games, turns, puzzles, IDs, dates and
numbers (in-process, CliRunner).

Each run must either succeed (exit 0; ``solve`` 3 when its node limit stops it;
``puzzle solve`` its verdict codes) or be bad input: exit code 2, nothing on stdout and
exactly one line on stderr starting with ``Error:``. Never a traceback, never exit 1
(an internal error), whatever the bytes.
"""
import json
import os
import random

import pytest
from click.testing import CliRunner

from szsolver.cli import main
from szsolver.formats.record import example_path

START = "../....../......./......../....N..../......../......./....../.. R 5 5 basic"
LATE = "R./.NN..B/N.R.R../RB.RRR../BR.BN..R./B.BBN.../RBRNB../B.BNRB/BR R 1 3 basic"
with open(example_path(), encoding="utf-8") as _f:
    RECORD = _f.read()
POSITION_JSON = json.dumps({"type": "position", "position": LATE})
GAME_JSON = json.dumps({"type": "game", "tags": {"Rule": "basic"}, "turns": ["44n66", "64", "41"]})
GAME_BASES = [START, LATE, RECORD, POSITION_JSON, GAME_JSON, '[Rule "advanced"] 1. 44n66 64',
              "1. 44 54 2. 41", '[Board "square-8"] 1. 44', '[Neutrals "4 3"]']
PUZZLE = "stars-zone;basic;x=;g=23:4.33:f.43:5.54:a.56:e.57:8.66:d.73:3.86:1.95:0"
SOLUTION = "23 32 33 38 43 51 52 54 56 57 63 66 73 78 86 95"
PUZZLE_BASES = [PUZZLE, json.dumps({"format": "szsolver-starmap-puzzle", "version": 1,
                                    "board": "stars-zone", "rule": "basic", "blocked": [],
                                    "givens": [{"point": "23", "pattern": 4}]}),
                "square-8;basic;x=;g=", "hex;basic;x=;g=11:0"]

JUNK = list("RBN./ 0123456789[]{}\":,;=n\n\t-x") + [
    "\u00a0", "\u2003", "\ufeff", "\u00e9", "\u0663", "\x00", "\U0001f600", "\\", "'", "\x7f"]
WHOLE = ["", " ", "\n", "{", "[", "[" * 5000, '{"a":' * 3000, "1" * 5000, "-", "--",
         "null", "[]", "{}", "[1,2]", "true", '"text"', "9" * 30, "\ufeff", "\ufeff" + START]
EXTRA = [" junk", "\n3. 99", " 17. 44", '\n[Tag "x"]', "}", "]", " 44n44", " 1. 99", " 1.",
         " 2. 44 45 3..."]


def mutate(rng: random.Random, s: str) -> str:
    """One random change: cut, insert, delete, replace, wrong counts or rule, junk
    after, a whole odd input, a byte-order mark."""
    k = rng.randrange(9)
    if k == 0:
        return s[:rng.randrange(len(s) + 1)]
    if k == 1:
        i = rng.randrange(len(s) + 1)
        return s[:i] + rng.choice(JUNK) + s[i:]
    if k == 2 and s:
        i = rng.randrange(len(s))
        return s[:i] + s[i + 1:]
    if k == 3 and s:
        i = rng.randrange(len(s))
        return s[:i] + rng.choice(JUNK) + s[i + 1:]
    if k == 4:
        return s.replace(" 5 5 ", rng.choice([" 9 9 ", " -1 5 ", " 99999999999999999999999 5 ",
                                             " 5 ", " x y ", " 5 5 5 ", " 5 " + "9" * 5000 + " ",
                                             " \u0665 \uff15 ", " +5 5 ", " 0x5 5 "]))
    if k == 5:
        return s.replace("basic", rng.choice(["expert", "", "BASIC", "basic basic", "advanced",
                                              "\uff22\uff21\uff33\uff29\uff23"]))
    if k == 6:
        return s + rng.choice(EXTRA)
    if k == 7:
        return rng.choice(WHOLE)
    return "\ufeff" + s


def cases(seed: str, bases: list[str], n: int):
    """``n`` (text, how) pairs: the text mutated 1-3 times; how it is passed: inline,
    as a UTF-8 file, on standard input, or as a file of random bytes."""
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        s = rng.choice(bases)
        for _ in range(rng.randrange(1, 4)):
            s = mutate(rng, s)
        how = rng.choice(["inline", "file", "stdin", "bytes"])
        if how == "bytes":
            s = bytes(rng.randrange(256) for _ in range(rng.randrange(0, 80)))
        out.append((s, how))
    return out


def run_case(tmp_path, args, text, how, k):
    runner = CliRunner()
    data = None
    if how == "inline":
        arg = text.replace("\x00", "")          # an argument cannot hold a NUL byte
    elif how == "stdin":
        arg, data = "-", text.encode("utf-8")
    else:
        path = tmp_path / f"input-{k}"
        path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))
        arg = str(path)
    args = [a if a != "SOURCE" else arg for a in args]
    return runner.invoke(main, args, input=data)


def assert_clean(r, ok_codes=(0,)):
    """Success, or exit 2 with one 'Error:' line on stderr and nothing on stdout."""
    assert r.exception is None or isinstance(r.exception, SystemExit), repr(r.exception)
    if r.exit_code in ok_codes:
        return
    lines = r.stderr.strip().splitlines()
    assert r.exit_code == 2, (r.exit_code, r.stderr[-500:])
    assert len(lines) == 1 and lines[0].startswith("Error: "), r.stderr[-500:]
    assert r.stdout == "" and "Traceback" not in r.stderr


GAME_COMMANDS = [
    (["show", "SOURCE"], (0,)),
    (["score", "SOURCE", "--json"], (0,)),
    (["replay", "SOURCE"], (0,)),
    (["solve", "SOURCE", "--node-limit", "2000"], (0, 3)),
]


@pytest.mark.parametrize("args,ok", GAME_COMMANDS, ids=lambda a: a[0] if isinstance(a, list) else "")
def test_malformed_positions_and_games(tmp_path, args, ok):
    for k, (text, how) in enumerate(cases(f"bad input {args[0]}", GAME_BASES, 150)):
        r = run_case(tmp_path, args, text, how, k)
        assert_clean(r, ok), (args, how, text if isinstance(text, bytes) else text[:200])


def test_malformed_positions_for_potential(tmp_path):
    """Fewer: a position that happens to be valid costs a CP-SAT solve."""
    args = ["potential", "SOURCE", "--side", "red", "--time-limit", "0.2"]
    for k, (text, how) in enumerate(cases("bad input potential", GAME_BASES, 40)):
        assert_clean(run_case(tmp_path, args, text, how, k)), (how, text[:200])


def test_malformed_puzzles(tmp_path):
    args = ["puzzle", "solve", "SOURCE", "--time-limit", "0.5"]
    for k, (text, how) in enumerate(cases("bad input puzzle", PUZZLE_BASES, 80)):
        r = run_case(tmp_path, args, text, how, k)
        assert_clean(r, (0, 10, 11, 12)), (how, text[:200])


def test_malformed_solutions(tmp_path):
    args = ["puzzle", "check", PUZZLE, "SOURCE"]
    for k, (text, how) in enumerate(cases("bad input solution", [SOLUTION, json.dumps(
            SOLUTION.split())], 80)):
        r = run_case(tmp_path, args, text, how, k)
        assert_clean(r, (0, 1)), (how, text[:200])      # 1: a wrong solution, explained


LATE_GAME = f'[Position "{LATE}"]\n14. 35 57 15. 27'      # 3 turns, all solved in a moment
#: commands that judge or search: fewer cases each, with small budgets (a case that
#: happens to be valid runs the engine, the solver or CP-SAT)
ANALYSIS_COMMANDS = [
    (["best", "SOURCE", "--time", "0.05"], GAME_BASES, 25),
    (["check", "SOURCE", "35", "--time-limit", "0.3"], GAME_BASES, 25),
    (["annotate", "SOURCE", "--time-per-turn", "0.05"], [LATE_GAME, LATE, GAME_JSON], 30),
    (["puzzle", "endgame", "check", "eg-basic-medium-1", "SOURCE"], ["44", "44n66", "35"], 30),
]


@pytest.mark.parametrize("args,bases,n", ANALYSIS_COMMANDS, ids=lambda a: a[0] if isinstance(a, list) else "")
def test_malformed_inputs_for_the_analysis_commands(tmp_path, args, bases, n):
    for k, (text, how) in enumerate(cases(f"bad input {' '.join(args[:3])}", bases, n)):
        if args[0] == "puzzle" and how != "inline":
            how = "inline"                  # a turn is never read from a file
            text = text if isinstance(text, str) else text.decode("latin-1")
        r = run_case(tmp_path, args, text, how, k)
        assert_clean(r), (args, how, text if isinstance(text, bytes) else text[:200])


TURNS = ["", " ", "44n", "99", "44n44", "zz", "1e9", "nan", "44 66", "-1", "n", "44nn", "١١",
         "44n66n", "4" * 3000, "\u00a044", "N44", "\uff14\uff14", "+4,4", "9" * 5000 + ",4"]


def test_malformed_turns_for_check():
    for t in TURNS:
        assert_clean(CliRunner().invoke(main, ["check", LATE, t]))


def test_too_many_arguments_for_check_names_the_extra_ones_only():
    """A position string out of quotes, or one turn too many: the message names what
    is left over, cut as every message cuts a user's text, not the whole input."""
    for args, extra in ((["check", LATE, "44", "55"], "'55'"),
                        (["check", *LATE.split(" "), "44"], None),
                        (["check", "--example", "44", "x" * 500], "(500 characters)")):
        r = CliRunner().invoke(main, args)
        assert_clean(r)
        assert "too many arguments" in r.output and len(r.output) < 200, r.output
        if extra is not None:
            assert extra in r.output


BAD_NUMBERS = ["nan", "inf", "-inf", "-1", "0", "1e999", "99999999999999999999", "", "x", " ",
               "1e300", "0x10", "9" * 5000, "\u0665", "\uff15", "+5", "5_0"]


@pytest.mark.parametrize("args", [
    ["check", "--example", "--turn"],
    ["selfplay", "--out", "never-made", "--games"],
    ["selfplay", "--out", "never-made", "--neutrals", "-1", "--games"],
    ["puzzle", "solve", "sz-easy-1", "--max-solutions"],
    ["puzzle", "solve", "sz-easy-1", "--workers"],
    ["puzzle", "generate", "--count"],
    ["serve", "--jobs"],
    ["serve", "--port"],
    ["puzzle", "daily", "--date"],
    ["puzzle", "endgame", "daily", "--date"],
    ["batch", "puzzles", "never-made", "--start", "2026-01-01", "--days"],
    ["batch", "solve", "--example", "never-made.jsonl", "--workers"],
    ["batch", "solve", "--example", "never-made.jsonl", "--node-limit"],
    ["batch", "deep-solve", "--example", "--time-limit"],
    ["batch", "annotate", "--example", "never-made", "--time-per-turn"],
], ids=lambda a: " ".join(a[:2] + a[-1:]))
def test_bad_numbers_are_one_line_everywhere(args):
    """NaN, infinite, zero, negative, huge and malformed numbers (0 is valid for some
    options: then the command must refuse another of the values)."""
    for v in BAD_NUMBERS:
        if v == "0" and args[-1] in ("--port",):
            continue                           # port 0: any free port
        r = CliRunner().invoke(main, args + [v])
        assert_clean(r, ())
    assert not os.path.exists("never-made") and not os.path.exists("never-made.jsonl")


@pytest.mark.parametrize("args", [["starmap", "--seed"],
                                  ["selfplay", "1", "--out", "never-made", "--seed"]],
                         ids=lambda a: a[0])
def test_empty_and_overlong_seeds_are_refused(args):
    """An empty seed is most often a shell variable that was not set: refused, as a
    seed of many lines or thousands of characters is, before any work."""
    for seed in ["", "  ", "a\nb", "x" * 201]:
        r = CliRunner().invoke(main, args + [seed])
        assert_clean(r, ())
        assert "--seed" in r.stderr, r.stderr
    assert not os.path.exists("never-made")


@pytest.mark.parametrize("args", [
    ["puzzle", "show"], ["puzzle", "solve"], ["puzzle", "check", "SOLUTION"],
    ["puzzle", "endgame", "show"], ["puzzle", "endgame", "check", "TURN"],
], ids=lambda a: " ".join(a))
def test_mistyped_ids(args):
    ids = ["", " ", "sz-hard-0", "sz-hard-99999999999999999999", "sz-hard-07", "sz-easy-d20260230",
           "sz-easy-d99999999", "sz", "sz-hard--1", "x" * 500, "eg-basic-medium-x",
           "eg", "eg-basic-medium-0", "eg-basic-medium-07", "eg-x-medium-1", "eg-basic-x-1",
           "eg-basic-medium-99999999999999999999999", "eg-basic-medium-d20260230",
           "sz-easy-" + "9" * 5000, "sq9-easy-" + "9" * 5000, "sz-hard-\u0667", "sz-hard-+7"]
    for pid in ids:
        argv = [a for a in args if a not in ("SOLUTION", "TURN")] + [pid] + \
            (["44"] if args[-1] in ("SOLUTION", "TURN") else [])
        r = CliRunner().invoke(main, argv)
        assert_clean(r, ()), (argv, r.stdout[:200])


@pytest.mark.parametrize("option", ["--svg", "--html"])
def test_output_paths_that_cannot_be_written(tmp_path, option):
    """Empty names, directories, missing directories, a file where a directory should
    be: one line before any work, and nothing written."""
    afile = tmp_path / "afile"
    afile.write_text("x")
    paths = ["", " ", str(tmp_path), str(tmp_path / "missing" / "x.out"), str(afile / "x.out")]
    commands = {"--svg": [["show", "--example"], ["solve", "--example"],
                          ["potential", "--example", "--side", "red"],
                          ["puzzle", "show", "sz-easy-1"], ["puzzle", "daily"],
                          ["starmap", "--board", "square-8"]],
                "--html": [["annotate", "--example"], ["puzzle", "daily"]]}[option]
    for args in commands:
        for p in paths:
            r = CliRunner().invoke(main, args + [option, p])
            assert_clean(r, ()), (args, p, r.stdout[:200])
    assert sorted(os.listdir(tmp_path)) == ["afile"]


def test_output_directories_that_cannot_be_made(tmp_path):
    afile = tmp_path / "afile"
    afile.write_text("x")
    for args in (["replay", "--example", "--svg"],
                 ["selfplay", "--games", "1", "--red", "random", "--blue", "random", "--out"],
                 ["puzzle", "generate", "--board", "square-8", "--grade", "easy", "--out"],
                 ["batch", "puzzles", "--start", "2026-01-01", "--days", "1"]):
        for p in ["", " ", str(afile), str(afile / "sub")]:
            r = CliRunner().invoke(main, args + [p])
            assert_clean(r, ())
    assert sorted(os.listdir(tmp_path)) == ["afile"]


@pytest.mark.parametrize("command", ["show", "score", "replay", "solve", "potential", "best",
                                     "annotate", "check"])
def test_sources_that_are_not_text(tmp_path, command):
    """Empty files, directories, binary files, NUL bytes, unreadable files."""
    empty = tmp_path / "empty.szg"
    empty.write_bytes(b"")
    binary = tmp_path / "x.bin"
    binary.write_bytes(bytes(range(256)))
    latin = tmp_path / "latin1.szg"
    latin.write_bytes('[Red "Jos\xe9"]'.encode("latin-1"))
    cases_ = {str(empty): "empty input", str(tmp_path): "is a directory",
              str(binary): "not a text file", str(latin): "not a text file",
              str(tmp_path / "missing.szg"): "no such file"}
    if os.geteuid() != 0:                   # root reads anything
        locked = tmp_path / "locked.szg"
        locked.write_text(START)
        locked.chmod(0)
        cases_[str(locked)] = "Permission denied"
    turn = ["44"] if command == "check" else []
    for source, message in cases_.items():
        r = CliRunner().invoke(main, [command, source] + turn)
        assert_clean(r, ())
        assert message in r.stderr, (source, r.stderr)
    r = CliRunner().invoke(main, [command, "-"] + turn, input=b"\x00\x01\x02")
    assert_clean(r, ())
    assert "cannot read standard input: not a text file" in r.stderr


@pytest.mark.parametrize("option,values", [
    ("--time-limit", ["nan", "inf", "-inf", "-1", "0", "0.0", "1e999", "soon", "", "NaN"]),
    ("--node-limit", ["0", "-5", str(2 ** 63), str(10 ** 30), "1.5", "x", "1" * 5000, ""]),
    ("--tt-size", ["1", "0", str(2 ** 63), "-3"]),
    ("--top", ["0", "-1", str(2 ** 64)]),
])
def test_limits_are_checked_before_any_work(option, values):
    for v in values:
        r = CliRunner().invoke(main, ["solve", "--example", option, v])
        assert_clean(r, ())
        assert f"Invalid value for '{option}'" in r.stderr, r.stderr


@pytest.mark.parametrize("args", [
    ["potential", "--example", "--time-limit"],
    ["puzzle", "solve", PUZZLE, "--time-limit"],
    ["starmap", "--time-limit"],
    ["check", "--example", "--turn", "30", "--time-limit"],
    ["best", LATE, "--time"],
    ["annotate", "--example", "--time-per-turn"],
    ["annotate", "--example", "--solver-time"],
    ["selfplay", "--out", "never-made", "--time"],
], ids=lambda a: " ".join(a[:1] + a[-1:]))
def test_non_finite_seconds_are_bad_input_everywhere(args):
    for v in ("nan", "inf", "-1", "0"):
        r = CliRunner().invoke(main, args + [v])
        assert_clean(r, ())
        assert "must be positive" in r.stderr, r.stderr
    assert not os.path.exists("never-made")
