"""Golden values of every seed derivation: they decide published puzzle IDs, hex
starmaps and the Zobrist keys, so none may ever change by accident.

Each value was printed by the code before the derivations moved to one home
(szsolver.rules.seeds); the old names still answer and must agree with it.
"""
import hashlib

import pytest

from szsolver.rules import zobrist
from szsolver.rules.playout import seeded_rng
from szsolver.starmaps.complete import derive_seed
from szsolver.starmaps.daily import daily
from szsolver.starmaps.generate import Rng, generate, rng_for, seed_int
from szsolver.starmaps.io import puzzle_string


def test_zobrist_keys():
    assert zobrist.STONE_KEYS[:3] == (17036176806233632827, 3925671194051243292, 11695686635916822395)
    assert zobrist.STONE_KEYS[-1] == 13027444544666037116
    assert len(zobrist.STONE_KEYS) == 192 and len(zobrist.NEUTRALS_LEFT_KEYS) == 32
    assert zobrist.NEUTRALS_LEFT_KEYS[0] == 5667714121438506923
    assert zobrist.NEUTRALS_LEFT_KEYS[16] == 2460000099253406198
    assert zobrist.NEUTRALS_LEFT_KEYS[-1] == 6030114451130796443
    assert zobrist.SIDE_KEY == 10142693884466805563
    assert zobrist.RULE_KEY == 10736364538935980002
    # the recipe: splitmix64 from the label's SHA-256 (first 8 bytes, little-endian)
    state = int.from_bytes(hashlib.sha256(b"szsolver zobrist side v1").digest()[:8], "little")
    assert state == 8988533897851560003
    assert zobrist.splitmix64(state)[1] == zobrist.SIDE_KEY


def test_playout_rng():
    assert seeded_rng("doc").random() == 0.43138475870828175
    # the recipe: SHA-256 of repr(parts), first 8 bytes big-endian, seeds random.Random
    import random
    for parts, seed in ((("doc",), 16239341357700067691),
                        (("solver-test", 1, 0, (5, 5)), 17861977377424451907)):
        assert int.from_bytes(hashlib.sha256(repr(parts).encode()).digest()[:8], "big") == seed
        assert seeded_rng(*parts).getrandbits(64) == random.Random(seed).getrandbits(64)
    assert seeded_rng("solver-test", 1, 0, (5, 5)).getrandbits(64) == 4553949027426556855
    assert seeded_rng(1).random() != seeded_rng("1").random()  # repr: types count


def test_starmap_seed():
    assert derive_seed("starmap", "stars-zone", "basic", 134217728, 0, "0", 0) == 8354388544952359270
    assert derive_seed("starmap", "hex-768", "basic", 0, 0, 0, 0) == 4790060299607979085
    assert derive_seed("sat", 0) % 2 ** 31 == 1750561714
    assert derive_seed(1) == derive_seed("1") == 16283948624427255403  # str: types do not count


def test_puzzle_seed_and_rng():
    assert seed_int("szsolver", 1) == 9668509843236717645
    assert seed_int("a", "b") == 17315457580335015581
    assert seed_int("szsolver-puzzle", 2, "stars-zone", "hard", "7", 0) == 6409317823130822782
    assert rng_for("szsolver-puzzle", 2, "stars-zone", "hard", "7", 0).next64() == 1819256532286926245
    assert seed_int("szsolver-puzzle", 2, "stars-zone", "easy", "d20261123", 0) == 9749318152498089514
    assert seed_int("szsolver-puzzle", 2, "hex-768", "easy", "1", 0) == 16103417179115276186
    assert seed_int("szsolver-puzzle", 2, "square-8", "medium", "1", 0) == 14113371573801604009
    r = Rng(12345)
    assert [r.next64(), r.next64()] == [2454886589211414944, 3778200017661327597]
    assert (r.below(10), r.random(), r.sample(list(range(10)), 4)) == (5, 0.17611780724496118, [3, 5, 4, 1])
    items = list(range(8))
    r.shuffle(items)
    assert items == [1, 4, 2, 6, 3, 5, 0, 7]


# (ID, its full puzzle string, its solution): generated afresh, never read from the collection.
PUZZLES = [
    ("sz-medium-golden", "stars-zone;basic;x=;g=42:f.46:e.47:a.54:b.59:c.66:7.76:1.95:0", 9025412154885385),
    ("sza-hard-golden", "stars-zone;advanced;x=26.35.75.87;g=15:0.28:4.45:a.46:8.58:5.63:e.68:d.73:f",
     1063516582215810),
    ("sq8-easy-golden", "square-8;basic;x=;g=17:4.21:2.28:c.35:7.37:f.47:5.54:a.55:b.63:0.77:d.87:1",
     4630268015132315968),
    ("sq8-fiendish-golden", "square-8;basic;x=87;g=17:4.24:8.31:0.52:7.53:d.68:5.86:a", 11979715775553408576),
]


@pytest.mark.parametrize("pid,text,solution", PUZZLES)
def test_generated_puzzles(pid, text, solution):
    board, grade, seed = pid.split("-")
    gen = generate(board.rstrip("a"), grade, seed, rule="advanced" if board.endswith("a") else "basic")
    assert (gen.id, puzzle_string(gen.puzzle), gen.solution) == (pid, text, solution)


@pytest.mark.parametrize("date,pid,text,solution", [
    ("2026-11-23", "sz-easy-d20261123", "stars-zone;basic;x=;g=23:6.37:5.44:d.52:2.54:f.56:e.64:9.78:0.96:1",
     18084796060541013),
    ("2026-11-27", "sz-hard-d20261127", "stars-zone;basic;x=95;g=23:4.38:c.47:6.51:2.56:a.57:9.65:f",
     1135564403264005),
])
def test_dailies(date, pid, text, solution):
    gen = daily(date)
    assert (gen.id, puzzle_string(gen.puzzle), gen.solution) == (pid, text, solution)


def test_hex_puzzle_regenerates():
    """A hex ID goes through the C search seeded by the starmap seed."""
    gen = generate("hex", "easy", "1")
    assert gen.id == "hex-easy-1"
    assert hashlib.sha256(puzzle_string(gen.puzzle).encode()).hexdigest()[:16] == "462604d48d92bd0f"
    assert hashlib.sha256(str(gen.solution).encode()).hexdigest()[:16] == "31fb094263ab9dae"


# --- the one home: szsolver.rules.seeds ------------------------------------------------------

def test_seeds_home_recipes():
    from szsolver.rules import seeds
    assert seeds.zobrist_keys_v1(3, b"szsolver zobrist stones v1") == list(zobrist.STONE_KEYS[:3])
    assert seeds.zobrist_seed_v1(b"szsolver zobrist side v1") == 8988533897851560003
    assert seeds.playout_seed_v1("doc") == 16239341357700067691
    assert seeds.playout_seed_v1("solver-test", 1, 0, (5, 5)) == 17861977377424451907
    assert seeds.playout_seed_v1(("doc",)) != seeds.playout_seed_v1("doc")  # parts pass unwrapped
    assert seeds.playout_rng_v1("doc").random() == 0.43138475870828175
    assert seeds.starmap_seed_v1("starmap", "stars-zone", "basic", 134217728, 0, "0", 0) == 8354388544952359270
    assert seeds.puzzle_seed_v1("szsolver-puzzle", 2, "stars-zone", "hard", "7", 0) == 6409317823130822782
    assert seeds.puzzle_rng_v1("szsolver-puzzle", 2, "stars-zone", "hard", "7", 0).next64() == 1819256532286926245
    assert seeds.STARMAP_SAT_SEED == 20230717


def test_splitmix64_against_its_published_constants():
    """splitmix64 (Steele, Lea, Flood 2014), written out here independently."""
    from szsolver.rules.seeds import SplitMix64, splitmix64
    mask = (1 << 64) - 1
    state = 1234567
    rng = SplitMix64(state)
    for _ in range(100):
        state = (state + 0x9E3779B97F4A7C15) & mask
        z = (state ^ (state >> 30)) * 0xBF58476D1CE4E5B9 & mask
        z = (z ^ (z >> 27)) * 0x94D049BB133111EB & mask
        z ^= z >> 31
        assert rng.next64() == z
    assert splitmix64(0) == (0x9E3779B97F4A7C15, 16294208416658607535)
