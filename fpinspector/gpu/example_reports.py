"""The example GPU reports shipped in fpinspector/resources/: how they are measured and how a
re-measurement is compared with them (everything but the date and the version stamp)."""

from __future__ import annotations

from typing import Any

from .child_session import open_device
from .deviations import DEVIATIONS, LAVAPIPE_DEVIATIONS, SOFTPIPE_DEVIATIONS, host_has_avx512
from .devices import DeviceChoice
from .report import build_report
from .report_data import GpuReport

__all__ = ["EXAMPLE_DRIVERS", "WEBGPU_EXAMPLES", "EXAMPLE_SAMPLES", "EXAMPLE_SEED", "measure_example",
           "differences", "other_driver_reason"]

#: Mesa's two software drivers: the two real, different GL drivers any Linux machine has.
EXAMPLE_DRIVERS = ("llvmpipe", "softpipe")
#: examples measured through WebGPU: Mesa's Vulkan driver (lavapipe, mesa-vulkan-drivers)
WEBGPU_EXAMPLES = {"lavapipe": "vulkan"}
EXAMPLE_SAMPLES = 1 << 16
EXAMPLE_SEED = 2024
_DRIVER_KEYS = ("renderer", "vendor", "version", "paths", "fp64", "half_float_arithmetic")


def measure_example(driver: str, samples: int = EXAMPLE_SAMPLES,
                    seed: int = EXAMPLE_SEED) -> GpuReport:
    """Measure ``driver`` (a Mesa software driver, or lavapipe through WebGPU) in a fresh
    GPU process."""
    choice = (DeviceChoice(api=WEBGPU_EXAMPLES[driver]) if driver in WEBGPU_EXAMPLES
              else DeviceChoice(driver=driver))
    with open_device(choice, process=True) as session:
        return build_report(session, samples=samples, seed=seed)


def other_driver_reason(expected: GpuReport, got: GpuReport) -> str | None:
    """Why ``got`` cannot be compared with ``expected`` at all (another driver build, or a
    software driver compiled for another kind of host CPU), or None."""
    for key in _DRIVER_KEYS:
        if expected.info.get(key) != got.info.get(key):
            return (f"the example was measured on {expected.info.get('renderer')} "
                    f"({expected.info.get('version')}); this machine has "
                    f"{got.info.get('renderer')} ({got.info.get('version')}): {key} differs")
    rows = {d.id: d for d in (*DEVIATIONS, *SOFTPIPE_DEVIATIONS, *LAVAPIPE_DEVIATIONS)}
    other_host = sorted(i for i in (d.get("id") for d in expected.deviations)
                        if i in rows and rows[i].host
                        and (rows[i].host == "avx512") != host_has_avx512())
    if other_host:
        return (f"the example was measured on a CPU {'without' if host_has_avx512() else 'with'}"
                f" AVX-512 (its rows {', '.join(other_host)}); {expected.info.get('renderer')} "
                f"compiles shaders for the host CPU, and this one differs")
    return None


def _close(a: Any, b: Any) -> bool:
    if isinstance(a, float) or isinstance(b, float):
        return abs(float(a) - float(b)) <= 1e-12 * max(1.0, abs(float(a)))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_close(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_close(x, y) for x, y in zip(a, b))
    return a == b


def differences(expected: GpuReport, got: GpuReport) -> list[str]:
    """Every way ``got`` differs from ``expected`` in what was measured: driver identity,
    probe results, verdicts and deviations, ULP histograms, fidelity, settings. Dates,
    the fpinspector version and the rules digest are not compared."""
    out = []
    why = other_driver_reason(expected, got)
    if why:
        out.append(why)
    for field in ("settings",):
        if expected.header.get(field) != got.header.get(field):
            out.append(f"{field}: {expected.header.get(field)} -> {got.header.get(field)}")
    exp_p = {(p.path, p.id): p for p in expected.probes}
    got_p = {(p.path, p.id): p for p in got.probes}
    if exp_p.keys() != got_p.keys():
        out.append(f"probe set differs: {sorted(exp_p.keys() ^ got_p.keys())}")
    for pkey in exp_p.keys() & got_p.keys():
        pa, pb = exp_p[pkey], got_p[pkey]
        for f in ("observed", "model", "verdict", "deviation", "capture_note", "rule"):
            if getattr(pa, f) != getattr(pb, f):
                out.append(f"probe {pkey[0]}/{pkey[1]} {f}: {getattr(pa, f)!r} -> "
                           f"{getattr(pb, f)!r}")
    exp_u = {(u.path, u.op): u for u in expected.ulp}
    got_u = {(u.path, u.op): u for u in got.ulp}
    if exp_u.keys() != got_u.keys():
        out.append(f"ULP set differs: {sorted(exp_u.keys() ^ got_u.keys())}")
    for ukey in exp_u.keys() & got_u.keys():
        ua, ub = exp_u[ukey], got_u[ukey]
        for f in ("samples", "counts", "max_ulp", "mean_ulp", "allowed_fraction", "verdict"):
            if not _close(getattr(ua, f), getattr(ub, f)):
                out.append(f"ulp {ukey[0]}/{ukey[1]} {f}: {getattr(ua, f)} -> {getattr(ub, f)}")
    for path in sorted(set(expected.fidelity) | set(got.fidelity)):
        fa, fb = expected.fidelity.get(path), got.fidelity.get(path)
        if not _close(fa, fb):
            out.append(f"fidelity {path}: {fa} -> {fb}")
    if sorted(d["id"] for d in expected.deviations) != sorted(d["id"] for d in got.deviations):
        out.append("listed deviations differ")
    if expected.unsupported != got.unsupported or expected.half_float != got.half_float:
        out.append("unsupported ops differ")
    return out
