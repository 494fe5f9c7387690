"""GPUs side by side: where saved (or live) GPU reports agree and differ, rule by rule.

Rows are matched by what they measure (probe id and capture path; ULP op and path;
fidelity path), never by position, so reports of drivers with different capture paths
(softpipe has no compute) line up; a row a report did not measure shows as absent.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from .fidelity import f16_summary
from .report_data import GpuReport

__all__ = ["Cell", "CompareRow", "Comparison", "compare_reports", "STATUSES"]

#: Row statuses, from "nothing to see" to "look here".
STATUSES = ("same", "same verdict, other bits", "verdicts differ", "not measured by all")


@dataclass
class Cell:
    """One report's answer to one row (None in ``CompareRow.cells`` when not measured)."""

    observed: str
    verdict: dict[str, bool]
    deviation: str | None = None
    note: str | None = None

    @property
    def ok(self) -> bool:
        return bool(self.verdict.get("d3d11", False))


@dataclass
class CompareRow:
    """One thing every report may have measured: a probe, a ULP distribution, a path's
    capture fidelity."""

    kind: str
    rule: str
    path: str
    key: str
    question: str
    cells: list[Cell | None]
    status: str = ""

    def __post_init__(self) -> None:
        if not self.status:
            self.status = _status(self.cells)


@dataclass
class Comparison:
    """Rows grouped by rule, the reports' labels, deviations per report and warnings."""

    labels: list[str]
    sources: list[dict[str, Any]]
    rows: list[CompareRow] = field(default_factory=list)
    deviations: list[list[str]] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    def by_rule(self) -> dict[str, list[CompareRow]]:
        out: dict[str, list[CompareRow]] = {}
        for row in self.rows:
            out.setdefault(row.rule, []).append(row)
        return out

    def summary(self) -> dict[str, int]:
        counts = {s: 0 for s in STATUSES}
        for row in self.rows:
            counts[row.status] += 1
        return counts

    def to_dict(self) -> dict[str, Any]:
        return {"schema": "fpinspector.gpu-compare", "version": 1,
                "reports": [{"label": lab, **src} for lab, src in zip(self.labels, self.sources)],
                "rules": [{"rule": rule, "rows": [asdict(r) for r in rows]}
                          for rule, rows in self.by_rule().items()],
                "deviations": {lab: devs for lab, devs in zip(self.labels, self.deviations)},
                "summary": self.summary(), "warnings": self.warnings}


def _status(cells: list[Cell | None]) -> str:
    present = [c for c in cells if c is not None]
    if len(present) < len(cells):
        return "not measured by all"
    if len({c.observed for c in present}) == 1 and len({c.ok for c in present}) == 1:
        return "same"
    if len({tuple(sorted(c.verdict.items())) for c in present}) == 1:
        return "same verdict, other bits"
    return "verdicts differ"


def _ulp_cell(u: Any) -> Cell:
    share = u.allowed_fraction.get("d3d11", 0.0)
    return Cell(f"max {u.max_ulp:.3f} ULP vs exact, mean {u.mean_ulp:.3f}, {share:.4%} allowed",
                dict(u.verdict))


def _fidelity_cell(f: dict[str, Any]) -> Cell:
    ok = bool(f.get("raw_bits", False))
    return Cell("raw bits" if ok else str(f.get("note", "not raw")), {"d3d11": ok})


def _f16_fidelity_cell(f: dict[str, Any]) -> Cell | None:
    """The f16 raw move of a path; None where it was not measured (no f16 route on the
    path, or a report of schema version 2)."""
    if not f.get("f16_classes"):
        return None
    ok = bool(f.get("wire", False)) and all(f["f16_classes"].values())
    return Cell("raw bits" if ok else f16_summary(f), {"d3d11": ok})


def compare_reports(reports: list[GpuReport], labels: list[str] | None = None,
                    sources: list[str] | None = None) -> Comparison:
    """Line up ``reports`` rule by rule (probes, then ULP, then capture fidelity)."""
    if len(reports) < 2:
        raise ValueError("comparing needs at least two reports (files, or one with --live)")
    labels = labels or [chr(ord("A") + i) if i < 26 else f"R{i}" for i in range(len(reports))]
    srcs = sources or [""] * len(reports)
    cmp = Comparison(labels, [{"source": s, "device": r.label, "renderer": r.info.get("renderer"),
                               "created": r.header.get("created"),
                               "rules_digest": (r.header.get("rules") or {}).get("digest")}
                              for r, s in zip(reports, srcs)])
    probe_keys: dict[tuple[str, str], tuple[str, str]] = {}
    for r in reports:
        for p in r.probes:
            probe_keys.setdefault((p.path, p.id), (p.rule, p.question))
    for (path, pid), (rule, question) in probe_keys.items():
        cells: list[Cell | None] = []
        for r in reports:
            hit = next((q for q in r.probes if q.path == path and q.id == pid), None)
            cells.append(None if hit is None else Cell(hit.observed, dict(hit.verdict),
                                                       hit.deviation, hit.capture_note))
        cmp.rows.append(CompareRow("probe", rule, path, pid, question, cells))
    ulp_keys: dict[tuple[str, str], str] = {}
    for r in reports:
        for u in r.ulp:
            ulp_keys.setdefault((u.path, u.op), u.rule)
    for (path, op), rule in ulp_keys.items():
        cells = []
        for r in reports:
            stats = next((v for v in r.ulp if v.path == path and v.op == op), None)
            cells.append(None if stats is None else _ulp_cell(stats))
        row = CompareRow("ulp", rule, path, op, f"{op}: ULP error over the random sample", cells)
        if row.status == "same verdict, other bits":
            row.status = "same"  # different figures under the same verdict are expected
        cmp.rows.append(row)
    paths = sorted({p for r in reports for p in r.fidelity})
    for path in paths:
        cells = [None if path not in r.fidelity else _fidelity_cell(r.fidelity[path])
                 for r in reports]
        cmp.rows.append(CompareRow("fidelity", "F32-NANOUT", path, "raw-move",
                                   "capture carries raw bits (raw move of every class)?", cells))
        f16 = [None if path not in r.fidelity else _f16_fidelity_cell(r.fidelity[path])
               for r in reports]
        if any(f16):
            cmp.rows.append(CompareRow("fidelity", "F16-DENORM", path, "raw-move-f16",
                                       "f16 capture carries raw bits (raw move of every f16 "
                                       "class: denormals, -0, NaN payloads)?", f16))
    cmp.deviations = [sorted({d["id"] for d in r.deviations}) for r in reports]
    digests = {(r.header.get("rules") or {}).get("digest") for r in reports}
    if len(digests) > 1:
        cmp.warnings.append("the reports were judged by different rule books (rules digests "
                            f"{', '.join(sorted(str(d) for d in digests))}): verdicts may "
                            "differ for that reason alone")
    return cmp
