"""szsolver solve says so when its transposition table filled up, and only then."""
from click.testing import CliRunner

from szsolver.cli import main


def test_a_full_table_is_reported_with_a_size_to_try():
    res = CliRunner().invoke(main, ["solve", "--example", "--tt-size", "64"])
    assert res.exit_code == 0
    assert "transposition table filled up (64 entries" in res.stderr
    assert "--tt-size (e.g. 256)" in res.stderr
    assert "Note:" not in res.stdout  # stdout stays the answer alone


def test_a_roomy_table_says_nothing():
    res = CliRunner().invoke(main, ["solve", "--example"])
    assert res.exit_code == 0
    assert "transposition table" not in res.stderr
