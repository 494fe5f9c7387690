"""The UI's doorway to the model for the calls that need the UI's care: parsing (a long
paste read on a thread), describing and converting (answers cached per edit, filled ahead
by the prefetch), the GPU.

The rule engine's half is :mod:`.bridge_ops`. Views compute nothing: what they show comes
from the model, through here where a call can fail, be slow or repeat, and directly for its
tables and small pure functions. A failure inside the model reaches the widgets as a
ValueError with a plain message (:func:`model_call`).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..model.convert import ConversionResult, convert
from ..model.convert.variants import get_variant
from ..model.describe import ValueInfo, exact_decimal, hex_float, rounding_anatomy, shortest_decimal
from ..model.describe import describe as describe_value
from ..model.formats import FORMATS, get_format
from ..model.parse import parse
from ..model.state import InspectorState
from ..model.state.paste import PasteResult, needs_readings, paste_text, paste_work, readings
from .memo import Memo

__all__ = [
    "ParsedItem", "parse_values", "value_text", "exact_value", "exact_tip", "encode_text", "describe", "convert_bits",
    "convert_with_rules", "convert_lazy", "model_call", "d3d_conversions", "prefetch_conversions",
    "anatomy_text", "prefetch_anatomies", "paste", "clear_caches",
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


@model_call("parsing")
def parse_values(text: str, fmt: str | None = None) -> list[ParsedItem]:
    """Parse pasted text with the model's parser (docs/rules.md formats); ValueError on bad input."""
    out = [ParsedItem(get_format(v.format).name, int(v.bits), v.kind)
           for v in parse(text, format=fmt)]
    if not out:
        raise ValueError("nothing to paste: no value found in the text")
    return out


@model_call("reading the value")
def encode_text(fmt: str, text: str) -> int:
    """Bits of a decimal/hex-float/special typed into a field of format ``fmt`` (the parser
    knows every notation; a value read in another width is converted by the D3D rules)."""
    t = text.strip()
    if not t:
        raise ValueError("empty value")
    items = parse_values(t, fmt)
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
    return shortest_decimal(bits, fmt)


def exact_value(fmt: str, bits: int) -> str:
    """The pattern's value written out in full (every digit; binary fractions end)."""
    return _exact(get_format(fmt).name, int(bits))


@functools.lru_cache(maxsize=4096)
def _exact(fmt: str, bits: int) -> str:
    return exact_decimal(bits, fmt)


def exact_tip(fmt: str, bits: int) -> str:
    """Tooltip of a shown value: the exact expansion and the hex float (floats only)."""
    if fmt not in FORMATS:
        return ""
    exact = exact_value(fmt, bits)
    if exact.lstrip("-") in ("inf", "nan"):
        return f"{fmt} 0x{int(bits):X}: {exact}"
    lines = "\n".join(exact[i:i + 64] for i in range(0, len(exact), 64))  # no screen-wide tip
    return f"{fmt} 0x{int(bits):X} is exactly\n{lines}\n= {hex_float(int(bits), fmt)}"


@model_call("describing the value")
def describe(fmt: str, bits: int) -> ValueInfo:
    """The model's ValueInfo for one pattern."""
    return describe_value(int(bits), get_format(fmt))


def _convert(bits: int, src: str, dst: str, variant: str) -> ConversionResult:
    s = get_format(src)
    get_variant(variant).policy_check(dst)  # a family without code for dst: its sentence
    return convert(np.asarray(bits, dtype=s.dtype), s.name, get_format(dst).name, variant)


@model_call("conversion")
def convert_bits(bits: int, src: str, dst: str, variant: str = "d3d") -> int:
    """One pattern through the model's conversion (CONV-* rules) as a Python int."""
    return int(np.asarray(_convert(bits, src, dst, variant).bits))


@model_call("conversion")
def convert_with_rules(bits: int, src: str, dst: str, variant: str = "d3d") -> tuple[int, list[str]]:
    """(result pattern, fired rule IDs) of one conversion through the model."""
    res = _convert(bits, src, dst, variant)
    return int(np.asarray(res.bits)), list(res.rules_at(0))


#: Answers kept per value: (src, bits, dst, variant) -> convert_lazy's answer, and
#: (fmt, bits) -> d3d_conversions' answer. A prefetch fills them for the values one bit
#: flip away from the inspected value and from each All formats row (about 135 values per
#: edit, ~3,800 variant answers), so they hold a few edits' neighbourhoods.
_LAZY = Memo(16384)
_D3D = Memo(1024)


def convert_lazy(bits: int, src: str, dst: str, variant: str = "d3d") -> tuple[int, Any]:
    """(result pattern, a callable giving the fired rule IDs): the rules only when asked.
    Kept: stepping back and forth over a value converts it once, and a prefetched value
    (:func:`prefetch_conversions`) not at all."""
    key = (get_format(src).name, int(bits), get_format(dst).name, variant)
    return _LAZY.get_or(key, lambda: _convert_lazy(*key))


@model_call("conversion")
def _convert_lazy(src: str, bits: int, dst: str, variant: str) -> tuple[int, Any]:
    res = _convert(bits, src, dst, variant)
    return int(np.asarray(res.bits)), functools.partial(_rules_at, res, 0)


def _rules_at(res: ConversionResult, i: int) -> list[str]:
    return list(res.rules_at(i))


@model_call("conversion")
def prefetch_conversions(src: str, patterns: Sequence[int], variants: Sequence[str]) -> None:
    """Convert ``patterns`` of ``src`` into every other format by each of ``variants``,
    one model call per (format, variant) for all of them, and keep each answer where
    :func:`convert_lazy` (and for ``"d3d"`` :func:`d3d_conversions`) looks first.

    Why: the app converts the inspected value about thirty ways per edit, each a numpy
    call on one element (about 50 us in the app); the same call on the 32 values one bit
    flip away costs about as much, so an idle moment after an edit makes the next bit
    click find its answers. Patterns kept already are skipped (and count as used: kept
    for the next click). When the model refuses a batch nothing of it is kept (the edit
    converts that value itself and shows why).
    """
    s = get_format(src)
    others = [d for d in FORMATS if d != s.name]
    for var in variants:
        if var == "d3d":
            todo = [int(b) for b in patterns if _D3D.get((s.name, int(b))) is None]
            if not todo:
                continue
            arr = np.asarray(todo, dtype=s.dtype)
            per: list[dict[str, tuple[int, list[str]]]] = [{} for _ in todo]
            for dst in others:
                res = convert(arr, s.name, dst, "d3d")
                for i, out in enumerate(np.asarray(res.bits).tolist()):
                    per[i][dst] = (out, _rules_at(res, i))  # (as convert_with_rules)
            for b, answer in zip(todo, per):
                _D3D.put((s.name, b), answer)
            continue
        for dst in (d for d in others if get_variant(var).covers(d)):
            todo = [int(b) for b in patterns if _LAZY.get((s.name, int(b), dst, var)) is None]
            if not todo:
                continue
            res = convert(np.asarray(todo, dtype=s.dtype), s.name, dst, var)
            for i, (b, out) in enumerate(zip(todo, np.asarray(res.bits).tolist())):
                _LAZY.put((s.name, b, dst, var), (out, functools.partial(_rules_at, res, i)))


def d3d_conversions(fmt: str, bits: int) -> dict[str, tuple[int, list[str]]]:
    """(pattern, fired rules) of the value in every other format by the D3D rules; computed
    once per edit for the decode panel and the all-formats panel (the second asks the
    cache)."""
    key = (get_format(fmt).name, int(bits))
    hit = _D3D.get(key)
    if hit is None:
        hit = {}
        for dst in FORMATS:
            if dst != key[0]:
                try:
                    hit[dst] = convert_with_rules(key[1], key[0], dst)
                except ValueError:
                    continue  # each panel shows its own message for a failed conversion
        _D3D.put(key, hit)
    return dict(hit)


#: (src, bits, dst, variant) -> the anatomy's text (:func:`anatomy_text`): the prefetch
#: fills it for the selected cell of the values one bit flip away (32, f64 64, per edit).
_ANATOMY = Memo(512)


def anatomy_text(bits: int, src: str, dst: str, variant: str) -> str:
    """The rounding anatomy of ``bits`` (format ``src``) converted into ``dst`` by
    ``variant``, as the Conversions view shows it: a title line, then the model's anatomy
    (``rounding_anatomy``), or the title and why there is none (the model's message).

    Kept per value: the model's anatomy is 0.1-0.26 ms of exact arithmetic, the one model
    call a prefetched bit click still made (:func:`prefetch_anatomies` fills it ahead)."""
    key = (get_format(src).name, int(bits), get_format(dst).name, variant)
    return _ANATOMY.get_or(key, lambda: _anatomy_text(*key))


def _anatomy_text(src: str, bits: int, dst: str, variant: str) -> str:
    try:
        an = rounding_anatomy(bits, dst, variant=variant, src=src)
    except (ValueError, TypeError) as exc:
        return f"{src} → {dst} ({variant}): {exc}"
    return f"{src} → {dst} by {variant}\n{an.text()}"


def prefetch_anatomies(src: str, patterns: Sequence[int], dst: str, variant: str) -> None:
    """Work out the anatomies of ``patterns`` ahead (:func:`anatomy_text`), one at a time:
    the model's anatomy is scalar exact arithmetic, so there is no batch to share; a kept
    one is skipped (and counts as used)."""
    for b in patterns:
        anatomy_text(b, src, dst, variant)


def clear_caches() -> None:
    """Forget every answer cached per value (shortest and exact decimals, conversions), as
    in a fresh process: the latency benchmark times edits to values never seen before."""
    for cached in (_shortest, _exact):
        cached.cache_clear()
    _LAZY.clear()
    _D3D.clear()
    _ANATOMY.clear()


#: Pastes costing more than this (characters + values their ``<repeats N times>`` make) are
#: read on a thread (the window keeps running meanwhile).
BACKGROUND_PASTE_CHARS = 2000


@model_call("pasting")
def paste(state: InspectorState, text: str, reading: str | None = None) -> PasteResult:
    """Paste text into the state (:func:`fpinspector.model.state.paste.paste_text`): what
    was read how, which value became which operand, the other readings on offer. A long
    text is read on a thread while the event loop runs; the state changes on this one."""
    found = None
    if paste_work(text) > BACKGROUND_PASTE_CHARS:
        from .background import wait_in_event_loop

        op_fmt, fmt = state.snapshot.op_format, state.snapshot.fmt
        found = wait_in_event_loop(
            lambda: readings(text, fmt) if needs_readings(op_fmt, text) else None)
    return paste_text(state, text, reading, found)
