"""Sweeps through the rule engine: columns equal per-element ``evaluate`` on
sampled cells, and the model bits agree with independent numpy oracles.

Oracles: numpy float32 arithmetic is IEEE 754 round-to-nearest-even with denormals kept
(the ieee754 rule set); applying F32-FTZ to its inputs and output gives d3d11 mul;
numpy float16 sqrt is correctly rounded (F16-PREC).
"""

import numpy as np
import pytest

from fpinspector.cli import main
from fpinspector.model import evaluate
from fpinspector.model.sweep import Axis, GridDomain, ModelStage, load_npz, run_sweep


def _ftz32(x: np.ndarray) -> np.ndarray:
    b = x.view(np.uint32)
    den = ((b & 0x7F800000) == 0) & ((b & 0x007FFFFF) != 0)
    return np.where(den, b & np.uint32(0x80000000), b).view(np.float32)


@pytest.fixture(scope="module")
def mul_grid():
    g = GridDomain(Axis.log("f32", 1e-42, 1e30, 64), Axis.log("f32", -1e10, -1e-10, 48))
    res = run_sweep(g, ModelStage("mul", "f32", "d3d11"), result_format="f32", chunk_size=1000)
    return g, res


def test_sampled_cells_equal_per_element_evaluate_F32_PREC(mul_grid):
    g, res = mul_grid
    rng = np.random.default_rng(5)
    for k in rng.integers(0, g.size, 30):
        a, b = (np.array([x], np.uint32) for x in res.operands_at(int(k)))
        ev = evaluate("mul", a, b, format="f32", rules="d3d11")
        assert int(res.columns["model"][k]) == int(np.asarray(ev.bits).ravel()[0])
        np.testing.assert_equal(res.columns["exact"][k], np.asarray(ev.exact).ravel()[0])
        np.testing.assert_equal(res.columns["err_model"][k],
                                np.asarray(ev.ulp_error(ev.bits)).ravel()[0])
        for rule, mask in res.fired.items():  # the engine lists only rules that fired
            one = ev.fired.get(rule)
            assert bool(mask[k]) == (one is not None and bool(np.asarray(one).ravel()[0])), rule
        assert set(r for r, m in ev.fired.items() if np.any(m)) <= set(res.fired)


def test_d3d11_mul_sweep_is_flushed_ieee_product_F32_FTZ(mul_grid):
    """Every model result equals numpy's product with F32-FTZ on inputs and output."""
    g, res = mul_grid
    a, b = g.operands(0, g.size)
    with np.errstate(all="ignore"):
        oracle = _ftz32(_ftz32(a.view(np.float32)) * _ftz32(b.view(np.float32)))
    assert np.array_equal(res.columns["model"], oracle.view(np.uint32))
    assert res.summary.nonconformant_count() == 0  # the model always obeys its own rules
    assert res.summary.fired["F32-FTZ"] > 0


def test_ieee754_rules_keep_denormals():
    g = GridDomain(Axis.log("f32", 1e-42, 1e-30, 32), Axis.linear("f32", 0.25, 4, 32))
    res = run_sweep(g, ModelStage("mul", "f32", "ieee754"), result_format="f32")
    a, b = g.operands(0, g.size)
    oracle = (a.view(np.float32) * b.view(np.float32)).view(np.uint32)
    assert np.array_equal(res.columns["model"], oracle)


def test_cli_writes_loadable_files_F16_PREC(tmp_path, capsys):
    """`fpinspector sweep sqrt -f f16 -d all`: every f16 pattern, files reload, model bits
    equal numpy's correctly rounded half sqrt."""
    out = tmp_path / "sqrt16.npz"
    rc = main(["sweep", "sqrt", "-f", "f16", "-d", "all", "--out", str(out), "-q"])
    text = capsys.readouterr().out
    assert rc == 0 and "elements: 65536" in text and "wrote" in text
    res = load_npz(out)
    assert res.complete and res.meta["op"] == "sqrt" and res.domain.size == 65536
    x = np.arange(65536, dtype=np.uint16).view(np.float16)
    with np.errstate(invalid="ignore"):
        ref = np.sqrt(x)
    ok = ~np.isnan(ref)
    assert np.array_equal(res.columns["model"][ok], ref.view(np.uint16)[ok])
    assert np.all(np.isnan(res.columns["model"].view(np.float16)[~ok]))
    assert (tmp_path / "sqrt16.csv").read_text().startswith("section,key,value")


def test_cli_summary_only_grid(tmp_path, capsys):
    out = tmp_path / "m.npz"
    rc = main(["sweep", "mul", "-d", "lin:-2:2:50", "--domain-b", "log:1e-3:1e3:40",
               "--summary-only", "--out", str(out), "-q", "--fail-on-nonconformant"])
    assert rc == 0
    res = load_npz(out)
    assert res.columns == {} and res.summary.total == 2000


@pytest.mark.parametrize("argv, msg", [
    (["sweep", "nop"], "unknown op"),
    (["sweep", "mul", "-d", "log:-1:1"], "same sign"),
    (["sweep", "mad"], "give C (--c): one value or pattern"),
    (["sweep", "mad", "--c", "1 2"], "--c takes one value"),
    (["sweep", "mul", "--c", "1"], "--c is for 3-operand ops"),
    (["sweep", "dp3"], "sweeps cover 1, 2 or mad's 3"),
    (["sweep", "itof", "-d", "lin:0:1:4"], "integer codes"),
    (["sweep", "utof", "-d", "bits:-1:5"], "not an increasing range of u32 codes"),
    (["sweep", "sqrt", "-f", "f99"], "unknown format"),
    (["sweep", "mul", "-o", "lenient_d3d11=maybe"], "choose one of"),
])
def test_cli_bad_input_is_a_message_not_a_traceback(argv, msg, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert msg in err and "Traceback" not in err
