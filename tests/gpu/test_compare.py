"""gpu-compare: rows matched by what they measure, statuses, text and JSON output, --live."""

from __future__ import annotations

import json

import pytest

from fpinspector.cli import main
from fpinspector.gpu.compare import compare_reports
from fpinspector.gpu.report_data import GpuReport, Probe
from fpinspector.gpu.report_io import example_reports, load_report


def _report(renderer: str, probes: list[Probe]) -> GpuReport:
    return GpuReport(info={"renderer": renderer, "device": 0, "backend": "egl"}, probes=probes,
                     header={"rules": {"digest": "d1"}})


def _probe(path: str, observed: str, ok: bool, pid: str = "ftz-input") -> Probe:
    return Probe(pid, "flushes?", "F32-FTZ", path, ["0x00000001"], observed, "0x00000000",
                 {"d3d10": ok, "d3d11": ok})


def test_statuses_follow_the_cells():
    a = _report("A", [_probe("fragment", "0x00000000", True), _probe("compute", "0x1", False),
                      _probe("fragment", "0x7FC00000", True, "nan"),
                      _probe("fragment", "0x7FC00000", True, "same")])
    b = _report("B", [_probe("fragment", "0x00000001", False),
                      _probe("fragment", "0xFFC00000", True, "nan"),
                      _probe("fragment", "0x7FC00000", True, "same")])
    cmp = compare_reports([a, b])
    by = {(r.path, r.key): r.status for r in cmp.rows}
    assert by[("fragment", "ftz-input")] == "verdicts differ"
    assert by[("compute", "ftz-input")] == "not measured by all"
    assert by[("fragment", "nan")] == "same verdict, other bits"
    assert by[("fragment", "same")] == "same"
    assert cmp.summary() == {"same": 1, "same verdict, other bits": 1, "verdicts differ": 1,
                             "not measured by all": 1}
    assert not cmp.warnings
    b.header = {"rules": {"digest": "d2"}}
    assert "different rule books" in compare_reports([a, b]).warnings[0]
    with pytest.raises(ValueError, match="at least two"):
        compare_reports([a])


def test_llvmpipe_and_softpipe_examples_differ_where_the_drivers_do():
    """F32-FTZ: llvmpipe's fragment shaders flush (conformant), softpipe's keep the
    denormal (SOFTPIPE-NO-FTZ); CONV-SNORM: both miss NaN -> 0 with different codes."""
    ex = example_reports()
    cmp = compare_reports([load_report(ex["llvmpipe"]), load_report(ex["softpipe"])])
    rows = {(r.path, r.key): r for r in cmp.rows}
    ftz = rows[("fragment", "ftz-input")]
    assert ftz.status == "verdicts differ" and ftz.cells[1].deviation == "SOFTPIPE-NO-FTZ"
    assert ftz.cells[0].observed == "0x00000000" and ftz.cells[1].observed == "0x00000001"
    snorm = rows[("render", "snorm8-nan")]
    assert snorm.status == "same verdict, other bits"
    assert (snorm.cells[0].observed, snorm.cells[1].observed) == ("-128", "-127")
    assert rows[("fragment", "frc-tiny-neg")].status == "same"  # both give exactly 1.0
    assert rows[("compute", "ftz-input")].status == "not measured by all"  # softpipe: no compute
    assert rows[("fragment", "raw-move")].status == "same"  # both carry raw bits


def test_cli_text_and_json(capsys):
    # the two GL examples: lavapipe's (no fragment path) leaves the fragment rows "not
    # measured by all", hidden without --all
    ex = [str(example_reports()[name]) for name in ("llvmpipe", "softpipe")]
    assert main(["gpu-compare", *ex]) == 0
    out = capsys.readouterr().out
    assert "F32-FTZ" in out and "VERDICTS DIFFER" in out and "SOFTPIPE-NO-FTZ" in out
    assert "NOT MEASURED BY ALL" not in out  # only with --all
    assert main(["gpu-compare", *ex, "--all"]) == 0
    assert "NOT MEASURED BY ALL" in capsys.readouterr().out
    assert main(["gpu-compare", "example:llvmpipe", "example:softpipe", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["schema"] == "fpinspector.gpu-compare" and len(data["reports"]) == 2
    assert sum(data["summary"].values()) == sum(len(g["rows"]) for g in data["rules"])


@pytest.mark.gpu
def test_live_adds_the_current_device(gpu, capsys):
    assert main(["gpu-compare", "example:softpipe", "--live", "--samples", "256",
                 "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["reports"][1]["source"] == "live"
    assert data["reports"][1]["renderer"] == gpu.info["renderer"]
