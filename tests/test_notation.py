"""Position strings, position JSON, pattern names and the diagram."""
import json
import pathlib
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from szsolver.errors import InvalidPositionError, ParseError
from szsolver.rules import reference
from szsolver.rules.geometry import STARS_ZONE, square
from szsolver.formats.notation import (START, diagram, parse_position, parse_position_json, parse_turn,
                               format_turn, pattern_list, pattern_name, position_json,
                               position_string)

RULES = pathlib.Path(__file__).resolve().parents[1] / "docs" / "rules.md"


@st.composite
def random_positions(draw, geometry=STARS_ZONE):
    """A legal position reached by random legal turns from a random start
    (either rule, any supply 0..7 per side), as the reference Position."""
    pos = reference.Position(geometry, red_neutrals=draw(st.integers(0, 7)),
                             blue_neutrals=draw(st.integers(0, 7)),
                             rule=draw(st.sampled_from(["basic", "advanced"])))
    for _ in range(draw(st.integers(0, 32))):
        if pos.is_over():
            break
        turns = pos.legal_turns()
        pos.play(turns[draw(st.integers(0, len(turns) - 1))])
    return pos


def same_in(Position, pos):
    """``pos`` rebuilt in back end ``Position`` from its plain fields."""
    return Position(pos.geometry, red=pos.red, blue=pos.blue, neutral=pos.neutral,
                    red_neutrals=pos.red_neutrals, blue_neutrals=pos.blue_neutrals,
                    side=pos.side, rule=pos.rule)


def test_start_string_round_trips(Position):
    p = parse_position(START, backend=Position)
    assert position_string(p) == START
    assert p.neutral == 1 << STARS_ZONE.index[(5, 5)] and p.red == p.blue == 0


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(pos=random_positions())
def test_position_string_and_json_round_trip(Position, pos):
    p = same_in(Position, pos)
    text = position_string(p)
    assert position_string(parse_position(text, backend=Position)) == text
    back = parse_position_json(json.dumps(position_json(p)), backend=Position)
    assert position_string(back) == text
    # the structured fields alone (no 'position' string) give the same position
    data = position_json(p)
    del data["position"]
    assert position_string(parse_position_json(data, backend=Position)) == text
    # and the string alone does too
    assert position_string(parse_position_json({"position": text}, backend=Position)) == text


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(pos=random_positions(square(8)))
def test_json_round_trips_on_other_boards(pos):
    data = position_json(pos)
    assert data["board"] == "square-8"
    assert parse_position_json(data, backend=reference.Position) == pos


def test_position_json_lists_stones_by_coordinates():
    p = parse_position(START, backend=reference.Position)
    p.play(parse_turn("44n66"))
    data = position_json(p)
    assert data["red"] == [[4, 4]] and data["blue"] == []
    assert data["neutral"] == [[5, 5], [6, 6]]
    assert data["side"] == "blue" and data["neutrals_left"] == {"red": 4, "blue": 5}


@pytest.mark.parametrize("data, message", [
    ("{not json", "malformed JSON"),
    ("[1, 2]", "must be an object"),
    ({"position": START, "colour": 1}, "unknown key 'colour'"),
    ({"red": [], "blue": [], "neutral": [[5, 5]], "side": "red", "rule": "basic"},
     "missing key 'neutrals_left'"),
    ({"red": [[1, 1]], "blue": [], "neutral": [[5, 5]], "side": "blue",
      "neutrals_left": {"red": 5, "blue": 5}, "rule": "basic"}, "off the stars-zone board"),
    ({"red": [[4, 4]], "blue": [], "neutral": [[5, 5]], "side": "green",
      "neutrals_left": {"red": 5, "blue": 5}, "rule": "basic"}, "side must be"),
    ({"red": [[4, 4]], "blue": [], "neutral": [[5, 5]], "side": "blue",
      "neutrals_left": {"red": 5, "blue": 5}, "rule": "basic", "position": START},
     "disagrees"),
    ({"red": [[5, 5]], "blue": [], "neutral": [], "side": "blue",
      "neutrals_left": {"red": 5, "blue": 5}, "rule": "basic"}, "centre"),
])
def test_bad_position_json(data, message):
    # a position that cannot arise in play is InvalidPositionError, the rest ParseError
    error = InvalidPositionError if message == "centre" else ParseError
    with pytest.raises(error, match=re.escape(message)):
        parse_position_json(data, backend=reference.Position)


def test_pattern_names_are_distinct_and_spell_the_bits():
    names = [pattern_name(k) for k in range(16)]
    assert len(set(names)) == 16
    for k, name in enumerate(names):
        # letter i present exactly when bit i (up, right, down, left) is set
        assert [ch != "." for ch in name] == [bool(k >> i & 1) for i in range(4)]
        assert all(ch in (".", "URDL"[i]) for i, ch in enumerate(name))
    assert pattern_list(0b1000_0000_0010_0001) == [0, 5, 15]
    with pytest.raises(ValueError):
        pattern_name(16)


def test_turn_text_round_trips_for_every_point():
    for s in range(STARS_ZONE.size):
        for n in (-1, 0, 54):
            if n == s:
                continue
            from szsolver.rules.base import encode_turn
            t = encode_turn(s, n)
            assert parse_turn(format_turn(t)) == t


def test_diagram_matches_the_picture_in_the_rules_doc():
    text = RULES.read_text(encoding="utf-8")
    block = text.split("```")[1].strip("\n").splitlines()
    picture = [re.sub(r"\s+N: .*$", "", ln).rstrip() for ln in block]
    ours = diagram(parse_position(START, backend=reference.Position), status=False)
    assert ours.splitlines() == picture


def test_diagram_shows_stones_side_neutrals_rule_and_scores(Position):
    p = parse_position(START, backend=Position)
    for t in ("44n66", "64", "41"):
        p.play(parse_turn(t))
    lines = diagram(p).splitlines()
    row4 = next(ln for ln in lines if ln.startswith("  4"))
    assert row4.split() == ["4", "R", ".", ".", "R", ".", ".", ".", "."]
    status = "\n".join(lines[10:])
    assert "Blue to move, round 2" in status
    assert "red 4, blue 5" in status and "basic" in status
    assert f"red {p.score(0)}, blue {p.score(1)}" in status
