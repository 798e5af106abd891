"""read_source: a file's text, or the source itself, with one-line errors."""

import pytest

from szsolver.errors import InputError
from szsolver.formats.sources import read_source


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
