"""Starmaps puzzles: the model and checker, the CP-SAT solver, complete starmaps,
the graded logic solver, the generator, the collection and the daily puzzle."""
