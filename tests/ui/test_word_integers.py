"""Integer views of the word (ui/word_ints.py) beside the float ones: int32, uint32, two
int16, RGBA8 UNORM and SNORM, RGB10A2 UNORM. Oracles: struct for the integers, Fraction for
D3D's normalised codes (UNORM c/(2^n-1); SNORM c/(2^(n-1)-1), -128 also -1.0)."""

from __future__ import annotations

import struct
from fractions import Fraction

from fpinspector.model.describe.word_ints import integer_readings


def _rows(word: int) -> dict[str, tuple[str, str]]:
    return {k: (v, t) for k, v, t in integer_readings(word)}


def test_integers_of_the_word() -> None:
    word = 0x80FF7F01
    rows = _rows(word)
    (i32,) = struct.unpack("<i", struct.pack("<I", word))
    hi, lo = struct.unpack("<hh", struct.pack("<HH", word >> 16, word & 0xFFFF))
    assert rows["int32"][0] == str(i32) == "-2130739455"
    assert rows["uint32"][0] == str(word)
    assert rows["int16 high, low (bits 31-16, 15-0)"][0] == f"{hi}, {lo}"


def test_rgba8_unorm_snorm_and_rgb10a2_exact() -> None:
    word = 0x80FF7F01  # bytes from R: 0x01, 0x7F, 0xFF, 0x80
    rows = _rows(word)
    un, un_tip = rows["RGBA8_UNORM (R = bits 7-0)"]
    want = [Fraction(c, 255) for c in (0x01, 0x7F, 0xFF, 0x80)]
    assert un_tip.startswith("exactly " + ", ".join(f"{ch} = {v}" for ch, v in zip("RGBA", want)))
    assert "G=1" not in un and "B=1," in un
    sn, sn_tip = rows["RGBA8_SNORM (R = bits 7-0)"]
    want = [Fraction(1, 127), Fraction(1), Fraction(-1, 127), Fraction(-1)]  # 0x80: -1.0
    assert sn_tip.startswith("exactly " + ", ".join(f"{ch} = {v}" for ch, v in zip("RGBA", want)))
    assert "A=-1" in sn
    rgb, tip = rows["RGB10A2_UNORM (R = bits 9-0)"]
    r, g, b, a = word & 0x3FF, (word >> 10) & 0x3FF, (word >> 20) & 0x3FF, word >> 30
    want = [Fraction(r, 1023), Fraction(g, 1023), Fraction(b, 1023), Fraction(a, 3)]
    assert tip.startswith("exactly " + ", ".join(f"{ch} = {v}" for ch, v in zip("RGBA", want)))


def test_the_word_view_shows_them(make_window) -> None:
    win = make_window()
    win.state.update(word=0x3C003C00)
    got = win.word_view.readings()
    assert got["uint32"] == str(0x3C003C00)
    assert got["int16 high, low (bits 31-16, 15-0)"] == "15360, 15360"
    assert "RGBA8_UNORM (R = bits 7-0)" in got
