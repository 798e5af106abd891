"""read_source: a file's text, or the source itself, with one-line errors."""

import json
import os
import re
import subprocess
import sys

import pytest
from click.testing import CliRunner

from szsolver.cli import main
from szsolver.errors import InputError, ParseError
from szsolver.formats.record import load_source
from szsolver.formats.sources import read_source, read_text_file
from szsolver.starmaps.io import load_puzzle


def test_file_or_text(tmp_path):
    f = tmp_path / "p.txt"
    f.write_text("stars-zone;basic;x=;g=\n", encoding="utf-8")
    assert read_source(str(f)) == "stars-zone;basic;x=;g=\n"
    assert read_source("R..B") == "R..B"
    assert read_source("a;b", inline=lambda s: ";" in s) == "a;b"


def test_errors(tmp_path):
    with pytest.raises(InputError, match=r"^no such puzzle file: nofile$"):
        read_source("nofile", inline=lambda s: ";" in s, missing="no such puzzle file")
    with pytest.raises(InputError, match=r"^cannot read .*: it is a directory$"):
        read_source(str(tmp_path))
    with pytest.raises(InputError, match=r" is a directory, not a game file$"):
        read_source(str(tmp_path), directory="a game file")
    bad = tmp_path / "bad.bin"
    bad.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(InputError, match=r"^cannot read .*bad.bin: not a text file$"):
        read_source(str(bad))


# --- paths that are not a readable file: one line each, never a wait -------------------------

def _cli(*args, timeout=60):
    """``szsolver ARGS`` in its own process (a wait for a pipe would hang pytest itself)."""
    r = subprocess.run([sys.executable, "-m", "szsolver", *args], capture_output=True,
                       text=True, timeout=timeout, stdin=subprocess.DEVNULL)
    return r.returncode, r.stdout, r.stderr


def test_a_symlink_loop_says_so(tmp_path):
    loop = tmp_path / "loop"
    os.symlink(tmp_path / "other", loop)
    os.symlink(loop, tmp_path / "other")
    for reader in (read_source, read_text_file):
        with pytest.raises(InputError, match=r"^cannot read .*loop: a symlink loop \(too many "
                                             r"levels of symbolic links\)$"):
            reader(str(loop))
    with pytest.raises(InputError, match="a symlink loop"):
        load_source(str(loop))
    dangling = tmp_path / "dangling"
    os.symlink(tmp_path / "gone.szg", dangling)
    with pytest.raises(InputError, match=r"dangling: a symbolic link to .*gone.szg, which does "
                                         r"not exist$"):
        load_source(str(dangling))


@pytest.mark.parametrize("args", [["show", "PATH"], ["puzzle", "solve", "PATH"],
                                  ["puzzle", "check", "sz-easy-1", "PATH"]])
def test_the_commands_name_a_symlink_loop(tmp_path, args):
    loop = tmp_path / "loop"
    os.symlink(loop, loop)
    r = CliRunner().invoke(main, [str(loop) if a == "PATH" else a for a in args])
    assert r.exit_code == 2 and r.stdout == ""
    assert r.stderr == f"Error: cannot read {loop}: a symlink loop (too many levels of " \
                       "symbolic links)\n"


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are a POSIX thing")
def test_a_named_pipe_nothing_writes_to_is_refused_at_once(tmp_path):
    fifo = tmp_path / "pipe.szg"
    os.mkfifo(fifo)
    code, out, err = _cli("show", str(fifo))
    assert (code, out) == (2, "")
    assert err == f"Error: cannot read {fifo}: a pipe with nothing written to it (is " \
                  "anything writing to it?)\n"


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are a POSIX thing")
def test_a_pipe_that_was_written_is_read(tmp_path):
    """What a program wrote into a pipe is read, as from ``<(cmd)``."""
    fifo = tmp_path / "pipe.szg"
    os.mkfifo(fifo)
    keep = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)   # holds the pipe's buffer open
    try:
        with open(fifo, "w") as w:                      # a reader is there: no wait
            w.write("1. 44n66 64\n")
        code, out, err = _cli("score", str(fifo), "--json")
        assert (code, err) == (0, "")
        assert json.loads(out)["position"] == ("../....../......./...R..../....N..../..B.N.../"
                                               "......./....../.. R 4 5 basic")
    finally:
        os.close(keep)


def test_a_directory_and_a_file_not_utf8_are_one_line(tmp_path):
    bad = tmp_path / "bad.szg"
    bad.write_bytes(b"[Red \"Jos\xe9\"] 1. 44")
    for source, message in ((tmp_path, "is a directory, not a position or game file"),
                            (bad, "bad.szg: not a text file (UTF-8 expected)")):
        r = CliRunner().invoke(main, ["show", str(source)])
        assert r.exit_code == 2 and r.stderr.count("\n") == 1 and message in r.stderr


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0,
                    reason="root reads a file whatever its permissions")
def test_an_unreadable_file_says_permission_denied(tmp_path):
    locked = tmp_path / "locked.szg"
    locked.write_text("1. 44")
    locked.chmod(0)
    with pytest.raises(InputError, match=r"^cannot read .*locked.szg: Permission denied$"):
        load_source(str(locked))


# --- JSON that is not an object ---------------------------------------------------------------

@pytest.mark.parametrize("text, kind", [("null", "null"), ("5", "a number"), ("-2.5e3", "a number"),
                                        ('"44n66"', "a string"), ("true", "true or false")])
def test_json_that_is_not_an_object_says_so(tmp_path, text, kind):
    f = tmp_path / "input.json"
    f.write_text(text + "\n")
    with pytest.raises(ParseError, match=re.escape(
            f"JSON input must be an object (a position or a game), not {kind}")):
        load_source(str(f))
    with pytest.raises(InputError, match=re.escape(
            f"puzzle JSON must be an object (a puzzle), not {kind}")):
        load_puzzle(str(f))
    r = CliRunner().invoke(main, ["show", str(f)])
    assert r.exit_code == 2 and r.stderr == ("Error: JSON input must be an object (a position "
                                             f"or a game), not {kind}\n")
