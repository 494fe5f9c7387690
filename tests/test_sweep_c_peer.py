"""The sweep's summary equals a C brute force written without the engine
(``benchmarks/c_peer/sweep_peer.c``: the hardware's sqrtf and double sqrt, a table decode of
f16 and a hand rounding to f16), on ranges that hold every class of input.

Rules proved: F32-FTZ (denormal inputs of sqrt flush to a zero of their sign), F32-SQRT-RCP
(the model's sqrt is correctly rounded, |error| < 0.5 ULP), F32-NANOUT (sqrt of a negative
is NaN), F16-DENORM (f16 keeps denormal operands and results), F16-PREC (f16 mul correctly
rounded, ties to even, overflow to INF), and the sweep's own bookkeeping: the |error|
histogram in ULPs of the exact value, the max |error|, operand and result classes.
The benchmark (``benchmarks/c_peer.py --full``) runs the same comparison on all 2^32 inputs.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest
from _cli_run import run_cli

_PATH = Path(__file__).resolve().parents[1] / "benchmarks" / "c_peer.py"
_spec = importlib.util.spec_from_file_location("c_peer", _PATH)
assert _spec and _spec.loader
c_peer = importlib.util.module_from_spec(_spec)
sys.modules["c_peer"] = c_peer
_spec.loader.exec_module(c_peer)

CASES = [
    # sqrt: zero, denormals and the smallest normals of both signs
    (["sqrt", "0", "0x00ffffff"], ["sqrt", "-d", "bits:0:0x00ffffff"]),
    (["sqrt", "0x80000000", "0x80ffffff"], ["sqrt", "-d", "bits:0x80000000:0x80ffffff"]),
    # sqrt: the top binade, INF and the NaNs
    (["sqrt", "0x7f000000", "0x7fffffff"], ["sqrt", "-d", "bits:0x7f000000:0x7fffffff"]),
    # f16 mul: every pattern times the patterns around 1.0, and around the smallest normal
    (["mul16", "0", "0xffff", "0x3bf0", "0x3c0f"],
     ["mul", "-f", "f16", "-d", "all", "--domain-b", "bits:0x3bf0:0x3c0f"]),
    (["mul16", "0", "0xffff", "0x03f0", "0x040f"],
     ["mul", "-f", "f16", "-d", "all", "--domain-b", "bits:0x03f0:0x040f"]),
    # f16 mul: overflow (65504 region) and INF x 0
    (["mul16", "0x7b00", "0x7c00", "0x0000", "0x4400"],
     ["mul", "-f", "f16", "-d", "bits:0x7b00:0x7c00", "--domain-b", "bits:0:0x4400"]),
]


@pytest.fixture(scope="module")
def peer() -> Path:
    exe = c_peer.build()
    if exe is None:
        pytest.skip("no C compiler (cc, gcc or clang) on PATH to build the C peer")
    return exe


@pytest.mark.parametrize("peer_args, sweep_args", CASES, ids=lambda a: " ".join(a))
def test_sweep_summary_equals_the_c_brute_force(peer, peer_args, sweep_args, tmp_path, capsys):
    want, _, _ = c_peer.run_peer(peer, peer_args)
    out = tmp_path / "s.npz"
    rc, _, err = run_cli(["sweep", *sweep_args, "--summary-only", "--out", str(out), "-q",
                          "--workers", "1"], capsys)
    assert rc == 0, err
    got = c_peer.read_sweep_csv(out.with_suffix(".csv"))
    assert c_peer.differences(want, got) == [], (want, got)
    assert sum(want["histogram"]) == want["elements"]


def test_the_comparison_sees_a_difference(peer, tmp_path, capsys):
    """A summary off by one count in one bin is reported (the check can fail)."""
    want, _, _ = c_peer.run_peer(peer, ["sqrt", "0x3f800000", "0x3f80ffff"])
    assert 0.49 < want["max_error"] < 0.5
    bad = dict(want, histogram=list(want["histogram"]))
    bad["histogram"][1] += 1
    assert c_peer.differences(bad, want) == ["histogram"]
    assert c_peer.differences(dict(want, max_error=want["max_error"] * 1.01), want) == [
        "max_error"]


@pytest.mark.gpu
def test_a_gpu_sweep_is_compared_by_its_model_part(peer, tmp_path, capsys):
    """With --gpu the sweep's non-conformant count is the GPU's (llvmpipe's compute path
    keeps denormals: sqrt of a negative denormal is NaN there, F32-FTZ wants -0); the peer
    computes the model, so the comparison reads the model's count: elements - ok_model."""
    want, _, _ = c_peer.run_peer(peer, ["sqrt", "0x80000000", "0x8000ffff"])
    out = tmp_path / "g.npz"
    rc, _, err = run_cli(["sweep", "sqrt", "-d", "bits:0x80000000:0x8000ffff", "--gpu",
                          "--summary-only", "--out", str(out), "-q", "--workers", "1"], capsys)
    assert rc == 0, err
    got = c_peer.read_sweep_csv(out.with_suffix(".csv"))
    assert c_peer.differences(want, got) == [], (want, got)
