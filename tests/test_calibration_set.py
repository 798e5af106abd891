"""The engine's calibration set (benchmarks/calibration_positions.json) holds values
proved once by one searcher (``analysis.check.turn_facts``); its cheapest entries are
proved again here by plain solves, one for the position and one after each stored turn."""
import json
import os

import pytest

from szsolver.endgame.solver import solve
from szsolver.formats.notation import format_turn, parse_position, parse_turn
from szsolver.rules import _core

STORE = os.path.join(os.path.dirname(__file__), os.pardir, "benchmarks",
                     "calibration_positions.json")


def cheapest(n, least_turns=9):
    with open(STORE, encoding="utf-8") as f:
        entries = json.load(f)["positions"]
    proved = [e for e in entries if e.get("best") and e["turns_left"] >= least_turns]
    return sorted(proved, key=lambda e: (e["cpu_s"], e["name"]))[:n]


# the three cheapest, and the cheapest from beyond 10 turns left (uniformly random play)
@pytest.mark.parametrize("entry", cheapest(3) + cheapest(1, least_turns=11),
                         ids=lambda e: e["name"])
def test_the_stored_proofs_are_the_solvers(entry):
    pos = parse_position(entry["position"], backend=_core.Position)
    assert 9 <= pos.turns_left <= 12 and entry["played"] in entry["turns"]
    res = solve(pos, node_limit=10**8)
    assert res.exact and res.value == entry["value"]
    assert sorted(format_turn(t) for t in res.best) == sorted(entry["best"])
    for turn, value in entry["turns"].items():
        child = pos.copy()
        child.make(parse_turn(turn))
        assert solve(child, pv=False).value == value, turn
