"""Lowering of intrinsic calls and constructors (the second half of :mod:`.lower`, on the
building blocks of :mod:`.builder`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from .builder import ProgramBuilder, Value
from .errors import ExprError
from .instructions import instruction
from .intrinsics import CONSTRUCTORS, INTRINSICS, Intrinsic
from .nodes import Call
from .program import ExprType, Ref

__all__ = ["lower_call"]


def lower_call(low: ProgramBuilder, node: Call) -> Value:
    """Lower ``name(args...)``: an intrinsic or a vector constructor."""
    name = node.name
    if name in CONSTRUCTORS:
        return _construct(low, node, CONSTRUCTORS[name])
    row = INTRINSICS.get(name)
    if row is None:
        near = [k for k in INTRINSICS if k.lower() == name.lower()]
        hint = f" (did you mean {near[0]}?)" if near else ""
        raise ExprError(f"unknown function '{name}'{hint}", node.pos, node.pos + len(name))
    want = row.arity
    if len(node.args) != want:
        raise ExprError(f"{name} takes {want} argument{'s' * (want > 1)}, got {len(node.args)}",
                        node.pos, node.end)
    args = [low.value(a) for a in node.args]
    fmt = low.fmt
    if row.bits32 and fmt.bits != 32:
        low.fail(f"{name} works on 32-bit values; this expression computes in {fmt.name}", node)
    return _LOWER.get(name, _componentwise)(low, node, row, args)


def _f16tof32(low: ProgramBuilder, node: Call, row: Intrinsic, args: list[Value]) -> Value:
    refs = low.uints(args[0], node.name)
    out = [low.emit("f16tof32", [r], "float", node, i if len(refs) > 1 else None)
           for i, r in enumerate(refs)]
    return Value(ExprType("float", len(out)), out, node)


def _float_args(low: ProgramBuilder, node: Call, args: list[Value]
                ) -> tuple[int, list[list[Ref]]]:
    """(component count, each argument's components as float operands)."""
    n = low.size(args, node, node.name)
    return n, [low.floats(a, node.name) for a in args]


def _abs(low: ProgramBuilder, node: Call, row: Intrinsic, args: list[Value]) -> Value:
    n, fl = _float_args(low, node, args)
    return Value(ExprType("float", n), [low.abs(r) for r in fl[0]], node)


def _saturate_call(low: ProgramBuilder, node: Call, row: Intrinsic, args: list[Value]
                   ) -> Value:
    n, fl = _float_args(low, node, args)
    return Value(ExprType("float", n), [_saturate(low, node, r, i if n > 1 else None)
                                         for i, r in enumerate(fl[0])], node)


def _f32tof16(low: ProgramBuilder, node: Call, row: Intrinsic, args: list[Value]) -> Value:
    n, fl = _float_args(low, node, args)
    out = [low.emit("f32tof16", [r], "half", node, i if n > 1 else None)
           for i, r in enumerate(fl[0])]
    return Value(ExprType("uint", n), out, node)


def _lerp(low: ProgramBuilder, node: Call, row: Intrinsic, args: list[Value]) -> Value:
    n, fl = _float_args(low, node, args)
    out = []
    for i in range(n):
        k = i if n > 1 else None
        a, b, t = (low.comp(f, i) for f in fl)
        d = low.emit("add", [b, low.neg(a)], "float", node, k, "lerp: d = b - a")
        out.append(low.emit("mad", [t, d, a], "float", node, k, "lerp: t * d + a"))
    return Value(ExprType("float", n), out, node)


def _componentwise(low: ProgramBuilder, node: Call, row: Intrinsic, args: list[Value]
                   ) -> Value:
    """One instruction (``row.op``) per component."""
    assert row.op is not None, f"{node.name} has no lowering"
    n, fl = _float_args(low, node, args)
    out = [low.emit(row.op, [low.comp(f, i) for f in fl], "float", node, i if n > 1 else None)
           for i in range(n)]
    return Value(ExprType("float", n), out, node)


def _dot(low: ProgramBuilder, node: Call, row: Intrinsic, args: list[Value]) -> Value:
    a, b = args
    if a.n != b.n:
        low.fail(f"dot({a.describe()}, {b.describe()}): both operands must have the same "
                 "size", node)
    ra, rb = low.floats(a, "dot"), low.floats(b, "dot")
    if a.n == 1:
        r = low.emit("mul", [ra[0], rb[0]], "float", node, None, "dot of scalars is mul")
    else:
        r = low.emit(f"dp{a.n}", ra + rb, "float", node)
    return Value(ExprType("float"), [r], node)


def _as_float(low: ProgramBuilder, node: Call, row: Intrinsic, args: list[Value]) -> Value:
    return _cast(low, node, args[0], "float")


def _as_uint(low: ProgramBuilder, node: Call, row: Intrinsic, args: list[Value]) -> Value:
    return _cast(low, node, args[0], "uint")


def _cast(low: ProgramBuilder, node: Call, v: Value, kind: str) -> Value:
    """asfloat/asuint: same bits, new kind; a modified operand is materialised by a mov."""
    if v.type is None:  # literal: its bits, folded as a compiler does
        r = low.uints(v, node.name)[0]
        bits = low.p.consts[r.index].bits
        return Value(ExprType(kind), [low.float_const(bits) if kind == "float" else r], node)
    if v.type.kind == "bool":
        low.fail(f"{node.name} of a bool: pick values with ?: instead", node)
    refs = []
    for i, r in enumerate(v.refs):
        if r.src == "const" and r.plain and not r.cast:  # a literal: fold
            bits = low.p.consts[r.index].bits
            refs.append(low.float_const(bits) if kind == "float"
                        else low.const(bits, "uint", f"0x{bits:X}"))
            continue
        if not r.plain:  # the modifier is part of a float instruction: mov it first
            r = low.emit("mov", [r], r.kind, node, i if v.n > 1 else None,
                         f"{node.name} of a modified operand: mov first")
        refs.append(r if r.kind == kind or (kind == "uint" and r.kind == "half")
                    else replace(r, kind=kind, cast=True))
    return Value(ExprType(kind, v.n), refs, node)


def _saturate(low: ProgramBuilder, node: Call, r: Ref, comp: int | None) -> Ref:
    """``_sat`` on the instruction that made ``r`` when nothing else reads it; else mov_sat."""
    if r.src == "step" and r.plain and not r.cast:
        made = low.p.steps[r.index]
        if made.sat:
            return r  # sat(sat(x)) = sat(x)
        if made.kind == "float" and instruction(made.op).has_sat and low.uses[r.index] == 0:
            low.p.steps[r.index] = replace(made, sat=True)
            return r
    s = low.emit("mov", [r], "float", node, comp, "saturate of an operand: mov_sat")
    low.p.steps[s.index] = replace(low.p.steps[s.index], sat=True)
    return s


def _construct(low: ProgramBuilder, node: Call, t: ExprType) -> Value:
    refs: list[Ref] = []
    for a in node.args:
        v = low.value(a)
        refs += low.floats(v, node.name) if t.kind == "float" else low.uints(v, node.name)
    if len(refs) != t.n:
        low.fail(f"{node.name} needs {t.n} component{'s' * (t.n > 1)}, got {len(refs)}", node)
    return Value(t, refs, node)


#: intrinsics lowered by a function of their own; every other one is componentwise
_LOWER: dict[str, Callable[[ProgramBuilder, Call, Intrinsic, list[Value]], Value]] = {
    "dot": _dot, "asfloat": _as_float, "asuint": _as_uint, "f16tof32": _f16tof32,
    "abs": _abs, "saturate": _saturate_call, "f32tof16": _f32tof16, "lerp": _lerp,
}
