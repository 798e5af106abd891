"""The engine beyond the exact horizon: Monte Carlo tree search in C (``_mcts``) with
the exact solver taking over near the end (``search``), and the baseline players
it is measured against (``players``). Deterministic: budgets are iterations and
nodes, seeds come from hashlib."""
