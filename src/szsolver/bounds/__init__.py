"""CP-SAT bounds: the potential (best reachable score), score bounds and floors
against any play, and their pictures."""
