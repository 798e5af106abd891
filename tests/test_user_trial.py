"""A new user's trial, as it was run: real ``szsolver`` processes in a scratch folder,
each case with the exit code it must end with, one line on stderr when it fails, and
every file in the folder untouched unless the case writes a new one.

Exit codes: 0 done; 2 bad input (one ``Error:`` line); 1 the system failing (one
``Error:`` line, never ``Internal error``). Cases that need the process itself (a
closed standard output, a full disk) run here; finer cases live beside their code.
"""
import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from szsolver.formats.record import example_path

HUGE = "9" * 5000
START = "../....../......./......../....N..../......../......./....../.. R 5 5 basic"
LATE = "R./.NN..B/N.R.R../RB.RRR../BR.BN..R./B.BBN.../RBRNB../B.BNRB/BR R 1 3 basic"


def szsolver(args, cwd, stdin=None, stdout=subprocess.PIPE, **kw):
    return subprocess.run([sys.executable, "-m", "szsolver", *args], cwd=cwd, stdin=stdin,
                          stdout=stdout, stderr=subprocess.PIPE, text=True, timeout=300,
                          env={**os.environ, "COLUMNS": "100"}, **kw)


def snapshot(folder: Path) -> dict:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file() and not p.is_symlink()}


@pytest.fixture
def folder(tmp_path):
    """A scratch folder with game records in it: the rulebook game, three turns of a
    late position (judged in a moment), a Stargazers game."""
    (tmp_path / "c.szg").write_text(Path(example_path()).read_text(encoding="utf-8"))
    (tmp_path / "late.szg").write_text(f'[Position "{LATE}"]\n\n14. 35 57 15. 27\n')
    (tmp_path / "sg.szg").write_text('[Game "stargazers"]\n\n1. 9 16,23\n2. 30,31 24,25\n')
    return tmp_path


def one_error_line(p, code):
    lines = p.stderr.strip().splitlines()
    assert p.returncode == code, (p.returncode, p.stderr[-400:])
    assert len(lines) == 1 and lines[0].startswith("Error: "), p.stderr[-400:]
    assert "Internal error" not in p.stderr and "Traceback" not in p.stderr
    assert len(lines[0]) < 400                   # a huge input is not echoed back whole


# --- bad input: exit 2, one line, nothing written --------------------------------------

BAD = [
    # outputs onto their input
    ["show", "c.szg", "--svg", "c.szg"],
    ["show", "c.szg", "--svg", "./c.szg"],
    ["annotate", "late.szg", "--html", "late.szg"],
    # numbers too large for any field
    ["show", f"../....../......./......../....N..../......../......./....../.. R {HUGE} 5 basic"],
    ["show", f"stargazers:12-star:1-2:r={HUGE}:b="],
    ["puzzle", "show", f"sz-easy-{HUGE}"],
    ["show", f"star:{HUGE}x6:.:B"],
    ["starmap", "--board", f"square-{HUGE}"],
    ["batch", "puzzles", "--start", "9999-12-31", "--days", "2", "out"],
    # digits are ASCII digits
    ["show", START.replace("R 5 5", "R \u0665 \uff15")],
    ["puzzle", "daily", "--date", "\uff12\uff10\uff12\uff16-11-23"],
    ["show", START.replace("R 5 5", "R +5 5")],
    ["show", START.replace("R 5 5", "R 0x5 5")],
]


@pytest.mark.parametrize("args", BAD, ids=lambda a: " ".join(a)[:60])
def test_bad_input_is_one_line_and_touches_nothing(folder, args):
    before = snapshot(folder)
    p = szsolver(args, folder)
    one_error_line(p, 2)
    assert p.stdout == ""
    assert snapshot(folder) == before


def test_json_that_is_no_position_says_so(folder):
    for text in ("null", "5"):
        (folder / "x.json").write_text(text)
        p = szsolver(["show", "x.json"], folder)
        one_error_line(p, 2)
        assert "5 fields" not in p.stderr and "JSON" in p.stderr, p.stderr


def test_a_symlink_loop_is_named(folder):
    os.symlink("loop-b", folder / "loop-a")
    os.symlink("loop-a", folder / "loop-b")
    p = szsolver(["show", "loop-a"], folder)
    one_error_line(p, 2)
    assert "no such file" not in p.stderr.lower() and "loop" in p.stderr.lower(), p.stderr


def test_selfplay_keeps_an_earlier_run(folder):
    args = ["selfplay", "--games", "1", "--red", "random", "--blue", "random", "--out", "run"]
    assert szsolver(args, folder).returncode == 0
    before = snapshot(folder)
    p = szsolver(args, folder)
    one_error_line(p, 2)
    assert "--force" in p.stderr
    assert snapshot(folder) == before
    assert szsolver(args + ["--force"], folder).returncode == 0


# --- the system failing: exit 1, one line ----------------------------------------------

def test_closed_standard_output(folder):
    p = subprocess.run([sys.executable, "-m", "szsolver", "show", "--example"], cwd=folder,
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                       close_fds=True, pass_fds=(),
                       preexec_fn=lambda: os.close(1))
    one_error_line(p, 1)


@pytest.mark.parametrize("args", [["show", "c.szg", "--svg", "/dev/full"],
                                  ["annotate", "late.szg", "--html", "/dev/full"]])
def test_a_full_disk_is_the_system_failing(folder, args):
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full here")
    before = snapshot(folder)
    one_error_line(szsolver(args, folder), 1)
    assert snapshot(folder) == before


# --- what a user may do and expect to work ---------------------------------------------

def test_names_are_case_insensitive(folder):
    for args in (["puzzle", "show", "SZ-HARD-7"], ["puzzle", "show", "sz-hard-7"],
                 ["starmap", "--board", "SQUARE-8", "--json"],
                 ["puzzle", "generate", "--grade", "EASY", "--seed", "x1"]):
        p = szsolver(args, folder)
        assert p.returncode == 0, (args, p.stderr)
    a = szsolver(["puzzle", "show", "SZ-HARD-7"], folder).stdout
    b = szsolver(["puzzle", "show", "sz-hard-7"], folder).stdout
    assert a == b


def test_a_file_named_like_a_puzzle_id_is_not_read_for_it(folder):
    (folder / "sz-hard-6").write_text("junk\n")
    p = szsolver(["puzzle", "solve", "sz-hard-6", "--time-limit", "20"], folder)
    assert p.returncode == 0, p.stderr
    assert "sz-hard-6" in p.stderr and "./sz-hard-6" in p.stderr     # says what it did
    assert (folder / "sz-hard-6").read_text() == "junk\n"


def test_pgn_habits_are_read(folder):
    record = ('[Rule "basic"]\n\n{a comment} 1.44n66 64 {another}\n2. 41 54 *\n')
    (folder / "habits.szg").write_text(record)
    p = szsolver(["replay", "habits.szg", "--json"], folder)
    assert p.returncode == 0, p.stderr
    turns = json.loads(p.stdout)
    assert "44n66" in json.dumps(turns) and "54" in json.dumps(turns)


def test_a_saved_solution_reads_back(folder):
    p = szsolver(["puzzle", "show", "sz-easy-1", "--solution"], folder)
    assert p.returncode == 0, p.stderr
    (folder / "sol.txt").write_text(p.stdout)
    q = szsolver(["puzzle", "check", "sz-easy-1", "sol.txt"], folder)
    assert q.returncode == 0, q.stderr + q.stdout


def test_stargazers_check_and_annotate_agree_on_the_sample_game(folder):
    """The sample game of the docs: check --turn k and annotate's row k agree, and the
    values do not flip sign from turn to turn as two opposed searches made them."""
    p = szsolver(["annotate", "sg.szg", "--json"], folder)
    assert p.returncode == 0, p.stderr
    rows = json.loads(p.stdout)["turns"]
    assert len(rows) == 4
    for k, row in enumerate(rows, 1):
        q = szsolver(["check", "sg.szg", "--turn", str(k), "--json"], folder)
        assert q.returncode == 0, q.stderr
        d = json.loads(q.stdout)
        judged = {key: v for key, v in row.items() if key not in ("number", "round", "side")}
        assert {key: d[key] for key in judged} == judged, k


def test_an_output_onto_the_file_on_standard_input_is_refused(folder):
    """``show - --svg c.szg < c.szg``: the input is the file on standard input."""
    before = snapshot(folder)
    with open(folder / "c.szg", "rb") as stdin:
        p = szsolver(["show", "-", "--svg", "c.szg"], folder, stdin=stdin)
    one_error_line(p, 2)
    assert "standard input" in p.stderr
    assert snapshot(folder) == before
    with open(folder / "c.szg", "rb") as stdin:        # another output is fine
        assert szsolver(["show", "-", "--svg", "c.svg"], folder, stdin=stdin).returncode == 0


@pytest.mark.parametrize("record,picture", [
    (None, "turn-01.svg"),
    ('[Game "star"]\n\n1. E5 swap 2. D3\n', "move-001.svg"),
    ('[Game "stargazers"]\n\n1. 9 16,23\n', "turn-01.svg"),
])
def test_replay_pictures_never_replace_the_record(folder, record, picture):
    """A record named like one of its own pictures, in the pictures' folder."""
    (folder / "pics").mkdir()
    text = record or (folder / "c.szg").read_text()
    (folder / "pics" / picture).write_text(text)
    before = snapshot(folder)
    p = szsolver(["replay", f"pics/{picture}", "--svg", "pics"], folder)
    one_error_line(p, 2)
    assert snapshot(folder) == before


def test_puzzle_generate_keeps_its_two_outputs_apart(folder):
    (folder / "g3").mkdir()
    p = szsolver(["puzzle", "generate", "--seed", "3", "--grade", "easy", "--out", "g3",
                  "--svg", "g3/sz-easy-3.json"], folder)
    one_error_line(p, 2)
    assert list((folder / "g3").iterdir()) == []


STAR_GAME = """[Game "star"]
[Position "star:5x6:BWBB./...B.W/W.BB.WW/W.WBBWWW/..BBBWBBB/.BWBWW.BWW/B.BWB.WWW/BBWWWBB./....WB./WWBWBB:W"]

1... B5
2. G2 H3
3. E3 A9
4. B9 F2
5. B7 J1
6. E2 F7
7. A6 G9
8. C5 H8
9. G6 I2
10. C9 D9
11. D4
"""


def test_star_check_and_annotate_agree_at_their_defaults(folder):
    """A move proved by check (14 live empty cells) was estimated by annotate (its
    default was 8): check --turn 11 said 'mistake (proved)', annotate's row 11
    'inaccuracy est.'."""
    (folder / "star.txt").write_text(STAR_GAME)
    p = szsolver(["annotate", "star.txt", "--json"], folder)
    assert p.returncode == 0, p.stderr
    rows = json.loads(p.stdout)["turns"]
    for k in (7, 11):
        q = szsolver(["check", "star.txt", "--turn", str(k), "--json"], folder)
        assert q.returncode == 0, q.stderr
        d = json.loads(q.stdout)
        keys = ("verdict", "method", "best_value", "played_value", "loss", "best")
        assert {x: d[x] for x in keys} == {x: rows[k - 1][x] for x in keys}, k
