"""The lavapipe example report (measured through WebGPU's Vulkan) is real, and gpu-compare of
llvmpipe through GL against lavapipe through Vulkan shows what the API changes on the same
gallivm code."""

from __future__ import annotations

import json

import pytest

from fpinspector.cli import main
from fpinspector.gpu.example_reports import differences, measure_example, other_driver_reason
from fpinspector.gpu.report_io import example_reports, load_report


def test_lavapipe_example_ships_with_its_api():
    rep = load_report(example_reports()["lavapipe"])
    assert rep.info["driver"] == "lavapipe" and rep.info["api"] == "vulkan"
    assert rep.info["renderer"].endswith(" via Vulkan")
    ids = {d["id"] for d in rep.deviations} - {"TWO-ROUNDINGS-F64-TO-SMALL"}  # any API
    assert ids and all(i.startswith(("LAVAPIPE-", "WGSL-")) for i in ids)
    assert rep.info["fp64"] == ("shader-f64" in rep.info["features"])


@pytest.mark.gpu
@pytest.mark.slow
def test_lavapipe_example_matches_a_new_measurement(wgpu_gpu):
    if wgpu_gpu.info["driver"] != "lavapipe":
        pytest.skip(f"no lavapipe here ({wgpu_gpu.info['renderer']})")
    expected = load_report(example_reports()["lavapipe"])
    rep = measure_example("lavapipe")
    why = other_driver_reason(expected, rep)
    if why:
        pytest.skip(why)
    diff = differences(expected, rep)
    assert not diff, ("the shipped lavapipe example no longer matches (re-run "
                      f"scripts/measure_example_reports.py if intended): {diff[:8]}")


def test_gpu_compare_same_silicon_two_apis(capsys):
    """llvmpipe (GL compute) and lavapipe (Vulkan compute through WGSL) run the same
    gallivm code: the conversions WGSL defines differently show, the arithmetic agrees
    (CONV-FTOI: GLSL uint(-1) gives 0xFFFFFFFF on llvmpipe, WGSL u32(-1) clamps to 0)."""
    assert main(["gpu-compare", "example:llvmpipe", "example:lavapipe", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    rows = {(r["path"], r["key"]): r for g in data["rules"] for r in g["rows"]
            if r["kind"] == "probe"}
    ftou = rows[("compute", "ftou-neg")]
    assert ftou["status"] == "verdicts differ"
    assert rows[("compute", "ftz-output")]["status"] == "same"
