"""One focused test per docs/rules.md rule the engine decides (oracle values written from the rule
text), plus the API contract: broadcasting, fired/explain/steps, options, errors."""

from __future__ import annotations

import math
import re
from pathlib import Path

import numpy as np
import pytest
from _engine_oracle import bits32, f32

from fpinspector.model import OPS, OPTIONS, RULE_SETS, evaluate
from fpinspector.model.engine import RULES

NEG_DEN = 0x80000005
POS_DEN = 0x00000005
ONE = 0x3F800000


def test_sqrt_rsq_of_negatives_F32_SQRTNEG():
    """sqrt(-0) = -0, rsq(-0) = -INF, sqrt/rsq of a negative value NaN; a negative denormal
    flushes to -0 first under d3d (so sqrt gives -0), but is a negative value under ieee754."""
    assert int(evaluate("sqrt", 0x80000000).bits) == 0x80000000
    assert int(evaluate("rsq", 0x80000000).bits) == 0xFF800000
    assert int(evaluate("rsq", 0x00000000).bits) == 0x7F800000
    for op in ("sqrt", "rsq"):
        ev = evaluate(op, bits32(-2.0))
        assert math.isnan(f32(int(ev.bits))) and ev.fired["F32-SQRTNEG"].all()
    assert int(evaluate("sqrt", NEG_DEN).bits) == 0x80000000
    assert math.isnan(f32(int(evaluate("sqrt", NEG_DEN, rules="ieee754").bits)))


def test_log_of_zero_and_negatives_F32_LOG0():
    """log(+0) = log(-0) = -INF, log(denormal) = -INF after the flush, log(-1) = NaN."""
    for x in (0x00000000, 0x80000000, POS_DEN):
        ev = evaluate("log", x)
        assert int(ev.bits) == 0xFF800000 and "F32-LOG0" in ev.rules_at(0)
    assert math.isnan(f32(int(evaluate("log", bits32(-1.0)).bits)))
    assert int(evaluate("log", bits32(8.0)).bits) == bits32(3.0)


def test_ftz_input_and_output_sign_preserved_F32_FTZ():
    """F32-FTZ: denormal inputs become signed zeros, denormal results are flushed (strict
    reading: a kept denormal is not conformant), the ftz_output=either option accepts it."""
    ev = evaluate("add", NEG_DEN, 0x80000000)
    assert int(ev.bits) == 0x80000000  # -0 + -0 = -0
    small = bits32(2.0**-70)
    ev = evaluate("mul", small, bits32(-(2.0**-60)))  # exact -2^-130: a denormal
    assert int(ev.bits) == 0x80000000
    assert ev.fired["F32-FTZ"].all()
    den = bits32(-(2.0**-130))
    assert not ev.allowed(den) and ev.allowed(0x80000000) and not ev.allowed(0)
    either = evaluate("mul", small, bits32(-(2.0**-60)), options={"ftz_output": "either"})
    assert either.allowed(den) and either.allowed(0x80000000)
    text = " ".join(evaluate("mul", NEG_DEN, ONE).explain_at(0))
    assert "input A was a denormal" in text and "flushed to -0 by F32-FTZ" in text
    assert "on output" in " ".join(ev.explain_at(0))
    ieee = evaluate("mul", small, bits32(-(2.0**-60)), rules="ieee754")
    assert int(ieee.bits) == den and "F32-FTZ" not in ieee.rules_at(0)


def test_mov_keeps_bits_F32_FTZ_exempt_F32_NANOUT():
    """mov is a raw move: denormals and NaN payloads survive; only those exact bits are allowed."""
    for b in (POS_DEN, 0x7F800001, 0xFFC12345):
        ev = evaluate("mov", b)
        assert int(ev.bits) == b and ev.allowed(b) and not ev.allowed(0x7FC00000)


def test_nan_out_any_nan_F32_NANOUT_F32_NANPROP():
    """A NaN operand gives NaN; the model uses the canonical quiet NaN, any NaN conforms."""
    ev = evaluate("mul", 0x7F800001, ONE)  # a signaling NaN in
    assert int(ev.bits) == 0x7FC00000 and "F32-NANPROP" in ev.rules_at(0)
    nans = np.array([0x7FC00000, 0xFFFFFFFF, 0x7F800001], np.uint32)
    assert ev.allowed(nans).all() and not ev.allowed(ONE)


def test_minmax_flush_for_compare_result_either_F32_MINMAX_FTZ():
    """min(denormal, 1): compared as +0, the model returns +0, the unflushed operand is also
    conformant, any other denormal is not."""
    ev = evaluate("min", POS_DEN, ONE)
    assert int(ev.bits) == 0 and ev.allowed(POS_DEN) and not ev.allowed(POS_DEN + 1)
    assert "F32-MINMAX-FTZ" in ev.rules_at(0)
    ev = evaluate("max", NEG_DEN, 0x00000000)  # -0 vs +0 after the flush
    assert int(ev.bits) == 0 and ev.allowed(0x80000000) and ev.allowed(NEG_DEN)


def test_minmax_one_nan_returns_other_F32_MINMAX_NAN():
    """One NaN (quiet or signaling: D3D treats all as quiet) returns the other operand."""
    for nan in (0x7FC00000, 0x7F800001, 0xFFA00000):
        for op in ("min", "max"):
            ev = evaluate(op, nan, bits32(2.5))
            assert int(ev.bits) == bits32(2.5) and not ev.allowed(0x7FC00000)
            assert "F32-MINMAX-NAN" in ev.rules_at(0)
    assert math.isnan(f32(int(evaluate("min", 0x7FC00000, 0xFFC00000).bits)))


def test_minmax_signaling_nan_under_ieee754_IEEE_MINMAX_F64_MINMAX_NAN():
    """ieee754 minNum/maxNum: a signaling NaN operand gives NaN (quiet: the other operand);
    f64 under d3d treats a signaling NaN like a quiet one (F64-MINMAX-NAN: min(1.0, sNaN)
    is 1.0), unless option f64_minmax_snan=True asks for IEEE 754R."""
    ev = evaluate("min", 0x7F800001, ONE, rules="ieee754")
    assert math.isnan(f32(int(ev.bits))) and "IEEE-MINMAX" in ev.rules_at(0)
    assert int(evaluate("min", 0x7FC00000, ONE, rules="ieee754").bits) == ONE
    snan64 = 0x7FF0000000000001
    one64 = 0x3FF0000000000000
    ev = evaluate("max", snan64, one64, format="f64")
    assert int(ev.bits) == one64 and "F64-MINMAX-NAN" in ev.rules_at(0)
    assert not ev.allowed(0x7FF8000000000000)
    assert int(evaluate("min", one64, snan64, format="f64").bits) == one64
    ev = evaluate("max", snan64, one64, format="f64", options={"f64_minmax_snan": True})
    assert ev.nan_ok.all() and "IEEE-MINMAX" in ev.rules_at(0)


def test_minmax_zero_order_recommended_F32_MINMAX_ZERO():
    """min(-0,+0) = min(+0,-0) = -0 and max = +0 recommended; either zero is conformant."""
    for a, b in ((0x80000000, 0), (0, 0x80000000)):
        mn, mx = evaluate("min", a, b), evaluate("max", a, b)
        assert int(mn.bits) == 0x80000000 and int(mx.bits) == 0
        assert mn.allowed(0) and mx.allowed(0x80000000)
        assert "F32-MINMAX-ZERO" in mn.rules_at(0)
    assert not evaluate("min", 0x80000000, 0x80000000).allowed(0)


def test_identities_are_exact_even_at_one_ulp_F32_IDENT():
    """x*1 = x, x/1 = x, x+0 = x, x-0 = x hold exactly, also under d3d10's 1-ULP tolerance."""
    x = bits32(1.7)
    for op, ident in (("mul", ONE), ("div", ONE), ("add", 0), ("sub", 0x80000000)):
        ev = evaluate(op, x, ident, rules="d3d10")
        assert int(ev.bits) == x and ev.allowed(x) and not ev.allowed(x + 1), op
    other = evaluate("mul", x, bits32(1.5), rules="d3d10")  # not an identity: 1 ULP window
    b = int(other.bits)
    assert other.allowed(b + 1) or other.allowed(b - 1)


def test_division_by_zero_F32_DIV0():
    """x/0 = INF with the xor sign, 0/0 = NaN."""
    assert int(evaluate("div", ONE, 0x80000000).bits) == 0xFF800000
    assert int(evaluate("div", bits32(-3.0), 0).bits) == 0xFF800000
    assert int(evaluate("div", POS_DEN, POS_DEN).bits) == 0x7FC00000  # flushed: 0/0
    assert "F32-DIV0" in evaluate("div", ONE, 0).rules_at(0)
    assert int(evaluate("rcp", 0x80000000).bits) == 0xFF800000


def test_inf_over_huge_may_be_nan_F32_DIV():
    """§22 note: INF / y with |y| > 2^126 may give NaN (1/y flushes); option turns it off."""
    y = bits32(2.0**127)
    assert evaluate("div", 0x7F800000, y).allowed(0x7FC00000)
    off = evaluate("div", 0x7F800000, y, options={"inf_div_huge_nan": False})
    assert not off.allowed(0x7FC00000) and off.allowed(0x7F800000)


def test_inf_arithmetic_F32_INFINF():
    """INF - INF, INF * 0, INF / INF are NaN; the other INF cases are exact."""
    assert math.isnan(f32(int(evaluate("sub", 0x7F800000, 0x7F800000).bits)))
    assert math.isnan(f32(int(evaluate("mul", 0xFF800000, POS_DEN).bits)))  # INF * flushed 0
    assert math.isnan(f32(int(evaluate("div", 0xFF800000, 0x7F800000).bits)))
    assert int(evaluate("mul", 0xFF800000, POS_DEN, rules="ieee754").bits) == 0xFF800000
    assert "F32-INFINF" in evaluate("mad", 0x7F800000, 0, ONE).rules_at(0)


def test_frc_and_rounding_F32_INSTR():
    """frc in [+0, 1): frc(-2^-30) clamps to the pattern below 1, frc(INF) NaN, frc(denormal)
    +0; round_* are exact and keep the sign of zero."""
    assert int(evaluate("frc", bits32(-(2.0**-30))).bits) == 0x3F7FFFFF
    assert not evaluate("frc", bits32(-(2.0**-30))).allowed(ONE)
    assert math.isnan(f32(int(evaluate("frc", 0xFF800000).bits)))
    assert int(evaluate("frc", NEG_DEN).bits) == 0
    assert f32(int(evaluate("frc", bits32(-2.75)).bits)) == 0.25
    cases = {"round_ne": (2.5, 2.0), "round_ni": (-2.5, -3.0), "round_pi": (-0.5, -0.0),
             "round_z": (-2.7, -2.0)}
    for op, (x, want) in cases.items():
        ev = evaluate(op, bits32(x))
        assert int(ev.bits) == bits32(want) and ev.allowed(bits32(want))
        assert not ev.allowed(bits32(want) + 1)
    assert int(evaluate("round_ne", NEG_DEN).bits) == 0x80000000


def test_f64_keeps_denormals_F64_DENORM():
    """f64 denormals are read and produced as denormals (no flush)."""
    den, one = 0x0000000000000001, 0x3FF0000000000000
    ev = evaluate("mul", den, one, format="f64")
    assert int(ev.bits) == den and "F64-DENORM" in ev.rules_at(0)
    half = 0x3FE0000000000000
    assert int(evaluate("mul", 0x0000000000000002, half, format="f64").bits) == den


def test_f64_op_set_F64_OPTIONAL():
    """Double support is optional and covers add, sub, mul, div, mad, min, max, comparisons,
    sqrt, rcp (and mov): the other ops refuse f64 with a clear ValueError."""
    f64_ops = {k for k, s in OPS.items() if "f64" in s.formats and s.result in ("same", "bool")}
    assert f64_ops == {"add", "sub", "mul", "div", "mad", "min", "max", "eq", "ne", "lt", "le",
                       "gt", "ge", "sqrt", "rcp", "mov"}
    with pytest.raises(ValueError, match="does not exist for f64"):
        evaluate("log", 0x3FF0000000000000, format="f64")


def test_f16_denormals_kept_F16_DENORM():
    """f16 math keeps denormals on input and output."""
    ev = evaluate("add", 0x0001, 0x0001, format="f16")
    assert int(ev.bits) == 0x0002 and "F16-DENORM" in ev.rules_at(0)


def test_f11_conversions_clamp_and_keep_denormals_F11_CLAMP_F11_DENORM():
    """Through the conversion ops: a negative value into f11 gives 0 (F11-CLAMP); an f11
    denormal survives (F11-DENORM); -INF follows option neg_inf_to_f11 (CONV-UNSIGNED)."""
    ev = evaluate("to_f11", bits32(-3.0))
    assert int(ev.bits) == 0 and "F11-CLAMP" in ev.rules_at(0)
    assert int(evaluate("to_f11", bits32(2.0**-15)).bits) == 0x020  # 2^-14 * 32/64
    assert int(evaluate("to_f11", 0xFF800000).bits) == 0
    assert int(evaluate("to_f11", 0xFF800000, options={"neg_inf_to_f11": "inf"}).bits) == 0x7C0


def test_itof_either_neighbour_CONV_ITOF():
    """itof(2^24 + 1): nearest even 2^24 is the model, 2^24 + 2 is conformant too."""
    ev = evaluate("itof", 2**24 + 1)
    assert int(ev.bits) == bits32(2.0**24)
    assert ev.allowed(bits32(2.0**24 + 2)) and not ev.allowed(bits32(2.0**24 + 4))


def test_broadcasting_shapes_and_indexing():
    """Operands broadcast like numpy; rules_at/explain_at accept flat or tuple indices."""
    a = np.array([[ONE], [POS_DEN]], dtype=np.uint32)
    b = np.array([ONE, bits32(2.0), bits32(3.0)], dtype=np.uint32)
    ev = evaluate("mul", a, b)
    assert ev.bits.shape == (2, 3) and ev.exact.shape == (2, 3)
    assert ev.allowed(ev.bits).shape == (2, 3)
    assert ev.rules_at((1, 2)) == ev.rules_at(5) and "F32-FTZ" in ev.rules_at((1, 0))
    assert evaluate("add", ONE, ONE).bits.shape == ()
    assert len(ev.steps_at((1, 2))) > 4


def test_bad_input_is_a_clear_value_error():
    """Unknown op / rule set / option / value, wrong arity, too-wide patterns: ValueError."""
    for kwargs, msg in (({"rules": "d3d9"}, "unknown rule set"),
                        ({"options": {"nope": 1}}, "unknown option"),
                        ({"options": {"fused_step_ulp": 3.0}}, "choose one of"),
                        ({"format": "f8"}, "unknown format")):
        with pytest.raises(ValueError, match=msg):
            evaluate("add", 1, 2, **kwargs)
    with pytest.raises(ValueError, match="unknown op"):
        evaluate("pow", 1, 2)
    with pytest.raises(ValueError, match="takes 2"):
        evaluate("add", 1)
    with pytest.raises(ValueError, match="wider than 32 bits"):
        evaluate("add", 1 << 40, 1)
    with pytest.raises(ValueError, match="observed result"):
        evaluate("add", 1, 1).allowed(-1)


def test_options_cover_every_ambiguous_point():
    """Every AMBIGUOUS point of docs/rules.md has a named switch."""
    assert {"lenient_d3d11", "fused_step_ulp", "neg_inf_to_f11"} <= set(OPTIONS)
    assert {o.rule for o in OPTIONS.values()} >= {"F32-PREC", "F32-FUSED", "CONV-UNSIGNED"}
    assert RULE_SETS == ("d3d11", "d3d10", "ieee754")


# F32-STATE concerns pipeline state (viewport depth, border colour), F11-PREC / F11-DENORM
# arithmetic: no engine op takes such inputs (f11/f10 only appear through conversions).
NOT_ENGINE_OPS = {"F32-STATE", "F11-PREC"}
# Format / decoding IDs (tests/model/test_formats.py, test_packed.py) and encoder-variant IDs
# (test_convert_variants.py, test_anatomy.py) are rows of the table but no engine op decides them.
NOT_ENGINE_OPS |= {"FMT-F64", "FMT-F32", "FMT-F16", "FMT-F11", "FMT-F10", "FMT-R11G11B10",
                   "DEC-NAN", "DEC-INF", "DEC-NORMAL", "DEC-DENORM", "DEC-ZERO",
                   "ROUND-NEAREST", "VARIANT-QUIRK"}
# ALLOWED-ZERO is a property of every window, not a rule that fires: its tests
# (test_engine_allowed_sets.py) name it.
NOT_YET_DECIDED = {"ALLOWED-ZERO"}


def test_every_rule_has_a_named_test():
    """Each non-conversion rule ID of the engine's table is named by some engine test."""
    here = Path(__file__).parent
    text = "".join(p.read_text() for p in here.glob("test_engine_*.py"))
    dashed = text.replace("_", "-")
    missing = [r for r in RULES if not r.startswith("CONV-")
               and r not in NOT_ENGINE_OPS | NOT_YET_DECIDED
               and not re.search(re.escape(r) + r"(?![A-Z0-9])", dashed)]
    assert not missing, missing


def test_chunked_evaluation_matches_small_pieces():
    """Large inputs run in cache-sized chunks: results equal evaluating slices separately."""
    rng = np.random.default_rng(5)
    a = rng.integers(0, 1 << 32, 140_001, dtype=np.uint64).astype(np.uint32)
    b = rng.integers(0, 1 << 32, 140_001, dtype=np.uint64).astype(np.uint32)
    big = evaluate("div", a, b, rules="d3d10")
    for sl in (slice(0, 1000), slice(65_000, 67_000), slice(139_000, None)):
        small = evaluate("div", a[sl], b[sl], rules="d3d10")
        for name in ("bits", "lo", "hi", "nan_ok", "exact"):
            x, y = getattr(big, name)[sl], getattr(small, name)
            assert np.array_equal(x, y, equal_nan=(name == "exact")), name
        for rule, mask in small.fired.items():
            assert np.array_equal(big.fired[rule][sl], mask), rule
