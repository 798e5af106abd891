"""CP-SAT bounds: the potential (best reachable score), score bounds and floors
against any play, and their pictures.

Modules, each importing only those before it: :mod:`.model` (the CP-SAT model),
:mod:`.potential` (the highest score a side can still reach if left alone),
:mod:`.bounds` (true bounds against any play, for the endgame solver),
:mod:`.render` (a potential map as text or SVG) and :mod:`.value` (the value's bounds
from each side's score range: the engine's, ``check``'s and the exact solver's).

The public names are importable from here too, except the function ``potential``:
``szsolver.bounds.potential`` is its module, so the function is
``szsolver.bounds.potential.potential``.
"""
from .model import NUM_WORKERS, RANDOM_SEED, score_of
from .potential import PotentialMap, PotentialResult, potential_map
from .bounds import possible_patterns, quick_bound, score_bound, score_bound_map, score_floor
from .render import map_svg, map_text

__all__ = ["NUM_WORKERS", "RANDOM_SEED", "score_of",
           "PotentialResult", "PotentialMap", "potential_map",
           "score_bound", "score_bound_map", "score_floor", "quick_bound", "possible_patterns",
           "map_text", "map_svg"]
