"""Was this turn optimal? Judging turns (``check``), whole games (``annotate``) and
the game report as one HTML page (``report``), on the family's verdict scale
(:mod:`szsolver.verdict`)."""
