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
