"""Every command's --help leads with worked examples (an ``Examples:`` block right
after its summary), and every example works as written: each is run here, in an empty
directory, and must exit 0. The top-level help names the other games of the family
and shows how to reach them."""
import re
import shlex

import click
import pytest
from click.testing import CliRunner

from szsolver.cli import main


def _commands(group=main, path=("szsolver",)):
    """(path, command) of every command and group under ``group``, ``group`` first."""
    out = [(path, group)]
    for name, cmd in sorted(getattr(group, "commands", {}).items()):
        sub = path + (name,)
        out += _commands(cmd, sub) if isinstance(cmd, click.Group) else [(sub, cmd)]
    return out


COMMANDS = _commands()


def _help(path) -> str:
    r = CliRunner().invoke(main, [*path[1:], "--help"])
    assert r.exit_code == 0, r.output
    return r.stdout


def _examples(text: str) -> list[str]:
    """The command lines of the help's Examples block (and, at the top, of the games')."""
    return [line.split("  # ")[0].strip() for line in text.splitlines()
            if line.startswith("    szsolver ")]


#: examples not run here: the server runs until Ctrl-C; a Dask cluster takes seconds to
#: start (tests/test_batch.py runs these commands); a whole game annotated takes minutes;
#: the puzzle of today's date may be a fiendish one (seconds to generate)
SKIP = {"szsolver serve", "szsolver serve --host 0.0.0.0 --port 8080 --jobs 4",
        "szsolver annotate --example --html game.html", "szsolver puzzle daily"}
SKIP_PREFIX = ("szsolver batch ",)
#: smaller budgets for the slow part of an example (the command line stays the same)
SMALLER = {"--time 1": "--time 0.05", "--time-per-turn 0.1": "--time-per-turn 0.01",
           "--time 0.1": "--time 0.02"}


@pytest.mark.parametrize("path", [p for p, _cmd in COMMANDS], ids=" ".join)
def test_help_leads_with_examples(path):
    text = _help(path)
    paragraphs = text.split("\n\n")
    assert paragraphs[0].startswith("Usage: ")
    assert paragraphs[2].lstrip().startswith("Examples:"), (path, text)    # after the summary
    examples = _examples(paragraphs[2])
    assert 1 <= len(examples) <= 3, examples
    for line in examples:
        assert line.startswith(" ".join(path)), (path, line)
    for line in paragraphs[2].splitlines():
        assert len(line) <= 80, line                      # fits a terminal


def test_the_top_help_names_star_and_stargazers_and_how_to_reach_them():
    text = _help(("szsolver",))
    assert "Star and Stargazers" in text
    assert "star:" in text and "stargazers:" in text and '[Game "star"]' in text
    assert any(line.startswith("szsolver show 'stargazers:") for line in _examples(text))


def _all_examples():
    out = []
    for path, _cmd in COMMANDS:
        for line in _examples(_help(path)):
            if line not in out:
                out.append(line)
    return out


EXAMPLES = _all_examples()


def test_every_example_works(tmp_path, monkeypatch):
    """Each example, in an empty directory, exits 0 (slow parts with smaller budgets)."""
    monkeypatch.chdir(tmp_path)
    ran = []
    for line in EXAMPLES:
        if line in SKIP or line.startswith(SKIP_PREFIX):
            continue
        for big, small in SMALLER.items():
            line = re.sub(re.escape(big) + r"\b(?!\.)", small, line)
        r = CliRunner().invoke(main, shlex.split(line)[1:])
        assert r.exit_code == 0, (line, r.output)
        ran.append(line)
    assert len(ran) >= 30, ran


def test_annotates_defaults_in_its_help_are_each_games_own():
    """annotate serves the three games: its help gives each game's default budget per
    estimated turn and each one's limit per exact solve, as the code has them."""
    from szsolver.analysis.annotate import SOLVER_TIME
    from szsolver.analysis.check import CPSAT_TIME, ENGINE_SECONDS
    from szsolver.star.engine import DEFAULT_SECONDS as STAR_SECONDS
    from szsolver.stargazers.analysis import ENGINE_SECONDS as STARGAZERS_SECONDS
    text = " ".join(_help(("szsolver", "annotate")).split())
    assert f"default: as check without a limit ({ENGINE_SECONDS:g} s of engine, each CP-SAT " \
           f"bound {CPSAT_TIME:g} s of work)" in text
    assert f"Star and Stargazers: the engine's (default {STAR_SECONDS:g})" in text
    assert STAR_SECONDS == STARGAZERS_SECONDS
    assert f"Stars' Zone: default {SOLVER_TIME:g}; Stargazers: default a fixed number of " \
           "nodes" in text


@pytest.mark.parametrize("record", [
    None, '[Game "star"]\n\n1. E5 swap 2. D3\n', '[Game "stargazers"]\n\n1. 9 16,23\n'])
def test_replays_help_names_the_pictures_each_game_writes(tmp_path, record):
    """replay --svg DIR: the names its help gives are the ones written, in every game
    (it promised turn-01.svg, and Star writes move-001.svg)."""
    source = ["--example"] if record is None else [record]
    r = CliRunner().invoke(main, ["replay", *source, "--svg", str(tmp_path / "pics")])
    assert r.exit_code == 0, r.output
    names = sorted(p.name for p in (tmp_path / "pics").iterdir())
    text = " ".join(_help(("szsolver", "replay")).split())
    assert names[0] in text and names[1] in text
