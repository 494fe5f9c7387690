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

__all__ = ["ParsedItem", "parse_values", "value_text", "encode_text", "optional", "missing_note"]


@dataclass(frozen=True)
class ParsedItem:
    """One pasted value: its format name, bit pattern and the parser's kind label."""

    fmt: str
    bits: int
    kind: str


def optional(module: str, name: str) -> Any | None:
    """``module.name`` when that part of the model exists yet, else None."""
    try:
        return getattr(importlib.import_module(module), name)
    except (ImportError, AttributeError):
        return None


def missing_note(what: str) -> str:
    return f"({what} is not available in this build)"


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
    return fn(int(bits), get_format(fmt))


def convert_bits(bits: int, src: str, dst: str, variant: str = "d3d") -> int:
    """One pattern through the model's conversion (CONV-* rules) as a Python int."""
    convert = optional("fpinspector.model.convert", "convert")
    if convert is None:
        raise ValueError("conversions are not available in this build")
    res = convert(np.asarray(bits, dtype=get_format(src).dtype), get_format(src).name,
                  get_format(dst).name, variant)
    return int(np.asarray(res.bits))


def convert_with_rules(bits: int, src: str, dst: str, variant: str = "d3d") -> tuple[int, list[str]]:
    """(result pattern, fired rule IDs) of one conversion through the model."""
    convert = optional("fpinspector.model.convert", "convert")
    if convert is None:
        raise ValueError(missing_note("the conversion model"))
    res = convert(np.asarray(bits, dtype=get_format(src).dtype), get_format(src).name,
                  get_format(dst).name, variant)
    return int(np.asarray(res.bits)), list(res.rules_at(0))


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


# -- the rule engine -------------------------------------------------------------------

#: Op names of the engine contract, used only until the engine's OPS table is importable.
_FALLBACK_OPS = ("add", "sub", "mul", "div", "mad", "dp2", "dp3", "dp4", "min", "max", "eq",
                 "ne", "lt", "le", "gt", "ge", "sqrt", "rsq", "rcp", "log", "exp", "frc",
                 "round_ne", "round_ni", "round_pi", "round_z", "mov")


@dataclass(frozen=True)
class OpInfo:
    """What the pickers need to know about one op."""

    name: str
    arity: int
    formats: tuple[str, ...]
    description: str


def ops() -> dict[str, OpInfo]:
    """The engine's ops (``OPS``), or an empty dict when the engine is not available."""
    table = optional("fpinspector.model", "OPS") or optional("fpinspector.model.engine", "OPS")
    if not table:
        return {}
    out = {}
    for name, spec in table.items():
        out[name] = OpInfo(name, int(spec.arity), tuple(getattr(spec, "formats", ("f32",))),
                           str(getattr(spec, "description", "")))
    return out


def rule_sets() -> tuple[str, ...]:
    return tuple(optional("fpinspector.model", "RULE_SETS")
                 or optional("fpinspector.model.engine", "RULE_SETS") or ("d3d11", "d3d10", "ieee754"))


@dataclass(frozen=True)
class OptionInfo:
    """One AMBIGUOUS switch of the engine: its choices (as text), default and explanation."""

    name: str
    choices: tuple[str, ...]
    default: str
    text: str


def option_infos() -> dict[str, OptionInfo]:
    """The engine's ``OPTIONS`` (empty when the engine has none)."""
    opts = optional("fpinspector.model", "OPTIONS") or optional("fpinspector.model.engine", "OPTIONS")
    out = {}
    for name, o in (opts or {}).items():
        choices = tuple(str(c) for c in getattr(o, "choices", (False, True)))
        out[str(name)] = OptionInfo(str(name), choices, str(getattr(o, "default", choices[0])),
                                    f"{getattr(o, 'rule', '')}: {getattr(o, 'text', '')}")
    return out


def options_dict(options: tuple[str, ...]) -> dict[str, Any] | None:
    """State option strings ("name=value") as the engine's options mapping."""
    out: dict[str, Any] = {}
    opts = optional("fpinspector.model", "OPTIONS") or optional("fpinspector.model.engine", "OPTIONS") or {}
    for item in options:
        name, _, text = item.partition("=")
        value: Any = text or True
        o = opts.get(name)
        if o is not None and text:
            for c in getattr(o, "choices", ()):
                if str(c) == text:
                    value = c
        out[name] = value
    return out or None


@dataclass
class OpOutcome:
    """One evaluated op, unpacked for display (all values come from ``evaluate``)."""

    evaluation: Any
    result_format: str
    bits: int
    exact: float
    lo: int | None
    hi: int | None
    nan_ok: bool
    rules: list[str]
    explain: list[str]
    steps: list[str]

    def judge(self, observed: int) -> tuple[bool, float]:
        """(conformant, ULP error) of an observed result pattern, from the model."""
        ev = self.evaluation
        obs = np.asarray([observed]).astype(np.asarray(ev.bits).dtype)
        ok = bool(np.asarray(ev.allowed(obs)).reshape(-1)[0])
        try:
            err = float(np.asarray(ev.ulp_error(obs)).reshape(-1)[0])
        except (ValueError, TypeError):
            err = float("nan")
        return ok, err


def evaluate(op: str, operands: tuple[int, ...], fmt: str, rules: str,
             options: tuple[str, ...] = ()) -> OpOutcome:
    """Evaluate one op on scalar operand patterns; ValueError when it cannot be evaluated."""
    fn = optional("fpinspector.model", "evaluate") or optional("fpinspector.model.engine", "evaluate")
    if fn is None:
        raise ValueError("the rule engine is not available in this build")
    info = ops().get(op)
    if info is None:
        raise ValueError(f"unknown op {op!r}")
    f = get_format(fmt)
    args = [np.asarray([v], dtype=f.dtype) for v in operands[: info.arity]]
    opts = options_dict(options)
    ev = fn(op, *args, format=f.name, rules=rules, options=opts)
    first = lambda a: np.asarray(a).reshape(-1)[0]  # noqa: E731
    nan_ok = getattr(ev, "nan_ok", None)
    lo, hi = getattr(ev, "lo", None), getattr(ev, "hi", None)
    return OpOutcome(
        evaluation=ev,
        result_format=str(ev.result_format),
        bits=int(first(ev.bits)),
        exact=float(first(ev.exact)) if getattr(ev, "exact", None) is not None else float("nan"),
        lo=None if lo is None else int(first(lo)),
        hi=None if hi is None else int(first(hi)),
        nan_ok=bool(first(nan_ok)) if nan_ok is not None else False,
        rules=list(ev.rules_at(0)),
        explain=list(ev.explain_at(0)),
        steps=list(ev.steps_at(0)) if hasattr(ev, "steps_at") else [],
    )


def result_text(fmt: str, bits: int) -> str:
    """How a result pattern of ``fmt`` (a float format, bool, i32 or u32) reads."""
    if fmt == "bool":
        return "true" if bits else "false"
    if fmt.startswith(("unorm", "srgb")):
        return f"code {bits}"
    if fmt.startswith("snorm"):
        width = int("".join(c for c in fmt if c.isdigit()) or 8)
        v = bits & ((1 << width) - 1)
        return f"code {v - (1 << width) if v >> (width - 1) else v}"
    if fmt in ("i32", "u32", "u8", "u16", "i8", "i16"):
        width = int(fmt[1:])
        v = bits & ((1 << width) - 1)
        if fmt.startswith("i") and v >> (width - 1):
            v -= 1 << width
        return str(v)
    try:
        return value_text(fmt, bits)
    except ValueError:
        return f"0x{bits:X}"
