"""``fpinspector gpu-report``: does the local GPU honour the D3D floating-point rules?"""

from __future__ import annotations

import argparse
import json
import sys

from ._args import samples, seed
from ._gpu_args import add_device_arguments, open_cli_session

NAME = "gpu-report"
HELP = "probe the local GPU (moderngl; llvmpipe counts) against the D3D rules and print a report"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.add_argument("--out", metavar="FILE", default=None,
                   help="save the report as JSON to FILE (for gpu-compare and the app's GPUs "
                   "view); prints one line saying so instead of the report")
    p.add_argument("--samples", type=samples, default=1 << 18,
                   help="random inputs per op for the ULP distributions, 1..2^24 (default "
                   "262144)")
    p.add_argument("--path", choices=("all", "compute", "fragment"), default="all",
                   help="capture path(s) to probe (default: every path the GPU has)")
    p.add_argument("--seed", type=seed, default=2024,
                   help="random seed for the ULP sample, 0..2^64-1 (default 2024)")
    add_device_arguments(p)


def api_line(info: dict) -> str:
    """The API and backend a report was measured through: "OpenGL 4.5 (Core Profile) Mesa
    22.3.6 (moderngl, egl)" or "Vulkan through WebGPU (wgpu/Vulkan), driver Mesa 22.3.6"."""
    api = info.get("api", "gl")
    if api == "gl":
        return f"OpenGL {info.get('version', '?')} (moderngl, {info.get('backend', '?')})"
    return (f"{api} through WebGPU ({info.get('backend', '?')}, adapter "
            f"{info.get('device', '?')}, {info.get('adapter_type', '?')}), driver "
            f"{info.get('version', '?')}")


def _yes(v: bool) -> str:
    return "conformant" if v else "NOT conformant"


def _findings_text(rep) -> list[str]:  # noqa: ANN001 - GpuReport
    from ..gpu.findings import report_findings

    found = report_findings(rep)
    lines = ["", f"Findings ({len(found)}): results no rule set allows and no deviation row "
             "names (new behaviour of this GPU; worth reporting with this report):"]
    return lines + ([f"  {f}" for f in found] or ["  none"])


def _text(rep) -> str:  # noqa: ANN001 - GpuReport
    from ..gpu.fidelity import f16_summary

    i, h = rep.info, rep.header
    dev = "default" if i.get("device") is None else i["device"]
    lines = [
        "GPU rules report (fpinspector)",
        f"  renderer : {i['renderer']}",
        f"  vendor   : {i['vendor']}",
        f"  API      : {api_line(i)}",
        f"  device   : {dev} (backend {i.get('backend', '?')}, driver {i.get('driver', '?')}, "
        f"{i.get('process', 'in-process')})",
        f"  paths    : {', '.join(i['paths'])}   fp64: {'yes' if i['fp64'] else 'no'}",
        f"  f16 math : {rep.half_float}",
        f"  measured : {h.get('created', '?')} by fpinspector {h.get('fpinspector', '?')}, "
        f"rules digest {(h.get('rules') or {}).get('digest', '?')}",
        "",
        "Capture fidelity (raw move of every f32/f64/f16 class: zeros, denormals, normals, "
        "infinities, quiet and signaling NaNs with payloads):",
    ]
    for path, f in rep.fidelity.items():
        wire = "wire ok" if f.get("wire") else "WIRE CHANGES BITS"
        lines.append(f"  {path:8} {'raw bits' if f.get('raw_bits') else 'NOT RAW':8} "
                     f"({wire}) {f.get('note', '')}")
        lines.append(f"  {'':8} {f16_summary(f)}")
    lines += ["", "Probes (verdicts from the rule engine; d3d10 / d3d11):"]
    for p in rep.probes:
        v = "  ".join(f"{rs}: {'ok ' if ok else 'NO '}" for rs, ok in p.verdict.items())
        dev = f"  [{p.deviation}]" if p.deviation else ""
        mark = "  (!) " + p.capture_note if p.capture_note else ""
        lines.append(f"  {p.path:8} {p.rule:16} {p.question:52} got {p.observed:>11} "
                     f"model {p.model:>11}  {v}{dev}{mark}")
    lines += ["", "ULP error vs the exact result (|error| histogram; bins in ULP):"]
    for u in rep.ulp:
        edges = u.bins
        hist = " ".join(f"[{edges[k]:g},{edges[k + 1]:g}):{c}" if edges[k + 1] < 1e299
                        else f">={edges[k]:g}:{c}" for k, c in enumerate(u.counts) if c)
        verdict = ", ".join(f"{rs} {_yes(ok)} ({u.allowed_fraction[rs]:.4%} allowed)"
                            for rs, ok in u.verdict.items())
        lines.append(f"  {u.path:8} {u.op:5} {u.rule:13} n={u.samples} max={u.max_ulp:.3f} "
                     f"mean={u.mean_ulp:.3f}  {verdict}")
        lines.append(f"           {hist}")
    lines += ["", f"Not capturable here ({len(rep.unsupported)} op/format pairs; the model "
              "still evaluates them):"]
    lines += [f"  {u['op']:12} {u['format']:8} {u['reason']}" for u in rep.unsupported]
    lines += _findings_text(rep)
    lines += ["", "Known deviations of this driver (fpinspector/gpu/deviations.py):"]
    for d in rep.deviations:
        lines.append(f"  {d['id']} ({', '.join(d['paths'])}; breaks {', '.join(d['rules'])})")
        lines.append(f"      {d['summary']}")
    if not rep.deviations:
        lines.append("  none listed")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    from ..gpu import GpuUnavailable
    from ..gpu.report import build_report

    try:
        session = open_cli_session(args)
    except GpuUnavailable as exc:
        print(f"fpinspector gpu-report: error: {exc.message}", file=sys.stderr)
        return 3
    try:
        paths = None if args.path == "all" else (args.path,)
        if paths and paths[0] not in session.info["paths"]:
            raise ValueError(f"capture path {args.path!r} not available here "
                             f"({', '.join(session.info['paths'])})")
        rep = build_report(session, samples=args.samples, seed=args.seed, paths=paths)
    finally:
        session.close()
    if args.out:
        from ..gpu.report_io import save_report

        path = save_report(args.out, rep)
        print(f"wrote {path}: {rep.label}, {len(rep.probes)} probes, {len(rep.ulp)} ULP "
              "distributions")
    elif args.json:
        from ..gpu.findings import report_findings

        print(json.dumps({**rep.to_dict(), "findings": report_findings(rep)}, indent=2))
    else:
        print(_text(rep))
    return 0
