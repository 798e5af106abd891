"""Pieces of the answers that every game of the family words alike: the replay's
table, counts, the engine's rough guess, which turn ``check`` judges, and the words
of the progress line (:func:`progress_line`: ``annotate``'s bar, the engine's work),
or the same work as data for a program (:class:`ProgressReport`)."""
from __future__ import annotations

from contextlib import contextmanager

from ..errors import InputError

__all__ = ["exact_turns_in_reach", "tagged", "warnings_of", "answer", "replay_lines", "counted", "rough",
           "turn_index", "turn_to_judge", "progress_line", "annotate_progress",
           "engine_progress", "ProgressReport"]


def tagged(name: str):
    """A game's ``detect``: whether a text is the game's by its Game tag or position
    string prefix (:func:`szsolver.formats.sources.game_of_text`)."""
    def detect(text: str) -> bool:
        from ..formats.sources import game_of_text
        return game_of_text(text) == name
    detect.__doc__ = f"Whether ``text`` is a {name} record or position."
    return detect


def warnings_of(record) -> tuple:
    """The doubts about a record (none without one), for an answer's ``warnings``."""
    return () if record is None else tuple(record.warnings)


def answer(data, text: str, game, *args, **kwargs):
    """An :class:`~szsolver.games.contract.Answer` whose JSON carries the ``warnings``
    of the record read (every game's, when a record was read:
    :func:`szsolver.formats.record.with_warnings`)."""
    from ..formats.record import with_warnings
    from .contract import Answer
    return Answer(with_warnings(data, game), text, warnings_of(game), *args, **kwargs)


def replay_lines(tags: dict, header: str, rows: list, *, final_only: bool = False,
                 diagrams: bool = False) -> list[str]:
    """The text of a game's replay before its final position, for every game of the
    family: the tags, then ``header`` and one line per turn (``rows``: pairs of the
    line and a function drawing the position after that turn, called only with
    ``diagrams``); ``final_only`` leaves out the turns."""
    lines = [f"{k}: {v}" for k, v in tags.items()]
    if tags:
        lines.append("")
    if not final_only and rows:
        lines.append(header)
        for text, draw in rows:
            lines.append(text)
            if diagrams:
                lines += [draw(), ""]
        lines.append("")
    return lines


def counted(n: int, word: str) -> str:
    """A count and its word: '1 visit', '2 visits', '1,024 playouts'."""
    return f"{n:,} {word}{'' if n == 1 else 's'}"


def iterations_words(iterations: int, most: int) -> str:
    """'N iterations', and where the budget reached the tree's cap ``most`` (its
    memory), that a larger budget buys no more: every game's ``best`` says it so.

    >>> iterations_words(5_000, 1_000_000)
    '5,000 iterations'
    >>> iterations_words(1_000_000, 1_000_000)
    "1,000,000 iterations (the tree's most: a larger budget buys no more)"
    """
    words = counted(iterations, "iteration")
    return words + (" (the tree's most: a larger budget buys no more)"
                    if iterations >= most else "")


def line_words(turns: list[str], complete: bool) -> str:
    """A proved principal variation in words: whole, the first turns a limit left
    proved, or none yet.

    >>> line_words(["35", "57"], True), line_words([], False)
    ('Principal variation: 35 57', 'Principal variation: none proved yet (a limit stopped the solve first)')
    >>> line_words(["35"], False)
    'Principal variation (the first turn, proved; not to the end): 35'
    """
    if complete:
        return "Principal variation: " + " ".join(turns)
    if not turns:
        return "Principal variation: none proved yet (a limit stopped the solve first)"
    first = "the first turn" if len(turns) == 1 else f"the first {len(turns)} turns"
    return f"Principal variation ({first}, proved; not to the end): " + " ".join(turns)


def solve_lines(data: dict) -> list[str]:
    """The head of a Stars' Zone solve's text, from its JSON (``solve --json``, one
    machine's or a cluster's: the same keys): the value, proved or its bounds, the
    winner, the final scores of the proved line, the best turns and the line, each
    labelled with what a limit left unproved.

    >>> solve_lines({"position": "P", "exact": False, "stopped": "time limit",
    ...              "lower": -3, "upper": 98, "winner": None, "scores": None, "best": [],
    ...              "pv": [], "best_complete": False, "pv_complete": False})
    ['Position: P', 'Value: not proved (time limit); -3 <= value <= +98', 'Winner: not proved']
    """
    from ..verdict import describe_value
    d = data
    lines = [f"Position: {d['position']}"]
    if d["exact"]:
        lines.append(f"Value: {d['value']:+d} (Red's side, exact): {describe_value(d['value'])}")
    else:
        lines.append(f"Value: not proved ({d['stopped']}); {d['lower']:+d} <= value <= "
                     f"{d['upper']:+d}")
    lines.append(f"Winner: {d['winner'] or 'not proved'}")
    if d["exact"] and d["stopped"]:
        lines.append(f"Stopped: {d['stopped']}")
    if d["scores"]:
        lines.append(f"Final scores (end of PV): red {d['scores']['red']}, "
                     f"blue {d['scores']['blue']}")
    if d["exact"] and not d["best_complete"]:
        lines.append("Best turns (proved so far, others not checked): "
                     + (" ".join(d["best"]) or "none yet"))
    elif d["best"]:
        lines.append("Best turns: " + " ".join(d["best"]))
    if d["exact"] and not d["pv_complete"]:
        lines.append(line_words(d["pv"], False))
    elif d["pv"]:
        lines.append(line_words(d["pv"], True))
    return lines


def rough(iterations: int, enough: int | None = None) -> str:
    """``, from only N playouts: a rough guess`` for an engine's estimate that rests on
    fewer than ``enough`` iterations (one playout each; default Stars' Zone's
    :data:`szsolver.engine.search.ROUGH_ITERATIONS`, each game measures its own), else
    ``""``: every game's ``best`` says it so."""
    if enough is None:
        from ..engine.search import ROUGH_ITERATIONS as enough
    if iterations >= enough:
        return ""
    return f", from only {counted(iterations, 'playout')}: a rough guess"


def turn_index(game, number: int, first: int = 1) -> int:
    """The index in the record's plays of turn ``number``, its turns numbered from
    ``first`` (a game's own count: 1, or for Stars' Zone over the whole game); for
    every game in one wording, InputError when the record has no such turn."""
    turns = game.turns
    if not turns:
        raise InputError("the game has no turns to judge")
    last = first + len(turns) - 1
    if first <= number <= last:
        return number - first
    if number > last and not game.final.is_over():
        raise InputError(f"turn {number} was not played: the record ends after turn {last}")
    where = f"turns {first}-{last}" if first != last else f"turn {first}"
    raise InputError(f"turn {number} is outside the game ({where})")


def turn_to_judge(pos, game, o, missing: str, first=lambda game: 1):
    """(position, turn) that ``check`` judges: TURN (``o.turn``, text) in ``pos``, or
    with ``o.turn_number`` (``--turn N``) the game's N-th turn (:func:`turn_index`;
    ``first(game)``: the number of the record's first turn). ``missing``: what TURN
    is, for the message when neither is given."""
    if o.turn_number is not None:
        if o.turn is not None:
            raise InputError("give TURN or --turn N, not both")
        if game is None:
            raise InputError("--turn N needs a game record, not a position")
        i = turn_index(game, o.turn_number, first(game))
        return game.position_before(i), game.turns[i]
    if o.turn is None:
        raise InputError(f"missing TURN: give {missing}, or --turn N with a game record")
    return pos, o.turn


def exact_turns_in_reach(n, title: str, unit: str, counted: str, most: int, default: int):
    """Refuse ``--exact-turns n`` (InputError naming the range) unless 0 <= n <= ``most``,
    the exact solver's reach in a game counting its endgame in ``counted`` (``empty
    cells``) and proving ``unit`` (``turns``) from there; None passes."""
    if n is not None and not 0 <= n <= most:
        raise InputError(f"--exact-turns {n}: a {title} game proves {unit} with at most "
                         f"{most} {counted} (0 to {most}, default {default}: the exact "
                         "solver's reach)")


# --- progress -----------------------------------------------------------------------------

@contextmanager
def progress_line(o, enabled: bool, lines: bool = False):
    """``with progress_line(o, enabled) as show:`` the caller's progress line for a
    command (``o.progress``, see :mod:`szsolver.games.contract`), cleared at the end,
    or None: ``enabled`` False, or no way to show it. ``lines``: off a terminal too, as
    plain lines. Every game's command asks for it here, so each command shows its work
    alike whatever the game: ``annotate`` on a terminal and, unless ``--json``, off
    one; ``best`` and ``check`` on a terminal, unless ``--json``; ``solve`` on a
    terminal and off one, unless ``--json`` (or Stars' Zone's ``--quiet``)."""
    show = o.progress(enabled, lines=lines) if o.progress is not None else None
    try:
        yield show
    finally:
        if show is not None:
            show.close()


class ProgressReport:
    """A progress line for a program (the web's streamed jobs): a command's work sent
    as plain data to ``report(data)``, where a person's line shows it in words.
    :func:`annotate_progress` sends ``{"done", "total", "text"}`` before each turn is
    judged, :func:`engine_progress` ``{"partial", "done", "total"}`` as the engine's
    work goes on. A message in words, for a person's line, is not sent."""

    def __init__(self, report):
        self.report = report

    def __call__(self, message: str) -> None:
        pass

    def close(self) -> None:
        pass


def annotate_progress(show):
    """``annotate``'s callback(done, total, text) for a game's judge (None without a
    progress line): a bar of the turns judged, ``done`` of ``total``, then ``text``
    (what comes next); a :class:`ProgressReport` is sent the three."""
    if show is None:
        return None
    if isinstance(show, ProgressReport):
        return lambda done, total, text: show.report({"done": done, "total": total,
                                                      "text": text})

    def progress(done, total, text):
        width = 30
        fill = int(width * done / max(total, 1))
        show(f"[{'#' * fill}{'.' * (width - fill)}] {done} of {total} turns judged; {text}")
    return progress


def engine_progress(show):
    """The engine's callback(part, done, total) (None without a progress line), in
    every game's words: ``part`` ``"solver"`` (the exact solver, ``done`` its nodes so
    far, 0 as it starts, ``total`` its node limit or None), ``"bounds"`` (the proved bounds are computed) or ``"tree"``
    (the tree search: ``done`` iterations of ``total``, None when it runs on the
    clock); a :class:`ProgressReport` is sent the three, as ``partial``, ``done`` and
    ``total``."""
    if show is None:
        return None
    if isinstance(show, ProgressReport):
        return lambda part, done=0, total=None: show.report({"partial": part, "done": done,
                                                             "total": total})

    def progress(part, done=0, total=None):
        if part == "solver":
            show("exact solver" + (f": {done:,} nodes" if done else "")
                 + (f" (at most {total:,})" if done and total else
                    f" (at most {total:,} nodes)" if total else ""))
        elif part == "bounds":
            show("proved bounds")
        else:
            show(f"tree search: {done:,}" + (f" of {total:,}" if total else "")
                 + " iterations")
    return progress
