"""The engine reads op families as records (issue 37): no code in ``fpinspector/`` compares
a family's name, nor an op's name read from an op (``spec.name``, ``ctx.op``, ``op``);
what a family does is its record (engine/families.py ``OpFamily``), what an op does is its
row (engine/oprow.py ``OpSpec``), the compare, select, round and move instructions' scalar
exact functions included.

The second half checks the records and the rows' scalar exact functions against what the
rule book says the ops do, with oracles written here (Python's IEEE floats and
Fractions), not the engine's own code.
"""

from __future__ import annotations

import ast
import math
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from _name_literals import comparisons_in, literal_names

from fpinspector.model.engine import OPS, evaluate
from fpinspector.model.engine.exact import scalar as sc
from fpinspector.model.engine.families import FAMILIES, OpFamily, family

ROOT = Path(__file__).resolve().parents[2] / "fpinspector"

#: what reads an op or its family: ``x.family``, ``x.op``, ``x.name`` and the plain names
#: the code gives an op (``op``, ``fam``)
_OP_ATTRS = frozenset({"family", "op", "name"})
_OP_VARS = frozenset({"op", "fam", "family", "op_name"})


def _reads_op(node: ast.AST) -> bool:
    return any((isinstance(n, ast.Attribute) and n.attr in _OP_ATTRS)
               or (isinstance(n, ast.Name) and n.id in _OP_VARS) for n in ast.walk(node))


def family_or_op_name_comparisons(source: str) -> list[str]:
    """Every comparison that reads an op row's ``family`` (whatever it is compared with),
    and every comparison of an op or family name literal with an expression that reads an
    op (a tolerance kind "fused", a sweep's "log" scale are other names: not reported)."""
    names = frozenset(OPS) | frozenset(FAMILIES)
    out = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Compare):
            continue
        sides = (node.left, *node.comparators)
        family_read = any(isinstance(n, ast.Attribute) and n.attr == "family"
                          for s in sides for n in ast.walk(s))
        literal = [s for s in sides if literal_names(s, names)]
        if family_read or (literal and any(_reads_op(s) for s in sides if s not in literal)):
            out.append(f"{node.lineno}: {ast.unparse(node)}")
    return out


def test_the_counter_finds_family_and_op_name_comparisons():
    """The check below can fail: each spelling main had before the records (the engine's
    ``ctx.family == "select"``, the GPU judge's ``OPS[op].family == "fused"``, a family
    name in a variable, a family tested against a table) is seen; a tolerance kind or a
    sweep scale that happens to be spelled like an op is not."""
    src = ('picks = ctx.family == "select"\n'
           'if ctx.family not in ("mov", "compare"): pass\n'
           'fused = OPS[op].family == "fused"\n'
           'if fam == "frc": pass\n'
           'if ctx.family in _ACCURATE: pass\n'
           'if spec.name == "mov": pass\n'
           'if ctx.op in ("min", "max"): pass\n'
           'if op != "div": pass\n'
           # not op names: a tolerance kind, a sweep scale, a dict key, a format
           'if ctx.tol.kind == "fused": pass\n'
           'if self.kind in ("linear", "log"): pass\n'
           'if "compare" in changes: pass\n'
           'if fmt.name == "f32": pass\n'
           'x = {"mov": 1}\n')
    assert len(family_or_op_name_comparisons(src)) == 8


def test_no_module_compares_a_family_or_an_op_name():
    """ISSUE-37: an op family is one record (OpFamily) and an op one row (OpSpec); the
    engine, the finisher, the explanations, the GPU judge and the CLI ask the record or
    the row (``traits.picks_operand``, ``spec.scalar``), never the name."""
    found = comparisons_in([ROOT], ROOT, family_or_op_name_comparisons)
    assert not found, f"family or op names compared (read engine/families.py): {found}"


def test_every_row_names_a_family_record():
    """Each op row's family is a record; a row naming no record is refused when it is made
    (a plug-in's typo fails at once, not in the middle of an evaluation)."""
    for spec in OPS.values():
        assert isinstance(spec.traits, OpFamily)
        assert family(spec.family) is spec.traits
    with pytest.raises(ValueError, match="unknown op family 'sum'"):
        OPS["add"].__class__("x", 2, ("f32",), "same", "x", "sum")


def test_each_family_record_has_one_kind_of_result():
    """A family's result is one of: a rounded exact value, a picked operand, a boolean, the
    operand's bits, a conversion; the explanations' words follow it."""
    for rec in FAMILIES.values():
        kinds = [rec.rounds, rec.picks_operand, rec.predicate, rec.moves_bits, rec.converts]
        assert sum(kinds) == 1, rec.name
        assert rec.exact_is_result == (rec.picks_operand or rec.predicate or rec.moves_bits)


_BITS = np.array([0x00000000, 0x80000000, 0x00000001, 0x807FFFFF, 0x3F800000, 0xBF800000,
                  0x7F7FFFFF, 0x7F800000, 0xFF800000, 0x7FC00000, 0x7F800001, 0x40490FDB,
                  0xC0490FDB, 0x3EFFFFFF, 0x3FC00000], dtype=np.uint32)


def _pairs() -> tuple[np.ndarray, np.ndarray]:
    a, b = np.meshgrid(_BITS, _BITS)
    return a.ravel(), b.ravel()


def _flushed(bits: np.ndarray) -> np.ndarray:
    den = ((bits & 0x7F800000) == 0) & ((bits & 0x007FFFFF) != 0)
    return np.where(den, bits & 0x80000000, bits).astype(np.uint32)


@pytest.mark.parametrize("rules", ["d3d11", "ieee754"])
def test_families_that_pick_move_or_compare_do_what_their_records_say(rules):
    """picks_operand (F32-MINMAX-*): min/max give an operand, flushed or not, or the
    canonical NaN; moves_bits (F32-FTZ exempt): mov keeps every bit, a denormal and a
    signalling NaN's payload included; predicate (F32-CMP*): a boolean result."""
    a, b = _pairs()
    for op, spec in OPS.items():
        if "f32" not in spec.formats:
            continue
        t = spec.traits
        if t.picks_operand:
            got = np.asarray(evaluate(op, a, b, rules=rules).bits)
            ok = (got == a) | (got == b) | (got == _flushed(a)) | (got == _flushed(b))
            assert (ok | (got == 0x7FC00000)).all(), op
        elif t.moves_bits:
            got = np.asarray(evaluate(op, _BITS, rules=rules).bits)
            assert (got == _BITS).all(), op
        elif t.predicate:
            got = np.asarray(evaluate(op, a, b, rules=rules).bits)
            assert got.dtype == bool, op


def _f(bits: int) -> float:
    return float(np.array([bits], dtype=np.uint32).view(np.float32)[0])


_VALUES = [_f(int(x)) for x in _BITS] + [2.5, -2.5, 3.5, -0.5, 0.5, 1e30, -7.25]

#: the rule book's comparisons on IEEE values: Python's float comparisons are IEEE 754's
#: (a NaN operand: false, but true for ne; -0 == +0)
_COMPARISONS = {"eq": lambda x, y: x == y, "ne": lambda x, y: x != y,
                "lt": lambda x, y: x < y, "le": lambda x, y: x <= y,
                "gt": lambda x, y: x > y, "ge": lambda x, y: x >= y}


def _minmax_oracle(x: float, y: float, least: bool) -> float:
    """F32-MINMAX-NAN: one NaN gives the other operand; F32-MINMAX-ZERO: -0 < +0."""
    if math.isnan(x) or math.isnan(y):
        return y if math.isnan(x) else x
    if x == y == 0:
        return min(x, y, key=lambda v: math.copysign(1, v)) if least else \
            max(x, y, key=lambda v: math.copysign(1, v))
    return min(x, y) if least else max(x, y)


def _same_value(got: object, want: float) -> bool:
    g = float(got) if not isinstance(got, Fraction) else float(got)  # type: ignore[arg-type]
    if math.isnan(want):
        return math.isnan(g)
    return g == want and math.copysign(1, g) == math.copysign(1, want)


def test_the_scalar_exact_of_compare_select_round_and_move_is_the_rows():
    """The compare, select, round and move instructions' scalar exact functions are read
    from their rows (OpSpec.scalar), and give what the rule book says on exact operands
    (comparisons: F32-CMPNAN, F32-CMPZERO; min/max: F32-MINMAX-NAN, F32-MINMAX-ZERO; round
    to integral: ties to even for round_ne; mov: the value), against Python's IEEE floats
    and Fractions."""
    for op, spec in OPS.items():
        t = spec.traits
        if t.predicate or t.picks_operand or t.integral or t.moves_bits:
            assert spec.scalar is not None and sc.entry(op, spec) is spec.scalar, op
    rounds = {"round_ne": round, "round_ni": math.floor, "round_pi": math.ceil,
              "round_z": math.trunc}
    for x in _VALUES:
        ex = sc.of_float(x)
        assert _same_value(OPS["mov"].scalar(ex), x)  # type: ignore[misc]
        if math.isfinite(x) and x != 0:
            for op, fn in rounds.items():
                got = OPS[op].scalar(ex)  # type: ignore[misc]
                want = fn(Fraction(x))
                assert (got == want) if want != 0 else (got == 0), (op, x)
        for y in _VALUES:
            ey = sc.of_float(y)
            for op, fn in _COMPARISONS.items():
                assert bool(OPS[op].scalar(ex, ey)) is fn(x, y), (op, x, y)  # type: ignore[misc]
            for op, least in (("min", True), ("max", False)):
                got = OPS[op].scalar(ex, ey)  # type: ignore[misc]
                assert _same_value(got, _minmax_oracle(x, y, least)), (op, x, y)


def test_no_row_scalar_is_looked_up_by_instruction_name():
    """The instruction table of engine/exact/scalar.py keeps only the expression
    instruction without an op row (movc); f32tof16 and f16tof32 read theirs from their
    conversion rows (the value itself: the step rounds it)."""
    assert set(sc._EXACT) == {"movc"}
    for op in ("f32tof16", "f16tof32"):
        assert sc.entry(op, OPS[op]) is OPS[op].scalar
        assert OPS[op].scalar(Fraction(1, 3)) == Fraction(1, 3)  # type: ignore[misc]
