"""``fpinspector gpu-compare A.json B.json [...] [--live]``: GPUs side by side, rule by rule."""

from __future__ import annotations

import argparse
import json
import sys

from ._args import samples
from ._gpu_args import add_device_arguments, open_cli_session

NAME = "gpu-compare"
HELP = ("compare saved GPU reports (gpu-report --json --out FILE), and with --live the "
        "current device: where the GPUs agree and differ, rule by rule")


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("reports", nargs="*", metavar="REPORT.json",
                   help="reports saved by `fpinspector gpu-report --json --out FILE`; "
                   "`example:llvmpipe` / `example:softpipe` name the shipped examples")
    p.add_argument("--live", action="store_true",
                   help="also measure the current device (--device / --driver) and add it")
    p.add_argument("--samples", type=samples, default=1 << 16,
                   help="random inputs per op for the live ULP distributions, 1..2^24 "
                   "(default 65536)")
    p.add_argument("--json", action="store_true", help="print the comparison as JSON")
    p.add_argument("--all", action="store_true",
                   help="list every row (default: only rows every report measured and where "
                   "the GPUs differ)")
    add_device_arguments(p)


def _load(name: str):  # noqa: ANN202 - GpuReport
    from ..gpu.report_io import ReportFileError, example_reports, load_report

    if name.startswith("example:"):
        examples = example_reports()
        key = name.split(":", 1)[1]
        if key not in examples:
            raise ReportFileError(f"{name}: no such example report (shipped: "
                                  f"{', '.join('example:' + k for k in examples) or 'none'})")
        return load_report(examples[key])
    return load_report(name)


def _cell_text(cell) -> str:  # noqa: ANN001 - Cell | None
    if cell is None:
        return "— (not measured)"
    verdict = "ok" if cell.ok else "NO"
    dev = f" [{cell.deviation}]" if cell.deviation else ""
    mark = " (!)" if cell.note else ""
    return f"{cell.observed} {verdict}{dev}{mark}"


def _text(cmp, show_all: bool) -> str:  # noqa: ANN001 - Comparison
    from ..model.engine import RULES

    lines = ["GPUs side by side (fpinspector gpu-compare; verdicts under d3d11)"]
    for lab, src in zip(cmp.labels, cmp.sources):
        lines.append(f"  {lab}: {src['device']}  measured {src.get('created') or '?'}"
                     f"  {src.get('source') or ''}".rstrip())
    lines += [f"  note: {w}" for w in cmp.warnings]
    for rule, rows in cmp.by_rule().items():
        shown = [r for r in rows if show_all or r.status not in ("same", "not measured by all")]
        if not shown:
            continue
        text = getattr(RULES.get(rule), "text", "")
        lines += ["", f"{rule}: {text}" if text else rule]
        for r in shown:
            lines.append(f"  {r.path:8} {r.key:18} {r.question}  -> {r.status.upper()}")
            for lab, cell in zip(cmp.labels, r.cells):
                lines.append(f"      {lab}: {_cell_text(cell)}")
    lines += ["", "Known deviations (fpinspector/gpu/deviations.py):"]
    for lab, devs in zip(cmp.labels, cmp.deviations):
        lines.append(f"  {lab}: {', '.join(devs) or 'none'}")
    s = cmp.summary()
    lines += ["", "Summary: " + ", ".join(f"{n} {k}" for k, n in s.items())
              + ("" if show_all else "  (--all also lists rows that are the same or that "
                                      "not every report measured)")]
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    from ..gpu import GpuUnavailable
    from ..gpu.compare import compare_reports
    from ..gpu.report import build_report

    if len(args.reports) + int(args.live) < 2:
        raise ValueError("give at least two reports, or one report and --live")
    reports = [_load(name) for name in args.reports]
    sources = list(args.reports)
    if args.live:
        try:
            session = open_cli_session(args)
        except GpuUnavailable as exc:
            print(f"fpinspector gpu-compare: error: {exc.message}", file=sys.stderr)
            return 3
        try:
            reports.append(build_report(session, samples=args.samples))
        finally:
            session.close()
        sources.append("live")
    cmp = compare_reports(reports, sources=sources)
    if args.json:
        print(json.dumps(cmp.to_dict(), indent=2))
    else:
        print(_text(cmp, args.all))
    return 0
