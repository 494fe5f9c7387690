"""Pastes of whole debugger sessions (paste parser): gdb/lldb command echoes, the
Visual Studio memory window in float display and watch rows with the expand marker, and
RenderDoc CSV event-ID columns. Oracle: Python's struct (FMT-F32 / FMT-F64 encodings)."""

from __future__ import annotations

import struct

import pytest

from fpinspector.model import parse


def f32(x: float) -> int:
    return struct.unpack("<I", struct.pack("<f", x))[0]


def f64(x: float) -> int:
    return struct.unpack("<Q", struct.pack("<d", x))[0]


def _read(text: str) -> list[tuple[str, int]]:
    return [(v.format, v.bits) for v in parse(text)]


@pytest.mark.parametrize("text, want", [
    ("(gdb) x/4xw 0x601040\n0x601040 <arr>:\t0x3f800000\t0x40000000\t0x40400000\t0x40800000",
     [("f32", f32(v)) for v in (1.0, 2.0, 3.0, 4.0)]),
    ("(gdb) x/2xg $sp\n0x7fffffffe0d0:\t0x3ff0000000000000\t0x4000000000000000",
     [("f64", f64(1.0)), ("f64", f64(2.0))]),
    ("(gdb) p/x arr\n$1 = {0x3f800000, 0x40000000, 0x40400000}",
     [("f32", f32(v)) for v in (1.0, 2.0, 3.0)]),
    ("(gdb) x/8xb &f\n0x7fffffffe0cc:\t0x00\t0x00\t0x80\t0x3f\t0x00\t0x00\t0x00\t0x40",
     [("f32", f32(1.0)), ("f32", f32(2.0))]),
    ("(lldb) p f\n(float) $0 = 1.5", [("f32", f32(1.5))]),
    ("x/2xw 0x601040\n0x601040 <arr>:\t0x3f800000\t0x40000000",
     [("f32", f32(1.0)), ("f32", f32(2.0))]),
])
def test_gdb_lldb_command_echo_is_skipped_FMT_F32_FMT_F64(text, want):
    """A pasted session includes the command line; its address/format words are not values."""
    assert _read(text) == want


def test_vs_memory_window_float_display_skips_the_address_FMT_F32():
    """x64 memory window in 32-bit float display: the 16-digit address is not an f64."""
    text = ("0x00000050B4AFF8D0  1.0000000 2.0000000 -2.5e-03 1.#INF\n"
            "0x00000050B4AFF8E0  0.5000000 3.0000000 0.0000000 -0.0000000\n")
    assert _read(text) == [("f32", f32(v)) for v in
                           (1.0, 2.0, -2.5e-3, float("inf"), 0.5, 3.0, 0.0, -0.0)]


@pytest.mark.parametrize("text, want", [
    ("0x3f800000  1.5", [("f32", 0x3F800000), ("f32", f32(1.5))]),
    ("0x3ff0000000000000  1.5", [("f64", f64(1.0)), ("f32", f32(1.5))]),
])
def test_pattern_then_value_is_not_an_address_FMT_F32(text, want):
    """Only a 16-digit address followed by two or more decimals reads as a memory row."""
    assert _read(text) == want


def test_vs_watch_row_with_expand_marker_FMT_F32():
    """'+<TAB><TAB>v<TAB>{x=1 y=2 z=3 }<TAB>DirectX::XMFLOAT3' from a watch window."""
    text = "+\t\tv\t{x=1.00000000 y=2.00000000 z=3.00000000 }\tDirectX::XMFLOAT3"
    assert _read(text) == [("f32", f32(v)) for v in (1.0, 2.0, 3.0)]


def test_renderdoc_csv_event_id_column_is_an_index_FMT_F32():
    """EID (event ID) is an index column like VTX/IDX: not a value, used in no label."""
    vs = parse("EID,VTX,IDX,SV_Position.x,SV_Position.y\n12,0,0,0.5,-2\n12,1,1,1,2\n")
    assert [(v.bits, v.label) for v in vs] == [
        (f32(0.5), "SV_Position.x[0]"), (f32(-2.0), "SV_Position.y[0]"),
        (f32(1.0), "SV_Position.x[1]"), (f32(2.0), "SV_Position.y[1]")]
