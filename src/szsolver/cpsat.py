"""OR-Tools' ``cp_model``, loaded once for the whole package, without pandas.

A bottom-layer module (like :mod:`szsolver.errors`): the standard library only.

``cp_model`` imports pandas at its top for its ``*_series`` helpers, which szsolver
never calls, and pandas was most of a CP-SAT command's start: importing ``cp_model``
took 0.48-0.62 CPU s plainly and 0.28-0.35 CPU s this way, ``import szsolver``
included (five runs each, the machine loaded; numpy, which ``cp_model`` needs, is the
most of what is left). So :func:`cp_model` lets it import against a stand-in for
pandas, whose names are blank classes while ``cp_model``'s import reads them (its type
aliases and annotations), then leaves ``sys.modules`` as it was. Afterwards the stand-in imports the real pandas the first time ``cp_model``
itself reaches for it, so its pandas helpers still work (tested), and a program that
imports pandas gets the real one. If pandas is loaded already, or the import with the
stand-in fails in any way, ``cp_model`` is imported plainly.
"""
from __future__ import annotations

import importlib
import sys
import threading
import types

_NAME = "ortools.sat.python.cp_model"
_lock = threading.Lock()


def cp_model():
    """The ``ortools.sat.python.cp_model`` module."""
    got = sys.modules.get(_NAME)
    if got is not None:
        return got
    with _lock:
        if _NAME in sys.modules:
            return sys.modules[_NAME]
        if "pandas" not in sys.modules:
            try:
                return _without_pandas()
            except Exception:            # noqa: BLE001 - a newer OR-Tools: the plain way
                sys.modules.pop(_NAME, None)
        return importlib.import_module(_NAME)


def _without_pandas():
    importing = [True]
    stand_in = types.ModuleType("pandas")

    def __getattr__(name: str):
        if name.startswith("__"):
            raise AttributeError(name)
        if importing[0]:
            return type(name, (), {})    # read by a type alias or an annotation only
        if sys.modules.get("pandas") is stand_in:
            del sys.modules["pandas"]
        real = importlib.import_module("pandas")
        stand_in.__dict__.update(vars(real))     # from now on without this function
        return getattr(real, name)

    stand_in.__getattr__ = __getattr__
    sys.modules["pandas"] = stand_in
    try:
        return importlib.import_module(_NAME)
    finally:
        importing[0] = False
        if sys.modules.get("pandas") is stand_in:
            del sys.modules["pandas"]
