"""Run the doctests of the foundation modules (their examples are part of the docs).

Listed by name rather than adding szsolver/ to testpaths, so one module's
unfinished doctest cannot hide behind another's; add yours here.
"""
import doctest
import importlib

import pytest

MODULES = ["szsolver.rules.geometry", "szsolver.formats.notation", "szsolver.formats.record", "szsolver.formats.svg",
           "szsolver.starmaps.model", "szsolver.rules._core", "szsolver.rules.playout"]
# logic, daily, puzzle_io, starmap_sat and starmap_gen run theirs in their own test files.


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0, f"{name} has no doctests"
    assert result.failed == 0
