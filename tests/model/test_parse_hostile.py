"""The parser raises only ParseError, always with a position: malformed literals, Unicode
look-alikes, bracket bombs and <repeats> bombs; gdb x/ output on its command's line is read.
Oracles: Python's int()/float() on the ASCII spellings, and the documented limit MAX_VALUES."""

from __future__ import annotations

import re
import subprocess
import sys
import time

import pytest

from fpinspector.model.parse import MAX_VALUES, ParseError, parse


@pytest.mark.parametrize("text, where, msg", [
    ("0x_", 0, "no hex digits"),
    ("0x__", 0, "no hex digits"),
    ("0x_u", 0, "no hex digits"),
    ("1.0 0X_UL", 4, "no hex digits"),
    ("nan(0xzz)", 4, "NaN payload"),
    ("nan(0x)", 4, "NaN payload"),
    ("float(0x_)", 6, "no hex digits"),
    ("float(0b_)", 6, "no binary digits"),
    ("{0x_, 0x12, 0x34, 0x56}", 1, "no hex digits"),
    ("0x_p3", 0, "hex float"),
    ("-0x.p-1", 0, "hex float"),
    ("(" * 65 + "1" + ")" * 65, 64, "nested more than 64"),
])
def test_malformed_literals_are_parse_errors_with_a_position(text, where, msg):
    with pytest.raises(ParseError, match=msg) as info:
        parse(text)
    assert info.value.index == where


@pytest.mark.parametrize("text, ch, looks", [
    ("ınf", "U+0131", "'i'"),
    ("İnf", "U+0130", "'I'"),
    ("ſnan", "U+017F", "'s'"),
    ("１.5", "U+FF11", "'1'"),
    ("1.٥", "U+0665", None),
    ("0x3f80000０", "U+FF10", "'0'"),
    ("-\u212aelvin", "U+212A", "'K'"),
])
def test_unicode_look_alikes_are_refused_naming_the_character(text, ch, looks):
    """A look-alike is not the ASCII it resembles: read as ASCII, ınf would give a NaN and
    １.5 would give 1.5, values the user never typed."""
    with pytest.raises(ParseError, match=re.escape(ch)) as info:
        parse(text)
    assert "not an ASCII character" in str(info.value)
    if looks:
        assert f"looks like {looks}" in str(info.value)
    assert text[info.value.index] == info.value.reason.split("'")[3]


def test_unicode_spaces_still_separate_values():
    vals = parse("1.5\u00a00x3f800000\u2009-2")
    assert [v.bits for v in vals] == [0x3FC00000, 0x3F800000, 0xC0000000]


def test_gdb_x_output_on_the_command_line_is_read():
    vals = parse("x/4xw 0x7ffe: 0x3f800000 0x40000000")
    assert [(v.format, v.bits) for v in vals] == [("f32", 0x3F800000), ("f32", 0x40000000)]
    vals = parse("(gdb) x/2xw 0x7ffe <buf+8>: 0x3f800000 0x40000000")
    assert [v.bits for v in vals] == [0x3F800000, 0x40000000]
    assert parse("(gdb) x/2xw &a\n0x7ffe:\t0x3f800000\t0x40000000")[1].bits == 0x40000000
    echo = parse("(gdb) x/4xw 0x7ffe\n0x3f800000")  # a plain echo line stays skipped
    assert [(v.bits, v.start) for v in echo] == [(0x3F800000, 19)]


def test_repeats_expand_to_at_most_one_documented_limit_fast():
    t = time.perf_counter()
    vals = parse(f"$1 = {{0x3f800000 <repeats {MAX_VALUES - 1} times>, 0x40000000}}")
    assert time.perf_counter() - t < 2.0  # ~0.3 s; generous for 2 shared cores
    assert len(vals) == MAX_VALUES and vals[-1].bits == 0x40000000
    assert {v.bits for v in vals[:-1]} == {0x3F800000}
    assert [v.group for v in vals[:3]] == [0, 1, 2] and vals[2].text == "0x3f800000"
    t = time.perf_counter()
    with pytest.raises(ParseError, match=f"more than {MAX_VALUES} values") as info:
        parse("$1 = {0x3f800000 <repeats 1048575 times>}")  # 42 bytes, a million values
    assert time.perf_counter() - t < 0.1 and info.value.index == 17


def test_decimal_repeats_are_encoded_once_for_every_copy():
    vals = parse("{1.1 <repeats 3 times>, 2.5}", "f16")
    assert [v.bits for v in vals] == [0x3C66] * 3 + [0x4100]


def test_cli_decode_of_a_malformed_literal_is_a_message_not_a_traceback():
    r = subprocess.run([sys.executable, "-m", "fpinspector", "decode", "0x_"],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and "no hex digits" in r.stderr and "Traceback" not in r.stderr
