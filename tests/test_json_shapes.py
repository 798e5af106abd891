"""One JSON shape a command: what ``--json`` prints for a command has the same keys for
the same things, with the same types, in Stars' Zone, Star and Stargazers
(:data:`szsolver.games.contract.SHAPES`); each game's own keys come beside them."""
import json

import pytest

from szsolver import games
from szsolver.games import Source
from szsolver.games.contract import ALL_TURNS, SHAPES, SUMMARY

# late positions and short records of each game: every command answers in a moment
LATE = {"stars-zone": "R./.NN..B/N.R.R../RB.RRR../BR.BN..R./B.BBN.../RBRNB../B.BNRB/BR R 1 3 basic",
        "star": "star:4x5:BWWB/BBWW./BWWBBW/WB.W.WB/BB.BBBWW/BWBWBWW/BWBB.W/WBWW.:B",
        "stargazers": "stargazers:12-star:1-2:r=2,3,4,6,8,9,10,13,14,16,20,21,24,29,32:"
                      "b=7,15,18,19,23,25,26,30,31,33,36,37,39,43,44,45"}
RECORDS = {"stars-zone": f'[Position "{LATE["stars-zone"]}"]\n\n14. 35 57',
           "star": f'[Game "star"] [Position "{LATE["star"]}"] 1. E7 E8 2. H2',
           "stargazers": f'[Game "stargazers"] [Position "{LATE["stargazers"]}"] 9. 35,47 11'}
OPTIONS = {"best": {"time": 0.2}, "solve": {"time_limit": 30}, "check": {"time_limit": 5},
           "annotate": {"time_per_turn": 0.2}}


def mismatches(value, shape, where: str) -> list[str]:
    """Where ``value`` (an answer's JSON) does not have ``shape`` (see SHAPES)."""
    if isinstance(shape, dict):
        if not isinstance(value, dict):
            return [f"{where}: {type(value).__name__}, not an object"]
        out = []
        for key, inner in shape.items():
            if key not in value:
                out.append(f"{where}.{key}: missing")
            else:
                out += mismatches(value[key], inner, f"{where}.{key}")
        return out
    if isinstance(shape, list):
        if not isinstance(value, list):
            return [f"{where}: {type(value).__name__}, not a list"]
        return [m for i, item in enumerate(value)
                for m in mismatches(item, shape[0], f"{where}[{i}]")]
    kinds = shape if isinstance(shape, tuple) else (shape,)
    if isinstance(value, bool) and bool not in kinds:
        return [f"{where}: bool, not {' or '.join(k.__name__ for k in kinds)}"]
    if not isinstance(value, kinds):
        return [f"{where}: {type(value).__name__}, not {' or '.join(k.__name__ for k in kinds)}"]
    return []


def answer(name: str, command: str, **options) -> dict:
    g = games.get(name)
    record = command in ("show", "score", "replay", "check", "annotate")
    text = RECORDS[name] if record else LATE[name]
    pos, game = g.load(Source(given=text, text=text))
    if command == "check":
        options["turn_number"] = 1 if name != "stars-zone" else game.start.ply + 1
    options = {**OPTIONS.get(command, {}), **options}
    data = g.answer(command, pos, game, **{k: v for k, v in options.items()
                                          if g.takes(command, k)}).data
    return json.loads(json.dumps(data))          # as --json prints it


@pytest.mark.parametrize("command", list(SHAPES))
@pytest.mark.parametrize("name", games.names())
def test_every_game_answers_a_command_with_the_shared_keys_and_types(name, command):
    data = answer(name, command)
    shape = dict(SHAPES[command])
    if command in ("best", "solve"):
        shape.pop("warnings", None)              # a position, not a record, was read
    assert mismatches(data, shape, command) == []
    if command == "check":
        assert isinstance(data["turn_number"], int) and data["best"]
    if command == "annotate":
        for side, counts in data["summary"].items():
            assert mismatches(counts, SUMMARY, f"summary.{side}") == []
        assert data["type"] == "annotation" and data["turns"]
    if command == "replay":
        assert data["game"]["type"] == "game" and data["turns"]
    if command == "best":
        assert data["turn"] in [c["turn"] for c in data["candidates"]] or data["exact"]


@pytest.mark.parametrize("name", games.names())
def test_solve_gives_every_turns_value_under_one_key(name):
    data = answer(name, "solve", all_turns=True)
    assert mismatches(data, {**SHAPES["solve"], **ALL_TURNS}, "solve") == []
    assert data["exact"] and data["turns"]
    assert data["best"][0] in [t["turn"] for t in data["turns"]]
    # the values are the first side's, as the answer's own value
    first_side = {t["turn"]: t["value"] for t in data["turns"]}[data["best"][0]]
    assert first_side == data["value"]


def test_a_star_record_json_written_before_is_still_read():
    """Star's record JSON names its moves ``turns`` now, as the family's do; a file
    written with ``moves`` reads as before."""
    from szsolver.star.record import game_json, parse_source_text
    g = games.get("star")
    _pos, game = g.load(Source(text=RECORDS["star"]))
    data = game_json(game)
    assert data["turns"] == ["E7", "E8", "H2"] and "moves" not in data
    old = {**{k: v for k, v in data.items() if k != "turns"}, "moves": data["turns"]}
    for written in (data, old):
        pos, again = parse_source_text(json.dumps(written))
        assert again.turns == game.turns and pos == game.final
