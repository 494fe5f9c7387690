"""InspectorState (STYLE.md 4): batched events, validation, undo/redo, serialisation round trips."""

from __future__ import annotations

import json

import pytest

from fpinspector.model.state import MAX_OPERANDS, InspectorState, Snapshot


def test_state_emits_only_real_changes_and_batches() -> None:
    """STYLE.md 4: an event names the fields that changed; a batch gives one event."""
    s = InspectorState()
    seen: list[frozenset] = []
    s.connect(seen.append)
    s.update(bits=s.bits)  # no change, no event
    assert seen == []
    with s.batch():
        s.update(bits=0)
        s.update(op="add", rule_set="d3d10")
    assert seen == [frozenset({"bits", "op", "rule_set"})]


@pytest.mark.parametrize(
    "changes, msg",
    [
        ({"bits": 1 << 32}, "does not fit in 32 bits"),
        ({"fmt": "f11", "bits": 0x800}, "does not fit in 11 bits"),
        ({"fmt": "f99"}, "unknown format"),
        ({"rule_set": "d3d9"}, "unknown rule set"),
        ({"operands": [0] * (MAX_OPERANDS + 1)}, "at most"),
        ({"op": "Mul;drop"}, "invalid op name"),
        ({"nope": 1}, "unknown state field"),
        ({"bits": -1}, "does not fit"),
        ({"bits": 1.5}, "expected an integer"),
        ({"options": ["a=b,c"]}, "invalid option"),
    ],
)
def test_state_rejects_bad_values_with_clear_message(changes: dict, msg: str) -> None:
    s = InspectorState()
    before = s.snapshot
    with pytest.raises(ValueError, match=msg):
        s.update(**changes)
    assert s.snapshot == before


def test_state_undo_redo_steps_and_batches() -> None:
    s = InspectorState()
    start = s.snapshot
    s.update(bits=1)
    with s.batch():
        s.update(bits=2)
        s.update(bits=3)  # one undo step for the whole batch
    assert s.bits == 3
    assert s.undo() and s.bits == 1
    assert s.undo() and s.snapshot == start
    assert not s.undo()
    assert s.redo() and s.bits == 1
    s.update(bits=7)  # a new edit drops the redo branch
    assert not s.can_redo()


def test_state_string_and_dict_round_trip() -> None:
    s = InspectorState()
    s.update(fmt="f64", bits=0x8000000000000001, word=0xDEADBEEF, op="mad",
             op_format="f16", operands=[0x3C00, 0x8001, 0x7E00], options=["lenient_d3d11=True", "fused_step_ulp=1.0"])
    text = s.to_string()
    assert text.startswith("fpi1;")
    assert InspectorState.snapshot_from_string(text) == s.snapshot
    d = json.loads(json.dumps(s.to_dict()))
    assert InspectorState.snapshot_from_dict(d) == s.snapshot


@pytest.mark.parametrize("text", ["fpi1;v=f32", "fpi1;v=f32:zz;op=mul:f32:d3d11", "x", "fpi1;q=1"])
def test_state_string_errors_are_value_errors(text: str) -> None:
    with pytest.raises(ValueError):
        InspectorState.snapshot_from_string(text)


def test_snapshot_defaults_are_the_headline_example() -> None:
    """The default view is the README example: 2^-149 * 1.0 in f32 under d3d11."""
    snap = Snapshot()
    assert snap.operands[:2] == (0x00000001, 0x3F800000) and snap.op == "mul"


def test_undo_group_keeps_events_live_but_undoes_as_one() -> None:
    """A click-drag paints many bits: each change is announced, one undo restores the start."""
    s = InspectorState()
    seen: list[frozenset] = []
    s.connect(seen.append)
    start = s.bits
    s.begin_undo_group()
    for b in (1, 2, 3):
        s.update(bits=b)
    s.end_undo_group()
    assert len(seen) == 3
    assert s.undo() and s.bits == start
    assert not s.can_undo()


# -- integer code operand types (itof, utof, from_unorm8, ...; CONV-ITOF/UNORM/SNORM) ------

#: (code type, width, signed) from the definitions of the types, not from the code under test.
CODE_TYPES = [("i32", 32, True), ("u32", 32, False), ("unorm8", 8, False),
              ("unorm16", 16, False), ("snorm8", 8, True), ("snorm16", 16, True),
              ("srgb8", 8, False)]


@pytest.mark.parametrize("name, width, signed", CODE_TYPES)
def test_code_op_format_range_and_masking(name: str, width: int, signed: bool) -> None:
    """CONV-ITOF/CONV-UNORM/CONV-SNORM operands: every width-bit pattern is accepted, one
    more bit is refused, and a signed type's negative codes store as two's complement."""
    s = InspectorState()
    top = (1 << width) - 1
    s.update(op="itof", op_format=name, operands=[top, 0])
    assert s.operands[:2] == (top, 0)
    with pytest.raises(ValueError, match=f"does not fit in {width} bits"):
        s.set_operand(0, 1 << width)
    lowest = -(1 << (width - 1))
    if signed:
        s.set_operand(0, lowest)
        assert s.operands[0] == lowest + (1 << width)  # Python int two's complement
        s.set_operand(1, -1)
        assert s.operands[1] == top
        with pytest.raises(ValueError, match=f"does not fit in {width} bits"):
            s.set_operand(0, lowest - 1)
    else:
        with pytest.raises(ValueError, match=f"does not fit in {width} bits"):
            s.set_operand(0, -1)


@pytest.mark.parametrize("name, width, signed", CODE_TYPES)
def test_code_op_state_round_trips(name: str, width: int, signed: bool) -> None:
    """A code op's state survives the one-line string and the JSON dict exactly; the dict
    writes operands as hex of the code width."""
    s = InspectorState()
    s.update(op="from_" + name if name not in ("i32", "u32") else "itof", op_format=name,
             operands=[(1 << width) - 2, 3])
    snap = s.snapshot
    assert InspectorState.snapshot_from_string(s.to_string()) == snap
    d = json.loads(json.dumps(s.to_dict()))
    assert InspectorState.snapshot_from_dict(d) == snap
    assert d["operands"][1] == "0x" + "3".rjust((width + 3) // 4, "0")


def test_old_float_state_string_still_loads_and_unknown_type_is_refused() -> None:
    """Files saved before code types (float op formats only) load unchanged."""
    old = "fpi1;v=f32:3F800000;w=3F800000;op=mul:f16:d3d11;a=1,3C00;o="
    snap = InspectorState.snapshot_from_string(old)
    assert (snap.op_format, snap.operands[:2]) == ("f16", (1, 0x3C00))
    with pytest.raises(ValueError, match="unknown operand format 'i33'"):
        InspectorState.snapshot_from_string(old.replace(":f16:", ":i33:"))
