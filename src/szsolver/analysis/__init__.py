"""Was this turn optimal? Judging turns (``check``), whole games (``annotate``) and
the game report as one HTML page (``report``); verdict words in ``verdict``."""
