"""The web app: puzzles to play in the browser, an analysis board, a JSON API.

- :mod:`.puzzles`: what a puzzle page shows (the JSON of ``szsolver puzzle show --json``,
  the board as the CLI's SVG with a layer of clickable points, the logic solver's
  steps for hints) and the self-contained static page of ``puzzle daily --html``.
- :mod:`.analysis`: positions and games from request values, and the heavy jobs
  (endgame solver, turn check, CP-SAT potential map, game annotation).
- :mod:`.jobs`: runs heavy jobs off the event loop, each in its own process, at
  most a few at once, killed at a deadline.
- :mod:`.app`: the Starlette application served by uvicorn (``szsolver serve``).

Only :mod:`.app` needs the optional ``web`` dependencies (Starlette, uvicorn), so
the static page can be written by a plain install.
"""
