"""Every example in the documentation runs: the doctests of every module of the package
(compiled ones included) and the ``>>>`` blocks of README.md and docs/*.md.

This is the one doctest mechanism of the suite; a module's examples need no test of
their own.
"""
import doctest
import importlib
import pathlib
import pkgutil

import pytest

import szsolver

ROOT = pathlib.Path(__file__).resolve().parents[1]
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


def _module_names():
    yield "szsolver"
    for info in pkgutil.walk_packages(szsolver.__path__, "szsolver."):
        yield info.name


MODULES = sorted(set(_module_names()))
DOCUMENTS = sorted(p.relative_to(ROOT).as_posix() for p in [ROOT / "README.md", *ROOT.glob("docs/*.md")]
                   if ">>> " in p.read_text(encoding="utf-8"))


@pytest.mark.parametrize("name", MODULES)
def test_module_examples(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=FLAGS)
    assert result.failed == 0


@pytest.mark.parametrize("name", DOCUMENTS)
def test_document_examples(name):
    result = doctest.testfile(str(ROOT / name), module_relative=False, optionflags=FLAGS)
    assert result.attempted > 0
    assert result.failed == 0


def test_the_documented_modules_have_examples():
    # The modules a newcomer reads first show how they are used.
    for name in ("szsolver.errors", "szsolver.rules.geometry", "szsolver.rules.base",
                 "szsolver.rules.bits", "szsolver.rules.beams", "szsolver.rules.seeds",
                 "szsolver.formats.notation", "szsolver.formats.record", "szsolver.formats.svg",
                 "szsolver.rules._core", "szsolver.starmaps.model"):
        assert doctest.testmod(importlib.import_module(name), optionflags=FLAGS).attempted > 0, name
