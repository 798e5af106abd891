"""The puzzle room: the endgame puzzles (:mod:`szsolver.puzzles.endgame`, "Red to play
and win", each proved by the exact solver) and the published collections as package
data (``endgame-<rule>.json``, and the Starmaps puzzles' ``<board>-<grade>.json``, which
:mod:`szsolver.starmaps.generate` reads and writes).

The puzzles use the solver and the rules; neither ever imports a puzzle. Importing this
package loads nothing (the Starmaps collection is read from here without the endgame
solver)."""
