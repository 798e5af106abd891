"""The solver's limits bound the whole answer (value, every turn's value, best turns,
PV), and whatever the answer labels proved is right: checked on the real command
line against unlimited solves of the same positions (no timing assertions)."""
import functools
import json

import pytest
from click.testing import CliRunner

from szsolver import interrupt
from szsolver.cli import main
from szsolver.formats.notation import parse_position, parse_turn, position_string
from szsolver.endgame.solver import solve, turn_values

# Six turns left, from benchmarks/solver_positions*.txt (a random-play game with both
# neutral supplies in hand, greedy games with several optimal turns): after the value
# is proved, proving every optimal turn and walking the PV still takes thousands of
# nodes, so node limits can stop the answer in each of its parts.
POSITIONS = [
    ".B/BB...B/.B....R/R.RBB.../R..BNR..B/.RRR..BB/.B.R.RR/R.R.B./.. R 5 5 basic",
    ".R/N..NN./NRNBB../.....RRR/RRBBNBNBB/BR..R..R/RRBBB../NRB.B./.. R 3 0 basic",
    "NN/N.R.N./RBRBNB./.NBRBRRR/....NRN../.R..RBN./BRBBRBB/.R...B/B. R 0 0 advanced",
]
IDS = ["basic-random", "basic-greedy", "advanced-greedy"]


def _cli(args):
    r = CliRunner().invoke(main, ["solve", *args])
    return r.exit_code, r.output


class Truth:
    """The unlimited answers for one position: value, optimal turns, each turn's value."""

    def __init__(self, text):
        self.pos = parse_position(text)
        full = solve(self.pos)
        assert full.complete and full.exact
        self.value = full.value
        self.best = set(full.best)
        self.value_nodes = solve(self.pos, pv=False).nodes
        self.full_nodes = full.nodes
        self._turns = None
        self.lines_checked = set()

    @property
    def turns(self):
        if self._turns is None:
            self._turns = dict(turn_values(self.pos))
        return self._turns

    def check_line(self, pv_text):
        """Every proved step of a PV keeps the value (each position solved afresh)."""
        p = self.pos.copy()
        for k, t in enumerate(pv_text):
            p.play(parse_turn(t))
            if tuple(pv_text[:k + 1]) not in self.lines_checked:
                assert solve(p, pv=False).value == self.value
                self.lines_checked.add(tuple(pv_text[:k + 1]))


@functools.lru_cache(maxsize=None)
def _truth(text):
    return Truth(text)


@pytest.fixture(params=POSITIONS, ids=IDS)
def truth(request):
    return _truth(request.param)


def _limits(truth):
    """Node limits from before the value is proved to past the full answer."""
    v, f = truth.value_nodes, truth.full_nodes
    return sorted({1, v // 2, v + 1, v + (f - v) // 4, v + (f - v) // 2, f + 10_000})


def test_node_limits_bound_the_whole_answer(truth):
    seen = set()
    for limit in _limits(truth):
        code, out = _cli([position_string(truth.pos), "--json", "--node-limit", str(limit)])
        d = json.loads(out)
        # checked every 4096 nodes: the count may pass the limit by that much, never more
        assert d["nodes"] <= limit + 4096 + 64
        assert d["lower"] <= truth.value <= d["upper"]
        if not d["exact"]:
            assert code == 3 and d["value"] is None and d["stopped"] == "node limit"
            assert d["complete"] is False and d["best"] == [] and d["pv"] == []
            seen.add("bounds")
            continue
        assert code == 0 and d["value"] == truth.value
        best = {parse_turn(t) for t in d["best"]}
        assert best <= truth.best                      # every turn labelled best is optimal
        if d["best_complete"]:
            assert best == truth.best
        if d["pv"]:
            assert parse_turn(d["pv"][0]) in best      # the PV's first turn counts as proved
        truth.check_line(d["pv"])
        if d["pv_complete"]:
            assert len(d["pv"]) == truth.pos.turns_left and d["scores"] is not None
        else:
            assert d["scores"] is None
        if d["complete"]:
            assert d["stopped"] is None and d["best_complete"] and d["pv_complete"]
            seen.add("complete")
        else:
            assert d["stopped"].startswith("node limit after the value was proved")
            seen.add("partial")
    assert seen == {"bounds", "partial", "complete"}


@pytest.mark.parametrize("text", POSITIONS[1:], ids=IDS[1:])
def test_node_limits_bound_all_turns(text):
    truth = _truth(text)
    v, f = truth.value_nodes, truth.full_nodes
    for limit in (v // 3, v, 2 * f):
        code, out = _cli([position_string(truth.pos), "--json", "--all-turns",
                          "--node-limit", str(limit)])
        d = json.loads(out)
        assert code == (0 if d["exact"] else 3)
        assert d["lower"] <= truth.value <= d["upper"]
        for t in d["turns"]:
            true = truth.turns[parse_turn(t["turn"])]
            assert t["lower"] <= true <= t["upper"]
            if t["exact"]:
                assert t["value"] == true
        if d["exact"]:
            assert d["value"] == truth.value
            best = {parse_turn(t) for t in d["best"]}
            if d["complete"]:
                assert best == truth.best                 # from the turn values
                truth.check_line(d["pv"])
            else:                                         # the value first, then the turns
                assert best <= truth.best
                assert not all(t["exact"] for t in d["turns"])


@pytest.mark.parametrize("seconds", ["0.02", "0.2"])
def test_time_limit_answer_is_right_where_labelled(truth, seconds):
    code, out = _cli([position_string(truth.pos), "--json", "--time-limit", seconds])
    d = json.loads(out)
    assert d["lower"] <= truth.value <= d["upper"]
    assert code == (0 if d["exact"] else 3)
    if d["exact"]:
        assert d["value"] == truth.value
        assert {parse_turn(t) for t in d["best"]} <= truth.best
        truth.check_line(d["pv"])
    if not d["complete"]:
        assert d["stopped"].startswith("time limit")


def test_text_says_what_is_not_proved(truth):
    limit = truth.value_nodes + 1
    code, out = _cli([position_string(truth.pos), "--node-limit", str(limit)])
    d = json.loads(_cli([position_string(truth.pos), "--json", "--node-limit", str(limit)])[1])
    assert code == 0 and f"Value: {truth.value:+d}" in out
    if not d["complete"]:
        assert "Stopped: node limit after the value was proved" in out
        assert ("proved so far" in out) != d["best_complete"]
    code, out = _cli([position_string(truth.pos), "--node-limit", "1"])
    assert code == 3 and "Value: not proved (node limit)" in out
    assert out.rstrip().splitlines()[-1].startswith("Not proved: `szsolver best POSITION` gives")


def test_pending_ctrl_c_is_honoured_at_entry():
    pos = parse_position(POSITIONS[0])
    interrupt._requested.set()
    try:
        with pytest.raises(interrupt.Interrupted):
            solve(pos)
    finally:
        interrupt._requested.clear()
    assert solve(pos, node_limit=10).lower <= solve(pos, node_limit=10).upper


def test_two_turn_bounds_flag_gives_the_same_answer():
    truth = _truth(POSITIONS[2])
    code, out = _cli([position_string(truth.pos), "--json", "--two-turn-bounds", "--all-turns"])
    d = json.loads(out)
    assert code == 0 and d["complete"] and d["value"] == truth.value
    assert {parse_turn(t) for t in d["best"]} == truth.best
    assert {parse_turn(t["turn"]): t["value"] for t in d["turns"]} == truth.turns
    truth.check_line(d["pv"])
