"""The rules of Stars' Zone: boards as data, the turn codec and position checks, the
pure-Python reference rules and the fast Cython core (same API)."""
