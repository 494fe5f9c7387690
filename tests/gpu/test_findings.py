"""Findings: a GPU result no rule set allows and no deviation row names is reported (by
gpu-report, text and JSON) instead of hidden or failed on. The pure data checks run in
every tier; the report of this run's device is checked on GL.

``FPINSPECTOR_TEST_PRETEND_RENDERER`` (tests/gpu/conftest.py) runs the GPU tier as an
unknown device on Mesa: then no deviation row applies, and Mesa's own documented
deviations must come out as findings here."""

from __future__ import annotations

import json

import pytest
from device_checks import DeviceBehaviour

from fpinspector.cli import main
from fpinspector.gpu.findings import is_finding, report_findings
from fpinspector.gpu.report import build_report
from fpinspector.gpu.report_data import GpuReport, Probe


def _probe(verdict: dict[str, bool], deviation: str | None = None) -> Probe:
    return Probe("ftz-input", "is a denormal input flushed?", "F32-FTZ", "compute",
                 ["0x00000001", "0x3F800000"], "0x00000001", "0x00000000", verdict, deviation)


def test_a_result_no_rule_set_allows_and_no_row_names_is_a_finding():
    assert is_finding(_probe({"d3d10": False, "d3d11": False}))
    assert not is_finding(_probe({"d3d10": False, "d3d11": False}, "LLVMPIPE-COMPUTE-NO-FTZ"))
    assert not is_finding(_probe({"d3d10": False, "d3d11": True}))  # allowed under d3d11
    assert not is_finding(_probe({"d3d10": True, "d3d11": True}))


def test_report_findings_name_the_probe_inputs_and_results():
    rep = GpuReport(info={"renderer": "NVIDIA H200/PCIe/SSE2"},
                    probes=[_probe({"d3d10": False, "d3d11": False}),
                            _probe({"d3d10": True, "d3d11": True})])
    (line,) = report_findings(rep)
    assert line == ("compute F32-FTZ: is a denormal input flushed?: inputs 0x00000001, "
                    "0x3F800000 -> got 0x00000001, model 0x00000000")


@pytest.mark.gpu
def test_this_devices_findings_are_none_on_mesa_and_listed_elsewhere(gpu, capsys,
                                                                    device_behaviour):
    """llvmpipe/softpipe: every non-conformance is a named deviation, so no findings.
    Another device: each finding is a non-conformant probe without a deviation, and
    gpu-report prints them (text and --json)."""
    rep = build_report(gpu, samples=256)
    found = report_findings(rep)
    unnamed = [p for p in rep.probes if not any(p.verdict.values()) and p.deviation is None]
    assert len(found) == len(unnamed)
    if device_behaviour.strict:  # llvmpipe, softpipe
        assert found == []
    assert main(["gpu-report", "--samples", "256"]) == 0
    out = capsys.readouterr().out
    assert "Findings (" in out
    assert main(["gpu-report", "--samples", "256", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert isinstance(data["findings"], list)
    if device_behaviour.strict:
        assert data["findings"] == [] and "Findings (0)" in out
    for line in data["findings"]:
        assert line in out


def test_device_checks_are_strict_on_the_shipped_drivers_only():
    """llvmpipe/softpipe: a device behaviour no row names fails the test; any other
    renderer: it is recorded as a finding (printed in the test summary), not a failure."""
    sink: list[str] = []
    for renderer in ("llvmpipe (LLVM 15.0.6, 256 bits)", "softpipe"):
        with pytest.raises(AssertionError, match="probe x"):
            DeviceBehaviour(renderer, "t", sink).check(False, "probe x")
    other = DeviceBehaviour("NVIDIA H200/PCIe/SSE2", "t", sink)
    assert other.check(False, "probe x") is False and other.findings == sink == ["t: probe x"]
    assert other.check(True, "never recorded") and len(other.findings) == 1
