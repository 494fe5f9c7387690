"""`fpinspector expr --gpu` and `sweep --expr --gpu` on the local GPU (llvmpipe counts)."""

from __future__ import annotations

import json

import pytest

from fpinspector.cli import main

pytestmark = pytest.mark.gpu


def test_expr_gpu_json_names_the_first_divergence(gpu, capsys):
    rc = main(["expr", "n * rsqrt(dot(n, n))", "--set", "n=float3(1e-20,0,0)", "--gpu",
               "--json", "--gpu-path", gpu.path])
    rep = json.loads(capsys.readouterr().out)
    assert rc == 0
    g = rep["gpu"]
    kept = rep["steps"][0]["gpu"]["bits"] != 0  # a path that keeps the denormal dot product
    assert g["first_divergence"] == (0 if kept else None) and g["conformant"] == (not kept)
    assert rep["steps"][0]["gpu_allowed"] == (not kept)
    assert "free" in rep["result"]["components"][0]
    assert rep["result"]["components"][0]["free_note"]
    if kept and "llvmpipe" in g["renderer"]:  # named, and recomputed exactly (IEEE, no FTZ)
        assert g["deviations"]["0"] == "LLVMPIPE-COMPUTE-NO-FTZ"
        assert rep["steps"][0]["gpu_deviation"] == "LLVMPIPE-COMPUTE-NO-FTZ"


def test_expr_gpu_text_and_fail_flag(gpu, capsys):
    rc = main(["expr", "a * b", "--set", "a=1.5", "--set", "b=0x00000001", "--gpu",
               "--fail-on-nonconformant"])
    out = capsys.readouterr().out
    assert "GPU:" in out and "compiled freely" in out
    assert rc == (0 if "conformant at every step" in out else 1)


def test_sweep_expr_with_gpu(gpu, capsys):
    rc = main(["sweep", "--expr", "saturate(a * b + c)", "--set", "c=0.25", "-d",
               "lin:-2:2:32", "--domain-b", "lin:-2:2:32", "--gpu", "-q"])
    out = capsys.readouterr().out
    assert rc == 0 and "ok_gpu: " in out and "first GPU divergence by step" in out
