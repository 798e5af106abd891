"""The command line's one way to the family's games: ``show``, ``score``, ``replay``,
``best``, ``check``, ``solve`` and ``annotate`` are written once, here, against the
registry (:mod:`szsolver.games`), for Stars' Zone, Star and Stargazers alike.

A command runs in four steps (:func:`run`):

1. which game SOURCE is (:func:`open_source`): a record's ``[Game "NAME"]`` tag or a
   position string's ``NAME:`` prefix names another game of the family; anything else,
   ``--example`` and no SOURCE are Stars' Zone's. SOURCE is read once, standard input
   and a file alike: the game reads the text read;
2. the options given that the game does not take for the command are refused, all in
   one place (:func:`refuse_options`): one line ``Error: solve does not take --threads
   for Stargazers (--threads is a Stars' Zone option; it does not apply to Stargazers
   positions and games)``, exit code 2;
3. the game reads SOURCE and answers (its entry's ``load`` and ``commands``);
4. the answer is delivered (:func:`deliver`): output files written, the record's
   warnings on stderr (once every check has passed, so bad input stays one line), the
   text or ``--json``, notes, the exit code (3: a limit stopped an exact solve).

The commands that only Stars' Zone has (``potential``, ``batch deep-solve``) say so
for another game's SOURCE (:func:`stars_zone_only`). The same commands are callable
from Python with SOURCE (a path, ``-`` or the text) and the options by their names:
``solve("star:5x6:...", all_turns=True, as_json=True)``.
"""
from __future__ import annotations

import os
import sys

import click

from .. import games
from ..formats.sources import STDIN, read_stdin, read_text_file
from .common import BadInput, emit, input_files, progress_printer, show_warnings, write_file

__all__ = ["open_source", "refuse_options", "prepare", "game_answer", "deliver", "run",
           "stars_zone_only", "show",
           "score", "replay", "best", "check", "solve", "annotate"]

#: the options every command of every game takes (besides its own)
EVERY_GAME = frozenset({"as_json", "example"})
#: an option's flag where it is not its name with dashes
_FLAGS = {"turn_number": "--turn", "as_json": "--json"}


def open_source(source: str | None, example: bool = False,
                example_turns_left: int | None = None) -> tuple[games.Entry, games.Source]:
    """(the game, what it reads) for a command's SOURCE, read once: ``-`` (standard
    input) and a file are read here and the game reads that text (``Source.text``);
    a file that cannot be read (or a directory) is left to Stars' Zone's reader, which
    reports it. Anything else is the text itself."""
    plain = games.Source(given=source, example=example,
                         example_turns_left=example_turns_left)
    if example or source is None:
        return games.DEFAULT, plain
    if source == STDIN:
        text = read_stdin()
        return games.of_text(text), games.Source(given=source, text=text)
    try:
        on_disk = os.path.isfile(source)
    except (ValueError, OSError):
        on_disk = False
    if on_disk:
        try:
            text = read_text_file(source)
        except ValueError:
            return games.DEFAULT, plain
        return games.of_text(text), games.Source(given=source, text=text)
    entry = games.of_text(source)
    return entry, (plain if entry is games.DEFAULT else games.Source(given=source, text=source))


def _given(options: dict) -> list[str]:
    """The options the person gave (in order): on the command line, those not left at
    their defaults; called from Python, those with a value."""
    from click.core import ParameterSource
    ctx = click.get_current_context(silent=True)
    if ctx is not None and ctx.command.params:
        return [n for n in options if ctx.get_parameter_source(n)
                not in (None, ParameterSource.DEFAULT, ParameterSource.DEFAULT_MAP)]
    return [n for n, v in options.items() if v not in (None, False, (), "")]


def _flag(name: str) -> str:
    ctx = click.get_current_context(silent=True)
    for param in ctx.command.params if ctx is not None else ():
        if param.name == name and param.opts:
            return max(param.opts, key=len)
    return _FLAGS.get(name, "--" + name.replace("_", "-"))


def refuse_options(entry: games.Entry, command: str, options: dict) -> None:
    """BadInput (one line, exit code 2) for the first option given that ``entry``'s
    ``command`` does not take: what the game does not offer is refused here and only
    here."""
    takes = entry.options[command] | EVERY_GAME
    for name in _given(options):
        if name not in takes:
            flag = _flag(name)
            others = [g.title for g in games.GAMES if g.takes(command, name)]
            whose = f"{flag} is a {' and '.join(others)} option; " if others else ""
            raise BadInput(f"{command} does not take {flag} for {entry.title} ({whose}it "
                           f"does not apply to {entry.title} positions and games)")


def stars_zone_only(command: str, source: str | None, example: bool = False,
                    example_turns_left: int | None = None) -> games.Source:
    """For a command only Stars' Zone has: UnsupportedError (bad input, one line) when
    SOURCE is another game's; else what the command reads (SOURCE read once), for
    :func:`szsolver.cli.common.load_source_arg`."""
    entry, src = open_source(source, example, example_turns_left)
    games.stars_zone_only(command, entry)
    return src


def prepare(command: str, source: str | None, *, example: bool = False,
            example_turns_left: int | None = None, **options):
    """Steps 1-3 of :func:`run` before the game answers: (the game, position, record or
    None, the options its command takes, by name)."""
    entry, src = open_source(source, example, example_turns_left)
    refuse_options(entry, command, options)
    pos, record = entry.load(src, rule=options.get("rule"))
    return entry, pos, record, {name: options.get(name) for name in entry.options[command]}


def game_answer(entry: games.Entry, command: str, pos, record, as_json: bool,
           options: dict) -> games.Answer:
    """The game's answer, its work shown by the command line's progress lines."""
    return entry.answer(command, pos, record, as_json=as_json, progress=progress_printer,
                        **options)


def deliver(answer: games.Answer, as_json: bool, inputs=(), force: bool = False) -> None:
    """Print ``answer``: its files written whole (pictures all or nothing, none of them
    one of the ``inputs``, never over an earlier replay's unless ``force``: see
    :func:`~szsolver.cli.pictures.write_replay`), the record's warnings, the text or
    the JSON, the notes, and exit with its code when it is not 0."""
    for path, text in answer.files:
        write_file(path, text)
    if answer.pictures is not None:
        from .pictures import write_replay
        directory, files = answer.pictures
        write_replay(directory, list(files), inputs=inputs, force=force)
    show_warnings(answer.warnings)
    emit(answer.data, answer.text, as_json)
    for note in answer.notes:
        click.echo(note, err=True)
    if answer.exit_code:
        sys.exit(answer.exit_code)


def run(command: str, source: str | None, *, example: bool = False,
        example_turns_left: int | None = None, as_json: bool = False, **options) -> None:
    """Run ``command`` on SOURCE (or ``--example``) for whichever game it is: see the
    module doc. ``options``: the command's options by name (``svg``, ``time_limit``,
    ``turn_number``...; for ``check``, ``turn`` is TURN; ``force``: ``replay``'s
    pictures replace an earlier replay's, see :func:`deliver`)."""
    entry, pos, record, taken = prepare(command, source, example=example,
                                        example_turns_left=example_turns_left, **options)
    deliver(game_answer(entry, command, pos, record, as_json, taken), as_json,
            input_files(source, example=example), force=bool(taken.get("force")))


def _check_arguments(args, example: bool) -> tuple[str | None, str | None]:
    """(SOURCE, TURN) from ``check``'s arguments (TURN alone with ``--example``)."""
    args = list(args)
    most = 1 if example else 2
    if len(args) > most:
        from ..inputs import shown
        raise BadInput(f"too many arguments: {shown(' '.join(args[most:]))} after "
                       f"{'TURN' if example else 'SOURCE TURN'} (a position string in "
                       "quotes; see 'szsolver check --help')")
    source = None if example else (args.pop(0) if args else None)
    return source, (args.pop(0) if args else None)


# --- the commands, from Python ------------------------------------------------------------

def show(source, **options):
    run("show", source, **options)


def score(source, **options):
    run("score", source, **options)


def replay(source, **options):
    run("replay", source, **options)


def best(source, **options):
    run("best", source, **options)


def check(source, *, args=(), **options):
    """``args``: the arguments after SOURCE (TURN); SOURCE None with ``example``."""
    source, turn = _check_arguments([*([] if source is None else [source]), *args],
                                    options.get("example", False))
    run("check", source, turn=turn, **options)


def solve(source, **options):
    run("solve", source, **options)


def annotate(source, **options):
    run("annotate", source, **options)
