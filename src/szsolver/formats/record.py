"""Game records: PGN-like tag pairs, then numbered rounds.

    [Rule "basic"]
    [Neutrals "5 5"]
    [Red "MY Tian"]
    [Blue "Aza Reyyaiya"]
    [Date "2023-07-17"]
    [Result "16-14"]

    1. 44n66 64
    2. 41 54

Tags (all optional, any order, each at most once; values are ``"..."`` with ``\\"``
and ``\\\\`` escaped):

- ``Rule``: ``basic`` (default) or ``advanced``.
- ``Neutrals``: each side's neutral supply at the start, ``"5 5"`` (red blue) or
  ``"5"`` (both); default the rulebook's recommendation, 5 under Basic, 4 under Advanced.
- ``Board``: a board name for :func:`szsolver.rules.geometry.by_name` (default ``stars-zone``).
- ``Game``: ``stars-zone`` (in any case) when given; a record of Star or Stargazers
  (``star``, ``stargazers``) is read by its own game, any other name is refused.
- ``Position``: a set-up start as a position string (it carries side to move,
  neutrals left and rule, so ``Neutrals`` may not be given with it and ``Rule``, if
  given, must agree).
- ``Result``: ``"red-blue"`` final scores under the game's rule, or ``*`` when
  unknown/unfinished. A Result that disagrees with the replay is kept as written
  but reported in :attr:`GameRecord.warnings` (the record may be a faithful copy of a
  wrong score sheet; the replayed scores are what every command shows).
- Anything else (``Red``, ``Blue``, ``Date``, ``Event``, ``Source``...) is kept as is.

Turns follow as ``N.`` then Red's turn and Blue's turn; a set-up with Blue to move
starts ``N...`` then Blue's turn. Round numbers must run on without gaps. The habits of
PGN are read too: a round number needs no space after it (``1.44n66``); comments
``{...}`` (between any two parts, over several lines) and ``;`` to the end of the line
are skipped; ``N...`` may repeat the round's number before Blue's turn (``1. 44n66
{a comment} 1... 64``); the record may end with its result, the final scores
(``16-14``) or ``*``, which becomes the Result tag (it must agree with a Result tag
given). The canonical text drops the comments and writes the result as the tag.

:func:`game_string` writes the canonical form (one tag per line, a blank line, one
round per line); canonical text round-trips exactly through :func:`parse_game`, and
any accepted text parses to a game whose canonical string parses back to an equal game.

>>> g = parse_game('[Red "A"] 1. 44n66 64 2. 41')
>>> print(game_string(g), end="")
[Red "A"]
<BLANKLINE>
1. 44n66 64
2. 41
>>> g.final.scores(), g.final.red_neutrals
((2, 1), 4)
"""
from __future__ import annotations

import os
import re

from ..errors import IllegalTurnError, InputError, ParseError, WrongTypeError
from ..inputs import MAX_DIGITS, SHOWN_PATH, choice, cut, invisible, number, shown
from ..rules.base import BASIC, MAX_NEUTRALS_PER_SIDE, RED, RULE_NAMES, SIDE_NAMES, rule_code
from ..rules.geometry import STARS_ZONE
from ..rules.text import board_of, turn_code, turn_table
from .notation import (format_turn, json_kind, json_loads, json_object, json_scalar_kind,
                       parse_position, parse_position_json, parse_turn, position_string)
from .sources import (GAMES, STARS_ZONE_GAME, STDIN, game_of_text, on_disk, read_stdin,
                      read_text_file)

RECOMMENDED_NEUTRALS = {BASIC: 5, 1: 4}  # rulebook: 5 each under Basic, 4 each under Advanced
EXAMPLE_NAME = "example-2023-07-17.szg"

_TAG_RE = re.compile(r'\[\s*([A-Za-z][A-Za-z0-9_]*)\s+"((?:[^"\\\n]|\\.)*)"\s*\]')
#: a word ends at any whitespace, as :func:`_skip_space` reads it (a no-break or an
#: ideographic space between two turns separates them, as it does in a position string)
_TOKEN_RE = re.compile(r'(\[)|([0-9]+)(\.+)|([^\s\[\]{};]+)')
_RESULT_RE = re.compile(rf"([0-9]{{1,{MAX_DIGITS}}})-([0-9]{{1,{MAX_DIGITS}}})", re.ASCII)
#: a result after the turns, as PGN ends its movetext: final scores, or * (unfinished)
_RESULT_TOKEN_RE = re.compile(r"[0-9]+-[0-9]+|\*", re.ASCII)


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def _unescape(value: str) -> str:
    return re.sub(r"\\(.)", r"\1", value)


# --- the tag-pair style, shared by the records of every game of the family -------------

#: a tag's name: a letter, then letters, digits and _
TAG_NAME_RE = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
#: The tags the family's readers act on. Another program may write one in another case
#: (``[rule "advanced"]``); kept as an unknown tag, it would leave the game replayed
#: under the defaults, so a name in any case reads as the tag it names.
READ_TAGS = ("Game", "Board", "Rule", "Position", "Neutrals", "Result", "Protocol")
_READ_TAG = {name.lower(): name for name in READ_TAGS}


def tag_name(name: str) -> str:
    """``name`` as the readers know it: a tag of :data:`READ_TAGS` in any case is
    spelt as there; any other name is kept as written.

    >>> tag_name("rule"), tag_name("NEUTRALS"), tag_name("Event"), tag_name("event")
    ('Rule', 'Neutrals', 'Event', 'event')
    """
    return _READ_TAG.get(name.lower(), name)


def tag_line(name: str, value: str) -> str:
    """``[Name "value"]`` with ``\\`` and ``"`` escaped in the value.

    >>> tag_line("Black", 'Ann "A"')
    '[Black "Ann \\\\"A\\\\""]'
    """
    return f'[{name} "{_escape(value)}"]'


def _skip_space(text: str, pos: int) -> int:
    """The index of the next part of ``text`` at or after ``pos``: whitespace and
    comments (``{...}``, which may span lines, and ``;`` to the end of the line) are
    skipped, and PGN's escape lines (a ``%`` at the start of a line, to its end).
    ParseError for a ``{`` never closed."""
    n = len(text)
    while pos < n:
        ch = text[pos]
        if ch.isspace():
            pos += 1
        elif ch == "%" and (pos == 0 or text[pos - 1] in "\r\n"):
            close = text.find("\n", pos)
            pos = n if close < 0 else close + 1
        elif ch == "{":
            close = text.find("}", pos + 1)
            if close < 0:
                line = text.count("\n", 0, pos) + 1
                raise ParseError(f"comment '{{' on line {line} is never closed: end it with '}}'")
            pos = close + 1
        elif ch == ";":
            close = text.find("\n", pos)
            pos = n if close < 0 else close + 1
        else:
            break
    return pos


def read_record(text: str):
    """The parts of a tag-pair record, in order, read lazily (so a caller's complaint
    about an early part comes before a reading error further on):

    - ``("tag", line, name, value)`` for ``[Name "value"]`` (the value unescaped);
    - ``("round", line, number, dots, token)`` for a round number ``N.`` (``dots``
      False) or ``N...`` (True), ``token`` as written; the next part may follow it
      without a space (``1.44n66``);
    - ``("result", line, token)`` for a result as PGN writes it after the moves: final
      scores ``16-14``, or ``*`` (unfinished);
    - ``("word", line, token)`` for any other word: a turn or a move.

    Comments are skipped: ``{...}`` between any two parts (it may span lines),
    ``;`` to the end of its line, and a line that starts with ``%`` (PGN's escape).
    ``line`` counts from 1. ParseError names the line of
    anything else (a malformed tag, a stray ``]``, a comment never closed). What the
    tags and words mean is the caller's.

    >>> [p[0] for p in read_record('[Game "x"]\\n1. a {a comment} b\\n2...c ; and one more\\n*')]
    ['tag', 'round', 'word', 'word', 'round', 'word', 'result']
    """
    pos = 0
    while True:
        pos = _skip_space(text, pos)
        if pos >= len(text):
            return
        line = text.count("\n", 0, pos) + 1
        m = _TOKEN_RE.match(text, pos)
        if m is None:
            raise ParseError(f"unexpected {text[pos]!r} on line {line}")
        if m.group(1):
            t = _TAG_RE.match(text, pos)
            if not t:
                end = text.find("\n", pos)
                hidden = invisible(text[pos:None if end < 0 else end])
                raise ParseError(f"malformed tag on line {line}: use [Name \"value\"]"
                                 + (f" (it holds an invisible {hidden})" if hidden else ""))
            pos = t.end()
            yield "tag", line, t.group(1), _unescape(t.group(2))
        elif m.group(2) is not None:
            pos = m.end()
            if m.group(3) not in (".", "..."):
                raise ParseError(f"bad round number {shown(m.group(0))} on line {line}: "
                                 "write 'N.' (or 'N...' before the second side's turn)")
            yield ("round", line, number(m.group(2), f"the round number on line {line}"),
                   m.group(3) == "...", m.group(0))
        else:
            pos = m.end()
            token = m.group(4)
            yield ("result" if _RESULT_TOKEN_RE.fullmatch(token) else "word"), line, token


def looks_like_record(text: str) -> bool:
    """Does ``text`` start, after any comments, with a tag ``[Name "value"]`` or a round
    number ``1.``, as a game record does? (A JSON object does not, and a record may
    open with a comment that looks like one: ``{"Exported by ..."}``, ``{}``.)

    >>> looks_like_record('{"Exported"} [Rule "basic"] 1. 44'), looks_like_record('{} 1. 44')
    (True, True)
    >>> looks_like_record('{"position": "x"}'), looks_like_record('{"a": 1} junk')
    (False, False)
    """
    if re.match(r"\s*\{\s*[\"}]", text):
        import json
        try:
            json.loads(text)
            return False            # JSON, whatever follows its first brace
        except (ValueError, RecursionError):
            pass                    # no JSON: a record if a tag or round comes next
    try:
        pos = _skip_space(text, 0)
    except ParseError:
        return False
    return re.compile(r"\[\s*[A-Za-z]|\d+\.").match(text, pos) is not None


class RecordedGame:
    """What every game's record shares (Stars' Zone, Star, Stargazers): ``tags`` (an
    ordered dict, checked by :meth:`checked_tags`), the ``start`` position, the
    ``turns`` (what a side plays in one go: Stars' Zone's stone with its neutral, Star's
    move, Stargazers' one or two placements) and the ``positions`` after each, the
    ``warnings`` (doubts that do not stop the replay). Two records are equal when their
    tags (in order), start and turns are.

    The base replays the turns (:meth:`_replay`: each one checked by :meth:`play`, its
    errors naming the round and side), counts the rounds and sides
    (:meth:`round_of`, :meth:`side_of`, :meth:`where`) and checks the Result tag
    against the replay (:meth:`_check_result`: a wrong one is a warning). A game says
    what is its own: :meth:`_next` (a turn read, checked and made), and, where it needs
    them, :attr:`turns_before`, :meth:`_before_play`, :meth:`_result_note` and the
    class attributes below."""

    #: the sides' names, the first to play in a round first
    SIDES = SIDE_NAMES
    #: final scores as a Result tag writes them, for its message
    RESULT_EXAMPLE = "16-14"

    def _replay(self, turns) -> None:
        """Make ``turns`` one by one from ``start`` (:meth:`play`), then check the
        Result tag."""
        self.turns = []
        self.positions = []
        self.warnings: list[str] = []
        for p in turns:
            self.play(p)
        self._check_result()

    # --- rounds and sides -------------------------------------------------------------
    @property
    def turns_before(self) -> int:
        """The turns played before ``start`` (the first side plays the even ones)."""
        return self.start.ply

    def round_of(self, i: int) -> int:
        """The round number of turn ``i`` (0-based, in this game's list)."""
        return (self.turns_before + i) // 2 + 1

    def side_of(self, i: int) -> int:
        """The side that made turn ``i``: 0 the first to play in a round."""
        return (self.turns_before + i) % 2

    def where(self, i: int) -> str:
        """'round 7, blue': how errors and people name turn ``i``."""
        return f"round {self.round_of(i)}, {self.SIDES[self.side_of(i)]}"

    # --- play -------------------------------------------------------------------------
    def play(self, turn) -> None:
        """Append a turn after checking it: InputError (IllegalTurnError, ParseError)
        naming its round and side and what is wrong."""
        i = len(self.turns)
        self._before_play(i)
        try:
            kept, after = self._next(turn)
        except InputError as e:
            raise type(e)(f"{self.where(i)}: {e}") from None
        self.turns.append(kept)
        self.positions.append(after)

    def _next(self, turn):
        """(the turn as the record keeps it, the position after it) for ``turn`` made
        in :attr:`final`; InputError saying what is wrong (the round and side are
        added)."""
        raise NotImplementedError

    def _before_play(self, i: int) -> None:
        """A check of the turns so far before turn ``i`` (none by default)."""

    # --- the record's text ------------------------------------------------------------
    def record_text(self, turn_text) -> str:
        """The canonical record, every game's: one tag per line, a blank line, one round
        per line (``N.`` before the first side's turn, ``N...`` when the record starts
        at the second side's); ``turn_text(turn)`` writes a turn."""
        out = [tag_line(k, v) for k, v in self.tags.items()]
        lines: list[str] = []
        for i, p in enumerate(self.turns):
            text = turn_text(p)
            if self.side_of(i) == 0:
                lines.append(f"{self.round_of(i)}. {text}")
            elif i == 0:
                lines.append(f"{self.round_of(i)}... {text}")
            else:
                lines[-1] += f" {text}"
        if out and lines:
            out.append("")
        return "\n".join(out + lines) + "\n"

    # --- the Result tag ---------------------------------------------------------------
    def _result_note(self) -> str:
        """Words after the replay's scores in a Result tag's warning (none by default)."""
        return ""

    def _check_result(self) -> None:
        """A warning when the Result tag (final scores, or ``*``) is not what the replay
        scores; ParseError when it is no result."""
        text = self.tags.get("Result")
        if text is None or text.strip() == "*":
            return
        m = _RESULT_RE.fullmatch(text.strip())
        if not m:
            raise ParseError(f"Result tag {shown(text)}: use the final scores "
                             f"{self.SIDES[0]}-{self.SIDES[1]} like \"{self.RESULT_EXAMPLE}\", "
                             "or \"*\"")
        got = self.final.scores()
        n = len(self)
        if not self.final.is_over():
            self.warnings.append(f"Result tag says {text} but the game is unfinished after "
                                 f"{n} turn{'' if n == 1 else 's'} (scores now "
                                 f"{got[0]}-{got[1]})")
        elif (int(m.group(1)), int(m.group(2))) != got:
            self.warnings.append(f"Result tag says {text} but the replay scores "
                                 f"{got[0]}-{got[1]}{self._result_note()}")

    @staticmethod
    def checked_tags(tags) -> dict:
        """``tags`` as a dict, or ParseError naming the first tag a record cannot
        hold: a name of letters, digits and ``_``, a value of one line of text."""
        given = dict(tags or {})
        tags = {}
        for k, v in given.items():
            if not isinstance(k, str) or not TAG_NAME_RE.fullmatch(k):
                raise ParseError(f"bad tag name {k!r}: letters, digits and _ only")
            if not isinstance(v, str) or "\n" in v:
                raise ParseError(f"tag {k}: value must be one line of text")
            if tag_name(k) in tags:
                raise ParseError(f"tag {tag_name(k)} given twice ({k!r})")
            tags[tag_name(k)] = v
        return tags

    @staticmethod
    def game_tag(tags: dict, name: str, title: str) -> None:
        """ParseError when ``tags`` has a Game tag naming another game than ``name``
        (``title``: the game's name for people), in one wording for every game's
        reader."""
        given = tags.get("Game", name)
        if given.strip().lower() != name:
            raise ParseError(f"Game tag {given!r}: a {title} record has [Game \"{name}\"]")

    @property
    def final(self):
        """The position after the last play (the start if there are none)."""
        return self.positions[-1] if self.positions else self.start

    def position_before(self, i: int):
        """The position in which play ``i`` (0-based) was made."""
        return self.positions[i - 1] if i else self.start

    def __len__(self) -> int:
        return len(self.turns)

    def __eq__(self, other) -> bool:
        return (isinstance(other, type(self))
                and list(self.tags.items()) == list(other.tags.items())
                and self.turns == other.turns
                and self.start == other.start)

    __hash__ = None                 # mutable: turns are appended


class GameRecord(RecordedGame):
    """A Stars' Zone game's record: its tags, start position and turns, replayed and
    checked (the front door's ``szsolver.Game`` is the read-only face of one, for
    people's programs: copies of the positions, ``load``, ``example``).

    ``tags`` is an ordered dict of tag name to value (as written); ``turns`` the
    turns in play order (text like ``44n66`` or int codes; kept as Turns, which
    print as text on the game's board). Construction replays every turn with
    ``Position.play`` and raises IllegalTurnError (ParseError for bad text) naming
    the round and side of the first bad one. Attributes: ``geometry``, ``rule``,
    ``neutrals`` (each side's supply at the start, or neutrals left at a set-up
    start), ``start``, ``positions`` (after each turn), ``final``, ``warnings``.
    """

    def __init__(self, tags: dict | None = None, turns=(), *, backend=None):
        if backend is None:
            backend = _default_backend()
        elif isinstance(backend, str):            # 'core' or 'reference'
            from ..rules.backends import position_class
            backend = position_class(backend)
        self.backend = backend
        self.tags = self.checked_tags(tags)
        if "Game" in self.tags:         # a record may say it is Stars' Zone; no other game
            _not_another_game(choice(self.tags["Game"], (STARS_ZONE_GAME, *GAMES), "game"),
                              "record")
        self.start = _start_position(self.tags, backend)
        self.geometry = self.start.geometry
        self.rule = self.start.rule
        self.neutrals = (self.start.red_neutrals, self.start.blue_neutrals)
        if isinstance(turns, (str, bytes)):     # else read point by point: '4', '4', ' '...
            raise WrongTypeError("a game's turns are a list of turns, not one text "
                                 f"{shown(turns)}: a record's text is read with Game.load")
        self._replay(turns)

    # --- facts ------------------------------------------------------------------------
    def __repr__(self) -> str:
        return f"GameRecord({len(self.turns)} turns, {position_string(self.final)!r})"

    # --- changes ----------------------------------------------------------------------
    def _next(self, turn):
        """A turn (text like ``44n66`` or an int code) checked and made: IllegalTurnError
        (ParseError for bad text)."""
        pos = self.final.copy()
        if pos.is_over():
            raise IllegalTurnError(f"a turn after the game ended (both sides have placed all "
                                   f"{pos.stones_per_side} stones)")
        code = turn_code(self.geometry, turn)
        pos.play(code)
        return turn_table(self.geometry)[code], pos

    def with_rule(self, rule) -> "GameRecord":
        """The same turns replayed under ``rule``. The Rule tag (or the Position tag's
        rule) is rewritten, the Neutrals tag pinned to the supply used, and a Result
        tag dropped when the rule changes, since it scored the other rule."""
        code = rule_code(rule)
        if code == self.rule:
            return GameRecord(self.tags, self.turns, backend=self.backend)
        tags = dict(self.tags)
        if "Position" in tags:
            start = self.start.with_rule(code)
            tags["Position"] = position_string(start)
            if "Rule" in tags:
                tags["Rule"] = RULE_NAMES[code]
        else:
            tags["Rule"] = RULE_NAMES[code]
            if "Neutrals" not in tags:
                tags["Neutrals"] = f"{self.neutrals[0]} {self.neutrals[1]}"
        tags.pop("Result", None)
        return GameRecord(tags, self.turns, backend=self.backend)

    def _result_note(self) -> str:
        return f" under the {RULE_NAMES[self.rule]} rule"


def _start_position(tags: dict, backend):
    """The start position the tags describe (see the module doc)."""
    g = board_of(tags["Board"]) if "Board" in tags else STARS_ZONE
    rule = rule_code(tags["Rule"]) if "Rule" in tags else BASIC
    if "Position" in tags:
        if "Neutrals" in tags:
            raise ParseError("give neutrals left in the Position tag, not a Neutrals tag")
        pos = parse_position(tags["Position"], g, backend)
        if "Rule" in tags and pos.rule != rule:
            raise ParseError(f"Rule tag says {tags['Rule']} but the Position tag says "
                             f"{RULE_NAMES[pos.rule]}")
        return pos
    if "Neutrals" in tags:
        parts = tags["Neutrals"].split()
        try:
            if not 1 <= len(parts) <= 2:
                raise ParseError
            counts = [number(p, "", hi=MAX_NEUTRALS_PER_SIDE) for p in parts]
        except ParseError:
            raise ParseError(f"Neutrals tag {shown(tags['Neutrals'])}: give each side's supply, "
                             f"0..{MAX_NEUTRALS_PER_SIDE}: one number for both (\"4\") or "
                             f"red's and blue's (\"5 4\")") from None
        red_n, blue_n = counts[0], counts[-1]
    else:
        red_n = blue_n = RECOMMENDED_NEUTRALS[rule]
    return backend(g, red_neutrals=red_n, blue_neutrals=blue_n, side=RED, rule=rule)


# --- text ---------------------------------------------------------------------------------

def parse_game(text: str, backend=None) -> GameRecord:
    """Parse a game record (see the module doc); ParseError names the problem
    (IllegalTurnError an illegal turn, InvalidPositionError an impossible set-up)."""
    backend = backend or _default_backend()

    def new_game(tags):
        game = GameRecord(tags, (), backend=backend)
        return game, game.start.ply // 2 + 1, game.start.side
    return read_numbered_game(text, new_game, _play_text,
                              check=lambda game, token: parse_turn(token, game.geometry))


def read_numbered_game(text: str, new_game, play, word: str = "turn",
                       side_names=SIDE_NAMES, check=None):
    """The game of a record in this module's format, for every game that writes it
    so: tags, then rounds, each its number ``N.`` and the first side's turn (side 0),
    then the second side's (``N...`` starts a round at the second side's turn, and
    may repeat the round's number before it, as PGN does after a comment); then,
    optionally, the result (``16-14`` or ``*``).

    ``new_game(tags)`` sets the game up: (game, its first round's number, the side to
    play first); ``play(game, token, where)`` plays a turn's text (``where``: e.g.
    'round 7, blue'); ``check(game, token)``, when given, raises ParseError for text
    that is no turn at all (so a word where a round number belongs is named for what
    it is). ``word`` names a turn in the errors ('turn', 'move'). ParseError names what
    is wrong and where. A result after the turns becomes the Result tag (one that
    differs from a Result tag given is an error: the record contradicts itself); the
    game's Result is checked at the end."""
    tags: dict[str, str] = {}
    game = None           # set up once the first round number or turn is reached
    expect_round = side = round_no = None
    in_round = 0          # turns seen since the last round number
    result = None         # the result written after the turns
    previous = None       # the last turn read: a hint for one split by a space
    for part in read_record(text):
        kind = part[0]
        if result is not None:
            what = {"tag": f"tag [{part[2]}]", "round": f"round number {shown(part[-1])}"}.get(
                kind, shown(part[2]))
            raise ParseError(f"{what} on line {part[1]} after the result {shown(result)}: the "
                             "result ends the record")
        if kind == "tag":
            _, line, name, value = part
            if game is not None:
                raise ParseError(f"tag [{name}] on line {line} comes after the {word}s: "
                                 "tags come first")
            if tag_name(name) in tags:
                raise ParseError(f"tag [{tag_name(name)}] given twice"
                                 + (f" (once as [{name}])" if name != tag_name(name) else ""))
            tags[tag_name(name)] = value
            continue
        if game is None:   # the tags are complete: set up, then play turns as they come
            game, expect_round, side = new_game(tags)
        if kind != "word" and round_no is not None and in_round == 0:
            raise ParseError(f"round {round_no} has no {word}s")
        if kind == "round":
            _, _, written, dots, token = part
            if round_no is not None and side != 0:
                if (written, dots) == (round_no, True):     # 'N...' before the second turn
                    continue
                if written == round_no:
                    raise ParseError(f"round {round_no}, {side_names[1]}: {shown(token)} before "
                                     f"{side_names[1]}'s {word}: write '{round_no}...' or "
                                     "no number")
                raise ParseError(f"round {round_no}, {side_names[1]}: {word} missing "
                                 f"before {shown(token)}")
            want = f"{expect_round}." if side == 0 else f"{expect_round}..."
            if (written, dots) != (expect_round, side != 0):
                raise ParseError(f"expected round number {want!r}, got {shown(token)}")
            round_no, in_round = expect_round, 0
            continue
        token = part[2]
        if kind == "result":
            result = token
            continue
        if round_no is None or (in_round and side == 0):
            where = f"round {expect_round}, {side_names[side]}"
            if check is not None:
                try:
                    check(game, token)
                except ParseError as e:
                    raise ParseError(f"{where}: {e}") from None
            mark = f"{expect_round}." if side == 0 else f"{expect_round}..."
            raise ParseError(f"{where}: {word} {shown(token)} needs its round number first: "
                             f"'{mark} {cut(token)}'")
        try:
            play(game, token, f"round {round_no}, {side_names[side]}")
        except ParseError as e:
            if previous is not None and token[:1] in ("n", "N", ","):
                # '44 n66', '16, 23': the rest of the last turn, after a space
                raise ParseError(f"{e} (a space inside a turn? {previous}{token} is one "
                                 "turn)") from None
            if token[-1:] in ("n", "N", ","):      # '44n 66', '16, 23': cut short by one
                raise ParseError(f"{e} (a space inside a turn? write it without "
                                 "one)") from None
            raise
        previous = token
        in_round += 1
        if side != 0:
            expect_round += 1
        side ^= 1
    if round_no is not None and in_round == 0:
        raise ParseError(f"round {round_no} has no {word}s")
    if game is None:
        game = new_game(tags)[0]
    if result is not None:
        tagged = game.tags.get("Result")
        if tagged is None:
            game.tags["Result"] = result
        elif _result_value(tagged) not in (None, _result_value(result)):
            raise ParseError(f"the result {shown(result)} after the {word}s disagrees with the "
                             f"Result tag {shown(tagged)}")
    game.warnings.clear()
    game._check_result()
    return game


def _result_value(text: str):
    """A result's meaning: ``"*"``, the two scores, or None when it is malformed."""
    text = text.strip()
    if text == "*":
        return text
    m = _RESULT_RE.fullmatch(text)
    return (int(m.group(1)), int(m.group(2))) if m else None


def _play_text(game: GameRecord, token: str, where: str) -> None:
    """Play a turn given as text; errors say where (e.g. 'round 7, blue')."""
    if game.final.is_over():
        raise IllegalTurnError(f"{where}: a turn after the game ended (both sides have placed "
                               f"all {game.final.stones_per_side} stones)")
    try:
        turn = parse_turn(token, game.geometry)
    except ParseError as e:
        raise ParseError(f"{where}: {e}") from None
    game.play(turn)


def _default_backend():
    """The default back end: the core when built, else the reference."""
    from ..rules.backends import default_position_class
    return default_position_class()


def _the_record(game) -> GameRecord:
    """The record of ``game``: a :class:`GameRecord`, or the front door's ``szsolver.Game``
    (which holds one as ``record``); ParseError for anything else."""
    if isinstance(game, GameRecord):
        return game
    record = getattr(game, "record", None)
    if isinstance(record, GameRecord):
        return record
    raise ParseError(f"not a game: {type(game).__name__} (give a szsolver.Game or a "
                     "szsolver.formats.record.GameRecord)")


def game_string(game) -> str:
    """The canonical record text: one tag per line, a blank line, one round per line.
    ``game`` is a :class:`GameRecord` or the front door's ``szsolver.Game`` (whose ``str()``
    it is)."""
    game = _the_record(game)
    return game.record_text(lambda t: format_turn(t, game.geometry))


# --- JSON ---------------------------------------------------------------------------------

def game_json(game) -> dict:
    """A game (a :class:`GameRecord` or ``szsolver.Game``) as JSON-ready data: ``{"type":
    "game", "tags": {...}, "turns": ["44n66", ...]}``."""
    game = _the_record(game)
    return {"type": "game", "tags": dict(game.tags),
            "turns": [format_turn(t, game.geometry) for t in game.turns]}


def parse_game_json(data, backend=None) -> GameRecord:
    """Inverse of :func:`game_json`; ``data`` is a dict or JSON text."""
    data = json_object(data, "game JSON")
    unknown = sorted(set(data) - {"type", "tags", "turns"})
    if unknown:
        raise ParseError(f"game JSON: unknown key {unknown[0]!r}")
    if data.get("type", "game") != "game":
        raise ParseError(f"game JSON: type must be 'game', got {data['type']!r}")
    tags = data.get("tags", {})
    if not isinstance(tags, dict) or not all(isinstance(v, str) for v in tags.values()):
        raise ParseError("game JSON: tags must be an object of strings")
    turns = data.get("turns", [])
    if not isinstance(turns, list) or not all(isinstance(t, str) for t in turns):
        raise ParseError('game JSON: turns must be a list of turn strings like "44n66"')
    game = GameRecord(tags, (), backend=backend)
    for i, token in enumerate(turns):
        _play_text(game, token, game.where(i))
    game.warnings.clear()
    game._check_result()
    return game


# --- sources ------------------------------------------------------------------------------

def example_path() -> str:
    """Path of the bundled rulebook example game (package data)."""
    from importlib.resources import files
    return str(files("szsolver") / "data" / EXAMPLE_NAME)


def example_game(backend=None) -> GameRecord:
    """The rulebook's example game (2023-07-17, Basic rule, 5 neutrals each)."""
    with open(example_path(), encoding="utf-8") as f:
        return parse_game(f.read(), backend)


#: keys of the commands' answers that a position's JSON never has
_ANSWER_KEYS = ("value", "value_before", "scores")


def answer_inside(data: dict) -> dict:
    """The game or position inside the JSON a command printed, so that it reads back
    as SOURCE in every game of the family (the answers have one shape a command:
    ``szsolver.games.contract.SHAPES``): ``annotate --json``'s game (``type``
    ``annotation``: it holds the record whole, its tags and turns), ``replay --json``'s
    game (or, for a position replayed, its final position), ``show --json``'s position,
    and for the answers of ``score``, ``solve``, ``best`` and ``check`` the position's
    string under ``position`` with the ``board`` it is on. Any other object is returned
    as it is (a game's or position's own JSON, whose reader refuses unknown keys)."""
    kind = data.get("type")
    if kind == "annotation" and isinstance(data.get("game"), dict):
        return data["game"]                         # annotate --json
    if kind is not None:
        return data
    if isinstance(data.get("game"), dict) and "final" in data:
        return data["game"]                         # replay --json of a game
    if isinstance(data.get("final"), dict) and "turns" in data:
        return data["final"]                        # replay --json of a position
    if isinstance(data.get("position"), dict) and "last_turn" in data:
        return data["position"]                     # show --json
    if isinstance(data.get("position"), str) and any(k in data for k in _ANSWER_KEYS):
        # score, solve, best, check --json: the position string on the board named
        return {k: data[k] for k in ("position", "board") if k in data}
    return data


def example_position(turns_left: int, rule=None, backend=None):
    """The rulebook game's position with ``turns_left`` turns still to play (``rule``:
    the game replayed under another rule)."""
    game = example_game(backend)
    if rule is not None:
        game = game.with_rule(rule)
    return game.positions[len(game.turns) - turns_left - 1]


def parse_source_text(text: str, backend=None):
    """Text holding a position string, a JSON position or game (or the JSON that
    ``szsolver show --json`` and ``replay --json`` print), or a game record. Returns
    (position, game or None). A leading byte-order mark is ignored; a JSON list, JSON
    nested too deeply and anything else that does not parse is a ParseError."""
    t = text.removeprefix("\ufeff").strip()
    if not t:
        raise ParseError("empty input: expected a position string, a game record or JSON")
    if t.startswith(("{", "[")) and not looks_like_record(t):
        data = json_loads(t, "JSON input")
        if not isinstance(data, dict):
            raise ParseError(f"JSON input must be an object (a position or a game), "
                             f"not {json_kind(data)}")
        data = answer_inside(data)
        _not_another_game(data.get("game"), "JSON")
        if data.get("type") == "game" or "turns" in data:
            game = parse_game_json(data, backend)
            return game.final, game
        return parse_position_json(data, backend), None
    kind = json_scalar_kind(t)
    if kind is not None:
        raise ParseError(f"JSON input must be an object (a position or a game), not {kind}")
    _not_another_game(game_of_text(t), "record" if t.startswith("[") else "position")
    if looks_like_record(t):
        game = parse_game(t, backend)
        return game.final, game
    hidden = invisible(t)
    if hidden:
        raise ParseError(f"the position string holds an invisible {hidden} (column "
                         f"{next(i for i, ch in enumerate(t) if invisible(ch)) + 1}): "
                         "delete it")
    # lines as a text file has them (\n, \r): a vertical tab or U+2028 is whitespace
    # here, as in a record, where str.splitlines would count it a line break
    lines = [ln for ln in re.split(r"\r\n|\r|\n", t) if ln.strip()]
    if len(lines) > 1:
        raise ParseError("a position string is one line; this text has "
                         f"{len(lines)} (a game record starts with a [Tag] or '1.')")
    first = t.split()[0]
    if "/" not in first:
        # rows without a '/' cannot be a board: say what either input would look like
        raise ParseError(f"{shown(first)} starts neither a position string (its rows joined "
                         "by '/') nor a game record (a [Tag] or the round number '1.')")
    if backend is None:
        backend = _default_backend()
    return backend(t, STARS_ZONE), None


def with_warnings(data: dict, game) -> dict:
    """``data`` (an answer's JSON) with the ``warnings`` of the game it was read from
    (a Result tag the replay contradicts...); as it is when no game was read or it has
    the key already. The commands' ``--json`` and the web answers both use it."""
    if game is None or "warnings" in data:
        return data
    return {**data, "warnings": list(game.warnings)}


def _not_another_game(name, kind: str) -> None:
    """ParseError for input of another game of the family (Star, Stargazers) given
    where only Stars' Zone is read, instead of a Stars' Zone parse error about it."""
    if isinstance(name, str) and name.strip().lower() in GAMES:
        raise ParseError(f"a {name.strip().capitalize()} {kind}: only Stars' Zone positions "
                         "and games are read here")


def load_source(source: str, rule=None, backend=None):
    """A position from SOURCE, for the CLI and scripts. Returns (position, game or None).

    SOURCE is ``-`` (standard input), a path to a file, or the text itself: a position
    string, a JSON position or game, or a game record (the position is its last one).
    Files are UTF-8 text (a byte-order mark is ignored). ``rule``
    (``basic``/``advanced``) overrides the rule: a game is replayed under it.
    Raises InputError naming the problem (e.g. a missing file, a binary file;
    ParseError for text that does not parse).
    """
    s = source.strip()
    if source == STDIN:
        text = read_stdin()
    elif os.path.isdir(source):
        raise InputError(f"{cut(source, SHOWN_PATH)} is a directory, not a position or game file")
    elif on_disk(source):
        text = read_text_file(source)
    elif (s and not any(ch.isspace() for ch in s) and not s.startswith(("{", "[", "\ufeff"))
          and not re.fullmatch(r"[.RBN/]*/[.RBN/]*", s) and not looks_like_record(s)):
        # One word that is neither a position, JSON nor a record: a file that is not there.
        if invisible(s):        # or a position with a character no one sees
            raise ParseError(f"{shown(s)} is no file, and no position: delete the "
                             "invisible character")
        raise InputError(f"no such file: {cut(source, SHOWN_PATH)}")
    else:
        text = source
    return load_text(text, rule, backend)


def load_text(text: str, rule=None, backend=None):
    """(position, game or None) from the text of a SOURCE (a position string, a JSON
    position or game, or a game record: its last position), ``rule`` overriding the
    rule as :func:`load_source` does."""
    pos, game = parse_source_text(text, backend)
    if rule is not None:
        if game is not None:
            game = game.with_rule(rule)
            pos = game.final
        else:
            pos = pos.with_rule(rule)
    return pos, game
