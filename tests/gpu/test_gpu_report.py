"""The GPU rules report and the ``gpu-report`` command."""

from __future__ import annotations

import json

import numpy as np
import pytest

from fpinspector import model
from fpinspector.cli import main
from fpinspector.gpu.report import PROBES, ULP_OPS, build_report

pytestmark = pytest.mark.gpu


@pytest.fixture(scope="module")
def report(gpu):
    return build_report(gpu, samples=4096)


def test_report_covers_every_probe_and_ulp_op_per_path(report, gpu):
    """Every docs/rules.md probe question and every ULP op is answered on every capture path."""
    for path in gpu.info["paths"]:
        ids = {p.id for p in report.probes if p.path == path}
        assert ids == {p[0] for p in PROBES}
        assert {u.op for u in report.ulp if u.path == path} == set(ULP_OPS)
    assert any(p.path == "render" for p in report.probes)


def test_rgb9e5_probes_CONV_RGB9E5(report, device_behaviour):
    """The sampled RGB9E5 probes' model values are D3D11.3 §19.3.2.1's, computed here from
    the words' fields with fractions; each verdict says whether the GPU gave them."""
    from fractions import Fraction

    probes = {p.id: p for p in report.probes if p.rule == "CONV-RGB9E5"}
    assert set(probes) == {"rgb9e5-example", "rgb9e5-e31", "rgb9e5-small"}
    for p, (mantissa, e) in ((probes["rgb9e5-example"], (0x064, 19)),
                             (probes["rgb9e5-e31"], (0x1FF, 31)),
                             (probes["rgb9e5-small"], (1, 0))):
        value = Fraction(mantissa, 512) * Fraction(2) ** (e - 15)
        want = f"0x{int(np.float32(float(value)).view(np.uint32)):08X}"
        assert p.path == "sample" and p.model == want, p.id
        assert p.verdict["d3d11"] == (p.observed == want), p.id
        device_behaviour.check(p.verdict["d3d11"], f"{p.id}: {p.observed}, not {want}")
    assert probes["rgb9e5-example"].model == "0x40480000"  # 3.125


def test_probe_verdicts_agree_with_the_engine(report, device_behaviour):
    """Each verdict is evaluate(op, ..., rules).allowed(observed) for its own rule set."""
    for p in (p for p in report.probes if p.path in ("compute", "fragment")):
        op, operands = next((q[3], q[4]) for q in PROBES if q[0] == p.id)
        ops = [np.array([v], np.uint32) for v in operands]
        ev = model.evaluate(op, *ops, rules="d3d11")
        observed = np.asarray(ev.bits).dtype.type(
            {"True": 1, "False": 0}.get(p.observed, None)
            if p.observed in ("True", "False") else int(p.observed, 0))
        assert p.verdict["d3d11"] == bool(ev.allowed(np.array([observed]))[0]), p.id
        if not p.verdict["d3d11"]:
            device_behaviour.check(bool(p.deviation), f"probe {p.id} ({p.path}): "
                                   f"non-conformant ({p.observed}) and no deviation names it")


def test_ulp_histograms_count_every_sample(report):
    """F32-INSTR / F32-SQRT-RCP / F32-DIV: the histogram is a complete distribution."""
    for u in report.ulp:
        assert sum(u.counts) == u.samples, u.op
        assert u.max_ulp >= 0 and u.verdict.keys() == {"d3d10", "d3d11"}
        assert u.verdict["d3d11"] == (u.allowed_fraction["d3d11"] == 1.0)


def test_llvmpipe_report_names_its_known_deviations(report, gpu):
    if "llvmpipe" not in gpu.info["renderer"]:
        pytest.skip("llvmpipe-specific expectations")
    by = {(p.path, p.id): p for p in report.probes}
    if "compute" in gpu.info["paths"]:
        assert by[("compute", "ftz-input")].deviation == "LLVMPIPE-COMPUTE-NO-FTZ"
    assert by[("fragment", "ftz-input")].verdict == {"d3d10": True, "d3d11": True}
    assert by[("fragment", "ftoi-nan")].deviation == "LLVMPIPE-FTOI-INDEFINITE"


def test_cli_json(capsys):
    assert main(["gpu-report", "--json", "--samples", "512", "--path", "fragment"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["info"]["renderer"] and data["probes"] and data["ulp"]
    assert all(u["path"] == "fragment" for u in data["ulp"])


def test_cli_text(capsys):
    assert main(["gpu-report", "--samples", "512", "--path", "fragment"]) == 0
    out = capsys.readouterr().out
    assert "GPU rules report" in out and "F32-FTZ" in out and "ULP error" in out
    assert "Not capturable here" in out and "f16 math" in out


def test_cli_bad_samples_is_clean_error(capsys):
    """A usage error naming the option, before any GPU opens (tests/test_cli_numeric_options)."""
    with pytest.raises(SystemExit) as info:
        main(["gpu-report", "--samples", "0"])
    assert info.value.code == 2
    assert "argument --samples: a number of samples must be 1.." in capsys.readouterr().err


def test_cli_without_gl_says_so(capsys, monkeypatch):
    monkeypatch.setenv("FPINSPECTOR_GL_BACKEND", "no-such-backend")
    assert main(["gpu-report"]) == 3
    err = capsys.readouterr().err
    assert "No usable OpenGL context" in err and "Traceback" not in err
