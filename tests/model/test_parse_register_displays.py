"""Pastes of debuggers' register displays: gdb's union of a vector register's views reads as
its lanes (once, from the integer view that holds the bits), ``info registers`` lines as
their raw hex, Visual Studio's ``XMM0 = <32 hex digits>`` as its lanes, the lowest first.
Oracle: Python's struct (FMT-F32 / FMT-F64 / FMT-F16 encodings of the lanes' bytes).

Before, ``p $xmm0`` read as 53 "values" (every view of the 128 bits, bfloat16 and int8 lanes
read as f32 decimals), ``info registers xmm0`` / ``rax`` / ``s0`` as "unknown word" and
Visual Studio's XMM0 as "cannot read".
"""

from __future__ import annotations

import struct

import pytest

from fpinspector.model import parse
from fpinspector.model.parse import ParseError

#: the register's bytes, low lane first (little-endian memory order): lanes 1/3, -2.5e-40
#: (a denormal), 1.5 and -0.0 as f32
XMM0_BYTES = struct.pack("<4f", 0.333333343, -2.5e-40, 1.5, -0.0)


def _gdb_print(data: bytes) -> str:
    """What gdb's ``print $xmm0`` shows for these 16 bytes, one view a line (gdb 7-11):
    floats with 9 / 17 significant digits, integer lanes signed, uint128 in hex."""
    def view(code: str, fmt: str) -> str:
        n = len(data) // struct.calcsize(code)
        return "{" + ", ".join(fmt % x for x in struct.unpack(f"<{n}{code}", data)) + "}"

    return ("(gdb) print $xmm0\n$1 = {\n"
            f"  v4_float = {view('f', '%.9g')}, \n"
            f"  v2_double = {view('d', '%.17g')}, \n"
            f"  v16_int8 = {view('b', '%d')}, \n"
            f"  v8_int16 = {view('h', '%d')}, \n"
            f"  v4_int32 = {view('i', '%d')}, \n"
            f"  v2_int64 = {view('q', '%d')}, \n"
            f"  uint128 = 0x{int.from_bytes(data, 'little'):032x}\n}}")


PRINT_XMM0 = _gdb_print(XMM0_BYTES)


def _read(text: str, fmt: str | None = None) -> list[tuple[str, int]]:
    return [(v.format, v.bits) for v in parse(text, fmt)]


def _lanes(data: bytes, code: str, fmt: str) -> list[tuple[str, int]]:
    return [(fmt, x) for x in struct.unpack(f"<{len(data) // struct.calcsize(code)}{code}",
                                            data)]


def test_print_xmm_reads_the_four_f32_lanes_once_FMT_F32() -> None:
    assert _read(PRINT_XMM0) == _lanes(XMM0_BYTES, "I", "f32")


@pytest.mark.parametrize("fmt, code", [("f64", "Q"), ("f16", "H")])
def test_print_xmm_as_f64_or_f16_reads_those_lanes_FMT_F64_FMT_F16(fmt: str, code: str) -> None:
    assert _read(PRINT_XMM0, fmt) == _lanes(XMM0_BYTES, code, fmt)


def test_newer_gdb_one_line_union_with_bfloat16_and_half_views_FMT_F32() -> None:
    """gdb 12+ adds v8_bfloat16 and v8_half views, all on one line; a repeat in a view
    that is not read changes nothing."""
    text = ("$1 = {v8_bfloat16 = {-0.0001297, 0.5, 0, 0, 0, 0, 0, 0}, v8_half = {-0.05554, "
            "1.666, 0, 0, 0, 0, 0, 0}, v4_float = {0.333333343, 0, 0, 0}, v2_double = "
            "{5.2296177803874019e-315, 0}, v16_int8 = {-85, -86, -86, 62, 0 <repeats 12 "
            "times>}, v8_int16 = {-21845, 16042, 0, 0, 0, 0, 0, 0}, v4_int32 = {1051372203, "
            "0, 0, 0}, v2_int64 = {1051372203, 0}, uint128 = 1051372203}")
    want = struct.unpack("<I", struct.pack("<f", 0.333333343))[0]
    assert _read(text) == [("f32", want), ("f32", 0), ("f32", 0), ("f32", 0)]


def test_info_registers_xmm_reads_the_bits_not_the_old_float_view_FMT_F32() -> None:
    """Before gdb 8.1, ``info registers`` showed the float view as the values converted to
    integers (1.25 as 0x1): the integer view holds the bits (0x3fa00000 = 1.25)."""
    text = """xmm0           {
    v4_float = {0x1, 0x0, 0x0, 0x0},
    v2_double = {0x0, 0x0},
    v16_int8 = {0x0, 0x0, 0xa0, 0x3f, 0x0 <repeats 12 times>},
    v8_int16 = {0x0, 0x3fa0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0},
    v4_int32 = {0x3fa00000, 0x0, 0x0, 0x0},
    v2_int64 = {0x3fa00000, 0x0},
    uint128 = 0x0000000000000000000000003fa00000
}"""
    one_25 = struct.unpack("<I", struct.pack("<f", 1.25))[0]
    assert _read(text) == [("f32", one_25), ("f32", 0), ("f32", 0), ("f32", 0)]
    zero = text.replace("0x3fa00000", "0x0").replace("0xa0, 0x3f", "0x0, 0x0")
    assert _read(zero) == [("f32", 0)] * 4  # every lane 0x0: still f32 lanes


def test_print_f_designators_are_not_lanes_FMT_F32() -> None:
    """``p/f $xmm0`` prints every view as floats with ``[index] =`` designators: the float
    view is read, without the indexes (3.1400001 = 3.14f)."""
    text = """(gdb) p/f $xmm0
$3 = {
  v4_float = {[0] = 3.1400001, [1.40129846e-45] = 0, [2.80259693e-45] = 0, [4.20389539e-45] = 0},
  v2_double = {[0] = 5.3286132608536752e-315, [1.40129846e-45] = 0},
  v4_int32 = {[0] = 3.1400001, [1.40129846e-45] = 0, [2.80259693e-45] = 0, [4.20389539e-45] = 0},
  uint128 = 3.93143274128552720884e-4942
}"""
    pi = struct.unpack("<I", struct.pack("<f", 3.14))[0]
    assert _read(text) == [("f32", pi), ("f32", 0), ("f32", 0), ("f32", 0)]


def test_ymm_union_reads_eight_lanes_FMT_F32() -> None:
    lanes = [1.5, -2.0, 0.0, 1e-40, 3.0, 4.0, 5.0, -0.0]
    data = struct.pack("<8f", *lanes)
    ints = struct.unpack("<8i", data)
    text = ("$2 = {v8_float = {" + ", ".join(repr(x) for x in lanes) + "}, v4_double = {"
            + ", ".join(repr(x) for x in struct.unpack("<4d", data)) + "}, v8_int32 = {"
            + ", ".join(str(i) for i in ints) + "}, v2_int128 = {0x1, 0x2}}")
    assert _read(text) == _lanes(data, "I", "f32")


@pytest.mark.parametrize("text, want", [
    ("rax            0x3eaaaaab          1051372203", [("f32", 0x3EAAAAAB)]),
    ("rdx            0x3ff8000000000000  4609434218613702656",
     [("f64", struct.unpack("<Q", struct.pack("<d", 1.5))[0])]),
    ("s0             0.333333343         (raw 0x3eaaaaab)", [("f32", 0x3EAAAAAB)]),
    ("s1             0                   (raw 0x00000000)", [("f32", 0)]),
    ("d2             1.5                 (raw 0x3ff8000000000000)",
     [("f64", struct.unpack("<Q", struct.pack("<d", 1.5))[0])]),
    ("h3             1                   (raw 0x3c00)", [("f16", 0x3C00)]),
])
def test_info_registers_lines_read_the_raw_hex_FMT_F32_FMT_F64_FMT_F16(text, want) -> None:
    """The natural column (a decimal of the same bits, or gdb's value) is not a second
    value; AArch64's s/d/h registers give the raw hex its format."""
    assert _read(text) == want


@pytest.mark.parametrize("text", [
    "eflags         0x246               [ IF ZF PF ]",
    "mxcsr          0x1f80              [ IM DM ZM OM UM PM ]",
    "rip            0x3ff0000000000000  0x3ff0000000000000 <main+8>",
    "   mxcsr = 0x00001f80", "  rflags = 0x0000000000000206",
])
def test_a_register_that_holds_no_float_says_so(text: str) -> None:
    """Issue 33: flags, mxcsr and the instruction pointer are never read as floats (gdb's
    mxcsr line was an f16, lldb's an f32; rip, an address, was an f64)."""
    with pytest.raises(ParseError, match="holds no float"):
        parse(text)


def test_a_field_named_like_a_view_outside_a_register_is_still_read() -> None:
    """Plain values and a plain vector print are unchanged: ``p $xmm1.v4_float``."""
    assert _read("$2 = {1.5, 2, 0, 0}") == [
        ("f32", struct.unpack("<I", struct.pack("<f", x))[0]) for x in (1.5, 2.0, 0.0, 0.0)]


def _vs_register(name: str, data: bytes) -> str:
    """Visual Studio's Registers window: the register's bits as hex, the highest byte first."""
    return f"{name} = {data[::-1].hex().upper()}"


@pytest.mark.parametrize("fmt, code", [(None, "I"), ("f64", "Q"), ("f16", "H")])
def test_visual_studio_xmm_reads_the_lanes_lowest_first_FMT_F32(fmt, code) -> None:
    """``XMM0 = 800000003FC00000000000003EAAAAAB XMM1 = 000...``: each register's lanes, the
    lowest first, as gdb and VS's own float display (XMM00, XMM01, ...) number them
    (before: "cannot read"). With a format, lanes of its width."""
    other = struct.pack("<4f", 2.0, -1e-45, 0.0, 7.5)
    text = _vs_register("XMM0", XMM0_BYTES) + " " + _vs_register("XMM1", other)
    want = _lanes(XMM0_BYTES, code, fmt or "f32") + _lanes(other, code, fmt or "f32")
    assert _read(text, fmt) == want


def test_visual_studio_ymm_and_float_display_agree_FMT_F32() -> None:
    data = struct.pack("<8f", 1.0, 0.333333343, -2.0, 0.0, 1e-40, 3.5, -0.0, 65504.0)
    floats = struct.unpack("<8f", data)
    shown = " ".join(f"YMM0{k} = {x:+.7E}" for k, x in enumerate(floats))  # VS's float view
    assert _read(_vs_register("YMM0", data)) == _lanes(data, "I", "f32") == _read(shown)


def _gdb_arm_print(data: bytes, fmt: str = "%d") -> str:
    """gdb's ``p $v0`` on AArch64 for these 16 bytes: views d, s, h, b, q, each with float
    (f), unsigned (u) and signed (s) lanes (``fmt`` "0x%x": ``info registers v0``)."""
    def lanes(code: str, how: str) -> str:
        n = len(data) // struct.calcsize(code)
        vals = struct.unpack(f"<{n}{code}", data)
        if code.isupper() and "x" in how:  # (hex of the unsigned lanes)
            return "{" + ", ".join(hex(v) for v in vals) + "}"
        return "{" + ", ".join(how % v for v in vals) + "}"

    f = "%.17g"
    return ("$1 = {d = {f = " + lanes("d", f) + ", u = " + lanes("Q", fmt) + ", s = "
            + lanes("q", "%d") + "}, s = {f = " + lanes("f", "%.9g") + ", u = "
            + lanes("I", fmt) + ", s = " + lanes("i", "%d") + "}, h = {bf = {0, 0, 0, 0, 0, "
            "0, 0, 0}, f = " + lanes("e", "%.5g") + ", u = " + lanes("H", fmt) + ", s = "
            + lanes("h", "%d") + "}, b = {u = " + lanes("B", fmt) + ", s = " + lanes("b", "%d")
            + "}, q = {u = {" + str(int.from_bytes(data, "little")) + "}, s = {0}}}")


@pytest.mark.parametrize("fmt, code", [(None, "I"), ("f64", "Q"), ("f16", "H")])
@pytest.mark.parametrize("hexes", [False, True])
def test_aarch64_vector_union_reads_the_unsigned_lanes_FMT_F32(fmt, code, hexes) -> None:
    """``p $v0`` / ``info registers v0`` on AArch64: the u lanes of s (f32), d (f64) or
    h (f16), once (before: 84 values, every view)."""
    text = _gdb_arm_print(XMM0_BYTES, "0x%x" if hexes else "%d")
    if hexes:
        text = "v0             " + text.removeprefix("$1 = ")
    assert _read(text, fmt) == _lanes(XMM0_BYTES, code, fmt or "f32")


def test_fields_with_aarch64_view_names_in_an_ordinary_struct_are_read() -> None:
    """``{s = 1.5, d = 2.5}`` and ``{s = {f = 1.5}, d = {f = 2.5}}`` are not a register."""
    f32 = [struct.unpack("<I", struct.pack("<f", x))[0] for x in (1.5, 2.5)]
    assert _read("$1 = {s = 1.5, d = 2.5}") == [("f32", b) for b in f32]
    assert _read("$1 = {s = {f = 1.5}, d = {f = 2.5}}") == [("f32", b) for b in f32]


def test_a_nan_lane_in_info_registers_s_FMT_F32() -> None:
    """gdb shows an f32 NaN register as ``nan(0x400000)``: its raw hex is read."""
    assert _read("s4             nan(0x400000)       (raw 0x7fc00000)") == [("f32", 0x7FC00000)]


def test_a_union_without_lanes_of_the_format_says_so() -> None:
    """Integer views only, asked for f16 lanes: a clear error, not an empty reading."""
    with pytest.raises(ParseError, match="no 16-bit or f32 lanes"):
        parse("$1 = {v4_int32 = {1, 2, 3, 4}, v2_int64 = {1, 2}}", "f16")


@pytest.mark.parametrize("text, want", [
    ("rbp            0x7fffdf903eaaaaab  0x7fffdf903eaaaaab", [("f64", 0x7FFFDF903EAAAAAB)]),
    ("rax            0x3ff0000000000000  0x3ff0000000000000 <main+8>",
     [("f64", 0x3FF0000000000000)]),
    ("rcx            0xbeaaaaab          -1096111445", [("f32", 0xBEAAAAAB)]),
])
def test_natural_columns_of_general_registers_are_not_values(text, want) -> None:
    assert _read(text) == want


def test_a_name_like_a_register_before_other_values_keeps_them() -> None:
    """``x1 0x3f800000 0x40000000`` is not gdb's raw/natural pair: nothing is dropped as a
    natural column (the unknown name is reported, as before)."""
    with pytest.raises(ParseError, match="unknown word 'x1'"):
        parse("x1 0x3f800000 0x40000000")


#: gdb's one-number prints of the 128 bits of XMM0_BYTES (leading zeros dropped, as gdb does)
_XMM0_INT = int.from_bytes(XMM0_BYTES, "little")


@pytest.mark.parametrize("text", [
    f"$1 = 0x{_XMM0_INT:x}",                      # p/x $xmm0.uint128
    f"$2 = {_XMM0_INT}",                          # p $xmm0.uint128, p/d
    f"$3 = {_XMM0_INT:b}",                        # p/t: binary digits
    f"(gdb) p/x $xmm0.uint128\n$1 = 0x{_XMM0_INT:x}",
    f"(gdb) output $xmm0.uint128\n{_XMM0_INT}",  # the view named, no $N
])
@pytest.mark.parametrize("fmt,code", [("f32", "f"), ("f64", "d"), ("f16", "e")])
def test_uint128_reads_the_lanes_of_the_inspector_width_FMT_F32_FMT_F64_FMT_F16(
        text: str, fmt: str, code: str) -> None:
    """Issue 33: gdb's uint128 (hex, decimal, binary) was refused or read as one f64
    decimal; it is the register's bits, cut into lanes of the inspector's width (the other
    widths offered), the lowest lane first."""
    from fpinspector.model.state.paste import readings
    n = 16 // struct.calcsize(code)
    ints = struct.unpack(f"<{n}{ {'f': 'I', 'd': 'Q', 'e': 'H'}[code] }", XMM0_BYTES)
    found = readings(text, fmt)
    assert found[0].items == tuple((fmt, b) for b in ints)
    assert "128 register bits" in found[0].label and "lowest first" in found[0].label
    others = {r.items[0][0] for r in found[1:]}
    assert others >= {"f16", "f32", "f64"} - {fmt}


def test_v2_int128_of_a_ymm_reads_eight_f32_lanes_FMT_F32() -> None:
    ymm = XMM0_BYTES + struct.pack("<4f", 2.0, -3.0, 1e-45, 65504.0)
    lo, hi = int.from_bytes(ymm[:16], "little"), int.from_bytes(ymm[16:], "little")
    want = list(struct.unpack("<8I", ymm))
    for text in (f"$4 = {{0x{lo:x}, 0x{hi:x}}}", f"$5 = {{{lo}, {hi}}}"):
        assert [v.bits for v in parse(text)] == want, text


def test_an_exact_decimal_of_a_float_stays_a_float_FMT_F32() -> None:
    """FLT_MAX written exactly (as this tool's describe writes it) is 39 digits: without
    gdb's ``$N =`` it is a decimal, not a register."""
    vals = parse("340282346638528859811704183484516925440")
    assert [(v.format, v.bits) for v in vals] == [("f32", 0x7F7FFFFF)]


def test_a_negative_int128_is_twos_complement_FMT_F32() -> None:
    n = -(1 << 100) - 5
    want = list(struct.unpack("<4I", (n % (1 << 128)).to_bytes(16, "little")))
    assert [v.bits for v in parse(f"$1 = {n}")] == want


# AArch64 as gdb-multiarch 13 prints it (issue 33; captured in tests/data/paste_corpus/gdb/arm_*)
@pytest.mark.parametrize("text,want", [
    ("$7 = {f = 1, u = 1065353216, s = 1065353216}", [("f32", 0x3F800000)]),
    ("$8 = {f = 0.33333333333333331, u = 4599676419421066581, s = 4599676419421066581}",
     [("f64", 0x3FD5555555555555)]),
    ("$9 = {f = 4.9406564584124654e-324, u = 1, s = 1}", [("f64", 1)]),  # 17 digits: a d
    ("$9 = {bf = 0.007812, f = 1, u = 15360, s = 15360}", [("f16", 0x3C00)]),
    ("s0             {f = 0x3f800000, u = 0x3f800000, s = 0x3f800000} "
     "{f = 1, u = 1065353216, s = 1065353216}", [("f32", 0x3F800000)]),
    ("d1             {f = 0x1, u = 0x1, s = 0x1} {f = 4.9406564584124654e-324, u = 1, s = 1}",
     [("f64", 1)]),
])
def test_aarch64_scalar_views_read_the_u_lane_once_FMT_F32_FMT_F64_FMT_F16(text, want) -> None:
    """p $s0 / $d0 / $h0 print {f, u, s} (h adds bf): read before as 3 or 4 values (or
    refused after a register name); the u lane is the bits, its width from bf, the name,
    a u beyond 32 bits or an f of 17 digits."""
    assert [(v.format, v.bits) for v in parse(text)] == want


def test_aarch64_info_registers_reads_the_raw_union_not_the_natural_one_FMT_F32() -> None:
    """``info registers v0`` prints the raw (hex) union, then the natural one: read
    before as 8 values (both)."""
    lanes = struct.unpack("<4I", XMM0_BYTES)
    raw = ", ".join(f"0x{x:x}" for x in lanes)
    text = (f"v0             {{s = {{f = {{{raw}}}, u = {{{raw}}}, s = {{{raw}}}}}, "
            f"d = {{f = {{0x1, 0x2}}, u = {{0x1, 0x2}}, s = {{0x1, 0x2}}}}, "
            f"h = {{f = {{0x0}}, u = {{0x0}}, s = {{0x0}}}}, b = {{u = {{0x0}}, s = {{0x0}}}}, "
            f"q = {{u = {{0x1}}, s = {{0x1}}}}}} {{s = {{f = {{1, 2, 3, 4}}}}}}")
    assert [v.bits for v in parse(text)] == list(lanes)


def test_aarch64_q_register_is_one_128_bit_number_FMT_F32() -> None:
    n = _XMM0_INT
    assert [v.bits for v in parse(f"$6 = {{u = {n}, s = {n}}}")] == list(
        struct.unpack("<4I", XMM0_BYTES))


@pytest.mark.parametrize("case", ["arm_p_q4", "arm_px_q4", "arm_info_q4", "arm_p_q4_echo"])
def test_aarch64_q_register_with_its_top_64_bits_zero_is_lanes_FMT_F32(case) -> None:
    """Real gdb-multiarch output of q4 after ``ldr d4`` (v4 = 1.0f, 1.5f, then zeros):
    ``{u = 4593671620983259136, s = ...}`` is below 2^64 but still the 128-bit register:
    4 f32 lanes, the top two zero (struct oracle), not one f64 (before)."""
    import json
    from pathlib import Path
    path = Path(__file__).resolve().parent.parent / "data" / "paste_corpus" / "gdb" / f"{case}.json"
    text = json.loads(path.read_text())["text"]
    want = list(struct.unpack("<4I", struct.pack("<2f", 1.0, 1.5) + bytes(8)))
    assert [(v.format, int(v.bits)) for v in parse(text)] == [("f32", b) for b in want]
    assert [int(v.bits) for v in parse(text, format="f64")] == [
        struct.unpack("<Q", struct.pack("<2f", 1.0, 1.5))[0], 0]
