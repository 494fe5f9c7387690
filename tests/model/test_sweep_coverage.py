"""Sweeps of 3-operand ops (mad with C fixed), integer-code ops and per-element CSV,
checked against Fraction, struct and csv-module oracles."""

from __future__ import annotations

import csv
import struct
from fractions import Fraction

import numpy as np
import pytest

from fpinspector.cli import main
from fpinspector.model.formats import CODE_FORMATS, F32
from fpinspector.model.sweep import Axis, GridDomain, UnaryDomain, load_npz, run_sweep
from fpinspector.model.sweep.csv_elements import hex_strings, write_csv_elements
from fpinspector.model.sweep.stages import ModelStage, result_format_of


def f32_rne(x: Fraction) -> int:
    """Pattern of the f32 nearest to ``x`` (ties to even), by exact comparison with both
    float32 neighbours of a float64 guess (no double rounding)."""
    g = np.float32(float(x))
    cands = {np.nextafter(g, np.float32(-np.inf)), g, np.nextafter(g, np.float32(np.inf))}
    best = min(cands, key=lambda c: (abs(Fraction(float(c)) - x),
                                     int(np.array(c).view(np.uint32)) & 1))
    return int(np.array(best, dtype=np.float32).view(np.uint32))


@pytest.mark.parametrize("kind", ["i32", "u32", "unorm8", "snorm8", "unorm16", "snorm16",
                                  "srgb8"])
def test_code_axes_enumerate_integer_codes_CONV_ITOF(kind):
    """'all' is every code once in increasing order; sub-sampled bit ranges follow the
    integer formula floor(i * span / (n - 1)) (CONV-ITOF/CONV-UNORM operand domains)."""
    f = CODE_FORMATS[kind]
    if f.bits <= 16:
        every = Axis.every(kind).patterns()
        assert every.dtype == f.dtype
        assert every.astype(np.int64).tolist() == list(range(f.lo, f.hi + 1))
    ax = Axis.bit_range(kind, f.lo, f.hi, 37)
    span = f.hi - f.lo
    assert ax.patterns().astype(np.int64).tolist() == [f.lo + i * span // 36 for i in range(37)]


def test_itof_sweep_rounds_like_struct_at_the_2_24_boundary_CONV_ITOF():
    """int32 -> f32 above 2^24 rounds; the model is round-to-nearest-even, which struct's
    float packing also is, and it is conformant."""
    dom = UnaryDomain(Axis.bit_range("i32", -(1 << 25) - 64, -(1 << 25) + 64))
    dom2 = UnaryDomain(Axis.bit_range("i32", (1 << 24) - 16, (1 << 24) + 80))
    for d in (dom, dom2):
        res = run_sweep(d, ModelStage("itof", "i32"), result_format="f32")
        want = [struct.unpack("<I", struct.pack("<f", float(i)))[0]
                for i in d.axis.patterns().tolist()]
        assert res.columns["model"].tolist() == want
        assert res.columns["ok_model"].all()


def test_from_unorm8_every_code_is_nearest_f32_of_c_over_255_CONV_UNORM():
    """Every UNORM8 code c -> f32 nearest c/255 (exact Fraction oracle); integer operand
    summaries have no float classes."""
    res = run_sweep(UnaryDomain(Axis.every("unorm8")), ModelStage("from_unorm8", "unorm8"),
                    result_format=result_format_of("from_unorm8", "unorm8"))
    assert res.columns["model"].tolist() == [f32_rne(Fraction(c, 255)) for c in range(256)]
    assert res.summary.operand_classes == [] and res.summary.fired["CONV-UNORM"] > 0


def test_mad_grid_with_fixed_c_is_fused_and_rounded_once_F32_FUSED():
    """mad over A x B with C fixed: each cell is RNE(a*b + c) of the exact value (one
    rounding, F32-FUSED), sampled against Fraction arithmetic."""
    c = np.uint32(0x3EAAAAAB)  # ~1/3, so a*b + c is rarely exact
    dom = GridDomain(Axis.linear("f32", -3, 3, 61), Axis.log("f32", 1e-3, 7, 53))
    res = run_sweep(dom, ModelStage("mad", "f32", fixed=(c,)), result_format="f32")
    rng = np.random.default_rng(5)
    cv = Fraction(float(F32.decode(c)))
    for k in rng.integers(0, dom.size, 300).tolist():
        a, b = (Fraction(float(F32.decode(o))) for o in res.operands_at(k))
        assert int(res.columns["model"][k]) == f32_rne(a * b + cv), k
    assert res.columns["ok_model"].all()


def test_cli_mad_with_c_and_itof_codes_write_loadable_files_F32_FUSED(tmp_path, capsys):
    """`sweep mad --c 0.5` and `sweep itof -d bits:...` run headless and reload."""
    out = tmp_path / "mad.npz"
    assert main(["sweep", "mad", "-d", "lin:-2:2:16", "--c", "0.5", "--out", str(out),
                 "-q"]) == 0
    res = load_npz(out)
    assert res.meta["fixed"] == {"c": "0x3F000000"} and res.domain.shape == (16, 16)
    a, b = res.operands_at(37)
    want = f32_rne(Fraction(float(F32.decode(a))) * Fraction(float(F32.decode(b)))
                   + Fraction(1, 2))
    assert int(res.columns["model"][37]) == want
    out2 = tmp_path / "itof.npz"
    assert main(["sweep", "itof", "-d", "bits:-5:5", "--out", str(out2), "-q"]) == 0
    res2 = load_npz(out2)
    assert res2.domain.axes[0].fmt.name == "i32"
    assert F32.decode(res2.columns["model"]).tolist() == [float(i) for i in range(-5, 6)]
    assert "itof i32" in capsys.readouterr().out


def test_hex_strings_match_python_format_FMT_F32():
    """Vectorized hex equals Python's '0x%0*X' for every dtype width."""
    rng = np.random.default_rng(2)
    for dt in (np.uint8, np.uint16, np.uint32, np.uint64):
        v = rng.integers(0, np.iinfo(dt).max, 200, dtype=dt, endpoint=True)
        v[:2] = [0, np.iinfo(dt).max]
        w = 2 * np.dtype(dt).itemsize
        assert [s.decode() for s in hex_strings(v)] == [f"0x{int(x):0{w}X}" for x in v]


def test_elements_csv_round_trips_through_the_csv_module_F32_NANOUT(tmp_path):
    """Each row read back by csv gives the stored operands, patterns, float64 values
    (NaN/inf included, F32-NANOUT) and verdicts exactly."""
    dom = GridDomain(Axis.bit_range("f32", 0x7F7FFFF0, 0x7F800010),
                     Axis.linear("f32", -1e30, 1e30, 41))
    res = run_sweep(dom, ModelStage("mul", "f32"), result_format="f32")
    rows = list(csv.DictReader(open(write_csv_elements(tmp_path / "e.csv", res), newline="")))
    assert len(rows) == dom.size
    a, b = dom.operands(0, dom.size)
    assert [int(r["op0"], 16) for r in rows] == a.tolist()
    assert [int(r["op1"], 16) for r in rows] == b.tolist()
    assert [int(r["model"], 16) for r in rows] == res.columns["model"].tolist()
    for name in ("exact", "err_model"):
        back = np.array([float(r[name]) for r in rows])
        assert np.array_equal(back, res.columns[name], equal_nan=True)
    assert [r["ok_model"] == "1" for r in rows] == res.columns["ok_model"].tolist()
    assert np.isnan(res.columns["exact"]).any() and np.isinf(res.columns["exact"]).any()


def test_cli_elements_csv_and_parallel_workers_match_single_thread_F16_PREC(tmp_path, capsys):
    """`--elements-csv` writes one row per element; 2 stage threads give the same file
    content as 1 (chunks are folded in order; F16-PREC results are deterministic)."""
    paths = []
    for w in (1, 2):
        p = tmp_path / f"e{w}.csv"
        assert main(["sweep", "mul", "-f", "f16", "-d", "bits:0x3C00:0x3C3F", "--chunk", "1000",
                     "--workers", str(w), "--elements-csv", str(p), "-q"]) == 0
        paths.append(p)
    a, b = (open(p).read() for p in paths)
    assert a == b and len(a.splitlines()) == 64 * 64 + 1
    rows = list(csv.DictReader(open(paths[0], newline="")))
    x, y = int(rows[65]["op0"], 16), int(rows[65]["op1"], 16)
    want = (np.array([x], np.uint16).view(np.float16) * np.array([y], np.uint16).view(np.float16))
    assert int(rows[65]["model"], 16) == int(want.view(np.uint16)[0])
    assert "wrote" in capsys.readouterr().out
