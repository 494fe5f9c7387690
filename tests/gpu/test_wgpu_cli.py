"""The GPU commands through WebGPU: --api / --adapter, gpu-devices' adapter list, the
report header naming API and backend, and one-line errors for bad choices."""

from __future__ import annotations

import json

import numpy as np
import pytest

from fpinspector.cli import main

pytestmark = pytest.mark.gpu


def test_gpu_devices_lists_webgpu_adapters_beside_gl(wgpu_gpu, capsys):
    """API, vendor, device, driver, adapter type, capture paths, features, and the APIs
    this platform's wgpu build has."""
    assert main(["gpu-devices", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    w = data["webgpu"]
    assert w["error"] is None and w["build_backends"] and w["wgpu"]
    a = next(x for x in w["adapters"] if x["api"] == wgpu_gpu.api)
    assert a["renderer"] == wgpu_gpu.info["renderer"]
    assert a["options"] == f"--api {wgpu_gpu.api} --adapter {wgpu_gpu.info['device']}"
    assert a["adapter_type"] and a["driver"] and "compute" in a["paths"] and a["features"]
    assert main(["gpu-devices"]) == 0
    text = capsys.readouterr().out
    assert "WebGPU adapters (wgpu " in text and a["options"] in text


def test_gpu_report_through_webgpu_names_api_and_backend(wgpu_gpu, capsys):
    """The report header says which API and backend measured it; verdicts and deviations
    as for GL."""
    assert main(["gpu-report", "--api", wgpu_gpu.api, "--samples", "256", "--json"]) == 0
    rep = json.loads(capsys.readouterr().out)
    assert rep["info"]["api"] == wgpu_gpu.api
    assert rep["info"]["backend"].startswith("wgpu/")
    assert rep["info"]["paths"] == ["compute"]
    assert all(f["raw_bits"] for f in rep["fidelity"].values())
    ftz = next(p for p in rep["probes"] if p["id"] == "ftz-output")
    assert ftz["deviation"] == "LAVAPIPE-NO-FTZ" or all(ftz["verdict"].values())
    assert main(["gpu-report", "--api", wgpu_gpu.api, "--samples", "64"]) == 0
    head = capsys.readouterr().out.splitlines()[:5]
    assert any(line.startswith("  API      : ") and "through WebGPU" in line for line in head)


@pytest.mark.parametrize("argv, message", [
    (["--api", "gl", "--adapter", "0"], "--adapter picks a WebGPU adapter"),
    (["--api", "vulkan", "--device", "0"], "--device and --driver pick GL devices"),
    (["--api", "vulkan", "--adapter", "9"], "no Vulkan adapter 9: this machine has 0: "),
    (["--api", "vulkan", "--adapter", "warp"], "no WARP"),
])
def test_bad_api_or_adapter_is_one_line_exit_2(wgpu_gpu, capsys, argv, message):
    assert main(["gpu-report", "--samples", "16", *argv]) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and "\n" not in err


def test_eval_gpu_through_webgpu(wgpu_gpu, capsys):
    """eval --gpu --api vulkan shows what the adapter returns for denormal x 1 (lavapipe
    keeps the denormal, a GPU that flushes gives +0): the same word as a capture."""
    want = int(wgpu_gpu.capture("mul", np.uint32([1]), np.uint32([0x3F800000]))[0])
    assert main(["eval", "mul", "0x00000001", "0x3F800000", "--gpu", "--api",
                 wgpu_gpu.api]) in (0, 1)
    out = capsys.readouterr().out
    assert f"gpu result:   0x{want:08X}" in out
    if wgpu_gpu.info["driver"] == "lavapipe":
        assert want == 1


def test_webgpu_report_info_keys_are_documented(wgpu_gpu):
    """docs/gpu.md's info table plus the three keys it names for WebGPU reports."""
    import re
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[2] / "docs" / "gpu.md").read_text("utf-8")
    table = doc.split("### info", 1)[1].split("\n### ", 1)[0]
    keys = set(re.findall(r"^\| `([a-z_0-9]+)` \|", table, re.M))
    assert set(wgpu_gpu.info) == keys | {"api", "adapter_type", "features"}


@pytest.mark.slow
def test_f16_sweep_on_the_gpu_through_webgpu(wgpu_gpu, capsys, tmp_path):
    """sweep mul -f f16 --gpu --api vulkan: f16 arithmetic measured on a GPU driver
    (shader-f16), every element judged (lavapipe's f16 mul is correctly rounded)."""
    if not wgpu_gpu.supports("mul", "f16"):
        pytest.skip(wgpu_gpu.unsupported_reason("mul", "f16"))
    rc = main(["sweep", "mul", "-f", "f16", "-d", "bits:0:0xFFFF:128", "--domain-b",
               "bits:0:0xFFFF:128", "--gpu", "--api", wgpu_gpu.api, "--summary-only",
               "--quiet", "--out", str(tmp_path / "s.npz")])
    out = capsys.readouterr().out
    assert rc == 0, out
    assert wgpu_gpu.info["renderer"] in out
    assert "ok_gpu: 16384/16384 conformant" in out


def test_a_webgpu_session_in_a_gpu_process_answers_for_its_adapter(wgpu_gpu):
    """A WebGPU adapter opened in a GPU process (what sweeps and example reports use): its
    route and conversion list are the adapter's (WGSL, texture formats), not GL's, and a
    capture and the rgb9e5 decode (CONV-RGB9E5) come back like in-process ones."""
    import numpy as np

    from fpinspector.gpu import DeviceChoice, open_device

    with open_device(DeviceChoice(api=wgpu_gpu.api), process=True) as child:
        assert child.info["process"] == "child"
        assert child.route("to_f11", "f32") == wgpu_gpu.route("to_f11", "f32")
        assert "rg11b10ufloat" in child.route("to_f11", "f32")
        assert child.route("add", "f32").startswith("WGSL: ")
        assert child.conversions() == wgpu_gpu.conversions()
        w = np.uint32([0x999320C8, 0x07FFFFFF])
        assert np.array_equal(child.convert(w, "rgb9e5", "f32"),
                              wgpu_gpu.convert(w, "rgb9e5", "f32"))
        x = np.arange(0, 1 << 16, 7, dtype=np.uint32) * np.uint32(65521)
        assert np.array_equal(child.capture("mul", x, x), wgpu_gpu.capture("mul", x, x))
