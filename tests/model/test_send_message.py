"""The message a debugger sends (model/send/message.py): exact bits, checked, and refused
with a reason whatever arrives (fuzzed). Oracles: ``struct`` packs the bytes, the model's
own format table gives the widths."""

from __future__ import annotations

import json
import math
import struct

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fpinspector.model.formats import CODE_FORMATS, FORMATS
from fpinspector.model.send.message import (
    FLOAT_FORMATS,
    INTEGER_FORMATS,
    MAX_LANES,
    MAX_MESSAGE_BYTES,
    WIDTHS,
    Activate,
    Message,
    MessageError,
    message_from_bytes,
    message_to_json,
    origin_text,
    parse_reply,
    parse_request,
    reply_to_json,
)


def test_widths_are_the_models_formats_and_code_types() -> None:
    """The stdlib-only table the debugger scripts load agrees with the model's formats."""
    assert set(FLOAT_FORMATS) == set(FORMATS)
    for name in FLOAT_FORMATS:
        assert WIDTHS[name] == FORMATS[name].bits
    for name in INTEGER_FORMATS:
        assert WIDTHS[name] == CODE_FORMATS[name].bits


@pytest.mark.parametrize("fmt,code,values", [
    ("f32", "<4f", (1.0, -2.5, 0.1, math.inf)),
    ("f64", "<2d", (0.1, -0.0)),
    ("f16", "<3e", (1.0, 65504.0, 2.0 ** -24)),
])
def test_bytes_become_lanes_lowest_first_exactly(fmt, code, values) -> None:
    """Send is exact: the lanes are the bits struct packs, lane 0 at the lowest address."""
    data = struct.pack(code, *values)
    m = message_from_bytes(data, fmt, "v", "gdb")
    uint = {"f32": "I", "f64": "Q", "f16": "H"}[fmt]
    assert m.lanes == struct.unpack(f"<{len(values)}{uint}", data)
    assert json.loads(message_to_json(m))["lanes"][0] == \
        f"0x{m.lanes[0]:0{WIDTHS[fmt] // 4}x}"


def test_json_line_has_format_lanes_label() -> None:
    line = message_to_json(message_from_bytes(struct.pack("<f", 1.0), "f32", "x", "gdb"))
    assert "\n" not in line
    assert json.loads(line) == {"format": "f32", "lanes": ["0x3f800000"], "label": "x",
                                "source": "gdb"}


def test_f11_lane_with_bits_above_its_width_is_refused() -> None:
    with pytest.raises(MessageError, match="11-bit pattern"):
        message_from_bytes(b"\x00\x08", "f11")
    assert message_from_bytes(b"\xc0\x03", "f11").lanes == (0x3C0,)


@pytest.mark.parametrize("text,reason", [
    (b"", "not a JSON message"),
    (b"\xff\xfe", "not UTF-8"),
    (b"[1, 2]", "JSON object"),
    (b'{"lanes": ["0x1"]}', "no 'format'"),
    (b'{"format": "f32"}', "no 'lanes'"),
    (b'{"format": "f8", "lanes": ["0x1"]}', "unknown format"),
    (b'{"format": "f32", "lanes": []}', "list of hex strings"),
    (b'{"format": "f32", "lanes": [1065353216]}', "not a 0x"),
    (b'{"format": "f32", "lanes": ["0x100000000"]}', "32-bit pattern"),
    (b'{"format": "f32", "lanes": ["0x1"], "to": "D"}', "none of"),
    (b'{"format": "f32", "lanes": ["0x1"], "x": 1}', "unknown field"),
    (b'{"format": "f32", "lanes": ["0x1"], "label": "a\\u0000b"}', "control characters"),
    (b'{"format": "f32", "lanes": ["0x1"], "label": NaN}', "not JSON"),
    (b"[" * 5000, "not a JSON message"),
    (b'{"activate": [1]}', "activation"),
])
def test_bad_messages_are_refused_with_the_reason(text, reason) -> None:
    with pytest.raises(MessageError, match=reason):
        parse_request(text)


def test_too_many_lanes_and_too_long_messages_are_refused() -> None:
    many = json.dumps({"format": "f16", "lanes": ["0x0"] * (MAX_LANES + 1)}).encode()
    with pytest.raises(MessageError, match="at most 64"):
        parse_request(many)
    with pytest.raises(MessageError, match="too long"):
        parse_request(b" " * (MAX_MESSAGE_BYTES + 1))


def test_activation_and_target_spellings() -> None:
    assert parse_request(b'{"activate": ["0x3f800000"]}') == Activate(("0x3f800000",))
    assert parse_request(b'{"format": "F32", "lanes": ["0x1"], "to": "b"}').to == "B"
    assert parse_request(b'{"format": "f32", "lanes": ["0x1"], "to": "Inspector"}').to \
        == "inspector"


def test_origin_names_source_label_lanes_and_format() -> None:
    m = Message("f32", (0, 0, 0, 0), "$xmm0", "gdb")
    assert origin_text(m) == "from gdb: `$xmm0` lanes 0-3, f32"
    assert origin_text(Message("f64", (0,), "d", "lldb")) == "from lldb: `d` one lane, f64"


def test_reply_round_trip() -> None:
    assert parse_reply(reply_to_json(True, "ok", 12).encode()) == (True, "ok")
    assert parse_reply(reply_to_json(False, "no").encode()) == (False, "no")
    with pytest.raises(MessageError):
        parse_reply(b'{"message": "x"}')


_lanes = st.sampled_from(sorted(WIDTHS)).flatmap(lambda f: st.tuples(
    st.just(f), st.lists(st.integers(0, (1 << WIDTHS[f]) - 1), min_size=1,
                         max_size=MAX_LANES)))


@settings(max_examples=200, deadline=None)
@given(_lanes, st.text(max_size=200).filter(lambda t: t.isprintable()),
       st.sampled_from([None, "A", "B", "C", "inspector"]))
def test_any_message_survives_its_json_line(fl, label, to) -> None:
    fmt, lanes = fl
    m = Message(fmt, tuple(lanes), label, "gdb", to)
    assert parse_request(message_to_json(m).encode("utf-8")) == m


@settings(max_examples=600, deadline=None)
@given(st.binary(max_size=600))
def test_fuzz_bytes_only_ever_give_a_message_error(data) -> None:
    """Garbage never raises anything but MessageError (a reason for the sender)."""
    try:
        parse_request(data)
    except MessageError as exc:
        assert str(exc)


_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.sampled_from(["format", "lanes", "label", "source", "to", "activate", "x"]) | st.text(
            max_size=5), inner, max_size=5), max_leaves=20)


@settings(max_examples=600, deadline=None)
@given(_json)
def test_fuzz_json_shapes_only_ever_give_a_message_error(obj) -> None:
    try:
        got = parse_request(json.dumps(obj).encode())
    except MessageError as exc:
        assert str(exc)
    else:
        assert isinstance(got, Message | Activate)
