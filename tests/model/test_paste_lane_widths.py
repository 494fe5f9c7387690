"""Integer views and dumps whose lanes are not as wide as the values (issue 33): real gdb
13.1 / lldb 14 output captured by scripts/capture_debuggers (probe.c: xmm0 = 4 f32, xmm1 =
2 f64, xmm2 = 8 f16, ymm3 = 8 f32, xmm6 = 2 f32 over 64 zero bits).

``p/x $xmm1.v4_int32`` of two doubles prints four 32-bit words: the text says 32 bits, so 4
f32 come first, but before no reading offered the two f64 (nor ``p $xmm0.v2_int64``'s four
f32, ``x/4xw darr``'s doubles). Now the same bits re-cut into the other lane widths are
offered (never taken). ``p $xmm6.uint128`` of a register whose top 64 bits are zero prints
a number below 2^64: one f64 (the text cannot say more), its f32 lanes offered; with the
command echoed (``.uint128``) the 128-bit lanes.

Oracle: the values the probe stored, packed with struct (lanes = little-endian memory).
"""

from __future__ import annotations

import json
import struct
from pathlib import Path

import pytest

from fpinspector.model.state.paste import readings

CORPUS = Path(__file__).resolve().parent.parent / "data" / "paste_corpus"
FARR = struct.pack("<8I", 0x3F800000, 0x3FC00000, 0x80000000, 0x3DCCCCCD, 0x3EAAAAAB, 1,
                   0x007FFFFF, 0x7F7FFFFF)
DARR = struct.pack("<2Q", 0x3FD5555555555555, 0x3FB999999999999A)
HARR = struct.pack("<8H", 0x3C00, 0x3555, 0x0001, 0x7E00, 0x8000, 0x7BFF, 0xFC00, 0x2E66)
CODE = {"f16": "H", "f32": "I", "f64": "Q"}


def _lanes(data: bytes, fmt: str) -> tuple[tuple[str, int], ...]:
    n = len(data) // struct.calcsize(CODE[fmt])
    return tuple((fmt, b) for b in struct.unpack(f"<{n}{CODE[fmt]}", data))


def _found(tool: str, case: str) -> list:
    return readings(json.loads((CORPUS / tool / f"{case}.json").read_text())["text"], "f32")


@pytest.mark.parametrize("tool, case, data, shown, held", [
    ("gdb", "px_xmm1_v4_int32", DARR, "f32", "f64"),
    ("gdb", "p_xmm1_v4_int32", DARR, "f32", "f64"),
    ("gdb", "px_xmm0_v2_int64", FARR[:16], "f64", "f32"),
    ("gdb", "p_xmm0_v2_int64", FARR[:16], "f64", "f32"),
    ("gdb", "px_xmm2_v4_int32", HARR, "f32", "f16"),
    ("gdb", "px_xmm0_v8_int16", FARR[:16], "f16", "f32"),
    ("gdb", "px_ymm3_v4_int64", FARR, "f64", "f32"),
    ("gdb", "x4xw_darr", DARR, "f32", "f64"),
    ("gdb", "x2xg_farr", FARR[:16], "f64", "f32"),
    ("lldb", "mem_x4_darr", DARR, "f32", "f64"),
    ("lldb", "mem_x8_farr", FARR[:16], "f64", "f32"),
    ("lldb", "reg_u64_xmm0", FARR[:16], "f64", "f32"),
])
def test_other_lane_widths_are_offered_FMT_F32_FMT_F64_FMT_F16(tool, case, data, shown, held):
    """The text's own width first (its digits or integer view say it), the values' width
    one click away: the same bytes as lanes of the other width, the lowest first."""
    found = _found(tool, case)
    assert found[0].items == _lanes(data, shown)
    offered = {r.items: r for r in found[1:]}
    assert _lanes(data, held) in offered
    assert "re-cut" in offered[_lanes(data, held)].label


@pytest.mark.parametrize("case", ["p_xmm6_uint128", "px_xmm6_uint128"])
def test_a_register_below_2_64_offers_its_f32_lanes_FMT_F32(case) -> None:
    """``$1 = 4593671620983259136`` (``p $xmm6.uint128``, top 64 bits zero) is also what
    ``p/d`` of a double prints: one f64 first, its two f32 lanes (1.0, 1.5) offered."""
    found = _found("gdb", case)
    assert found[0].items == _lanes(FARR[:8], "f64")
    assert _lanes(FARR[:8], "f32") in [r.items for r in found]


@pytest.mark.parametrize("case", ["p_xmm6_uint128_echo", "px_xmm6_uint128_echo"])
def test_an_echoed_uint128_command_reads_the_128_bit_lanes_FMT_F32(case) -> None:
    """With ``(gdb) p $xmm6.uint128`` before it the number is the 128-bit register: 4 f32
    lanes, the top two zero."""
    assert _found("gdb", case)[0].items == _lanes(FARR[:8] + bytes(8), "f32")


def test_repeats_are_not_re_cut_and_stay_fast() -> None:
    """gdb's ``<repeats 131072 times>`` makes 2^17 patterns from 40 characters: no register
    view, so no lane re-cut is offered (re-cutting them one big integer at a time took
    101 s here; the reading alone takes under a second)."""
    import time

    t = time.perf_counter()
    found = readings("$1 = {0x3f800000 <repeats 131072 times>}", "f32")
    assert time.perf_counter() - t < 15.0  # generous: 2 shared cores under load
    assert [r.key for r in found] == ["as written"]
    assert len(found[0].items) == 131072
