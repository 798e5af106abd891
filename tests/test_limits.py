"""Every limit a caller hands to szsolver goes through szsolver.limits: a NaN,
infinite, zero, negative or absurd limit would run without one, so it is bad input
with a one-line message, at every public entry point that takes one."""
import math

import pytest

from szsolver.errors import InputError, UnsupportedError
from szsolver.limits import MAX_COUNT, MAX_SECONDS, check_count, check_seconds

BAD_SECONDS = [0, -1, -0.5, float("nan"), float("inf"), -float("inf"), MAX_SECONDS * 2,
               10 ** 400, True, False, "3", b"3", [1], object()]
BAD_COUNTS = [0, -1, 1.5, 3.0, float("nan"), MAX_COUNT + 1, True, "10", None]


def _value_id(value) -> str:
    """The value's repr as the test's name, the same in every process (a plain
    object's repr holds its address, which would differ between the workers of a
    parallel run: they must collect the same tests)."""
    return "object()" if type(value) is object else repr(value)


@pytest.mark.parametrize("value", BAD_SECONDS, ids=_value_id)
def test_bad_seconds_are_refused_in_one_line(value):
    with pytest.raises(UnsupportedError) as info:
        check_seconds(value, "time_limit")
    message = str(info.value)
    if isinstance(value, float) and math.isnan(value):       # named as such
        assert message == "time_limit: NaN is not a number of seconds"
    else:
        assert "\n" not in message and message.startswith("time_limit must be")
        assert f"at most {MAX_SECONDS:g}," in message
    assert len(message) < 160


@pytest.mark.parametrize("value", [1e-6, 0.5, 1, 60, MAX_SECONDS])
def test_good_seconds_come_back_as_floats(value):
    got = check_seconds(value)
    assert isinstance(got, float) and got == value and math.isfinite(got)


def test_none_means_no_limit_only_where_allowed():
    assert check_seconds(None) is None
    with pytest.raises(UnsupportedError):
        check_seconds(None, none_ok=False)
    assert check_count(None, "n") is None
    with pytest.raises(UnsupportedError):
        check_count(None, "n", none_ok=False)


@pytest.mark.parametrize("value", BAD_COUNTS, ids=repr)
def test_bad_counts_are_refused(value):
    with pytest.raises(UnsupportedError, match="node_limit must be a whole number"):
        check_count(value, "node_limit", none_ok=False)


def test_counts_and_the_error_class_can_be_chosen():
    assert check_count(MAX_COUNT, "n") == MAX_COUNT
    assert check_count(0, "n", minimum=0) == 0
    with pytest.raises(InputError) as info:
        check_seconds(-1, "seconds", error=InputError)
    assert type(info.value) is InputError


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), 0, -3])
def test_entry_points_refuse_non_finite_limits(bad):
    # Entry points outside the command line, which validates its options itself.
    from szsolver.rules.geometry import STARS_ZONE
    from szsolver.starmaps.complete import complete_starmap
    from szsolver.starmaps.sat import check_limits
    from szsolver.web.analysis import time_limit_from
    with pytest.raises(UnsupportedError):
        complete_starmap(STARS_ZONE, seed=1, time_limit=bad)
    with pytest.raises(InputError):
        check_limits(bad)
    with pytest.raises(UnsupportedError):
        time_limit_from(bad)


@pytest.mark.parametrize("kwargs", [{"time_limit": float("nan")}, {"time_limit": float("inf")},
                                    {"node_limit": True}, {"node_limit": 2 ** 64},
                                    {"node_limit": 0}, {"tt_size": 1}, {"threads": 0}],
                         ids=repr)
def test_the_solver_refuses_bad_limits_before_any_search(kwargs):
    from szsolver.endgame.solver import solve
    from szsolver.formats.notation import parse_position
    pos = parse_position(".R/N..NN./NRNBB../.....RRR/RRBBNBNBB/BR..R..R/RRBBB../NRB.B./.. R 3 0 basic")
    with pytest.raises(UnsupportedError, match=next(iter(kwargs))):
        solve(pos, **kwargs)


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), 0, True])
def test_the_other_games_refuse_bad_limits(bad):
    from szsolver.star.engine import Engine as StarEngine
    from szsolver.star.position import Position as StarPosition
    from szsolver.star.solver import solve as star_solve
    from szsolver.stargazers.engine import Engine as StargazersEngine
    from szsolver.stargazers.solver import solve as stargazers_solve
    with pytest.raises(UnsupportedError):
        star_solve(StarPosition(), time_limit=bad)
    with pytest.raises(UnsupportedError):
        stargazers_solve(None, time_limit=bad)
    with pytest.raises(UnsupportedError):
        StarEngine(seconds=bad)
    with pytest.raises(UnsupportedError):
        StargazersEngine(seconds=bad)


def test_a_cut_limit_takes_its_most_and_says_so_when_refusing():
    assert check_seconds(25, "time_limit", most=10, cut=True) == 10.0
    assert check_seconds(1e300, "time_limit", most=10, cut=True) == 10.0
    assert check_seconds(2.5, "time_limit", most=10, cut=True) == 2.5
    for bad in (0, -1, float("inf")):
        with pytest.raises(UnsupportedError, match=r"finite \(more than 10 is cut to 10\)"):
            check_seconds(bad, "time_limit", most=10, cut=True)
    with pytest.raises(UnsupportedError, match="finite and at most 10, got 25"):
        check_seconds(25, "time_limit", most=10)
