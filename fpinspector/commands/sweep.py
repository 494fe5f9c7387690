"""``fpinspector sweep``: run an op over a whole input range and summarise model/GPU errors."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

from ._gpu_args import add_device_arguments, device_choice

NAME = "sweep"
HELP = ("Sweep OP over an input domain (unary range or A x B grid), compare model, GPU and "
        "exact results, print the summary and write .npz/.csv files.")

DOMAIN_HELP = ("input axis: all | bits:LO:HI[:N] | lin:A:B[:N] | log:A:B[:N]; a binary op "
               "uses it for A and --domain-b (default: the same) for B")


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("op", nargs="?", default=None,
                   help="op name, e.g. mul, sqrt, rcp, to_f16 (see `fpinspector eval`); or "
                        "--expr EXPRESSION")
    p.add_argument("--format", "-f", default="f32", help="operand format (default f32)")
    p.add_argument("--rules", "-r", default="d3d11", help="rule set: d3d11, d3d10, ieee754")
    p.add_argument("--domain", "-d", default="all", help=DOMAIN_HELP)
    p.add_argument("--domain-b", default=None, help="B axis of a binary op (default: --domain)")
    p.add_argument("--c", dest="c_value", default=None, metavar="VALUE",
                   help="fixed third operand of a 3-operand op (mad): value or pattern, e.g. "
                        "1.5 or 0x3F800000; the sweep covers A x B")
    p.add_argument("--gpu", action="store_true", help="also capture on the GPU and compare")
    p.add_argument("--gpu-path", default="auto", choices=("auto", "compute", "fragment"))
    p.add_argument("--gpu-process", action="store_true",
                   help="run the GL context in a child process so the GPU works while the "
                        "model evaluates (fastest for 2^32 sweeps, with --workers 1)")
    add_device_arguments(p)
    p.add_argument("--option", "-o", action="append", default=[], metavar="NAME=VALUE",
                   help="rule-engine option (AMBIGUOUS switches), repeatable")
    p.add_argument("--out", help="write the sweep to this .npz and its summary to .csv beside it")
    p.add_argument("--csv", help="summary CSV path (default: OUT with .csv)")
    p.add_argument("--elements-csv", metavar="PATH",
                   help="also write one CSV row per element (needs kept columns)")
    p.add_argument("--summary-only", action="store_true",
                   help="keep only summaries, not per-element columns (for 2^32 sweeps)")
    p.add_argument("--chunk", type=int, default=1 << 18,
                   help="elements per chunk (default 2^18: fits 2 chunks in flight in cache-"
                        "friendly, bounded memory)")
    p.add_argument("--workers", type=int, default=2,
                   help="chunks evaluated in parallel threads (default 2, for 2 cores)")
    p.add_argument("--top", type=int, default=10, help="worst inputs kept per error column")
    p.add_argument("--first", type=int, default=100, help="non-conformant inputs kept")
    p.add_argument("--fail-on-nonconformant", action="store_true",
                   help="exit 1 when any result is not allowed by the rule set")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress on stderr")
    from ._expr_sweep import add_expr_arguments  # noqa: PLC0415 - expression sweeps

    add_expr_arguments(p)


def _options(pairs: list[str]) -> dict[str, Any]:
    from ..model import OPTIONS  # noqa: PLC0415

    out: dict[str, Any] = {}
    for pair in pairs:
        name, sep, text = pair.partition("=")
        if not sep or name not in OPTIONS:
            raise ValueError(f"bad option {pair!r}; use NAME=VALUE with NAME one of "
                             f"{', '.join(OPTIONS)}")
        choices = OPTIONS[name].choices
        match = [c for c in choices if str(c).lower() == text.strip().lower()]
        if not match:
            raise ValueError(f"option {name}: choose one of {', '.join(map(str, choices))}")
        out[name] = match[0]
    return out


def _progress(quiet: bool):
    if quiet:
        return None
    t0 = time.perf_counter()
    last = [0.0]

    def show(done: int, total: int) -> None:
        now = time.perf_counter()
        if now - last[0] < 0.5 and done < total:
            return
        last[0] = now
        rate = done / max(now - t0, 1e-9)
        print(f"\r{done}/{total} ({100 * done / total:.1f}%, {rate / 1e6:.1f} M/s)",
              end="\n" if done == total else "", file=sys.stderr, flush=True)

    return show


def _fixed(args: argparse.Namespace, arity: int, fmt: str) -> tuple:
    """The constant operands: ``--c`` for 3-operand ops (pattern in the operand dtype)."""
    import numpy as np  # noqa: PLC0415

    from ..model.formats import get_format  # noqa: PLC0415
    from ..model.parse import parse  # noqa: PLC0415

    if arity == 3:
        if args.c_value is None:
            raise ValueError(f"{args.op} takes 3 operands: sweep A x B and give C with --c VALUE")
        vals = parse(args.c_value, fmt)
        if len(vals) != 1:
            raise ValueError(f"--c takes one value, got {len(vals)} in {args.c_value!r}")
        return (np.asarray(vals[0].bits, dtype=get_format(fmt).dtype),)
    if args.c_value is not None:
        raise ValueError(f"--c is for 3-operand ops (mad); {args.op} takes {arity}")
    if arity > 3:
        raise ValueError(f"{args.op} takes {arity} operands; sweeps cover 1, 2 or mad's 3")
    return ()


def run(args: argparse.Namespace) -> int:
    if getattr(args, "expr", None) is not None:
        from ._expr_sweep import run_expr_sweep  # noqa: PLC0415

        return run_expr_sweep(args)
    if args.op is None:
        raise ValueError("give an op (e.g. mul) or --expr EXPRESSION")
    from ..model.formats import get_format  # noqa: PLC0415
    from ..model.sweep import (  # noqa: PLC0415
        parse_domain, run_sweep, save_npz, write_csv_elements, write_csv_summary)
    from ..model.formats import CODE_FORMATS  # noqa: PLC0415
    from ..model.sweep.stages import (  # noqa: PLC0415
        ModelStage, engine_format, op_arity, operand_format_of, result_format_of)

    from ..model.sweep.alloc import keep_freed_buffers  # noqa: PLC0415

    keep_freed_buffers()  # chunk buffers are reused instead of faulted in again per chunk
    arity = op_arity(args.op)
    fmt = args.format.strip().lower()
    fmt = fmt if fmt in CODE_FORMATS else get_format(fmt).name
    fmt = operand_format_of(args.op, fmt)
    options = _options(args.option)
    fixed = _fixed(args, arity, fmt)
    swept = arity - len(fixed)
    spec = args.domain if swept == 1 else f"{args.domain} x {args.domain_b or args.domain}"
    domain = parse_domain(spec, fmt, swept)
    result_format = result_format_of(args.op, fmt, args.rules, options)
    meta: dict[str, Any] = {"op": args.op, "format": fmt, "rules": args.rules,
                            "options": {k: str(v) for k, v in options.items()}, "gpu": args.gpu}
    if fixed:
        meta["fixed"] = {"c": f"0x{int(fixed[0]):X}"}
    cap = None
    if args.gpu:
        from ..gpu import GpuUnavailable  # noqa: PLC0415
        from ..gpu.sweep_capture import GpuCapture, ProcessGpuCapture, device_meta  # noqa: PLC0415

        try:
            cap = (ProcessGpuCapture if args.gpu_process else GpuCapture)(
                args.gpu_path, device_choice(args))
        except GpuUnavailable as exc:
            raise ValueError(exc.message) from None
        why = cap.unsupported_reason(args.op, engine_format(fmt))
        if why:
            cap.close()
            raise ValueError(f"this GPU cannot capture {args.op} on {fmt}: {why}")
        meta.update(device_meta(cap.info))
    try:
        stage = ModelStage(args.op, fmt, args.rules, options=options, gpu=cap, fixed=fixed)
        res = run_sweep(domain, stage, result_format=result_format, chunk_size=args.chunk,
                        keep_elements=False if args.summary_only else None,
                        progress=_progress(args.quiet), meta=meta, top_k=args.top,
                        first_n=args.first, workers=max(1, args.workers))
    finally:
        if cap is not None:
            cap.close()
    print(f"{args.op} {fmt} {args.rules} over {domain.describe()}"
          + (f" with C = {meta['fixed']['c']}" if fixed else "")
          + (f" on {meta['device']}" if cap is not None else ""))
    print(res.summary.format_text())
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
