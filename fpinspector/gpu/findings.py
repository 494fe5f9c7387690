"""Findings: what a GPU did that no rule set allows and no deviation row names.

On the drivers whose rows the project ships (llvmpipe, softpipe) there are none: every
non-conformance is explained. On any other GPU such a behaviour is news, not a bug of
fpinspector: ``gpu-report`` lists it so that it can be reported (and a deviation row
written), and the GPU test tier prints it instead of failing.
"""

from __future__ import annotations

from .report_data import GpuReport, Probe

__all__ = ["is_finding", "report_findings"]


def is_finding(probe: Probe) -> bool:
    """No rule set of the report allows the observed result, and no deviation names it."""
    return probe.deviation is None and bool(probe.verdict) and not any(probe.verdict.values())


def report_findings(report: GpuReport) -> list[str]:
    """One line per finding of ``report`` (empty on a conformant or fully explained GPU)."""
    out = []
    for p in report.probes:
        if is_finding(p):
            note = f"; {p.capture_note}" if p.capture_note else ""
            out.append(f"{p.path} {p.rule}: {p.question}: inputs {', '.join(p.inputs)} "
                       f"-> got {p.observed}, model {p.model}{note}")
    return out
