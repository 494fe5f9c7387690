"""gdb's bfloat16 lanes, pasted (issue 33; FMT-BF16): real gdb 13.1 output of xmm4/ymm5 (x86-64)
and v3/h3 (AArch64, gdb-multiarch over qemu-user), captured by scripts/capture_debuggers from
probe.c / probe_arm.c, which load the bfloat16 patterns below into those registers.

Oracle: the patterns the probe stored (written here again, not taken from the parser) and
Python's struct: a bfloat16 is the top half of an f32, so its value is
``struct.unpack('<f', struct.pack('<I', bits << 16))`` and gdb prints it with ``%.4g``.

Before: ``p $xmm4.v8_bfloat16`` read as 8 f16 (0.334 as 0x3558, 3.39e+38 as f16 INF), the
single lane ``0.334`` as an f32 that is no bfloat16 (0x3eab020c), gdb's bfloat16 quiet NaN
``nan(0x40)`` as an f32 *signalling* NaN, and no reading offered the bfloat16 lanes.
"""

from __future__ import annotations

import json
import struct
from pathlib import Path

import pytest

from fpinspector.model.parse import parse
from fpinspector.model.state.paste import readings

GDB = Path(__file__).resolve().parent.parent / "data" / "paste_corpus" / "gdb"
#: probe.c's BF16[] (xmm4 = the first 8, ymm5 = all 16); probe_arm.c's v3 = the first 8
BF16 = [0x3F80, 0x3EAB, 0x0001, 0x7FC0, 0x8000, 0x7F7F, 0xFF80, 0x3DCD,
        0x4049, 0xC000, 0x0080, 0x007F, 0x7F80, 0x7FC1, 0xBF80, 0x4780]


def _text(case: str) -> str:
    return json.loads((GDB / f"{case}.json").read_text())["text"]


def _value(bits: int) -> float:
    return struct.unpack("<f", struct.pack("<I", bits << 16))[0]


def _gdb_4g(bits: int) -> str:
    """gdb's print of a bfloat16 (%.4g; its NaN as nan(0x<fraction>))."""
    v = _value(bits)
    if v != v:
        return f"{'-' if bits >> 15 else ''}nan(0x{bits & 0x7F:x})"
    return f"{v:.4g}".replace("inf", "inf")


@pytest.mark.parametrize("case, lanes", [
    ("p_xmm4_v8_bfloat16", BF16[:8]), ("p_ymm5_v16_bfloat16", BF16),
    ("arm_p_v3_h_bf", BF16[:8]), ("p_xmm4_v8_bfloat16_1", BF16[1:2]),
    ("p_ymm5_v16_bfloat16_10", BF16[10:11]), ("p_xmm4_v8_bfloat16_echo", BF16[:8]),
])
def test_gdb_bfloat16_decimals_read_as_their_bf16_patterns_FMT_BF16(case, lanes) -> None:
    """gdb's 4-digit print of bfloat16 lanes: the first reading is those lanes as bf16."""
    text = _text(case)
    printed = text.split("=", 1)[1].strip().strip("{}").split(", ")
    assert printed == [_gdb_4g(b) for b in lanes]  # (the capture is what the oracle says)
    found = readings(text, "f32")
    assert found[0].items == tuple(("bf16", b) for b in lanes), found[0].label
    assert "bfloat16" in found[0].label


def test_a_lane_both_f16_and_bf16_print_stays_f16_with_bf16_offered_FMT_BF16() -> None:
    """``0.1001`` is gdb's print of bf16 0x3dcd and of f16 0x2e68: the same value
    0.10009765625 (struct), so f16 as before, the bf16 pattern one click away."""
    assert _value(0x3DCD) == struct.unpack("<e", struct.pack("<H", 0x2E68))[0]
    found = readings(_text("p_xmm4_v8_bfloat16_7"), "f32")
    assert found[0].items == (("f16", 0x2E68),)
    assert ("bf16", 0x3DCD) in [r.items[0] for r in found]


@pytest.mark.parametrize("case", ["px_xmm4_v8_bfloat16", "arm_px_v3_h_bf", "px_xmm4_v8_int16"])
def test_16_bit_hex_lanes_offer_bf16_FMT_BF16(case) -> None:
    """``{0x3f80, 0x3eab, ...}``: 16-bit patterns name no format between f16 and bf16: f16
    first (the inspector at f32), the same bits as bf16 offered, bf16 first at bf16."""
    text = _text(case)
    want = tuple(("bf16", b) for b in BF16[:8])
    at_f32 = readings(text, "f32")
    assert at_f32[0].items == tuple(("f16", b) for b in BF16[:8])
    assert want in [r.items for r in at_f32]
    assert readings(text, "bf16")[0].items == want


@pytest.mark.parametrize("case", ["px_xmm4_v8_bfloat16_echo", "arm_px_v3_h_bf_echo"])
def test_a_command_naming_bfloat16_reads_bf16_first_FMT_BF16(case) -> None:
    """The echoed command (``p/x $xmm4.v8_bfloat16``, ``p/x $v3.h.bf``) says the lanes'
    format: bf16 first whatever the inspector shows."""
    assert readings(_text(case), "f32")[0].items == tuple(("bf16", b) for b in BF16[:8])


@pytest.mark.parametrize("case, lanes", [
    ("p_xmm4", BF16[:8]), ("info_xmm4", BF16[:8]), ("px_xmm4", BF16[:8]), ("p_ymm5", BF16),
    ("arm_p_v3", BF16[:8]), ("arm_info_v3", BF16[:8]), ("arm_p_h3", BF16[:1]),
    ("arm_info_h3", BF16[:1]),
])
def test_whole_register_offers_its_bf16_lanes_FMT_BF16(case, lanes) -> None:
    """A register's union (or h3's {bf, f, u, s}): its bf16 lanes are a reading, and the
    first one where the inspector shows bf16."""
    text = _text(case)
    want = tuple(("bf16", b) for b in lanes)
    assert want in [r.items for r in readings(text, "f32")]
    assert readings(text, "bf16")[0].items == want


def test_gdb_bfloat16_quiet_nan_is_not_an_f32_signalling_nan_FMT_BF16() -> None:
    """``nan(0x40)`` is gdb's print of bf16 0x7fc0 (its fraction: the quiet bit); as an
    f32 pattern it would be 0x7f800040, a signalling NaN."""
    assert [(v.format, int(v.bits)) for v in parse("$1 = nan(0x40)")] == [("bf16", 0x7FC0)]
    # a payload all widths hold (0x7f): the bf16 NaN is offered
    assert (("bf16", 0xFFFF),) in [r.items for r in readings("$1 = -nan(0x7f)", "f32")]


def test_typed_4_digit_decimals_keep_the_inspectors_width_FMT_BF16() -> None:
    """``1.234`` typed bare is also bf16's %.4g print (of 1.234375): the inspector's f32
    first, exactly rounded (struct), bf16 offered; with gdb's ``$1 =`` it is bf16."""
    found = readings("1.234", "f32")
    assert found[0].items == (("f32", struct.unpack("<I", struct.pack("<f", 1.234))[0]),)
    assert (("bf16", 0x3F9E),) in [r.items for r in found]
    assert _value(0x3F9E) == 1.234375
    assert readings("$1 = 1.234", "f32")[0].items == (("bf16", 0x3F9E),)


@pytest.mark.parametrize("text", [
    "    xmm0 = {1.234 1.5 -0 2}\n",  # lldb's register read -f float32[] (6 digits)
    "0x55555555a060: {1.234 1.5 -0 2}\n",  # lldb's memory read -f float32[]
    "$1 = {x = 1.234, y = 0.1}",  # a 4-digit decimal beside one no bfloat16 prints
])
def test_bf16_needs_gdb_output_and_a_whole_bf16_print_FMT_F32(text) -> None:
    """A 4-digit decimal is a bfloat16 lane only in gdb's output (``$1 =``, a bfloat16
    view named) and only where every decimal may be one: lldb prints a float's vector
    lanes with 6 significant digits (1.234f as ``1.234``), so those stay f32, rounded once
    from the printed decimal (struct oracle)."""
    found = readings(text, "f32")
    want = struct.unpack("<I", struct.pack("<f", 1.234))[0]
    assert found[0].items[0] == ("f32", want)
