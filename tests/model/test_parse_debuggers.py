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


# clang's ext_vector_type in lldb (issue 33): oracle struct's IEEE encodings of the lanes
_H4 = struct.pack("<4e", 1.0, -2.0, 65504.0, 2.0 ** -24)  # f16 lanes, the last a denormal
_D2 = struct.pack("<2d", 1.0 / 3.0, -5e-324)


def _chunks(data: bytes) -> str:
    """lldb's p/x of a vector: 32-bit chunks, the lowest first, whatever the lanes."""
    return ", ".join(f"0x{c:08x}" for c in struct.unpack(f"<{len(data) // 4}I", data))


@pytest.mark.parametrize("text,fmt,want", [
    (f"(half4) $3 = ({_chunks(_H4)})\n", "f16", struct.unpack("<4H", _H4)),
    (f"(double2) $4 = ({_chunks(_D2)})\n", "f64", struct.unpack("<2Q", _D2)),
    (f"(__fp16 __attribute__((ext_vector_type(4)))) $1 = ({_chunks(_H4)})\n", "f16",
     struct.unpack("<4H", _H4)),
])
def test_lldb_hex_of_ext_vectors_is_cut_into_lanes_of_the_type_FMT_F16_FMT_F64(text, fmt, want):
    """lldb prints p/x of a half4 as two 32-bit chunks: read before as 2 f32 (a silent
    misread); the lane type re-cuts them, the lowest lane first."""
    assert [(v.format, v.bits) for v in parse(text)] == [(fmt, b) for b in want]


def test_lldb_ext_vector_attribute_type_keeps_its_lane_width_FMT_F32():
    vals = parse("(float __attribute__((ext_vector_type(2)))) $11 = (1, 0.333333343)\n")
    assert [(v.format, v.bits) for v in vals] == [("f32", 0x3F800000), ("f32", 0x3EAAAAAB)]


def test_lldb_hex_chunks_of_an_unknown_typedef_offer_the_lane_widths_FMT_F16():
    """A typedef such as fp16x4 names no width: f32 chunks first (or the inspector's width),
    the f16 and f64 lanes offered, never one silent guess."""
    from fpinspector.model.state.paste import readings
    text = f"(fp16x4) $0 = ({_chunks(_H4)})\n"
    f16 = tuple(("f16", b) for b in struct.unpack("<4H", _H4))
    found = readings(text, "f32")
    assert found[0].items == tuple(("f32", b) for b in struct.unpack("<2I", _H4))
    assert "no lane width" in found[0].label and f16 in [r.items for r in found]
    assert readings(text, "f16")[0].items == f16
