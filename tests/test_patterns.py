"""Pattern text (szsolver.formats.patterns): the three written forms, each pinned to
the output of the code it replaced, and the numeric form round-tripping."""

import pytest

from szsolver.errors import ParseError
from szsolver.formats.patterns import (beam_names, format_pattern, legend, parse_pattern, pattern_digits,
                                       pattern_list, pattern_name)
from szsolver.rules.geometry import STARS_ZONE, hex_starmap, square

HEX = hex_starmap()


def test_forms_as_before():
    assert (pattern_name(5), beam_names(5), format_pattern(STARS_ZONE, 5)) == ("U.D.", ["up", "down"], "5")
    assert (pattern_name(0, HEX), pattern_name(0, HEX, blank="blank"), beam_names(0, HEX),
            format_pattern(HEX, 0)) == ("-", "blank", [], "00")
    assert (pattern_name(3, HEX), beam_names(3, HEX), format_pattern(HEX, 3)) == ("w+e", ["w", "e"], "03")
    assert pattern_name(63, HEX) == "w+e+nw+ne+sw+se" and format_pattern(HEX, 63) == "63"
    assert pattern_name(0, square(8), blank="blank") == "...."  # blank only where names are joined


@pytest.mark.parametrize("g", [STARS_ZONE, square(8), HEX], ids=lambda g: g.name)
def test_every_pattern(g):
    names = [pattern_name(t, g) for t in range(g.n_patterns)]
    assert len(set(names)) == g.n_patterns
    for t in range(g.n_patterns):
        # the letters and names spell the bits
        assert beam_names(t, g) == [g.direction_names[d] for d in range(g.n_directions) if t >> d & 1]
        if g.cell == "square":
            assert names[t] == "".join("URDL"[d] if t >> d & 1 else "." for d in range(4))
        text = format_pattern(g, t)
        assert len(text) == pattern_digits(g) and int(text, 16 if pattern_digits(g) == 1 else 10) == t
        assert parse_pattern(g, text) == parse_pattern(g, f" {text.upper()} ") == t
    for bad in (-1, g.n_patterns):
        with pytest.raises(ValueError):
            pattern_name(bad, g)


def test_parse_errors():
    for g, text in ((STARS_ZONE, "g"), (STARS_ZONE, "10"), (HEX, "64"), (HEX, "x1"), (HEX, "")):
        with pytest.raises(ParseError):
            parse_pattern(g, text)


def test_pattern_list_and_legend():
    assert pattern_list(0) == [] and pattern_list(1 << 15 | 1) == [0, 15]
    assert legend(HEX) == ("a given shows the sum of its beams (w 1, e 2, nw 4, ne 8, sw 16, se 32), "
                           "as two digits 00-63; 0 = no beam")
