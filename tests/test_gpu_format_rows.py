"""The GPU layer reads formats as data (issue 37): no code in ``fpinspector/gpu`` compares a
format name; the roles a format plays on a GPU are one table (gpu/capture_formats.py), and
what a rule needs of a format comes from its record (model/formats).

No GPU needed: the source is read, and the tables are checked against the records.
"""

from __future__ import annotations

import ast
import random
from fractions import Fraction
from pathlib import Path

import numpy as np
from _name_literals import name_comparisons

from fpinspector.gpu import capture_formats as cf
from fpinspector.gpu.serial import _sums_exact_in_float64
from fpinspector.model.formats import FORMATS

GPU = Path(__file__).resolve().parents[1] / "fpinspector" / "gpu"
#: Modules allowed a number of comparisons while they are converted (none now: the count
#: may only go down)
PENDING: dict[str, int] = {}


def format_name_comparisons(source: str) -> list[str]:
    """Every comparison with a format-name literal. (Not the aliases: "float", "half",
    "double" are also GLSL / HLSL type names, which the shader code compares as such.)"""
    return name_comparisons(source, FORMATS)


def test_the_counter_finds_name_comparisons():
    """The check below can fail: it sees each spelling of a name comparison."""
    src = ('if fmt == "f32": pass\nif "f16" != f: pass\nif f in ("f64", "x"): pass\n'
           'if (a, b) == ("f32", "rgb9e5"): pass\nif f == "half": pass\n'
           'if f == "unorm8": pass\nx = {"f32": 1}\n')
    assert len(format_name_comparisons(src)) == 4


def test_no_gpu_module_compares_a_format_name():
    """ISSUE-37: the GPU layer asks for a role (capture_formats) or reads the record."""
    found = {}
    for path in sorted(GPU.glob("*.py")):
        hits = format_name_comparisons(path.read_text(encoding="utf-8"))
        if hits:
            found[path.name] = hits
    over = {m: h for m, h in found.items() if len(h) > PENDING.get(m, 0)}
    assert not over, f"format names compared in gpu/ (use gpu/capture_formats.py): {over}"


#: The GPU modules that are tables keyed by format (kernels per (op, format), the
#: conversion routes and texture formats per (src, dst, path), the report's probes), and
#: why a format name is written there.
TABLES = {
    "shaders.py": "GLSL kernel per (op, format), the type of each operand kind",
    "wgsl_shaders.py": "WGSL kernel per (op, format), the type of each operand kind",
    "routes.py": "the fixed-function route of each conversion op",
    "conversions.py": "GL texture formats per (src, dst, path)",
    "wgpu_conversions.py": "WebGPU texture formats per (src, dst, path)",
    "report.py": "the probes: what each one converts, from and to which format",
    "expr_wgsl.py": "WGSL's own type name f32 (the dialect's float type)",
    "deviations.py": "driver deviation rows (lead's area)",
    "judge.py": "the model's conversion per (src, dst) pair",
}


def _literal_modules() -> set[str]:
    out = set()
    for path in GPU.glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docs = {id(n.body[0].value) for n in ast.walk(tree)
                if isinstance(n, (ast.Module, ast.ClassDef, ast.FunctionDef))
                and ast.get_docstring(n, clean=False) is not None}
        if any(isinstance(n, ast.Constant) and n.value in FORMATS and id(n) not in docs
               for n in ast.walk(tree)):
            out.add(path.name)
    return out


def test_format_names_are_written_only_in_the_tables():
    """ISSUE-37: outside the tables keyed by format, gpu/ code names no format; it asks
    gpu/capture_formats.py for a role (SHADER_FLOAT...) or reads the record."""
    assert _literal_modules() - set(TABLES) == set()


def test_shader_roles_are_the_records_of_the_shader_types():
    """GLSL float/double/float16_t and WGSL f32/f64/f16 are IEEE binary32/64/16."""
    for role, bits in ((cf.SHADER_FLOAT, 32), (cf.SHADER_DOUBLE, 64), (cf.SHADER_HALF, 16)):
        rec = FORMATS[role]
        assert (rec.bits, rec.signed, rec.has_inf) == (bits, True, True)
        assert rec.numpy_float is not None and rec.numpy_float.itemsize * 8 == bits
    assert cf.EXPR_FORMAT in cf.REPORT_ARITH
    assert {(s, d) for s, d, _ in cf.SHADER_PACKING} == {
        (cf.SHADER_FLOAT, cf.SHADER_HALF), (cf.SHADER_HALF, cf.SHADER_FLOAT)}


def test_packed_channels_are_the_r11g11b10_layout():
    """R11G11B10F: R bits 0-10, G 11-21, B 22-31; an f11 upload fills R and G alike."""
    used = 0
    for name, (shift, spread) in cf.PACKED_CHANNEL.items():
        rec = FORMATS[name]
        assert not rec.signed and rec.exp_bits == 5
        for x in (0, 1, rec.mask // 3, rec.mask):
            word = (x * spread) << shift
            assert word < 2**32 and (word >> shift) & rec.mask == x
            assert word & ~(rec.mask << shift) == (x << (shift + 11) if spread != 1 else 0)
        used |= rec.mask << shift
    assert used == (0x7FF | 0x3FF << 22)  # R and B: G carries R's copy


def _values(name: str, n: int, rnd: random.Random) -> list[Fraction]:
    rec = FORMATS[name]
    out = []
    while len(out) < n:
        v = rec.exact_value(rnd.randrange(rec.mask + 1))
        if isinstance(v, Fraction):
            out.append(v)
    return out


def test_float64_steps_are_exact_only_where_the_predicate_says():
    """serial_unfused steps f16 in float64: every sum and product of two f16 values is a
    float64 (Fraction oracle, every f16 pair that differs in the exponent extremes); for
    f32 a sum that float64 cannot hold exists (2^127 + 2^-149)."""
    rnd = random.Random(37)
    f16 = FORMATS["f16"]
    assert _sums_exact_in_float64(f16)
    xs = _values("f16", 300, rnd) + [Fraction(f16.max), Fraction(f16.smallest_subnormal)]
    for a in xs:
        for b in xs[:40]:
            for exact in (a + b, a * b):
                assert Fraction(float(exact)) == exact
    f32 = FORMATS["f32"]
    assert not _sums_exact_in_float64(f32)
    wide = Fraction(f32.max) + Fraction(f32.smallest_subnormal)
    assert Fraction(float(wide)) != wide
    assert not _sums_exact_in_float64(FORMATS["f64"])


def test_nan_only_from_nan_is_false_where_an_overflow_rounds_to_nan():
    """FMT-E4M3: 480 rounds to E4M3's NaN (no INF), so a NaN result there is not always
    an invalid operation; in every IEEE-style format it is."""
    for name, rec in FORMATS.items():
        top = rec.encode(Fraction(rec.max) * 4)  # exact: rounded once
        assert bool(rec.is_nan(top)) == (not rec.nan_only_from_nan), name
    assert np.all(~FORMATS["e4m3"].is_nan(FORMATS["e4m3"].encode([448.0, -448.0])))
