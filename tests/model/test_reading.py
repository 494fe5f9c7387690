"""The reader policy (model/reading.py): bounded reads of files, pipes and devices, bounded
JSON nesting, bounded excerpts of outside input in messages."""

from __future__ import annotations

import io
import json
import os
import sys
import threading

import pytest

from fpinspector.model.reading import (
    EXCERPT_CHARS,
    excerpt,
    json_depth,
    load_json,
    read_bytes,
    read_text,
)


class _Endless(io.RawIOBase):
    """A stream that never ends (like /dev/zero or `yes |`) and counts what was taken."""

    def __init__(self) -> None:
        self.taken = 0

    def readable(self) -> bool:
        return True

    def readinto(self, b) -> int:  # noqa: ANN001
        n = len(b)
        b[:n] = b"y" * n
        self.taken += n
        return n


def test_an_endless_stream_is_refused_after_the_limit():
    """Bounded read: an endless stream costs limit + one block at most."""
    src = _Endless()
    with pytest.raises(ValueError, match=r"stdin: more than 1,000 bytes"):
        read_bytes(src, 1000, "stdin")
    assert src.taken <= 1001


def test_a_stream_within_the_limit_is_read_whole():
    assert read_bytes(io.BytesIO(b"abc"), 3, "x") == b"abc"
    assert read_text(io.BytesIO("é".encode()), 2, "x") == "é"


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero")
def test_a_device_whose_size_is_zero_is_still_bounded():
    """``st_size`` of /dev/zero is 0: the reader never asks it."""
    assert os.stat("/dev/zero").st_size == 0
    with pytest.raises(ValueError, match="/dev/zero: more than 4,096 bytes"):
        read_bytes("/dev/zero", 4096)


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX pipe")
def test_a_pipe_is_bounded(tmp_path):
    fifo = tmp_path / "p"
    os.mkfifo(fifo)

    def writer() -> None:
        try:
            with open(fifo, "wb") as fh:
                for _ in range(64):
                    fh.write(b"x" * 65536)
        except BrokenPipeError:
            pass

    t = threading.Thread(target=writer)
    t.start()
    with pytest.raises(ValueError, match="more than 100,000 bytes"):
        read_bytes(fifo, 100_000)
    t.join(10)


def test_missing_file_and_bad_utf8_name_the_input(tmp_path):
    with pytest.raises(ValueError, match=r"nope.json: cannot read it"):
        read_bytes(tmp_path / "nope.json", 10, "nope.json")
    (tmp_path / "b").write_bytes(b"ab\xff")
    with pytest.raises(ValueError, match="not UTF-8 text .byte 2"):
        read_text(tmp_path / "b", 10, "b")


@pytest.mark.parametrize("value", ["x" * 10_000_000, b"\x00" * 10_000_000,
                                   ["y" * 1000] * 10_000, {"k" * 500: list(range(10_000))}])
def test_excerpts_are_bounded(value):
    text = excerpt(value)
    assert len(text) <= EXCERPT_CHARS + 30


def test_short_values_are_quoted_whole():
    assert excerpt("mul") == "'mul'" and excerpt(3) == "3"


@pytest.mark.parametrize("text, message", [
    ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
    ("[" * 65 + "]" * 65, "nested too deeply"),
    ("1" * 5000, "not a readable JSON file"),  # Python's 4300-digit integer limit
    ("NaN", "NaN is not a JSON number"),
    ('{"a": ', "not a JSON file"),
    (b"\xff", "not UTF-8"),
])
def test_json_failures_are_value_errors_naming_the_input(text, message):
    with pytest.raises(ValueError, match=message) as info:
        load_json(text, "f.json")
    assert str(info.value).startswith("f.json: ") and len(str(info.value)) < 300


def test_json_within_limits_reads_and_constants_on_request():
    assert load_json("[" * 64 + "]" * 64, "x") is not None
    assert json_depth(json.loads('{"a": [[1], {"b": 2}]}')) == 3
    v = load_json('{"x": Infinity}', "x", constants=True)
    assert v["x"] == float("inf")


@pytest.mark.parametrize("field", ["op", "fmt", "op_format", "rule_set", "bits", "key"])
def test_state_errors_quote_at_most_an_excerpt_of_a_10_mb_field(field):
    """A 10 MB op name in a workspace gave a 10 MB message; now one short line."""
    from fpinspector.model.state import InspectorState

    d = {"k" * 10_000_000: 1} if field == "key" else {field: "x" * 10_000_000}
    with pytest.raises(ValueError) as info:
        InspectorState.snapshot_from_dict(d)
    assert len(str(info.value)) < 200
