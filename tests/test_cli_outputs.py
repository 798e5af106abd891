"""Output files across commands: a path that cannot be written is bad input
(one line, exit code 2), and a good path gets the whole file."""
import json
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest
from click.testing import CliRunner

from szsolver.cli import main

LATE = "R./.NN..B/N.R.R../RB.RRR../BR.BN..R./B.BBN.../RBRNB../B.BNRB/BR R 1 3 basic"

COMMANDS = [
    ["show", "--example"],
    ["potential", LATE, "--side", "red", "--map"],
    ["starmap", "--seed", "1"],
    ["puzzle", "generate", "--grade", "easy", "--seed", "1"],
]


@pytest.mark.parametrize("args", COMMANDS, ids=lambda a: " ".join(a[:2]))
def test_unwritable_svg_is_one_line_exit_2(args, tmp_path):
    bad = str(tmp_path / "no-such-dir" / "x.svg")
    r = CliRunner().invoke(main, args + ["--svg", bad])
    assert r.exit_code == 2, r.output
    assert r.output.strip().splitlines() == [f"Error: cannot write {bad}: No such file or directory"]


@pytest.mark.parametrize("args", COMMANDS, ids=lambda a: " ".join(a[:2]))
def test_svg_written_whole(args, tmp_path):
    out = tmp_path / "x.svg"
    r = CliRunner().invoke(main, args + ["--svg", str(out)])
    assert r.exit_code == 0, r.output
    assert ET.parse(out).getroot().tag.endswith("svg")


def test_out_dir_that_is_a_file(tmp_path):
    f = tmp_path / "file"
    f.write_text("")
    r = CliRunner().invoke(main, ["puzzle", "generate", "--grade", "easy", "--seed", "1",
                                  "--out", str(f)])
    assert r.exit_code == 2
    assert r.output.strip().splitlines() == [f"Error: cannot make directory {f}: File exists"]


@pytest.mark.parametrize("args,problem", [
    (["potential", LATE, "--side", "purple"], "Invalid value for '--side'"),
    (["solve"], "missing SOURCE"),
    (["nosuch"], "No such command 'nosuch'"),
    (["puzzle", "nosuch"], "No such command 'nosuch'"),
    (["solve", LATE, "--time-limit", "soon"], "Invalid value for '--time-limit'"),
])
def test_usage_errors_are_one_line(args, problem):
    r = CliRunner().invoke(main, args)
    assert r.exit_code == 2
    lines = r.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: ") and problem in lines[0], r.output


# --- --svg '' ------------------------------------------------------------------------------

@pytest.mark.parametrize("args", [
    ["show", "--example"], ["replay", "--example"], ["solve", "--example"],
    ["potential", "--example", "--side", "red"], ["starmap"], ["puzzle", "solve", "sz-easy-1"],
    ["puzzle", "generate", "--grade", "easy"], ["puzzle", "show", "sz-easy-1"],
    ["puzzle", "daily", "--date", "2026-11-23"]], ids=lambda a: " ".join(a[:2]))
def test_empty_svg_name_is_bad_input(args, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    r = CliRunner().invoke(main, args + ["--svg", ""])
    assert r.exit_code == 2 and r.stdout == ""
    assert r.stderr.strip().splitlines() in (["Error: --svg needs a file name"],
                                             ["Error: --svg needs a directory name"])
    assert list(tmp_path.iterdir()) == []


# --- solve: exit codes, --all-turns, --top -------------------------------------------------

THREE_LEFT_BLUE = "R./.NN.RB/N.RNR.R/RB.RRR.B/BR.BN..RR/B.BBN.../RBRNB.B/B.BNRB/BR B 1 2 basic"


def test_solve_exit_codes_are_documented_and_kept():
    assert CliRunner().invoke(main, ["solve", LATE]).exit_code == 0
    r = CliRunner().invoke(main, ["solve", LATE, "--node-limit", "100", "--json"])
    assert r.exit_code == 3 and json.loads(r.stdout)["stopped"] == "node limit"
    help_text = " ".join(CliRunner().invoke(main, ["solve", "--help"]).stdout.split())
    assert "0 exact value, 3 not proved" in help_text and "130 stopped by Ctrl-C" in help_text
    readme = open(os.path.join(REPO, "README.md"), encoding="utf-8").read()
    section = readme.split("## Command line", 1)[1].split("\n## ", 1)[0]
    for code in ("`0`", "`2`", "`3`", "`130`", "`1`"):
        assert code in section, code


def test_all_turns_best_first_for_the_side_to_move_with_a_header():
    """Blue to move: values (Red's side) ascending; each turn's value is the solver's
    value of the position after it, solved on its own."""
    from szsolver.endgame.solver import solve
    from szsolver.formats.notation import parse_position, parse_turn
    r = CliRunner().invoke(main, ["solve", THREE_LEFT_BLUE, "--all-turns", "--json"])
    assert r.exit_code == 0, r.output
    turns = json.loads(r.stdout)["turns"]
    values = [t["value"] for t in turns]
    assert values == sorted(values) and len(values) > 3
    pos = parse_position(THREE_LEFT_BLUE)
    for t in turns[:3] + turns[-2:]:
        child = pos.copy()
        child.play(parse_turn(t["turn"]))
        assert solve(child).value == t["value"], t
    text = CliRunner().invoke(main, ["solve", THREE_LEFT_BLUE, "--all-turns"]).stdout
    assert ("Turn values (Red's side, best first for Blue to move; turns on one line are "
            "equal by a symmetry):") in text
    red = CliRunner().invoke(main, ["solve", LATE, "--all-turns", "--json"]).stdout
    red_values = [t["value"] for t in json.loads(red)["turns"]]
    assert red_values == sorted(red_values, reverse=True)


def test_top_n_keeps_the_best_lines():
    full = json.loads(CliRunner().invoke(main, ["solve", THREE_LEFT_BLUE, "--all-turns",
                                                "--json"]).stdout)["turns"]
    r = CliRunner().invoke(main, ["solve", THREE_LEFT_BLUE, "--top", "2", "--json"])
    assert r.exit_code == 0
    top = json.loads(r.stdout)["turns"]
    groups = list(dict.fromkeys(t["group"] for t in full))[:2]
    assert top == [t for t in full if t["group"] in groups]
    text = CliRunner().invoke(main, ["solve", THREE_LEFT_BLUE, "--top", "2"]).stdout
    body = text.split("symmetry):\n", 1)[1].splitlines()
    assert len(body) == 3 and body[2].startswith(f"  ... and {len(full) - len(top)} more turns")


# --- what is bad input, and what is a bug ---------------------------------------------------

@pytest.mark.parametrize("error", [ValueError("not a user's fault"), RuntimeError("boom"),
                                   KeyError("k"), ZeroDivisionError("division by zero")])
def test_an_internal_error_is_never_dressed_up_as_bad_input(monkeypatch, error):
    from szsolver.formats import notation

    def broken(*a, **k):
        raise error
    monkeypatch.setattr(notation, "diagram", broken)
    monkeypatch.setattr("szsolver.games.stars_zone.diagram", broken)
    monkeypatch.delenv("SZSOLVER_DEBUG", raising=False)
    r = CliRunner().invoke(main, ["show", "--example"])
    assert r.exit_code == 1
    assert r.stderr == (f"Internal error: {type(error).__name__}: {str(error)} (a bug in "
                        "szsolver; set SZSOLVER_DEBUG=1 for the traceback)\n")
    monkeypatch.setenv("SZSOLVER_DEBUG", "1")
    r = CliRunner().invoke(main, ["show", "--example"])
    assert r.exit_code == 1 and r.exception is error         # the traceback, for a bug report


def test_input_errors_are_bad_input_whatever_raises_them(monkeypatch):
    from szsolver.errors import IllegalTurnError
    from szsolver.formats import record

    def bad(*a, **k):
        raise IllegalTurnError("illegal turn: point 44 is occupied\nsecond line")
    monkeypatch.setattr(record, "load_source", bad)
    r = CliRunner().invoke(main, ["show", "--example"])
    assert r.exit_code == 2 and r.stderr == "Error: illegal turn: point 44 is occupied\n"


def test_no_bare_value_error_for_bad_input_in_the_command_line():
    """Bad input is raised as szsolver.errors classes (the group maps only those)."""
    cli = os.path.join(REPO, "src", "szsolver", "cli")
    for name in sorted(os.listdir(cli)):
        if name.endswith(".py"):
            src = open(os.path.join(cli, name), encoding="utf-8").read()
            assert "raise ValueError" not in src, name


def test_a_full_disk_is_one_line(tmp_path):
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full")
    with open("/dev/full", "w") as full:
        p = subprocess.run([sys.executable, "-m", "szsolver", "replay", "--example"],
                           stdout=full, stderr=subprocess.PIPE, text=True)
    assert p.returncode == 1 and p.stderr == "Error: No space left on device\n"


# --- the installed package, and the README's commands ---------------------------------------

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_the_source_tree_does_not_shadow_the_installed_package():
    """From the repository root, ``python3 -m szsolver`` runs the installed package with
    its compiled core (an editable install points into src/, never a top-level szsolver/)."""
    code = ("import sys, runpy, szsolver; print(szsolver.__file__); print(szsolver.HAVE_CORE)")
    p = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    path, have_core = p.stdout.split()
    assert have_core == "True"
    assert not os.path.realpath(path).startswith(os.path.join(REPO, "szsolver") + os.sep)
    assert not os.path.exists(os.path.join(REPO, "szsolver", "__init__.py"))
    v = subprocess.run([sys.executable, "-m", "szsolver", "--version"], cwd=REPO,
                       capture_output=True, text=True)
    assert v.returncode == 0 and v.stdout.startswith("szsolver, version ") and v.stderr == ""


def test_the_console_script_is_the_light_entry():
    from importlib.metadata import entry_points
    (ep,) = entry_points(group="console_scripts", name="szsolver")
    assert ep.value == "szsolver._entry:run"
    main_py = open(os.path.join(REPO, "src", "szsolver", "__main__.py"), encoding="utf-8").read()
    assert "from ._entry import run" in main_py


def _readme_commands():
    """The ``szsolver ...`` lines of the README's Command line section (its code blocks)."""
    readme = open(os.path.join(REPO, "README.md"), encoding="utf-8").read()
    section = readme.split("## Command line", 1)[1].split("\n## ", 1)[0]
    out = []
    for block in re.findall(r"```sh\n(.*?)```", section, re.S):
        for line in block.splitlines():
            line = line.split(" # ")[0].strip()
            if line.startswith("szsolver "):
                out.append(line)
    return out


def test_the_readme_lists_commands():
    assert len(_readme_commands()) >= 10


@pytest.mark.parametrize("line", _readme_commands())
def test_every_readme_command_works_as_written(line, tmp_path):
    """Each line runs through the shell, with the installed console script, in a
    directory holding the files it names (game.szg: the rulebook game; position.txt: a
    late position from it)."""
    from szsolver.formats.record import example_path
    (tmp_path / "game.szg").write_text(open(example_path(), encoding="utf-8").read())
    (tmp_path / "position.txt").write_text(LATE + "\n")
    env = {**os.environ, "PATH": os.path.dirname(sys.executable) + os.pathsep + os.environ["PATH"]}
    p = subprocess.run(["bash", "-c", line], cwd=tmp_path, capture_output=True, text=True,
                       timeout=300, env=env, stdin=subprocess.DEVNULL)
    assert p.returncode == 0, (line, p.stderr)
    assert p.stdout.strip() and p.stderr == ""


# --- the system failing: exit code 1, one line ----------------------------------------------

def _closed_stdout():
    os.close(1)


@pytest.mark.parametrize("args", [["show", "--example"], ["score", "--example", "--json"],
                                  ["solve", "--example", "--node-limit", "5"], ["--help"],
                                  ["show", "--help"], ["--version"]])
def test_a_closed_standard_output_is_one_line_exit_1(args):
    """Started with stdout closed (``>&-``) Python has no sys.stdout: every command (and
    its help) says so in one line, exit 1, instead of an internal error or a silent 0."""
    p = subprocess.run([sys.executable, "-m", "szsolver", *args], stderr=subprocess.PIPE,
                       text=True, preexec_fn=_closed_stdout, stdin=subprocess.DEVNULL)
    assert (p.returncode, p.stderr) == (1, "Error: standard output is closed: nothing could "
                                           "be printed\n")


def _full_disk():
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full")
    return "/dev/full"


@pytest.mark.parametrize("args", [["show", "--example", "--svg", "{full}"],
                                  ["replay", "--example", "--svg", "{full}/pictures"],
                                  ["puzzle", "daily", "--date", "2026-11-23", "--html", "{full}"],
                                  ["puzzle", "show", "sz-easy-1", "--svg", "{full}"]])
def test_a_full_disk_under_an_output_file_is_one_line_exit_1(args):
    """Writing fails once the file is open: the system's failure (exit 1), not bad
    input. A directory that cannot be made under /dev/full is the path's (exit 2)."""
    full = _full_disk()
    r = CliRunner().invoke(main, [a.format(full=full) for a in args])
    lines = r.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: cannot "), r.output
    if args[-1] == "{full}":
        assert r.exit_code == 1 and lines == [f"Error: cannot write {full}: No space left on device"]
    else:
        assert r.exit_code == 2 and "Not a directory" in lines[0]


@pytest.mark.parametrize("args", [["--help"], ["--version"], ["show", "--help"]])
def test_help_to_a_full_disk_is_one_line_exit_1(args):
    with open(_full_disk(), "w") as full:
        p = subprocess.run([sys.executable, "-m", "szsolver", *args], stdout=full,
                           stderr=subprocess.PIPE, text=True)
    assert (p.returncode, p.stderr) == (1, "Error: No space left on device\n")


@pytest.mark.parametrize("code", ["ENOSPC", "EDQUOT", "EIO", "EFBIG"])
def test_a_write_failing_once_open_is_exit_1_and_leaves_nothing(tmp_path, monkeypatch, code):
    """Half the picture written, then the disk fails: one line, exit 1, no half-written
    file left."""
    import errno
    import builtins
    from szsolver.formats import sources

    class Failing:
        def __init__(self, f):
            self.f = f

        def write(self, text):
            self.f.write(text[:len(text) // 2])
            self.f.flush()
            raise OSError(getattr(errno, code), os.strerror(getattr(errno, code)))

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.f.close()

    def failing_open(path, mode="r", *a, **k):
        f = builtins.open(path, mode, *a, **k)
        return Failing(f) if "w" in mode else f

    monkeypatch.setattr(sources, "open", failing_open, raising=False)
    out = tmp_path / "x.svg"
    r = CliRunner().invoke(main, ["show", "--example", "--svg", str(out)])
    assert r.exit_code == 1, r.output
    assert r.stderr == f"Error: cannot write {out}: {os.strerror(getattr(errno, code))}\n"
    assert not out.exists() and os.listdir(tmp_path) == []


def test_output_paths_the_user_gave_wrong_stay_exit_2(tmp_path):
    from szsolver.cli.common import BadInput, SystemFailure, output_error
    import errno
    for code in (errno.ENOENT, errno.EISDIR, errno.EACCES, errno.EROFS, errno.ENOTDIR):
        assert isinstance(output_error("f", OSError(code, os.strerror(code))), BadInput)
        assert isinstance(output_error("f", OSError(code, "x"), opened=True), SystemFailure)
    for code in (errno.ENOSPC, errno.EDQUOT, errno.EIO, errno.EFBIG):
        assert isinstance(output_error("f", OSError(code, os.strerror(code))), SystemFailure)


# --- optional extras not installed: the system's, exit 1 --------------------------------------

def _without(monkeypatch, *names):
    """Imports of ``names`` (and their submodules) fail, as when the extra is not
    installed."""
    import builtins
    real = builtins.__import__

    def fake(name, *a, **k):
        if name.split(".")[0] in names:
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return real(name, *a, **k)
    monkeypatch.setattr(builtins, "__import__", fake)


def test_serve_without_the_web_extras_says_what_to_install_exit_1(monkeypatch):
    _without(monkeypatch, "uvicorn", "starlette")
    r = CliRunner().invoke(main, ["serve", "--port", "0"])
    assert r.exit_code == 1, r.output
    assert r.stdout == "" and r.stderr.count("\n") == 1
    assert r.stderr.startswith("Error: the web app needs uvicorn")
    assert 'pip install "szsolver[web]"' in r.stderr


def test_batch_without_dask_says_what_to_install_exit_1(monkeypatch, tmp_path):
    _without(monkeypatch, "distributed", "dask")
    r = CliRunner().invoke(main, ["batch", "puzzles", "--start", "2026-11-23", "--days", "1",
                                  str(tmp_path / "out")])
    assert r.exit_code == 1, r.output
    assert r.stdout == "" and r.stderr.count("\n") == 1
    assert r.stderr.startswith("Error: batch commands need Dask")
    assert 'pip install "szsolver[batch]"' in r.stderr


def test_a_local_cluster_that_does_not_start_is_the_systems_failure_exit_1(monkeypatch):
    """Its nanny's process killed as it starts: "Error: ...", exit 1, not an internal error."""
    import distributed

    def no_nanny(*a, **k):
        raise RuntimeError("Nanny failed to start.")
    monkeypatch.setattr(distributed, "LocalCluster", no_nanny)
    r = CliRunner().invoke(main, ["solve", "--example", "--workers", "1"])
    assert r.exit_code == 1, r.output
    assert r.stdout == "", r.output
    assert r.stderr == "Error: the local Dask cluster did not start: Nanny failed to start.\n"


# --- an output never replaces an input, and is written whole or not at all ------------------

STAR_LATE = ("star:5x6:BBWWB/BWBWWW/W.BBBBW/WWBBWBWW/WWBW.W.WB/WBBWWBB.BW/WBW.BBB.W/"
             "BWBBB.WW/WBBW.../BBBWBW:W")
STARGAZERS_START = "stargazers:12-star:1-2:r=9:b="


def _game_text():
    from szsolver.formats.record import example_path
    return open(example_path(), encoding="utf-8").read()


def _puzzle_text():
    from szsolver.starmaps.generate import collection_index
    from szsolver.starmaps.io import puzzle_string
    return puzzle_string(collection_index()["sz-easy-1"].puzzle) + "\n"


# (file name, its text, the command with IN for the input and OUT for the output)
SAME_FILE = [
    ("c.szg", _game_text, ["show", "IN", "--svg", "OUT"]),
    ("c.szg", _game_text, ["annotate", "IN", "--html", "OUT"]),
    ("p.txt", lambda: LATE + "\n", ["solve", "IN", "--svg", "OUT"]),
    ("p.txt", lambda: LATE + "\n", ["potential", "IN", "--side", "red", "--svg", "OUT"]),
    ("s.txt", lambda: STAR_LATE + "\n", ["show", "IN", "--svg", "OUT"]),
    ("s.txt", lambda: STAR_LATE + "\n", ["solve", "IN", "--svg", "OUT"]),
    ("g.txt", lambda: STARGAZERS_START + "\n", ["show", "IN", "--svg", "OUT"]),
    ("g.txt", lambda: STARGAZERS_START + "\n", ["annotate", "IN", "--html", "OUT"]),
    ("z.txt", _puzzle_text, ["puzzle", "solve", "IN", "--svg", "OUT"]),
    ("z.txt", lambda: "44 52\n", ["puzzle", "show", "sz-easy-1", "--check", "IN", "--svg", "OUT"]),
    ("z.txt", lambda: "44 52\n", ["puzzle", "daily", "--date", "2026-11-23", "--check", "IN",
                                  "--html", "OUT"]),
    ("p.txt", lambda: LATE + "\n", ["batch", "solve", "IN", "OUT"]),
]


def _same(kind, tmp_path, name):
    """The output path naming the input file ``name`` in ``tmp_path`` another way."""
    if kind == "as given":
        return name
    if kind == "./":
        return "./" + name
    if kind == "absolute":
        return str(tmp_path / name)
    link = tmp_path / ("link-" + name)
    if kind == "symbolic link":
        link.symlink_to(name)
    else:
        os.link(tmp_path / name, link)
    return link.name


@pytest.mark.parametrize("kind", ["as given", "./", "absolute", "symbolic link", "hard link"])
@pytest.mark.parametrize("name,text,args", SAME_FILE, ids=lambda a: " ".join(a[:2])
                         if isinstance(a, list) else None)
def test_an_output_that_is_the_input_is_refused(name, text, args, kind, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    content = text()
    (tmp_path / name).write_text(content)
    before = sorted(p.name for p in tmp_path.iterdir())
    out = _same(kind, tmp_path, name)
    if kind in ("symbolic link", "hard link"):
        before = sorted(p.name for p in tmp_path.iterdir())
    r = CliRunner().invoke(main, [name if a == "IN" else out if a == "OUT" else a for a in args])
    assert r.exit_code == 2, r.output
    assert r.stdout == ""
    lines = r.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: ") and "would replace the input" \
        in lines[0], r.stderr
    assert (tmp_path / name).read_text() == content            # untouched
    assert sorted(p.name for p in tmp_path.iterdir()) == before  # nothing else written


def test_the_bundled_example_is_an_input_too(tmp_path, monkeypatch):
    """``show --example --svg`` naming the bundled game (here a copy standing in for it)."""
    from szsolver.formats import record
    copy = tmp_path / "example.szg"
    copy.write_text(_game_text())
    monkeypatch.setattr(record, "example_path", lambda: str(copy))
    for args in (["show", "--example", "--svg", str(copy)],
                 ["annotate", "--example", "--html", str(copy)]):
        r = CliRunner().invoke(main, args)
        assert r.exit_code == 2 and "would replace the input" in r.stderr, r.output
        assert copy.read_text() == _game_text()


def test_two_outputs_that_are_one_file_are_refused(tmp_path):
    out = tmp_path / "day"
    r = CliRunner().invoke(main, ["puzzle", "daily", "--date", "2026-11-23", "--svg", str(out),
                                  "--html", str(out)])
    assert r.exit_code == 2, r.output
    assert r.stderr.splitlines() == [f"Error: --html and --svg name the same file {out}: "
                                     "give two names"]
    assert not out.exists()


def test_batch_annotate_refuses_a_game_its_output_would_replace(tmp_path):
    game = tmp_path / "out" / "g.json"
    game.parent.mkdir()
    game.write_text(_game_text())
    r = CliRunner().invoke(main, ["batch", "annotate", str(game), str(game.parent)])
    assert r.exit_code == 2, r.output
    assert r.stderr.splitlines() == [f"Error: the annotation {game} would replace the input "
                                     f"{game}: give another OUT/ folder"]
    assert game.read_text() == _game_text() and os.listdir(game.parent) == ["g.json"]


def test_a_failed_write_leaves_the_old_file_whole(tmp_path):
    """A write that fails half-way (here: text that cannot be encoded, after a good start)
    leaves the file as it was and no temporary file beside it."""
    from szsolver.cli.common import write_file
    out = tmp_path / "picture.svg"
    out.write_text("the old picture\n")
    with pytest.raises(UnicodeEncodeError):
        write_file(str(out), "<svg>" * 10_000 + "\ud800")
    assert out.read_text() == "the old picture\n"
    assert os.listdir(tmp_path) == ["picture.svg"]


def test_a_write_keeps_a_symbolic_link_and_the_file_mode(tmp_path):
    from szsolver.cli.common import write_file
    target = tmp_path / "target.svg"
    target.write_text("old")
    target.chmod(0o640)
    link = tmp_path / "link.svg"
    link.symlink_to(target.name)
    write_file(str(link), "new")
    assert link.is_symlink() and target.read_text() == "new"
    assert target.stat().st_mode & 0o777 == 0o640
    assert sorted(os.listdir(tmp_path)) == ["link.svg", "target.svg"]


def test_an_output_that_is_no_regular_file_is_written_directly(tmp_path):
    """/dev/stdout, a pipe: written as before (no temporary file next to it)."""
    p = subprocess.run([sys.executable, "-m", "szsolver", "show", "--example", "--svg",
                        "/dev/stdout"], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    assert "<svg" in p.stdout and "</svg>" in p.stdout


def test_checking_an_output_keeps_a_dangling_link(tmp_path):
    """An --svg path that is a link to a file not made yet: the check before the work
    leaves the link (it removed the link and kept the file it made)."""
    link = tmp_path / "final.svg"
    link.symlink_to("pictures-final.svg")
    r = CliRunner().invoke(main, ["show", "--example", "--svg", str(link)])
    assert r.exit_code == 0, r.output
    assert link.is_symlink() and ET.parse(link).getroot().tag.endswith("svg")
    assert sorted(os.listdir(tmp_path)) == ["final.svg", "pictures-final.svg"]


@pytest.mark.parametrize("seconds", ["1e-9", "0.05"])
def test_best_expected_line_starts_with_the_best_turn(seconds):
    """The engine's expected line goes on from the turn it names (the tree's most
    visited line may start with another turn: it once printed that line instead)."""
    r = CliRunner().invoke(main, ["best", "1. 44n66 64", "--time", seconds, "--json"])
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    assert data["method"] == "engine" and data["pv"][0] == data["turn"], data
    text = CliRunner().invoke(main, ["best", "1. 44n66 64", "--time", seconds]).output
    line = next(ln for ln in text.splitlines() if ln.startswith("Expected line: "))
    assert line.split()[2] == data["turn"], text
