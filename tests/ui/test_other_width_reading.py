"""A lone 4-digit hex pattern pasted while the inspector shows f32 (README: "0x3c00 (4/8/16
hex digits = f16/f32/f64)"): read as the f16 it names, the f32 reading of the same bits
offered one click away (Ctrl+Shift+V), and taken it says what it read once. Oracles:
numpy's float16 and struct's float32 of the bits, not the app's decoder."""

from __future__ import annotations

import struct

import numpy as np


def _f32_value(bits: int) -> float:
    return struct.unpack("<f", struct.pack("<I", bits))[0]


def test_0x3c00_reads_as_f16_and_offers_the_f32_pattern(make_window) -> None:
    win = make_window()
    st = win.state
    assert st.fmt == "f32"
    assert win.ctl.paste("0x3c00")
    assert (st.fmt, st.bits) == ("f16", 0x3C00)
    assert float(np.uint16(0x3C00).view(np.float16)) == 1.0
    assert "(one f16): 1.0 into the inspector" in win.messages.message()
    offered = win.paste_box.first_reading.defaultAction().text()
    tiny = f"{_f32_value(0x3C00):.5g}"  # 2.1524e-41
    assert offered.startswith(f"read as f32 pattern 0x00003C00 = {tiny}"), offered
    assert win.paste_box.next_reading()
    assert (st.fmt, st.bits) == ("f32", 0x3C00)
    msg = win.messages.message()
    assert msg == f"read as f32 pattern 0x00003C00 = {tiny} into the inspector " \
                  "(operands unchanged)", msg  # (said "= 2.1524e-41: 2.1524e-41")
    assert win.paste_box.first_reading.defaultAction().text().startswith("read as a hex pattern (one f16)")
