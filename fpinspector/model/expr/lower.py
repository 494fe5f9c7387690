"""Lowering: type-check a syntax tree and turn it into D3D instruction steps (a Program).

Each construct lowers to what a D3D compiler emits (see docs/expressions.md): ``a - b`` is
``add a, -b``; ``a > b`` is ``lt b, a``; ``a <= b`` is ``ge b, a``; ``abs``/negation are
source modifiers on the consuming instruction; ``saturate`` is the ``_sat`` modifier of the
instruction that made its operand; ``c ? a : b`` is ``movc`` (a float condition is tested
with ``ne c, 0`` first). Intrinsic calls are in :mod:`.lower_calls`, the building blocks
both use in :mod:`.builder`.
"""

from __future__ import annotations

from collections.abc import Mapping

from ..formats import FloatFormat, get_format
from .builder import ProgramBuilder, Value, short_text
from .errors import ExprError
from .instructions import expression_formats
from .intrinsics import CONSTRUCTORS, INTRINSICS
from .literals import read_literal
from .lower_calls import lower_call
from .nodes import Binary, Call, Node, Num, Select, Swizzle, Unary, Var
from .parser import parse_expr
from .program import ExprType, Input, Program, Ref

__all__ = ["lower", "Value", "Lowerer", "short_text"]

_CMP = {"==": ("eq", False), "!=": ("ne", False), "<": ("lt", False), ">=": ("ge", False),
        ">": ("lt", True), "<=": ("ge", True)}  # (D3D op, swap operands)
_ARITH = {"+": "add", "-": "add", "*": "mul", "/": "div"}
_SWIZ = ("xyzw", "rgba")


class Lowerer(ProgramBuilder):
    """Builds one Program from a syntax tree; ``value(node)`` lowers a node."""

    def __init__(self, text: str, var_types: Mapping[str, ExprType | str],
                 fmt: FloatFormat) -> None:
        super().__init__(text, var_types, fmt)
        self._slots: dict[tuple[str, int], int] = {}

    # -- nodes ---------------------------------------------------------------------------
    def value(self, node: Node) -> Value:
        if isinstance(node, Num):
            lit = read_literal(node, self.fmt)
            if lit.integer is not None:
                return Value(None, [], node, lit.integer, lit.unsigned)
            assert lit.bits is not None  # not an integer: a float literal
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
            return Value(None, [], node, -v.literal, v.unsigned)
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
    if fmt.name not in expression_formats():
        raise ValueError(f"expressions compute in {' or '.join(expression_formats())}, "
                         f"not {fmt.name}")
    low = Lowerer(text, var_types, fmt)
    return low.finish(low.value(parse_expr(text)))
