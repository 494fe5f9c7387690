"""Lowering: type-check a syntax tree and turn it into D3D instruction steps (a Program).

Each construct lowers to what a D3D compiler emits (see docs/expressions.md): ``a - b`` is
``add a, -b``; ``a > b`` is ``lt b, a``; ``a <= b`` is ``ge b, a``; ``abs``/negation are
source modifiers on the consuming instruction; ``saturate`` is the ``_sat`` modifier of the
instruction that made its operand; ``c ? a : b`` is ``movc`` (a float condition is tested
with ``ne c, 0`` first). Intrinsic calls are in :mod:`.lower_calls`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

from ..formats import FloatFormat, get_format
from .errors import ExprError
from .intrinsics import CONSTRUCTORS, INTRINSICS, parse_type
from .literals import float_bits, read_literal
from .nodes import Binary, Call, Node, Num, Select, Swizzle, Unary, Var
from .parser import parse_expr
from .program import Const, ExprType, Input, Program, Ref, Step

__all__ = ["lower", "Value", "Lowerer", "short_text"]

_CMP = {"==": ("eq", False), "!=": ("ne", False), "<": ("lt", False), ">=": ("ge", False),
        ">": ("lt", True), "<=": ("ge", True)}  # (D3D op, swap operands)
_ARITH = {"+": "add", "-": "add", "*": "mul", "/": "div"}
_SWIZ = ("xyzw", "rgba")


def short_text(bits: int, fmt: FloatFormat) -> str:
    """Shortest decimal that reads back to ``bits`` (``0.1`` for 0x3DCCCCCD), as listings
    show constants."""
    import numpy as np  # noqa: PLC0415

    v = np.asarray(bits, fmt.dtype).view(np.float32 if fmt.bits == 32 else np.float16)[()]
    if not np.isfinite(v):
        return str(float(v))
    if v == 0 or 1e-4 <= abs(float(v)) < 1e7:
        return np.format_float_positional(v, unique=True, trim="-")
    return np.format_float_scientific(v, unique=True, trim="-")


@dataclass
class Value:
    """A lowered sub-expression: its type and one operand per component, or an integer
    literal (``lit``) whose meaning waits for its context."""

    type: ExprType | None
    refs: list[Ref]
    node: Node
    lit: int | None = None
    unsigned: bool = False

    @property
    def n(self) -> int:
        return 1 if self.type is None else self.type.n

    def describe(self) -> str:
        return "integer literal" if self.type is None else str(self.type)


class Lowerer:
    """Builds one Program; ``value(node)`` lowers a node, ``emit`` appends a step."""

    def __init__(self, text: str, var_types: Mapping[str, ExprType | str], fmt: FloatFormat):
        self.text = text
        self.fmt = fmt
        self.var_types = {k: parse_type(v) for k, v in var_types.items()}
        self.p = Program(text, fmt.name)
        self._slots: dict[tuple[str, int], int] = {}
        self._consts: dict[tuple[int, str], int] = {}
        self.uses: list[int] = []

    # -- building blocks -----------------------------------------------------------------
    def fail(self, message: str, node: Node) -> None:
        raise ExprError(message, node.pos, node.end)

    def const(self, bits: int, kind: str, text: str) -> Ref:
        key = (bits, kind)
        if key not in self._consts:
            self._consts[key] = len(self.p.consts)
            self.p.consts.append(Const(bits, kind, text))
        return Ref("const", self._consts[key], kind)

    def float_const(self, bits: int) -> Ref:
        return self.const(bits, "float", short_text(bits, self.fmt))

    def emit(self, op: str, args: list[Ref], kind: str, node: Node, comp: int | None = None,
             note: str = "") -> Ref:
        label = self.text[node.pos:node.end]
        if comp is not None:
            label += f" [.{'xyzw'[comp]}]"
        for a in args:
            if a.src == "step":
                self.uses[a.index] += 1
        self.p.steps.append(Step(op, tuple(args), kind, False, label, (node.pos, node.end), note))
        self.uses.append(0)
        return Ref("step", len(self.p.steps) - 1, kind)

    def neg(self, r: Ref) -> Ref:
        if r.src == "const" and not r.cast:
            c = self.p.consts[r.index]
            return self.float_const(c.bits ^ self.fmt.sign_mask if not r.abs
                                    else c.bits | self.fmt.sign_mask)
        return replace(r, neg=not r.neg)

    def abs(self, r: Ref) -> Ref:
        if r.src == "const" and not r.cast:
            return self.float_const(self.p.consts[r.index].bits & ~self.fmt.sign_mask)
        return replace(r, abs=True, neg=False)

    # -- coercions -----------------------------------------------------------------------
    def floats(self, v: Value, what: str) -> list[Ref]:
        """The value's components as float operands (integer literals by value)."""
        if v.type is None:
            return [self.float_const(float_bits(v.lit, self.fmt, v.node.pos, v.node.end))]
        if v.type.kind == "float":
            return v.refs
        hint = ("reinterpret its bits with asfloat(...)" if v.type.kind == "uint"
                else "pick values with ?: instead")
        self.fail(f"{what} takes float operands, got {v.type}: {hint}", v.node)
        raise AssertionError

    def uints(self, v: Value, what: str) -> list[Ref]:
        if v.type is None:
            bits = v.lit & 0xFFFFFFFF
            return [self.const(bits, "uint", f"0x{bits:X}")]
        if v.type.kind == "uint":
            return v.refs
        hint = "reinterpret its bits with asuint(...)" if v.type.kind == "float" else ""
        self.fail(f"{what} takes uint operands, got {v.type}" + (f": {hint}" if hint else ""),
                  v.node)
        raise AssertionError

    def size(self, values: list[Value], node: Node, what: str) -> int:
        n = max(v.n for v in values)
        for v in values:
            if v.n not in (1, n):
                shown = ", ".join(v.describe() for v in values)
                self.fail(f"{what}: operand sizes differ ({shown}); HLSL would truncate "
                          "silently, write the components you mean (.xy)", node)
        return n

    @staticmethod
    def comp(refs: list[Ref], i: int) -> Ref:
        return refs[0] if len(refs) == 1 else refs[i]

    # -- nodes ---------------------------------------------------------------------------
    def value(self, node: Node) -> Value:
        if isinstance(node, Num):
            lit = read_literal(node, self.fmt)
            if lit.integer is not None:
                return Value(None, [], node, lit.integer, lit.unsigned)
            return Value(ExprType("float"), [self.float_const(lit.bits)], node)
        if isinstance(node, Var):
            return self.variable(node)
        if isinstance(node, Unary):
            return self.unary(node)
        if isinstance(node, Binary):
            return self.binary(node)
        if isinstance(node, Select):
            return self.select(node)
        if isinstance(node, Swizzle):
            return self.swizzle(node)
        if isinstance(node, Call):
            from .lower_calls import lower_call  # noqa: PLC0415 - the two halves of one pass

            return lower_call(self, node)
        raise ExprError(f"unsupported construct {type(node).__name__}", node.pos, node.end)

    def variable(self, node: Var) -> Value:
        name = node.name
        if name in INTRINSICS or name in CONSTRUCTORS:
            self.fail(f"'{name}' is an intrinsic: call it, e.g. {name}(...)", node)
        t = self.var_types.get(name)
        if t is None:
            self.fail(f"unbound variable '{name}': give it a value (e.g. {name}=1.5)", node)
        self.p.variables[name] = t
        refs = []
        for c in range(t.n):
            key = (name, c)
            if key not in self._slots:
                self._slots[key] = len(self.p.inputs)
                self.p.inputs.append(Input(name, c, t.kind, t.n))
            refs.append(Ref("input", self._slots[key], t.kind))
        return Value(t, refs, node)

    def unary(self, node: Unary) -> Value:
        v = self.value(node.operand)
        if node.op == "+":
            return Value(v.type, v.refs, node, v.lit, v.unsigned)
        if v.type is None:
            return Value(None, [], node, -v.lit, v.unsigned)
        refs = [self.neg(r) for r in self.floats(v, "negation")]
        return Value(v.type, refs, node)

    def binary(self, node: Binary) -> Value:
        a, b = self.value(node.left), self.value(node.right)
        what = f"'{node.op}'"
        n = self.size([a, b], node, what)
        ra, rb = self.floats(a, what), self.floats(b, what)
        if node.op in _CMP:
            op, swap = _CMP[node.op]
            if swap:
                ra, rb = rb, ra
            refs = [self.emit(op, [self.comp(ra, i), self.comp(rb, i)], "bool", node,
                              i if n > 1 else None,
                              f"a {node.op} b is {op} b, a" if swap else "") for i in range(n)]
            return Value(ExprType("bool", n), refs, node)
        op = _ARITH[node.op]
        note = "a - b is add a, -b" if node.op == "-" else ""
        refs = []
        for i in range(n):
            x, y = self.comp(ra, i), self.comp(rb, i)
            if node.op == "-":
                y = self.neg(y)
            refs.append(self.emit(op, [x, y], "float", node, i if n > 1 else None, note))
        return Value(ExprType("float", n), refs, node)

    def select(self, node: Select) -> Value:
        c, a, b = self.value(node.cond), self.value(node.a), self.value(node.b)
        n = self.size([c, a, b], node, "?:")
        if c.type is not None and c.type.kind in ("bool", "uint"):
            cond = c.refs  # movc tests "any bit set" (a uint is read raw)
        else:
            zero = self.float_const(0)
            cond = [self.emit("ne", [r, zero], "bool", node.cond, i if c.n > 1 else None,
                              "float condition: ne c, 0") for i, r in enumerate(self.floats(c, "?:"))]
        kinds = {v.type.kind for v in (a, b) if v.type is not None}
        if len(kinds) > 1:
            self.fail(f"?: branches are {a.describe()} and {b.describe()}: reinterpret one "
                      "with asfloat/asuint", node)
        kind = kinds.pop() if kinds else "float"
        if kind == "bool":
            ra, rb = a.refs, b.refs
        else:
            conv = self.floats if kind == "float" else self.uints
            ra, rb = conv(a, "?:"), conv(b, "?:")
        refs = [self.emit("movc", [self.comp(cond, i), self.comp(ra, i), self.comp(rb, i)],
                          self.comp(ra, i).kind if kind != "float" else "float", node,
                          i if n > 1 else None) for i in range(n)]
        return Value(ExprType(kind, n), refs, node)

    def swizzle(self, node: Swizzle) -> Value:
        v = self.value(node.base)
        s = node.comps
        sets = [names for names in _SWIZ if all(ch in names for ch in s)]
        if not sets or len(s) > 4:
            raise ExprError(f"'.{s}' is not a swizzle: attribute access is not part of the "
                            "language (use up to four of x y z w, or r g b a)",
                            node.name_pos - 1, node.end)
        if v.type is None:
            self.fail("swizzles apply to variables and results, not to integer literals", node)
        idx = [sets[0].index(ch) for ch in s]
        for ch, i in zip(s, idx):
            if i >= v.n:
                raise ExprError(f"{v.describe()} has no component '{ch}'", node.name_pos,
                                node.end)
        return Value(ExprType(v.type.kind, len(idx)), [v.refs[i] for i in idx], node)

    # -- the end -------------------------------------------------------------------------
    def finish(self, v: Value) -> Program:
        """Make every result component an instruction's plain result (``mov`` otherwise)."""
        if v.type is None:
            v = Value(ExprType("float"), self.floats(v, "the result"), v.node)
        outs = []
        for i, r in enumerate(v.refs):
            if r.src == "step" and r.plain:
                outs.append((r.index, r.kind))
                continue
            s = self.emit("mov", [r], r.kind, v.node, i if v.n > 1 else None,
                          "result written with mov")
            outs.append((s.index, r.kind))
        self.p.outputs = outs
        self.p.type = v.type
        return self.p


def lower(text: str, var_types: Mapping[str, ExprType | str], format: str = "f32") -> Program:
    """Parse, type-check and lower ``text`` given the variables' types.

    Parameters
    ----------
    text : str
        The expression, e.g. ``"n * rsqrt(dot(n, n))"``.
    var_types : mapping of str to ExprType or str
        Type of every variable (``{"n": "float3"}``); a variable missing here is an error.
    format : {"f32", "f16"}
        Format of ``float`` values (f16: half arithmetic; conversions are then refused).

    Raises
    ------
    ExprError
        Syntax, unknown names, type errors and unbound variables, with position.
    """
    fmt = get_format(format)
    if fmt.name not in ("f32", "f16"):
        raise ValueError(f"expressions compute in f32 or f16, not {fmt.name}")
    low = Lowerer(text, var_types, fmt)
    return low.finish(low.value(parse_expr(text)))
