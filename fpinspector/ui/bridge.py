"""The UI's single doorway to the model: parsing, describing, converting, evaluating, the GPU.

Every number the app shows comes from ``fpinspector.model`` / ``fpinspector.gpu`` through
these functions; the widgets format strings only. Pieces owned by other modules are imported
lazily so the app still starts (with a clear note) when one of them is missing.
"""

from __future__ import annotations

import functools
import importlib
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..model.formats import FORMATS, get_format

__all__ = [
    "ParsedItem", "parse_values", "value_text", "encode_text", "optional", "missing_note",
    "describe", "convert_bits", "convert_with_rules", "convert_lazy", "model_call",
    "d3d_conversions",
]


@dataclass(frozen=True)
class ParsedItem:
    """One pasted value: its format name, bit pattern and the parser's kind label."""

    fmt: str
    bits: int
    kind: str


def model_call(what: str):
    """Decorator: any failure inside the model reaches the UI as a ValueError with a plain
    message (shown inline), never as a traceback in a Qt slot."""

    def wrap(fn):
        @functools.wraps(fn)
        def inner(*args, **kwargs):
            try:
                return fn(*args, **kwargs)
            except ValueError:
                raise
            except Exception as exc:  # noqa: BLE001 - the UI boundary: report, don't crash
                raise ValueError(f"{what} failed: {type(exc).__name__}: {exc}") from exc

        return inner

    return wrap


def optional(module: str, name: str) -> Any | None:
    """``module.name`` when that part of the model exists yet, else None."""
    try:
        return getattr(importlib.import_module(module), name)
    except (ImportError, AttributeError):
        return None


def missing_note(what: str) -> str:
    return f"({what} is not available in this build)"


@model_call("parsing")
def parse_values(text: str, fmt: str | None = None) -> list[ParsedItem]:
    """Parse pasted text with the model's parser (RULES.md formats); ValueError on bad input."""
    parse = optional("fpinspector.model", "parse")
    if parse is None:
        parse = optional("fpinspector.model.parse", "parse")
    if parse is None:
        raise ValueError("the paste parser is not available in this build")
    items = parse(text, format=fmt)
    out = []
    for it in items:
        f = it.format if isinstance(it.format, str) else get_format(it.format).name
        out.append(ParsedItem(get_format(f).name, int(it.bits), str(getattr(it, "kind", ""))))
    if not out:
        raise ValueError("nothing to paste: no value found in the text")
    return out


@model_call("reading the value")
def encode_text(fmt: str, text: str) -> int:
    """Bits of a decimal/hex-float/special typed into a field of format ``fmt``.

    Uses the parser when present (it knows every notation); otherwise the format's own exact
    round-to-nearest-even encoder for decimal text.
    """
    t = text.strip()
    if not t:
        raise ValueError("empty value")
    try:
        items = parse_values(t, fmt)
    except ValueError as exc:
        if "not available" not in str(exc):
            raise
        try:
            return int(get_format(fmt).encode(t))
        except (ArithmeticError, ValueError) as exc2:
            raise ValueError(f"not a number: {t!r}") from exc2
    if len(items) != 1:
        raise ValueError(f"expected one value, found {len(items)}")
    item = items[0]
    if item.fmt != get_format(fmt).name:
        return convert_bits(item.bits, item.fmt, fmt)
    return item.bits


def value_text(fmt: str, bits: int) -> str:
    """Shortest decimal that reads back to ``bits`` (the model's ``shortest_decimal``)."""
    return _shortest(get_format(fmt).name, int(bits))


@functools.lru_cache(maxsize=8192)
def _shortest(fmt: str, bits: int) -> str:
    fn = optional("fpinspector.model.describe", "shortest_decimal")
    if fn is not None:
        return str(fn(bits, fmt))
    f = get_format(fmt)
    v = float(f.decode(np.asarray(bits, dtype=f.dtype)))
    if f.bits == 32:
        return repr(np.float32(v)).removeprefix("np.float32(").removesuffix(")")
    if f.bits == 16 and f.signed:
        return repr(np.float16(v)).removeprefix("np.float16(").removesuffix(")")
    return repr(v)


def describe(fmt: str, bits: int) -> Any | None:
    """The model's ValueInfo for one pattern, or None when describe is not available."""
    fn = optional("fpinspector.model.describe", "describe")
    if fn is None:
        return None
    try:
        return fn(int(bits), get_format(fmt))
    except Exception:  # noqa: BLE001 - the panel falls back to the format's own fields
        return None


@model_call("conversion")
def convert_bits(bits: int, src: str, dst: str, variant: str = "d3d") -> int:
    """One pattern through the model's conversion (CONV-* rules) as a Python int."""
    convert = optional("fpinspector.model.convert", "convert")
    if convert is None:
        raise ValueError("conversions are not available in this build")
    res = convert(np.asarray(bits, dtype=get_format(src).dtype), get_format(src).name,
                  get_format(dst).name, variant)
    return int(np.asarray(res.bits))


@model_call("conversion")
def convert_with_rules(bits: int, src: str, dst: str, variant: str = "d3d") -> tuple[int, list[str]]:
    """(result pattern, fired rule IDs) of one conversion through the model."""
    convert = optional("fpinspector.model.convert", "convert")
    if convert is None:
        raise ValueError(missing_note("the conversion model"))
    res = convert(np.asarray(bits, dtype=get_format(src).dtype), get_format(src).name,
                  get_format(dst).name, variant)
    return int(np.asarray(res.bits)), list(res.rules_at(0))


@model_call("conversion")
def convert_lazy(bits: int, src: str, dst: str, variant: str = "d3d") -> tuple[int, Any]:
    """(result pattern, a callable giving the fired rule IDs): the rules only when asked."""
    convert = optional("fpinspector.model.convert", "convert")
    if convert is None:
        raise ValueError(missing_note("the conversion model"))
    res = convert(np.asarray(bits, dtype=get_format(src).dtype), get_format(src).name,
                  get_format(dst).name, variant)
    return int(np.asarray(res.bits)), lambda: list(res.rules_at(0))


def format_names() -> list[str]:
    return list(FORMATS)


def d3d_conversions(fmt: str, bits: int) -> dict[str, tuple[int, list[str]]]:
    """(pattern, fired rules) of the value in every other format by the D3D rules, once
    per edit for the decode panel and the all-formats panel."""
    out = {}
    for dst in FORMATS:
        if dst != fmt:
            try:
                out[dst] = convert_with_rules(bits, fmt, dst)
            except ValueError:
                continue  # each panel shows its own message for a missing conversion
    return out
