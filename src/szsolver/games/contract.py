"""What every game of the family declares to the registry (:mod:`szsolver.games`):
one :class:`Entry` a game, the :class:`Source` it reads, the :class:`Answer` each of
its commands gives.

One vocabulary for all three games:

- ``turn``: what a side plays in one go (Stars' Zone's stone with its neutral, Star's
  move, Stargazers' one or two placements); ``legal_turns(position)`` lists them,
  ``parse_turn(text, position)`` reads one, ``format_turn(turn, position)`` writes it;
- ``pv``: a line of best play, turn after turn;
- ``time_limit`` (seconds) and ``node_limit`` (search nodes): the limits of an exact
  solve; a solve that reaches one returns the bounds it proved and says what
  ``stopped`` it, it never raises (:func:`Entry.solve`);
- ``exact_turns``: from how near the end ``annotate`` proves instead of estimating,
  counted as each game counts its endgame (turns left, live empty cells, empty cells).

A command (``show``, ``score``, ``replay``, ``best``, ``check``, ``solve``,
``annotate``) is ``entry.answer(name, position, record, **options)``, which calls
``entry.commands[name](position, record, options)`` with ``options`` a namespace holding the options the entry declares for that command
(``entry.options[name]``, by the names of the command line's parameters: ``svg``,
``time_limit``, ``turn_number``...) plus ``as_json`` (the answer is for a program:
no progress is shown) and ``progress`` (a factory of progress lines,
``progress(enabled, lines=False)`` giving an object called with a message and
closed when done, or None: the caller's way of showing work, e.g. on a terminal; a
:class:`~szsolver.games.views.ProgressReport` is sent the work as data instead, for
a program: the web's streamed jobs).
It returns an :class:`Answer` and raises :class:`szsolver.errors.InputError` for
bad input, before any output file is written.

An answer's ``data`` (what ``--json`` prints) has the same keys for the same things in
every game, with the same types: :data:`SHAPES` (docs/architecture.md, "One JSON shape
a command"); a game adds its own keys beside them.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType, SimpleNamespace
from typing import Callable, Mapping

__all__ = ["Source", "Answer", "Entry", "COMMANDS", "SHAPES", "ALL_TURNS", "SUMMARY"]

#: the commands every game of the family answers, in the order ``--help`` lists them
COMMANDS = ("show", "score", "replay", "best", "check", "solve", "annotate")

_NUMBER = (int, float)
_TEXT_OR_NONE = (str, type(None))
_NUMBER_OR_NONE = (int, float, type(None))
#: one judged turn, in ``check`` and in each of ``annotate``'s ``turns``: the turn
#: ``played`` by the ``mover``, the ``best`` turns, the values (the first side's: Red's,
#: Black's) and the ``loss``, ``method`` 'solver' (``exact``) or 'engine'
_JUDGED = {"played": str, "mover": str, "method": str, "exact": bool, "best": [str],
           "best_value": _NUMBER_OR_NONE, "played_value": _NUMBER_OR_NONE,
           "loss": _NUMBER_OR_NONE, "verdict": _TEXT_OR_NONE}
#: The keys of each command's answer (``Answer.data``) in every game, with their types:
#: a type or a tuple of types (``type(None)``: null), ``[T]`` a list of T, a dict the
#: keys of an object (of each item, in a list). ``warnings`` is there when a record was
#: read. Values are the first side's (Red's, Black's); a game's own keys come beside.
SHAPES = MappingProxyType({
    "show": {"position": dict, "scores": dict, "over": bool, "winner": _TEXT_OR_NONE,
             "result": str, "last_turn": _TEXT_OR_NONE, "warnings": list},
    "score": {"position": str, "scores": dict, "over": bool, "winner": _TEXT_OR_NONE,
              "result": str, "warnings": list},
    "replay": {"game": {"type": str, "tags": dict, "turns": [str]},
               "turns": [{"round": int, "side": str, "turn": str, "scores": dict,
                          "position": str}],
               "final": dict, "scores": dict, "over": bool, "winner": _TEXT_OR_NONE,
               "result": str, "warnings": list},
    "best": {"position": str, "turn": str, "value": _NUMBER, "exact": bool, "method": str,
             "best": [str], "pv": [str], "candidates": [{"turn": str, "visits": int}],
             "iterations": int, "nodes": int, "seconds": _NUMBER},
    "check": {"position": str, **_JUDGED, "seconds": _NUMBER, "warnings": list},
    "solve": {"position": str, "value": (int, type(None)), "exact": bool, "lower": int,
              "upper": int, "winner": _TEXT_OR_NONE, "best": [str], "pv": [str],
              "nodes": int, "seconds": _NUMBER, "stopped": _TEXT_OR_NONE,
              "complete": bool},
    "annotate": {"type": str, "game": {"type": str, "tags": dict, "turns": [str]},
                 "turns": [{"number": int, "round": int, "side": str, **_JUDGED}],
                 "summary": dict, "seconds": _NUMBER, "warnings": list},
})
#: with ``--all-turns``: ``solve``'s value of every turn (``turn``, ``value``)
ALL_TURNS = {"turns": [{"turn": str, "value": (int, type(None))}]}
#: the keys of ``annotate``'s ``summary`` for each side
SUMMARY = {"turns": int, "optimal": int, "inaccuracies": int, "mistakes": int,
           "blunders": int, "judged_exactly": int}


@dataclass(frozen=True)
class Source:
    """What a command reads. ``given``: the SOURCE as given (a path, ``-`` for standard
    input, or the text itself; None with ``example``); ``text``: its content when it
    was read already (standard input is read once), else None and the game's reader
    reads ``given`` itself; ``example``: the bundled example (Stars' Zone's rulebook
    game), as its last position or, with ``example_turns_left``, its position with that
    many turns still to play."""
    given: str | None = None
    text: str | None = None
    example: bool = False
    example_turns_left: int | None = None


@dataclass(frozen=True)
class Answer:
    """A command's answer: ``data`` for programs (the JSON printed with ``--json``, as
    it is), ``text`` for people; ``warnings``: doubts about the record read (a Result
    tag the replay contradicts), shown once every check has passed; ``files``:
    ((path, text), ...) output files to write whole; ``pictures``: (directory,
    ((path, svg), ...)) to write all or nothing; ``notes``: lines for the person after
    the answer (a hint); ``exit_code``: 0, or 3 when a limit stopped an exact solve
    (the answer gives the proved bounds), 130 when an interrupt did."""
    data: object
    text: str
    warnings: tuple = ()
    files: tuple = ()
    pictures: tuple | None = None
    notes: tuple = ()
    exit_code: int = 0


def _frozen(options: Mapping[str, tuple]) -> Mapping[str, frozenset]:
    return MappingProxyType({k: frozenset(v) for k, v in options.items()})


@dataclass(frozen=True)
class Entry:
    """One game of the family, as the registry knows it.

    - ``name``: the name in a record's Game tag and a position string's prefix
      (``stars-zone``, ``star``, ``stargazers``); ``title``: its name for people;
      ``aliases``: other names it is found by (any case);
    - ``detect(text)``: whether ``text`` (a record, position string or JSON) is this
      game's; ``load(source, rule=None)``: (position, record or None) from a
      :class:`Source` (InputError naming the problem);
    - ``legal_turns``, ``parse_turn``, ``format_turn``: see the module doc;
    - ``diagram(position)``: the position as text; ``svg(position, last_turn=None)``:
      as a picture, ``last_turn`` marked;
      ``position_text(position)``: its position string (what ``load`` reads back);
    - ``solve(position, all_turns=False, time_limit=None, node_limit=None,
      progress=None)``: the exact solver's answer (``exact``, ``pv``, ``stopped``,
      proved ``lower``/``upper`` when a limit stopped it; ``progress``: the game's
      solver's own callback); ``check(position, turn, time_limit=None, progress=None)``:
      was ``turn`` optimal; ``annotate(record, exact_turns=None, progress=None)``:
      every turn judged (``progress``: check's a callable told as the work goes on,
      annotate's a callable(done, total, text) before each turn);
    - ``options``: {command: the option names it takes}; ``commands``: {command: the
      function answering it} (see the module doc);
    - ``check_exact_turns(n)``: InputError naming the range when ``annotate`` does not
      take ``exact_turns`` n (so a program asks before any work, as ``batch`` does).
    """
    name: str
    title: str
    aliases: tuple
    detect: Callable
    load: Callable
    legal_turns: Callable
    parse_turn: Callable
    format_turn: Callable
    diagram: Callable
    svg: Callable
    position_text: Callable
    solve: Callable
    check: Callable
    annotate: Callable
    options: Mapping[str, frozenset]
    commands: Mapping[str, Callable] = field(default_factory=dict)
    check_exact_turns: Callable = lambda n: None

    def __post_init__(self):
        object.__setattr__(self, "options", _frozen(self.options))
        object.__setattr__(self, "commands", MappingProxyType(dict(self.commands)))

    def takes(self, command: str, option: str) -> bool:
        """Whether ``command`` of this game takes ``option``."""
        return option in self.options.get(command, ())

    def answer(self, command: str, position, record=None, *, as_json: bool = True,
               progress=None, **options) -> Answer:
        """This game's answer to ``command`` for ``position`` (and the ``record`` it was
        read from, or None), with ``options`` by name: the ones the command takes and
        that are not given are None (the command's defaults). An option it does not
        take is a bug of the caller (TypeError): ask :meth:`takes` first, as the
        command line does."""
        taken = self.options[command]
        wrong = sorted(set(options) - taken)
        if wrong:
            raise TypeError(f"{self.name} {command} takes no option {', '.join(wrong)}")
        o = SimpleNamespace(**{name: options.get(name) for name in taken},
                            as_json=as_json, progress=progress)
        return self.commands[command](position, record, o)

    def __repr__(self) -> str:
        return f"<game {self.name}>"
