"""Output files across commands: a path that cannot be written is bad input
(one line, exit code 2), and a good path gets the whole file."""
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
