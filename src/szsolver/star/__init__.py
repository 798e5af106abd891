"""Star (Craige Schensted, 1983): the connection game on hex cells scored by stars,
on the same toolkit as Stars' Zone.

- :mod:`.board`: boards from one construction (``5x6`` standard, ``6x7``, ``4x5``,
  the corner variant), cell names, border cells.
- :mod:`.reference`: the scoring rules in plain Python; :mod:`.groups`: the fast
  scorers (incremental union-find, shift flood fill).
- :mod:`.position`: play (Black first, the pie rule's ``swap``, ``pass``, two
  passes end the game), position strings, diagrams.
"""

from . import position as _position, svg as _svg

_position.set_svg_drawer(_svg.position_svg)   # positions show as pictures in notebooks
