"""Variable bindings: what each variable holds (bit patterns), from text, numbers or arrays.

Per variable, one of:

- text: ``"1.5"``, ``"0x00000001"`` (a pattern), ``"-0"``, ``"nan"``, ``"float3(1e-20, 0, 0)"``,
  anything :func:`fpinspector.model.parse` reads (decimals round once to nearest even);
  ``"uint(0x3c00)"`` / ``"uint2(1, 2)"`` for uint variables;
- a Python float (a value, rounded to nearest even) or int (a bit pattern);
- a numpy array: integer dtypes are bit patterns, float dtypes values;
- a list/tuple of those: the components of a vector;
- ``(type, components)`` with a type name such as ``"uint"`` or ``"float3"``.

Arrays broadcast against each other: a sweep binds two variables to the A and B axes.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import numpy as np

from ..formats import FloatFormat, get_format
from ..parse import parse
from .intrinsics import parse_type
from .program import ExprType

__all__ = ["BindingError", "bind", "bind_one"]

_UINT = re.compile(r"^\s*uint([1-4]?)\s*\((.*)\)\s*$", re.S)
_FLOATN = re.compile(r"^\s*float([1-4]?)\s*\(", re.S)


class BindingError(ValueError):
    """A binding that cannot be read: ``name`` is the variable, ``pos`` the position in its
    text (0 when it is not text)."""

    def __init__(self, name: str, message: str, pos: int = 0) -> None:
        self.name, self.message, self.pos = name, message, pos
        super().__init__(f"{name}: {message}")


def _uint_words(name: str, body: str, offset: int) -> list[np.ndarray]:
    out = []
    pos = offset
    for part in body.split(","):
        t = part.strip()
        try:
            v = int(t.rstrip("uU"), 0)
        except ValueError:
            raise BindingError(name, f"'{t}' is not an integer", pos + part.find(t)) from None
        if not 0 <= v <= 0xFFFFFFFF:
            raise BindingError(name, f"{t} is outside uint's 32 bits", pos + part.find(t))
        out.append(np.asarray(v, np.uint32))
        pos += len(part) + 1
    return out


def _text(name: str, text: str, fmt: FloatFormat) -> tuple[ExprType, list[np.ndarray]]:
    m = _UINT.match(text)
    if m:
        comps = _uint_words(name, m.group(2), m.start(2))
        want = int(m.group(1)) if m.group(1) else 1
        if len(comps) != want:
            raise BindingError(name, f"uint{m.group(1)} needs {want} component(s), got "
                               f"{len(comps)}")
        return ExprType("uint", want), comps
    try:
        vals = parse(text, fmt)
    except ValueError as exc:
        raise BindingError(name, str(exc).splitlines()[0].rstrip(":"),
                           getattr(exc, "pos", 0) or 0) from None
    if not vals:
        raise BindingError(name, "no value given")
    m = _FLOATN.match(text)
    if m and m.group(1) and int(m.group(1)) != len(vals):
        raise BindingError(name, f"float{m.group(1)} needs {m.group(1)} components, got "
                           f"{len(vals)}")
    if len(vals) > 4:
        raise BindingError(name, f"{len(vals)} values: a variable holds at most 4 components")
    return ExprType("float", len(vals)), [np.asarray(v.bits, fmt.dtype) for v in vals]


def _scalar(name: str, v: Any, fmt: FloatFormat, kind: str) -> np.ndarray:
    if isinstance(v, str):
        t, comps = _text(name, v, fmt)
        if t.n != 1:
            raise BindingError(name, f"a component must be one value, got {t}")
        return comps[0]
    a = np.asarray(v)
    dt = fmt.dtype if kind == "float" else np.dtype(np.uint32)
    if a.dtype.kind == "f":
        if kind != "float":
            raise BindingError(name, "uint components are integers (bit patterns)")
        return np.asarray(fmt.encode(a.astype(np.float64)), dtype=dt)
    lim = fmt.mask if kind == "float" else 0xFFFFFFFF
    if a.dtype == object:  # Python ints too big for int64, or things that are no numbers
        flat = a.reshape(-1).tolist()
        if not all(isinstance(x, int) and not isinstance(x, bool) for x in flat):
            raise BindingError(name, f"cannot bind a {type(v).__name__}")
        if any(x < 0 or x > lim for x in flat):
            raise BindingError(name, f"bit patterns must be 0..0x{lim:X}")
        return np.array(flat, dtype=dt).reshape(a.shape)
    if a.dtype.kind in "iu":
        if a.size and (int(a.min()) < 0 or int(a.max()) > lim):
            raise BindingError(name, f"bit patterns must be 0..0x{lim:X}")
        return a.astype(dt)
    raise BindingError(name, f"cannot bind a {type(v).__name__}")


def bind_one(name: str, value: Any, fmt: FloatFormat) -> tuple[ExprType, list[np.ndarray]]:
    """(type, component bit arrays) of one variable's binding."""
    if isinstance(value, tuple) and len(value) == 2 and isinstance(value[0], str) \
            and value[0].strip().startswith(("float", "uint")):
        try:
            t = parse_type(value[0])
        except ValueError as exc:
            raise BindingError(name, str(exc)) from None
        comps = value[1] if isinstance(value[1], (list, tuple)) else [value[1]]
        if len(comps) != t.n:
            raise BindingError(name, f"{t} needs {t.n} components, got {len(comps)}")
        return t, [_scalar(name, c, fmt, t.kind) for c in comps]
    if isinstance(value, str):
        if not value.strip():
            raise BindingError(name, "no value given")
        return _text(name, value, fmt)
    if isinstance(value, (list, tuple)):
        if not 1 <= len(value) <= 4:
            raise BindingError(name, f"{len(value)} components: a vector has 1 to 4")
        return ExprType("float", len(value)), [_scalar(name, c, fmt, "float") for c in value]
    return ExprType("float"), [_scalar(name, value, fmt, "float")]


def bind(bindings: Mapping[str, Any], format: str = "f32"
         ) -> tuple[dict[str, ExprType], dict[str, list[np.ndarray]]]:
    """Types and component arrays of every binding (see the module docstring)."""
    fmt = get_format(format)
    types, values = {}, {}
    for name, v in bindings.items():
        if not isinstance(name, str) or not re.fullmatch(r"[A-Za-z_][A-Za-z_0-9]*", name):
            raise BindingError(str(name), "a variable name is a letter or _ then letters, "
                               "digits or _")
        types[name], values[name] = bind_one(name, v, fmt)
    return types, values
