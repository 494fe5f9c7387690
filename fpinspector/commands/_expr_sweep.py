"""``fpinspector sweep --expr``: error maps over a whole expression (two variables as the
A and B axes, the others bound with --set), with the GPU judged step by step."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

__all__ = ["add_expr_arguments", "run_expr_sweep"]


def add_expr_arguments(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("expressions (instead of OP)")
    g.add_argument("--expr", default=None, metavar="EXPRESSION",
                   help='sweep a whole expression, e.g. "saturate(a * b + c)": --domain is '
                        "the first axis, --domain-b the second (docs/expressions.md)")
    g.add_argument("--axes", default=None, metavar="A[,B]",
                   help="the swept variables (a, or n.x for a vector component); default: "
                        "the variables --set leaves unbound, in order of appearance")
    g.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                   dest="bindings", help="fix a variable: c=0.5, n=float3(1,0,0); repeatable")
    g.add_argument("--component", default="worst", choices=("worst", "x", "y", "z", "w"),
                   help="vector results: the component the map shows (default: the worst)")


def run_expr_sweep(args: argparse.Namespace) -> int:
    from ..model.expr import ExprError, variables_in  # noqa: PLC0415
    from ..model.expr.sweep import ExprStage, expr_sweep_setup  # noqa: PLC0415
    from ..model.sweep import (  # noqa: PLC0415
        GridDomain,
        UnaryDomain,
        parse_axis,
        run_sweep,
        save_npz,
        write_csv_elements,
        write_csv_summary,
    )
    from ..model.sweep.chunk import default_chunk  # noqa: PLC0415 - (no spans: ExprStage)
    from ..model.sweep.runner import default_workers  # noqa: PLC0415
    from ._sweep_common import progress_line as _progress  # noqa: PLC0415
    from ._sweep_common import rule_options as _options  # noqa: PLC0415
    from .expr import _bindings  # noqa: PLC0415

    if args.op is not None:
        raise ValueError("give either OP or --expr, not both")
    if args.c_value is not None:
        raise ValueError("--c is for mad; fix expression variables with --set NAME=VALUE")
    if args.gpu_process:
        raise ValueError("--gpu-process is for single ops; expression sweeps run the GPU "
                         "in a thread")
    text = args.expr
    fixed = _bindings(args.bindings)
    fmt = args.format.strip().lower()
    try:
        axes = ([a.strip() for a in args.axes.split(",") if a.strip()] if args.axes
                else [v for v in variables_in(text) if v not in fixed])
        if not 1 <= len(axes) <= 2:
            raise ValueError(f"a map sweeps 1 or 2 variables, got {len(axes)} "
                             f"({', '.join(axes) or 'none'}): bind the others with --set")
        program, axis_slots, slots = expr_sweep_setup(text, axes, fixed, fmt)
    except ExprError as exc:
        print(f"fpinspector sweep: error: {exc}\n{exc.caret(text)}", file=sys.stderr)
        return 2
    specs = [args.domain, args.domain_b or args.domain][: len(axes)]
    ax = [parse_axis(s, program.format) for s in specs]
    domain = UnaryDomain(ax[0]) if len(ax) == 1 else GridDomain(ax[0], ax[1])
    options = _options(args.option)
    meta: dict[str, Any] = {"op": "expr", "expression": text, "variables": axes,
                            "bindings": fixed, "format": program.format, "rules": args.rules,
                            "component": args.component, "gpu": args.gpu,
                            "options": {k: str(v) for k, v in options.items()}}
    gpu = _open_gpu(args.gpu_path, program) if args.gpu else None
    try:
        if gpu is not None:
            meta["renderer"] = gpu.info["renderer"]
        stage = ExprStage(program, axis_slots, slots, args.rules, options, gpu, args.component)
        res = run_sweep(domain, stage, result_format=stage.result_format,
                        chunk_size=args.chunk or default_chunk(False),
                        keep_elements=False if args.summary_only else None,
                        progress=_progress(args.quiet), meta=meta, top_k=args.top,
                        first_n=args.first, workers=args.workers or default_workers())
    finally:
        if gpu is not None:
            gpu.close()
    print(f"{text}  over {' x '.join(axes)} = {domain.describe()}"
          + "".join(f", {k} = {v}" for k, v in fixed.items())
          + f"  [{program.format}, {args.rules}]" + (f" on {meta['renderer']}" if gpu else ""))
    print(res.summary.format_text())
    if "first_bad" in res.columns:
        print(_divergence_counts(res.columns["first_bad"], program))
    t = res.timings
    print(f"time: {t['total']:.3f} s ({res.n_done / max(t['total'], 1e-9) / 1e6:.2f} M elements/s)")
    if args.out:
        out = save_npz(args.out, res)
        csv_path = write_csv_summary(args.csv or Path(args.out).with_suffix(".csv"), res)
        print(f"wrote {out} and {csv_path}")
    elif args.csv:
        print(f"wrote {write_csv_summary(args.csv, res)}")
    if args.elements_csv:
        print(f"wrote {write_csv_elements(args.elements_csv, res)}")
    if args.fail_on_nonconformant and res.summary.nonconformant_count():
        return 1
    return 0


def _open_gpu(path: str, program: Any) -> Any:
    from ..gpu import GpuUnavailable  # noqa: PLC0415
    from ..gpu.expr_capture import ExprGpu  # noqa: PLC0415

    try:
        gpu = ExprGpu(path)
    except GpuUnavailable as exc:
        raise ValueError(exc.message) from None
    why = gpu.unsupported_reason(program)
    if why:
        gpu.close()
        raise ValueError(f"GPU: {why}")
    return gpu


def _divergence_counts(first_bad: Any, program: Any) -> str:
    import numpy as np  # noqa: PLC0415

    counts = np.bincount(np.asarray(first_bad, np.int64) + 1, minlength=len(program.steps) + 1)
    rows = [f"  r{k} {program.steps[k].instruction}: {int(c)}"
            for k, c in enumerate(counts[1:]) if c]
    return "first GPU divergence by step:" + ("\n" + "\n".join(rows) if rows else " none")
