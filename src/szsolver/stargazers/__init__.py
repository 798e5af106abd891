"""Stargazers (Dale W. Walton, 2023), the family's other star-sight game, on the
project's foundations: boards (:mod:`.geometry`), rules (:mod:`.base`, a pure-Python
:mod:`.reference` and the fast :mod:`.fast`), records and pictures (:mod:`.record`,
:mod:`.svg`), the exact :mod:`.solver` and the :mod:`.engine`."""
