"""Capture fidelity: every path carries raw bits on the driver of this run (llvmpipe, or
softpipe in the softpipe tier), a path that does not is reported and its results marked,
and the llvmpipe fragment path's differences from numpy are arithmetic, not capture."""

from __future__ import annotations

import numpy as np
import pytest

from fpinspector.gpu.fidelity import (
    F16_CLASSES,
    F32_CLASSES,
    F64_CLASSES,
    affected_classes,
    check_fidelity,
    classify_bits,
    f16_summary,
    fidelity_note,
)
from fpinspector.gpu.report import build_report

NAN_CANON = 0x7FC00000


def _np_class(bits: np.ndarray) -> np.ndarray:
    """Independent oracle: numpy's float32 predicates and the quiet bit (IEEE 754 §6.2.1)."""
    f = bits.view(np.float32)
    tiny = np.finfo(np.float32).tiny
    return np.select([f == 0, np.abs(f) < tiny, np.isfinite(f), np.isinf(f),
                      (bits & 0x00400000) != 0],
                     ["zero", "denormal", "normal", "infinity", "quiet NaN"], "signaling NaN")


def test_classify_bits_agrees_with_numpy():
    rng = np.random.default_rng(0)
    bits = np.concatenate([rng.integers(0, 2**32, 1 << 16, dtype=np.uint64).astype(np.uint32),
                           *(np.array(v, np.uint32) for v in F32_CLASSES.values())])
    bits = np.concatenate([bits, bits & 0x807FFFFF, bits | 0x7F800000])  # denormals, NaNs
    np.testing.assert_array_equal(classify_bits(bits), _np_class(bits))
    for name, values in F64_CLASSES.items():
        assert set(classify_bits(np.array(values, np.uint64), "f64")) == {name}


def test_classify_f16_agrees_with_numpy_on_every_pattern():
    """Every one of the 65,536 f16 patterns: numpy's float16 predicates and the quiet bit
    (IEEE 754 §6.2.1: the top fraction bit, 0x0200 in binary16)."""
    bits = np.arange(1 << 16, dtype=np.uint16)
    f = bits.view(np.float16)
    want = np.select([f == 0, np.abs(f) < np.finfo(np.float16).tiny, np.isfinite(f),
                      np.isinf(f), (bits & 0x0200) != 0],
                     ["zero", "denormal", "normal", "infinity", "quiet NaN"], "signaling NaN")
    np.testing.assert_array_equal(classify_bits(bits, "f16"), want)
    for name, values in F16_CLASSES.items():
        assert set(classify_bits(np.array(values, np.uint16), "f16")) == {name}


@pytest.mark.gpu
def test_every_path_carries_raw_bits_F32_NANOUT(gpu):
    """wire (integer pass-through) and a raw move keep every f32 / f64 class on every
    path: denormals, -0, quiet and signaling NaN payloads (F32-NANOUT, F64-DENORM)."""
    fid = check_fidelity(gpu)
    assert set(fid) == set(gpu.info["paths"]) | {"render"}
    for path, f in fid.items():
        assert f.wire and f.raw_bits, (path, f.mismatches)
        assert set(f.classes) == set(F32_CLASSES)
        if path != "render" and gpu.supports("mov", "f64", path=path):
            assert set(f.f64_classes) == set(F64_CLASSES)
        f16 = path != "render" and gpu.supports("mov", "f16", path=path)
        assert set(f.f16_classes) == (set(F16_CLASSES) if f16 else set()), path


class _Wrapped:
    """A real session with some of its captures changed by a subclass (a driver's fault)."""

    def __init__(self, inner):
        self._inner = inner

    def __getattr__(self, name):
        return getattr(self._inner, name)

    @property
    def info(self):
        return self._inner.info


class _CanonicalisingSession(_Wrapped):
    """A session whose fragment path canonicalises NaNs on output (what some drivers do)."""

    def capture(self, op, *bits, format="f32", path=None):
        out = self._inner.capture(op, *bits, format=format, path=path)
        if format == "f32" and out.dtype == np.uint32 and (path or "fragment") == "fragment":
            nan = ((out & 0x7F800000) == 0x7F800000) & ((out & 0x007FFFFF) != 0)
            out = np.where(nan, np.uint32(NAN_CANON), out)
        return out


@pytest.mark.gpu
def test_a_canonicalising_path_is_reported_and_its_results_marked(gpu, path):
    if path != "fragment":
        pytest.skip("the fake canonicalises on the fragment path")
    fake = _CanonicalisingSession(gpu)
    fid = check_fidelity(fake, ("fragment",))["fragment"]
    assert fid.wire and not fid.raw_bits
    assert fid.classes["quiet NaN"] is False and fid.classes["signaling NaN"] is False
    assert fid.classes["denormal"] and fid.classes["zero"]
    assert "quiet NaN" in fid.note() and "may show the path" in fid.note()
    d = {"fragment": fid.to_dict()}
    assert affected_classes(d, "fragment") == {"quiet NaN", "signaling NaN"}
    assert fidelity_note(d, "fragment", "f32", 0xFFC00000) is not None
    assert fidelity_note(d, "fragment", "f32", 0x3F800000) is None
    assert fidelity_note(d, "compute", "f32", 0xFFC00000) is None  # other path: fine
    rep = build_report(fake, samples=64, paths=("fragment",))
    marked = {p.id for p in rep.probes if p.capture_note}
    assert {"sqrt-neg", "inf-inf"} <= marked  # NaN results
    assert "div-0" not in marked  # +INF is carried raw


@pytest.mark.gpu
def test_fragment_mul_differences_from_numpy_are_the_drivers_arithmetic(gpu):
    """The load test's finding, on 2^20 random bit patterns: llvmpipe's fragment mul differs
    from numpy only where x86 DAZ/FTZ (flush before rounding) or the NaN operand order
    decide, while the same path moves every pattern raw; softpipe's equals numpy."""
    if "fragment" not in gpu.info["paths"]:
        pytest.skip("no fragment path")
    rng = np.random.default_rng(1)
    a, b = (rng.integers(0, 2**32, 1 << 20, dtype=np.uint64).astype(np.uint32) for _ in "ab")
    got = gpu.capture("mul", a, b, path="fragment")
    np.testing.assert_array_equal(gpu.capture("mov", a, path="fragment"), a)  # capture: raw
    with np.errstate(all="ignore"):
        ieee = (a.view(np.float32) * b.view(np.float32)).view(np.uint32)
    renderer = gpu.info["renderer"]
    if "softpipe" in renderer:
        np.testing.assert_array_equal(got, ieee)  # IEEE, payloads of the first operand
        return
    if "llvmpipe" not in renderer:
        pytest.skip(f"the model of this finding is llvmpipe's, not {renderer}'s")

    def flush(x):
        return np.where((x & 0x7F800000) == 0, x & np.uint32(0x80000000), x)

    fa, fb = flush(a), flush(b)
    with np.errstate(all="ignore"):
        exact = fb.view(np.float32).astype(np.float64) * fa.view(np.float32).astype(np.float64)
        model = (fb.view(np.float32) * fa.view(np.float32)).view(np.uint32)  # b first: NaN
    tiny = (np.abs(exact) < 2.0**-126) & ~np.isnan(exact)  # x86 FTZ tests before rounding
    model = np.where(tiny, model & np.uint32(0x80000000), model)
    np.testing.assert_array_equal(got, model)
    assert (got != ieee).sum() > 40000  # the differences are real and all explained


class _F16CanonicalisingSession(_Wrapped):
    """A session whose f16 moves canonicalise NaNs and flush denormals (what a driver that
    moves f16 through f32 registers with FTZ could do); f32 untouched."""

    def supports(self, op, format="f32", path=None):
        return True if (op, format) == ("mov", "f16") else self._inner.supports(op, format, path)

    def capture(self, op, *bits, format="f32", path=None):
        if format != "f16":
            return self._inner.capture(op, *bits, format=format, path=path)
        x = np.asarray(bits[0], np.uint16)
        nan = ((x & 0x7C00) == 0x7C00) & ((x & 0x03FF) != 0)
        den = (x & 0x7C00) == 0
        return np.where(nan, np.uint16(0x7E00), np.where(den, x & np.uint16(0x8000), x))


@pytest.mark.gpu
def test_an_f16_path_that_changes_bits_is_reported_F16_DENORM(gpu):
    """f16 fidelity in the report: a path whose f16 move flushes denormals and canonicalises
    NaN payloads fails exactly those classes (F16-DENORM: f16 denormals are kept), the note
    and the saved entry's summary name them, and f16 results of those classes are marked."""
    path = gpu.info["path"]
    fid = check_fidelity(_F16CanonicalisingSession(gpu), (path,))[path]
    assert fid.wire and all(fid.classes.values()) and not fid.raw_bits
    assert {c for c, ok in fid.f16_classes.items() if not ok} == \
        {"denormal", "quiet NaN", "signaling NaN"}
    assert "f16 denormal" in fid.note() and "f16 zero" not in fid.note()
    d = fid.to_dict()
    assert f16_summary(d) == "f16 changes denormal, quiet NaN, signaling NaN"
    assert affected_classes({path: d}, path, "f16") == {"denormal", "quiet NaN",
                                                        "signaling NaN"}
    assert fidelity_note({path: d}, path, "f16", 0x0001) is not None
    assert fidelity_note({path: d}, path, "f16", 0x3C00) is None
    assert fidelity_note({path: d}, path, "f32", 0x00000001) is None  # f32 is carried raw
