"""State strings and state dicts from outside (a paste, a workspace file): strict types, known
ops and options, only ValueError naming the field. Oracle: the round trip of a valid state."""

from __future__ import annotations

import pytest

from fpinspector.model.state import InspectorState

GOOD = {"fmt": "f32", "bits": "0x3F800000", "op": "mul", "op_format": "f32",
        "rule_set": "d3d11", "operands": ["0x1", "0x3F800000"], "options": []}


@pytest.mark.parametrize("change, msg", [
    ({"op": "nosuchop"}, "unknown op 'nosuchop'"),
    ({"op": 5}, "op: expected a name"),
    ({"fmt": ["f32"]}, "fmt: expected a name"),
    ({"rule_set": None}, "rule_set: expected a name"),
    ({"bits": 1.5}, "expected a hex string"),
    ({"bits": True}, "expected a hex string"),
    ({"bits": "0x1_0"}, "not hexadecimal"),
    ({"bits": "\u0661"}, "not hexadecimal"),  # int('١', 16) would take it
    ({"bits": "0x" + "f" * 17}, "not hexadecimal"),
    ({"operands": ["0x1"] * 9}, "at most 8"),
    ({"operands": "0x1"}, "at most 8 hex patterns"),
    ({"operands": [[1]]}, "expected a hex string"),
    ({"options": [["x"]]}, "options must be a list of names"),
    ({"options": ["nosuch"]}, "unknown option 'nosuch'"),
    ({"options": ["lenient_d3d11=maybe"]}, "not one of"),
    ({"options": "lenient_d3d11"}, "options must be a list"),
    ({"op_format": "f99"}, "unknown operand format"),
    ({"extra": 1}, "unknown state field"),
])
def test_bad_state_dicts_name_the_field(change, msg):
    with pytest.raises(ValueError, match=msg):
        InspectorState.snapshot_from_dict({**GOOD, **change})


def test_good_dicts_and_strings_round_trip():
    snap = InspectorState.snapshot_from_dict({**GOOD, "options": ["lenient_d3d11"]})
    s = InspectorState(snap)
    assert InspectorState.snapshot_from_dict(s.to_dict()) == snap
    assert InspectorState.snapshot_from_string(s.to_string()) == snap


@pytest.mark.parametrize("text, msg", [
    ("fpi1;v=f32:3F800000;op=nosuchop:f32:d3d11", "unknown op"),
    ("fpi1;v=f32:3F800000;v=f32:0;op=mul:f32:d3d11", "given twice"),
    ("fpi1;v=f32:\u0661;op=mul:f32:d3d11", "not hexadecimal"),
    ("fpi1;v=f32:3F800000;op=mul:f32:d3d11;a=" + "1," * 9, "9 operands"),
    ("fpi1;v=f32:3F800000;op=mul:f32:d3d11;a=" + "1," * 100_000, "at most 4096"),
    ("fpi1;v=f32:3F800000;op=mul:f32:d3d11;o=bogus", "unknown option"),
    ("fpi1;v=f32:3F800000;op=mul:f32", "needs v="),
    ("fpi1;v=f32:-1;op=mul:f32:d3d11", "not hexadecimal"),
    ("fpi1;x=1", "unexpected part"),
])
def test_bad_state_strings_name_the_part(text, msg):
    with pytest.raises(ValueError, match=msg):
        InspectorState.snapshot_from_string(text)
