"""Shared fixtures: every rules test runs on both back ends."""
import pytest

from szsolver import reference

BACKENDS = ["reference", "core"]


def backend_class(name):
    if name == "reference":
        return reference.Position
    from szsolver import _core  # the core must be built: a missing build is a failure
    return _core.Position


@pytest.fixture(params=BACKENDS)
def Position(request):
    """The Position class of each back end in turn."""
    return backend_class(request.param)
