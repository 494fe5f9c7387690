"""A received message in the inspector state (model/send/deliver.py): where a paste puts
values, exact bits, one undo step, a target honoured, a refusal leaves the state as it was."""

from __future__ import annotations

import struct

import pytest

from fpinspector.model.send import Message, deliver
from fpinspector.model.state import InspectorState


def _f32(*xs: float) -> tuple[int, ...]:
    return struct.unpack(f"<{len(xs)}I", struct.pack(f"<{len(xs)}f", *xs))


def test_lanes_fill_inspector_and_operands_like_a_paste_in_one_undo_step() -> None:
    st = InspectorState()
    before = st.snapshot
    text = deliver(st, Message("f32", _f32(1.5, -2.0, 3.0, 4.0), "$xmm0", "gdb"))
    s = st.snapshot
    assert text.startswith("from gdb: `$xmm0` lanes 0-3, f32: A = 1.5, B = -2.0")
    assert (s.fmt, s.bits) == ("f32", _f32(1.5)[0])
    assert s.operands[:2] == _f32(1.5, -2.0)
    assert st.undo() and st.snapshot == before  # one step back is where it was


def test_f64_lane_keeps_every_bit() -> None:
    """Exact by construction: 0.1 as a double is its 64 bits, not a decimal text."""
    bits = struct.unpack("<Q", struct.pack("<d", 0.1))[0]
    st = InspectorState()
    deliver(st, Message("f64", (bits,), "d", "lldb"))
    assert (st.snapshot.fmt, st.snapshot.bits) == ("f64", bits)


def test_target_b_sets_operand_b_only_and_carries_into_the_op_format() -> None:
    st = InspectorState()
    st.update(op="add", op_format="f32", operands=list(_f32(7.0, 8.0)) + [0] * 6)
    fmt, bits = st.snapshot.fmt, st.snapshot.bits
    text = deliver(st, Message("f32", _f32(2.5), "x", "gdb", "B"))
    s = st.snapshot
    assert s.operands[:2] == _f32(7.0, 2.5)
    assert (s.fmt, s.bits) == (fmt, bits)
    assert "B = 2.5" in text


def test_target_c_of_a_two_operand_op_is_refused_untouched() -> None:
    st = InspectorState()
    st.update(op="mul")
    before = st.snapshot
    with pytest.raises(ValueError, match="there is no C"):
        deliver(st, Message("f32", _f32(1.0), "x", "gdb", "C"))
    assert st.snapshot == before and not st.can_undo()


def test_inspector_target_leaves_operands() -> None:
    st = InspectorState()
    ops = st.snapshot.operands
    text = deliver(st, Message("f16", (0x3C00, 0x4000), "h", "gdb", "inspector"))
    assert (st.snapshot.fmt, st.snapshot.bits, st.snapshot.operands) == ("f16", 0x3C00, ops)
    assert "not used: 2.0" in text


def test_integer_codes_pick_an_op_that_takes_them() -> None:
    st = InspectorState()
    text = deliver(st, Message("i32", (0xFFFFFFFF,), "n", "gdb"))
    s = st.snapshot
    assert s.op == "itof" and s.op_format == "i32" and s.operands[0] == 0xFFFFFFFF
    assert "A = -1" in text


def test_packed_word_shows_in_the_word_view() -> None:
    st = InspectorState()
    deliver(st, Message("r11g11b10", (0x7F7FDFBF,), "w", "renderdoc"))
    assert st.snapshot.word == 0x7F7FDFBF and st.snapshot.fmt == "f11"
