"""Serialisation of the inspector state: a JSON-ready dict and a compact one-line string.

Reading treats its input as untrusted (a pasted string, a workspace file): every field is
type-checked (names are text, patterns are hex text or integers, never floats or booleans),
the op and the options must be ones the rule engine knows, and every problem is a
``ValueError`` naming the field; nothing else escapes.
"""

from __future__ import annotations

import re
from dataclasses import asdict
from typing import Any

from ..formats import FORMATS, operand_format
from ..reading import excerpt
from .snapshot import MAX_OPERANDS, STATE_PREFIX, Snapshot

__all__ = ["snapshot_to_dict", "snapshot_from_dict", "snapshot_to_string", "snapshot_from_string",
           "MAX_STATE_CHARS"]

#: Longest state string read (a real one is under 200 characters).
MAX_STATE_CHARS = 4096
_HEX = re.compile(r"(?:0[xX])?[0-9a-fA-F]{1,16}\Z")
_NAMES = ("fmt", "op", "op_format", "rule_set")


def snapshot_to_dict(snap: Snapshot) -> dict:
    """JSON-ready dict (patterns as hex strings so 64-bit values survive JSON readers)."""
    d = asdict(snap)
    width = (operand_format(snap.op_format).bits + 3) // 4
    d["bits"] = f"0x{snap.bits:0{(FORMATS[snap.fmt].bits + 3) // 4}X}"
    d["word"] = f"0x{snap.word:08X}"
    d["operands"] = [f"0x{v:0{width}X}" for v in snap.operands]
    d["options"] = list(snap.options)
    return d


def snapshot_from_dict(d: Any) -> Snapshot:
    """Inverse of :func:`snapshot_to_dict`; raises ValueError with a clear message."""
    if not isinstance(d, dict):
        raise ValueError("state must be a JSON object")
    unknown = set(d) - set(Snapshot.__dataclass_fields__)
    if unknown:
        raise ValueError(f"unknown state field(s): {excerpt(sorted(map(str, unknown)), 60)}")
    kw = dict(d)
    for key in _NAMES:
        if key in kw and not isinstance(kw[key], str):
            raise ValueError(f"{key}: expected a name, got {_short(kw[key])}")
    for key in ("bits", "word"):
        if key in kw:
            kw[key] = _int_field(kw[key], key)
    if "operands" in kw:
        if not isinstance(kw["operands"], list) or len(kw["operands"]) > MAX_OPERANDS:
            raise ValueError(f"operands must be a list of at most {MAX_OPERANDS} hex patterns")
        kw["operands"] = tuple(_int_field(v, "operand") for v in kw["operands"])
    if "options" in kw:
        if not isinstance(kw["options"], list) or not all(isinstance(o, str)
                                                          for o in kw["options"]):
            raise ValueError("options must be a list of names")
        kw["options"] = tuple(kw["options"])
    return _checked(Snapshot(**kw))


def snapshot_to_string(snap: Snapshot) -> str:
    """Compact one-line state that :func:`snapshot_from_string` reads back exactly."""
    s = snap
    n = _last_nonzero(s.operands)
    ops = ",".join(f"{v:X}" for v in s.operands[:n])
    return (f"{STATE_PREFIX}v={s.fmt}:{s.bits:X};w={s.word:X};"
            f"op={s.op}:{s.op_format}:{s.rule_set};a={ops};o={','.join(s.options)}")


def snapshot_from_string(text: str) -> Snapshot:
    """Parse :func:`snapshot_to_string` output; raises ValueError naming the bad part."""
    if not isinstance(text, str):
        raise ValueError("a state string is text")
    t = text.strip()
    if not t.startswith(STATE_PREFIX):
        raise ValueError(f"a state string starts with {STATE_PREFIX!r}")
    if len(t) > MAX_STATE_CHARS:
        raise ValueError(f"state string: {len(t)} characters; at most {MAX_STATE_CHARS}")
    parts: dict[str, str] = {}
    for item in t[len(STATE_PREFIX):].split(";"):
        if not item:
            continue
        key, sep, val = item.partition("=")
        if not sep or key not in ("v", "w", "op", "a", "o"):
            raise ValueError(f"state string: unexpected part {_short(item)}")
        if key in parts:
            raise ValueError(f"state string: {key}= given twice")
        parts[key] = val
    try:
        fmt, bits = parts["v"].split(":")
        op, op_fmt, rules = parts["op"].split(":")
    except (KeyError, ValueError):
        raise ValueError("state string: needs v=<fmt>:<hex> and op=<op>:<fmt>:<rules>") from None
    ops = tuple(_hex(v, "operand") for v in parts.get("a", "").split(",") if v)
    if len(ops) > MAX_OPERANDS:
        raise ValueError(f"state string: {len(ops)} operands; at most {MAX_OPERANDS}")
    opts = tuple(o for o in parts.get("o", "").split(",") if o)
    return _checked(Snapshot(fmt, _hex(bits, "value"), _hex(parts.get("w", "0"), "word"), op,
                             op_fmt, rules, ops, opts))


def _checked(snap: Snapshot) -> Snapshot:
    """The validated snapshot, with an op and options the rule engine knows."""
    from ..engine import OPS, OPTIONS  # noqa: PLC0415 - the engine is loaded only to check

    snap = snap.validated()
    if snap.op not in OPS:
        raise ValueError(f"unknown op {_short(snap.op)}")
    for item in snap.options:
        name, sep, value = item.partition("=")
        opt = OPTIONS.get(name)
        if opt is None:
            raise ValueError(f"unknown option {_short(name)}; known: {', '.join(OPTIONS)}")
        choices = [str(c).lower() for c in opt.choices]
        if (value.lower() if sep else "true") not in choices:
            raise ValueError(f"option {name}: {_short(value or True)} is not one of "
                             f"{', '.join(map(str, opt.choices))}")
    return snap


def _short(v: Any) -> str:
    return excerpt(v, 40)


def _hex(text: str, what: str) -> int:
    if not _HEX.match(text):
        raise ValueError(f"state string: {what} {_short(text)} is not hexadecimal")
    return int(text, 16)


def _int_field(v: Any, what: str) -> int:
    if isinstance(v, str):
        return _hex(v.strip(), what)
    if isinstance(v, int) and not isinstance(v, bool):
        return v
    raise ValueError(f"{what}: expected a hex string, got {_short(v)}")


def _last_nonzero(values: tuple[int, ...]) -> int:
    n = len(values)
    while n > 2 and values[n - 1] == 0:
        n -= 1
    return n
