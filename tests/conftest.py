"""Shared fixtures: every rules test runs on both back ends."""
import pytest

from szsolver.rules.backends import NAMES, position_class


@pytest.fixture(params=NAMES)
def Position(request):
    """The Position class of each back end in turn (the core must be built)."""
    return position_class(request.param)
