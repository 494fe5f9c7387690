"""A value sent from a debugger to the app: raw bits per lane, their format, where they came from.

Why raw bits: a debugger holds the exact bytes and the type; decimal text in between loses
the width (a double prints like a float) and the bits (RenderDoc keeps 5 decimals). A
message carries each lane's bits as a ``0x...`` string, so what the app shows is what the
debugger held, by construction.

This file imports the standard library only, and nothing of fpinspector: the gdb, lldb and
RenderDoc scripts (``fpinspector/resources``) load it by its path into the debugger's own
Python, which has neither numpy nor this package. ``tests/model/test_send_message.py``
checks :data:`WIDTHS` against the model's formats.

The message, one JSON object on one line (UTF-8, ``\\n`` ends it on the channel)::

    {"format": "f32", "lanes": ["0x3f800000", "0x40000000"], "label": "$xmm0",
     "source": "gdb", "to": "A"}

``format`` and ``lanes`` are required; ``label`` (the debugger expression), ``source``
(``gdb``, ``lldb``, ``renderdoc``, ``cli``) and ``to`` (``A``, ``B``, ``C`` or
``inspector``) are optional. Lanes are the lowest first (memory order of a little-endian
vector). A second launch of the app sends ``{"activate": [argv...]}`` instead.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

__all__ = [
    "WIDTHS", "FLOAT_FORMATS", "PACKED_FORMATS", "INTEGER_FORMATS", "TARGETS", "MAX_LANES",
    "MAX_LABEL", "MAX_MESSAGE_BYTES", "Message", "Activate", "MessageError", "message_from_bytes",
    "message_to_json", "parse_request", "origin_text", "reply_to_json", "parse_reply",
]

#: Bits per lane of every format a message may name. Float formats are the model's
#: (a test checks them against its records); ``r11g11b10`` and
#: ``rgb9e5`` are packed 32-bit words; the rest are the integer code types of ops such as
#: itof and from_unorm8.
WIDTHS: dict[str, int] = {
    "f64": 64, "f32": 32, "f16": 16, "f11": 11, "f10": 10, "bf16": 16, "e5m2": 8, "e4m3": 8,
    "r11g11b10": 32, "rgb9e5": 32,
    "i32": 32, "u32": 32, "u16": 16, "u8": 8,
    "unorm8": 8, "unorm16": 16, "snorm8": 8, "snorm16": 16, "srgb8": 8,
}
FLOAT_FORMATS = ("f64", "f32", "f16", "f11", "f10", "bf16", "e5m2", "e4m3")
PACKED_FORMATS = ("r11g11b10", "rgb9e5")
INTEGER_FORMATS = tuple(f for f in WIDTHS if f not in FLOAT_FORMATS + PACKED_FORMATS)
#: Where a value may be sent: an operand, or the inspector only.
TARGETS = ("A", "B", "C", "inspector")
#: Most lanes a message holds: a zmm register's 32 f16 lanes twice over.
MAX_LANES = 64
#: Longest label (characters); a longer debugger expression is cut with "…".
MAX_LABEL = 200
#: Largest message on the channel, newline included (64 f64 lanes and a full label use
#: about 2 KiB). The app refuses anything longer without reading it all.
MAX_MESSAGE_BYTES = 8192

_KEYS = {"format", "lanes", "label", "source", "to"}
_LANE = re.compile(r"0[xX][0-9a-fA-F]{1,16}")
_SOURCE = re.compile(r"[a-z][a-z0-9_-]{0,31}")
_SOURCE_NAMES = {"gdb": "gdb", "lldb": "lldb", "renderdoc": "RenderDoc", "cli": "the command line"}


class MessageError(ValueError):
    """A message the app cannot take; ``str()`` is the reason, for the sender."""


@dataclass(frozen=True)
class Message:
    """One sent value: ``lanes`` (each lane's bits, the lowest lane first) in ``format``."""

    format: str
    lanes: tuple[int, ...]
    label: str = ""
    source: str = ""
    to: str | None = None

    def __post_init__(self) -> None:
        _check(self)

    @property
    def width(self) -> int:
        """Bits per lane."""
        return WIDTHS[self.format]


@dataclass(frozen=True)
class Activate:
    """A second launch of the app: its command-line arguments, handed to the first."""

    argv: tuple[str, ...]


def _check(m: Message) -> None:
    if m.format not in WIDTHS:
        raise MessageError(f"unknown format {m.format!r} (one of: {', '.join(WIDTHS)})")
    if not 1 <= len(m.lanes) <= MAX_LANES:
        raise MessageError(f"{len(m.lanes)} lanes: a message holds 1 to {MAX_LANES}")
    top = 1 << WIDTHS[m.format]
    for i, v in enumerate(m.lanes):
        if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v < top:
            raise MessageError(f"lane {i}: {v!r} is not a {WIDTHS[m.format]}-bit pattern "
                               f"of {m.format}")
    if not isinstance(m.label, str) or len(m.label) > MAX_LABEL:
        raise MessageError(f"the label is longer than {MAX_LABEL} characters")
    if any(not ch.isprintable() for ch in m.label):
        raise MessageError("the label holds control characters")
    if m.source and not _SOURCE.fullmatch(m.source):
        raise MessageError(f"source {m.source[:40]!r} is not a short lower-case name")
    if m.to is not None and m.to not in TARGETS:
        raise MessageError(f"target {str(m.to)[:40]!r} is none of {', '.join(TARGETS)}")


def _cut(label: str) -> str:
    label = "".join(ch if ch.isprintable() else " " for ch in label).strip()
    return label if len(label) <= MAX_LABEL else label[: MAX_LABEL - 1] + "…"


def message_from_bytes(data: bytes, format: str, label: str = "", source: str = "",
                       to: str | None = None) -> Message:
    """The message of ``data`` as the debugger holds it (little-endian lanes, lowest
    first): each lane is ``ceil(width / 8)`` bytes. MessageError when the bytes do not
    split into whole lanes, or an f11/f10 lane has bits above its width."""
    if format not in WIDTHS:
        raise MessageError(f"unknown format {format!r} (one of: {', '.join(WIDTHS)})")
    size = (WIDTHS[format] + 7) // 8
    if not data or len(data) % size:
        raise MessageError(f"{len(data)} bytes are not whole {format} lanes of {size} "
                           f"byte{'s' if size > 1 else ''}")
    lanes = tuple(int.from_bytes(data[i:i + size], "little") for i in range(0, len(data), size))
    return Message(format, lanes, _cut(label), source, to)


def message_to_json(m: Message) -> str:
    """The message as one line of JSON (no newline): lanes as ``0x`` and the lane's
    width in lower-case hex digits."""
    digits = (m.width + 3) // 4
    d: dict[str, object] = {"format": m.format, "lanes": [f"0x{v:0{digits}x}" for v in m.lanes],
                            "label": m.label}
    if m.source:
        d["source"] = m.source
    if m.to is not None:
        d["to"] = m.to
    return json.dumps(d, ensure_ascii=False, separators=(", ", ": "))


def _no_constant(name: str) -> object:
    raise MessageError(f"{name} is not JSON")


def _load(data: bytes | str) -> object:
    if isinstance(data, bytes):
        if len(data) > MAX_MESSAGE_BYTES:
            raise MessageError(f"message too long: {len(data)} bytes (at most "
                               f"{MAX_MESSAGE_BYTES})")
        try:
            data = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise MessageError(f"not UTF-8 text (byte {exc.start})") from None
    if len(data.encode("utf-8", "surrogatepass")) > MAX_MESSAGE_BYTES:
        raise MessageError(f"message too long (at most {MAX_MESSAGE_BYTES} bytes)")
    try:
        return json.loads(data, parse_constant=_no_constant)
    except MessageError:
        raise
    except (ValueError, RecursionError) as exc:
        raise MessageError(f"not a JSON message: {str(exc)[:80]}") from None


def parse_request(data: bytes | str) -> Message | Activate:
    """Read and check one message (a JSON object; bytes: UTF-8). MessageError says what is
    wrong: never anything else, whatever the input."""
    obj = _load(data)
    if not isinstance(obj, dict):
        raise MessageError("a message is a JSON object {\"format\": ..., \"lanes\": [...]}")
    if "activate" in obj:
        argv = obj["activate"]
        if len(obj) != 1 or not isinstance(argv, list) or len(argv) > 64 \
                or not all(isinstance(a, str) and len(a) <= 4096 for a in argv):
            raise MessageError("an activation is {\"activate\": [arguments...]} alone")
        return Activate(tuple(argv))
    extra = sorted(set(obj) - _KEYS)
    if extra:
        raise MessageError(f"unknown field {str(extra[0])[:40]!r} (fields: format, lanes, "
                           "label, source, to)")
    for key in ("format", "lanes"):
        if key not in obj:
            raise MessageError(f"the message has no {key!r}")
    fmt, lanes = obj["format"], obj["lanes"]
    if not isinstance(fmt, str):
        raise MessageError("'format' is a format name such as \"f32\"")
    fmt = fmt.lower()
    if fmt not in WIDTHS:
        raise MessageError(f"unknown format {fmt[:40]!r} (one of: {', '.join(WIDTHS)})")
    if not isinstance(lanes, list) or not lanes:
        raise MessageError("'lanes' is a list of hex strings such as [\"0x3f800000\"]")
    if len(lanes) > MAX_LANES:
        raise MessageError(f"{len(lanes)} lanes: a message holds at most {MAX_LANES}")
    bits = []
    for i, lane in enumerate(lanes):
        if not isinstance(lane, str) or not _LANE.fullmatch(lane):
            raise MessageError(f"lane {i}: {str(lane)[:40]!r} is not a 0x... hex string")
        bits.append(int(lane, 16))
    label, source, to = obj.get("label", ""), obj.get("source", ""), obj.get("to")
    if not isinstance(label, str) or not isinstance(source, str):
        raise MessageError("'label' and 'source' are strings")
    if isinstance(to, str):
        to = "inspector" if to.lower() == "inspector" else to.upper()
    elif to is not None:
        raise MessageError("'to' is one of " + ", ".join(TARGETS))
    return Message(fmt, tuple(bits), label, source, to)


def origin_text(m: Message) -> str:
    """Where the value came from, for the app's message area:
    ``from gdb: `$xmm0` lanes 0-3, f32``."""
    src = _SOURCE_NAMES.get(m.source, m.source or "a sender")
    n = len(m.lanes)
    what = f"lanes 0-{n - 1}" if n > 1 else "one lane"
    label = f"`{m.label}` " if m.label else ""
    return f"from {src}: {label}{what}, {m.format}"


def reply_to_json(ok: bool, text: str, pid: int | None = None) -> str:
    """The app's answer to one message: ``{"ok": true, "message": ...}`` or
    ``{"ok": false, "error": ...}`` (and the app's process id)."""
    d: dict[str, object] = {"ok": ok, "message" if ok else "error": text}
    if pid is not None:
        d["pid"] = pid
    return json.dumps(d, ensure_ascii=False)


def parse_reply(data: bytes) -> tuple[bool, str]:
    """(ok, text) of the app's answer; MessageError when it is not one."""
    obj = _load(data)
    if not isinstance(obj, dict) or not isinstance(obj.get("ok"), bool):
        raise MessageError("the app's answer is not a reply")
    text = obj.get("message" if obj["ok"] else "error", "")
    return obj["ok"], text if isinstance(text, str) else ""
