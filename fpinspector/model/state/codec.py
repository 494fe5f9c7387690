"""Serialisation of the inspector state: a JSON-ready dict and a compact one-line string."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from ..formats import FORMATS, operand_format
from .snapshot import STATE_PREFIX, Snapshot

__all__ = ["snapshot_to_dict", "snapshot_from_dict", "snapshot_to_string", "snapshot_from_string"]


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
        raise ValueError(f"unknown state field(s): {', '.join(sorted(unknown))}")
    kw = dict(d)
    for key in ("bits", "word"):
        if key in kw:
            kw[key] = _int_field(kw[key], key)
    if "operands" in kw:
        if not isinstance(kw["operands"], list):
            raise ValueError("operands must be a list of hex patterns")
        kw["operands"] = tuple(_int_field(v, "operand") for v in kw["operands"])
    if "options" in kw:
        if not isinstance(kw["options"], list):
            raise ValueError("options must be a list of names")
        kw["options"] = tuple(kw["options"])
    return Snapshot(**kw).validated()


def snapshot_to_string(snap: Snapshot) -> str:
    """Compact one-line state that :func:`snapshot_from_string` reads back exactly."""
    s = snap
    n = _last_nonzero(s.operands)
    ops = ",".join(f"{v:X}" for v in s.operands[:n])
    return (f"{STATE_PREFIX}v={s.fmt}:{s.bits:X};w={s.word:X};"
            f"op={s.op}:{s.op_format}:{s.rule_set};a={ops};o={','.join(s.options)}")


def snapshot_from_string(text: str) -> Snapshot:
    """Parse :func:`snapshot_to_string` output; raises ValueError naming the bad part."""
    t = text.strip()
    if not t.startswith(STATE_PREFIX):
        raise ValueError(f"a state string starts with {STATE_PREFIX!r}")
    parts: dict[str, str] = {}
    for item in t[len(STATE_PREFIX):].split(";"):
        if not item:
            continue
        key, sep, val = item.partition("=")
        if not sep or key not in ("v", "w", "op", "a", "o"):
            raise ValueError(f"state string: unexpected part {item!r}")
        parts[key] = val
    try:
        fmt, bits = parts["v"].split(":")
        op, op_fmt, rules = parts["op"].split(":")
    except (KeyError, ValueError):
        raise ValueError("state string: needs v=<fmt>:<hex> and op=<op>:<fmt>:<rules>") from None
    ops = tuple(_hex(v, "operand") for v in parts.get("a", "").split(",") if v)
    opts = tuple(o for o in parts.get("o", "").split(",") if o)
    return Snapshot(fmt, _hex(bits, "value"), _hex(parts.get("w", "0"), "word"), op,
                    op_fmt, rules, ops, opts).validated()


def _hex(text: str, what: str) -> int:
    try:
        return int(text, 16)
    except ValueError:
        raise ValueError(f"state string: {what} {text!r} is not hexadecimal") from None


def _int_field(v: Any, what: str) -> int:
    if isinstance(v, str):
        t = v.strip().lower()
        return _hex(t[2:] if t.startswith("0x") else t, what)
    if isinstance(v, int) and not isinstance(v, bool):
        return v
    raise ValueError(f"{what}: expected a hex string, got {v!r}")


def _last_nonzero(values: tuple[int, ...]) -> int:
    n = len(values)
    while n > 2 and values[n - 1] == 0:
        n -= 1
    return n
