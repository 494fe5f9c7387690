"""Saved reports are judged again by this program's deviation rows when they are read: two
real reports of an NVIDIA H200 (driver 580.159.04, GL through EGL and Vulkan through wgpu,
measured 2026-11-27 by scripts/device_check.sh, committed as measured) had nine findings
when saved; the API rows (GLSL-*, WGSL-*) written from them name every one.

The observed bits are checked against oracles written here (numpy float32 / float16 and
the WGSL specification's clamp), not against the engine. No GL context is needed."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import numpy as np
import pytest

from fpinspector.gpu.findings import report_findings
from fpinspector.gpu.rejudge import rejudge
from fpinspector.gpu.report_io import load_report, report_from_dict

DATA = Path(__file__).resolve().parents[1] / "data" / "gpu_reports"
NVIDIA = {"gl": DATA / "nvidia-h200-gl.json", "vulkan": DATA / "nvidia-h200-vulkan.json"}

#: (api, probe id, path) -> the row that names it now
NAMED = {
    ("gl", "frc-tiny-neg", "compute"): "GLSL-FRC-ONE",
    ("gl", "frc-tiny-neg", "fragment"): "GLSL-FRC-ONE",
    ("gl", "f16-halfway-pack", "pack"): "GLSL-PACKHALF-RNE",
    ("gl", "f16-overflow-pack", "pack"): "GLSL-PACKHALF-RNE",
    ("vulkan", "frc-tiny-neg", "compute"): "WGSL-FRC-ONE",
    ("vulkan", "ftoi-nan", "compute"): "WGSL-FTOI-CLAMP",
    ("vulkan", "ftoi-big", "compute"): "WGSL-FTOI-CLAMP",
    ("vulkan", "f16-halfway-pack", "pack"): "WGSL-PACK2X16FLOAT-RNE",
    ("vulkan", "f16-overflow-pack", "pack"): "WGSL-PACK2X16FLOAT-RNE",
}


def _f32(word: str) -> np.float32:
    return np.uint32(int(word, 16)).view(np.float32)


def _saved_findings(api: str) -> set[tuple[str, str, str]]:
    data = json.loads(NVIDIA[api].read_text(encoding="utf-8"))
    return {(api, p["id"], p["path"]) for p in data["probes"]
            if p["deviation"] is None and p["verdict"] and not any(p["verdict"].values())}


@pytest.mark.parametrize("api", sorted(NVIDIA))
def test_nvidia_findings_as_saved_are_named_by_api_rows_when_read(api):
    """F32-INSTR (frc), CONV-FTOI, CONV-F2F-RTZ / CONV-F2F-SAT: the probes saved as
    findings are exactly those the API rows now name; read back, none is left."""
    assert _saved_findings(api) == {k for k in NAMED if k[0] == api}
    rep = load_report(NVIDIA[api])
    assert report_findings(rep) == []
    got = {(api, p.id, p.path): p.deviation for p in rep.probes
           if (api, p.id, p.path) in NAMED}
    assert got == {k: v for k, v in NAMED.items() if k[0] == api}
    assert {d["id"] for d in rep.deviations} >= set(got.values())
    assert not any(d["id"].startswith(("LLVMPIPE", "SOFTPIPE", "LAVAPIPE"))
                   for d in rep.deviations)


def test_what_nvidia_returned_is_what_the_rows_say_the_api_does():
    """The rows' behaviours on the saved bits, by oracles outside the engine: fract(x) =
    x - floor(x) in float32; WGSL's i32(x) = i32(clamp(x, -2^31, 2^31 - 128)) with NaN to
    -2^31 as both Vulkan drivers do; packHalf2x16 / pack2x16float = numpy's
    round-to-nearest-even float16 (1 + 1.5 ULP -> 1 + 2 ULP, 1e6 -> +INF)."""
    probes = {(api, p.id, p.path): p for api in NVIDIA for p in load_report(NVIDIA[api]).probes}
    for key in [k for k in NAMED if k[1] == "frc-tiny-neg"]:
        x = _f32(probes[key].inputs[0])
        assert x == np.float32(-(2.0 ** -30))
        want = np.float32(x - np.floor(x))
        assert int(want.view(np.uint32)) == int(probes[key].observed, 16) == 0x3F800000
    for key in [k for k in NAMED if "pack" in k[2]]:
        x = _f32(probes[key].inputs[0])
        with np.errstate(over="ignore"):  # 1e6 -> +INF is the point
            want = int(np.float32(x).astype(np.float16).view(np.uint16))
        assert want == int(probes[key].observed, 16)
    big = _f32(probes[("vulkan", "ftoi-big", "compute")].inputs[0])
    assert float(big) > 2.0 ** 31 and int(min(float(big), 2.0 ** 31 - 128)) == int(
        probes[("vulkan", "ftoi-big", "compute")].observed)
    assert int(probes[("vulkan", "ftoi-nan", "compute")].observed) == -(2 ** 31)
    # GL's int(3e9) on the same GPU is D3D's clamp: the clamp is WGSL's, not the GPU's
    gl_big = probes[("gl", "ftoi-big", "compute")]
    assert int(gl_big.observed) == 2 ** 31 - 1 and gl_big.deviation is None


def test_rejudging_keeps_the_measurement_and_unknown_probes():
    """Observed bits and verdicts stay as saved; a probe this version does not know, or
    whose observed text it cannot read, keeps the deviation it was saved with."""
    data = json.loads(NVIDIA["vulkan"].read_text(encoding="utf-8"))
    rep = report_from_dict(data, "nvidia")
    odd = dataclasses.replace(rep.probes[0], id="from-a-newer-version", deviation="SOME-ROW")
    garbled = dataclasses.replace(next(p for p in rep.probes if p.id == "ftoi-big"),
                                  observed="2147483520 (clamped)", deviation="OLD-ROW")
    again = rejudge(dataclasses.replace(rep, probes=[*rep.probes, odd, garbled]))
    assert [(p.observed, p.verdict) for p in again.probes[:-2]] == [
        (p.observed, p.verdict) for p in rep.probes]
    assert again.probes[-2].deviation == "SOME-ROW" and again.probes[-1].deviation == "OLD-ROW"
