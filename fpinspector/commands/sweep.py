"""``fpinspector sweep``: run an op (or, with ``--expr``, a whole expression: ._expr_sweep)
over a whole input range and summarise model/GPU errors.

Nothing done is lost: with ``--out`` a long sweep checkpoints its partial result into that
file (every ``--checkpoint`` seconds), Ctrl-C stops it after the chunks in flight and saves
what was done (``complete: false``), and ``--resume`` continues a saved partial sweep.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from ._args import count, seconds, workers
from ._gpu_args import add_device_arguments, device_choice
from ._sweep.files import check_outputs, resume_from, save_partial
from ._sweep_common import progress_line as _progress
from ._sweep_common import rule_options as _options

MAX_ROWS = 1_000_000

NAME = "sweep"
HELP = ("Sweep OP over an input domain (unary range or A x B grid), compare model, GPU and "
        "exact results, print the summary and write .npz/.csv files.")

DOMAIN_HELP = ("input axis: all | bits:LO:HI[:N] | lin:A:B[:N] | log:A:B[:N] (N: 1..2^36 "
               "samples, default 1024 for lin/log); a binary op uses it for A and --domain-b "
               "(default: the same) for B; at most 2^36 elements in all")


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
                        "model evaluates (automatic when worker processes run the sweep)")
    add_device_arguments(p)
    p.add_argument("--option", "-o", action="append", default=[], metavar="NAME=VALUE",
                   help="rule-engine option (AMBIGUOUS switches), repeatable")
    p.add_argument("--out", help="write the sweep to this .npz and its summary to .csv beside it")
    p.add_argument("--csv", help="summary CSV path (default: OUT with .csv)")
    p.add_argument("--elements-csv", metavar="PATH",
                   help="also write one CSV row per element (needs kept columns)")
    p.add_argument("--summary-only", action="store_true",
                   help="keep only summaries, not per-element columns (for 2^32 sweeps)")
    p.add_argument("--chunk", type=count(1, 1 << 24, "a chunk size"), default=None,
                   help="elements per chunk, 1..2^24 (default 2^17: a worker's chunk stays "
                        "in cache-friendly, bounded memory; 2^16 where the workers hand the "
                        "GPU 2^19 elements per request, --gpu --summary-only on 2^24 "
                        "elements and more; 2^32 sweeps in under 256 MiB)")
    p.add_argument("--workers", type=workers, default=None,
                   help="chunks evaluated in parallel (default: one per core); sweeps of "
                        "2^24 elements and more run them as worker processes")
    p.add_argument("--top", type=count(0, MAX_ROWS, "a number of rows"), default=10,
                   help="worst inputs kept per error column (0..10^6)")
    p.add_argument("--first", type=count(0, MAX_ROWS, "a number of rows"), default=100,
                   help="non-conformant inputs kept (0..10^6)")
    p.add_argument("--checkpoint", type=seconds(0, 86400), default=30.0, metavar="SECONDS",
                   help="with --out, save the partial sweep there this often (default 30 s) "
                        "so a killed run can --resume")
    p.add_argument("--resume", action="store_true",
                   help="continue the partial sweep saved in --out (same command otherwise); "
                        "the result equals an uninterrupted run")
    p.add_argument("--fail-on-nonconformant", action="store_true",
                   help="exit 1 when any result is not allowed by the rule set")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress on stderr")
    from ._sweep.expr import add_expr_arguments  # noqa: PLC0415 - expression sweeps

    add_expr_arguments(p)


def run(args: argparse.Namespace) -> int:
    from ..model.sweep.alloc import keep_freed_buffers  # noqa: PLC0415

    keep_freed_buffers()  # chunk buffers are reused instead of faulted in again per chunk
    gpu_only = [flag for flag, used in (
        ("--gpu-path", args.gpu_path != "auto"), ("--gpu-process", args.gpu_process),
        ("--device", args.device is not None), ("--driver", args.driver is not None)) if used]
    if gpu_only and not args.gpu:  # (refused like --c: an option silently ignored misleads)
        raise ValueError(f"{', '.join(gpu_only)} only go with --gpu (the sweep compares the "
                         "model with the exact result without it)")
    if getattr(args, "expr", None) is not None:
        from ..model.expr import ExprError  # noqa: PLC0415
        from ._sweep.expr import expr_plan  # noqa: PLC0415

        try:
            plan: Any = expr_plan(args)
        except ExprError as exc:
            print(f"fpinspector sweep: error: {exc}\n{exc.caret(args.expr)}", file=sys.stderr)
            return 2
    elif args.op is None:
        raise ValueError("give an op (e.g. mul) or --expr EXPRESSION")
    else:
        unused = [flag for flag, used in (("--set", args.bindings), ("--axes", args.axes),
                                          ("--component", args.component != "worst")) if used]
        if unused:  # (refused like --c with --expr: an option silently ignored misleads)
            raise ValueError(f"{', '.join(unused)} only go with --expr EXPRESSION; an op "
                             f"sweep takes --domain/--domain-b (and --c for mad)")
        from ..model.sweep import SweepPlan  # noqa: PLC0415
        from ..model.sweep.plan import CLI_LABELS  # noqa: PLC0415

        plan = SweepPlan.build(args.op, args.format, args.rules, args.domain, args.domain_b,
                               args.c_value, options=_options(args.option), labels=CLI_LABELS)
    from ..model.sweep.runner import KEEP_LIMIT  # noqa: PLC0415

    keep = not args.summary_only and plan.domain.size <= KEEP_LIMIT
    if args.elements_csv and not keep:
        raise ValueError("--elements-csv needs per-element columns: drop --summary-only"
                         if args.summary_only else f"--elements-csv: {plan.domain.size} "
                         f"elements are too many to keep per element (at most {KEEP_LIMIT})")
    if args.resume and not args.out:
        raise ValueError("--resume continues the partial sweep saved in --out FILE: give --out")
    check_outputs(args)  # before the work: an unwritable path fails now, not after an hour
    meta = plan.meta(gpu=args.gpu)
    saved = {**meta, "domain": plan.domain.describe(), "top_k": args.top,
             "first_n": args.first, "kept": keep}
    prev = resume_from(args.out, saved) if args.resume else None
    if prev is not None and prev.complete:
        print(f"{args.out} is already complete ({prev.n_done} elements); nothing to resume")
        print(prev.summary.format_text())
        return 0
    return _sweep(args, plan, meta, keep, prev)


def _sweep(args: argparse.Namespace, plan: Any, meta: dict[str, Any], keep: bool,
           prev: Any) -> int:
    from ..model.sweep import save_npz  # noqa: PLC0415
    from ..model.sweep.runner import SweepAborted  # noqa: PLC0415
    from ._sweep.interrupt import stop_on_interrupt  # noqa: PLC0415

    checkpoint = None
    if args.out:
        def checkpoint(res) -> None:
            try:
                save_npz(args.out, res)
            except (OSError, ValueError) as exc:
                print(f"\nfpinspector sweep: warning: checkpoint not saved ({exc})",
                      file=sys.stderr)

    note = ("stopping after the chunks in flight" + (f"; saving to {args.out}" if args.out else "")
            + " (Ctrl-C again to abort now)")
    cap = None
    try:
        with stop_on_interrupt(note) as stop:  # (a Ctrl-C while the GPU opens counts too)
            if args.gpu:
                child = _in_processes(args, plan.domain.size)
                opener = getattr(plan, "open_gpu", None)  # (an expression's own GPU session)
                cap = (opener(args, meta, child) if opener is not None
                       else _open_gpu(args, plan.fmt, meta, child))
                _same_device(args, prev, meta)
            res = plan.run(plan.stage(gpu=cap), meta=meta,
                           chunk_size=_chunk(args, keep, plan.domain.size,
                                             getattr(plan, "gpu_spans", True)),
                           keep_elements=keep, progress=_progress(args.quiet),
                           top_k=args.top, first_n=args.first, workers=_workers(args),
                           cancel=stop, resume=prev, checkpoint=checkpoint,
                           checkpoint_every=args.checkpoint)
    except SweepAborted as exc:
        where = save_partial(args, exc.result)
        print(f"fpinspector sweep: error: {exc}{where}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("fpinspector sweep: aborted" + (f"; {args.out} holds the last checkpoint, if any"
                                              if args.out else ""), file=sys.stderr)
        return 130
    finally:
        if cap is not None:
            cap.close()
    return _report(args, plan, res, meta, cap is not None, prev)


def _same_device(args: argparse.Namespace, prev: Any, meta: dict[str, Any]) -> None:
    """A resumed GPU sweep continues on the device that started it."""
    if prev is None:
        return
    key = "device" if "device" in prev.meta else "renderer"
    if prev.meta.get(key) != meta[key]:
        raise ValueError(f"cannot resume {args.out}: it was captured on "
                         f"{prev.meta.get(key)!r}, this GPU is {meta[key]!r}")


def _chunk(args: argparse.Namespace, keep: bool, size: int, spans: bool = True) -> int:
    """``--chunk``, else the default for whether the workers hand the GPU spans (a GPU,
    no kept columns, worker processes, a stage that takes spans: model.sweep.chunk.
    gpu_span_chunks)."""
    from ..model.sweep.chunk import default_chunk  # noqa: PLC0415

    if args.chunk is not None:
        return int(args.chunk)
    return default_chunk(spans and bool(args.gpu) and not keep and _in_processes(args, size))


def _workers(args: argparse.Namespace) -> int:
    from ..model.sweep.runner import default_workers  # noqa: PLC0415

    return args.workers if args.workers is not None else default_workers()


def _in_processes(args: argparse.Namespace, size: int) -> bool:
    """Will worker processes run this sweep (they reach the GPU in a child process)?"""
    from ..model.sweep.runner import PROCESS_MIN  # noqa: PLC0415

    return _workers(args) > 1 and size >= PROCESS_MIN


def _open_gpu(args: argparse.Namespace, fmt: str, meta: dict[str, Any], child: bool = False):
    from ..gpu import GpuUnavailable  # noqa: PLC0415
    from ..gpu.sweep_capture import GpuCapture, ProcessGpuCapture, device_meta  # noqa: PLC0415
    from ..model.sweep.stages import engine_format  # noqa: PLC0415
    from ._gpu_args import require_gl_package  # noqa: PLC0415
    from ._sweep.interrupt import interrupts_held  # noqa: PLC0415

    require_gl_package()
    try:
        with interrupts_held():  # the GPU child must outlive a Ctrl-C (we stop it)
            cap = (ProcessGpuCapture if args.gpu_process or child else GpuCapture)(
                args.gpu_path, device_choice(args))
    except GpuUnavailable as exc:
        raise ValueError(exc.message) from None
    why = cap.unsupported_reason(args.op, engine_format(fmt))
    if why:
        cap.close()
        raise ValueError(f"this GPU cannot capture {args.op} on {fmt}: {why}")
    meta.update(device_meta(cap.info))
    return cap


def _report(args: argparse.Namespace, plan: Any, res: Any, meta: dict[str, Any], gpu: bool,
            prev: Any) -> int:
    from ..model.formats import FORMATS  # noqa: PLC0415
    from ..model.sweep import save_npz, write_csv_elements, write_csv_summary  # noqa: PLC0415

    print(plan.describe()
          + (f" on {meta.get('device', meta.get('renderer'))}" if gpu else "")
          + (f" (resumed at element {prev.n_done})" if prev is not None else ""))
    swept = FORMATS.get(getattr(plan, "fmt", ""))
    if swept is not None and swept.flushes(getattr(plan, "rules", "")):  # F32-FTZ's formats
        print("(ULP errors are vs the exact value after the rule set's input flush, F32-FTZ; "
              "`fpinspector eval` of one cell also gives it of the raw inputs)")
    print(res.summary.format_text())
    for line in getattr(plan, "report_lines", lambda _res: [])(res):  # (expressions)
        print(line)
    if not res.complete and not args.quiet:
        print(file=sys.stderr)  # end the progress line
    t = res.timings
    done = res.n_done - (prev.n_done if prev is not None else 0)
    print(f"time: {t['total']:.3f} s ({done / max(t['total'], 1e-9) / 1e6:.2f} M elements/s)")
    if not res.complete:  # Ctrl-C: keep what was done
        where = save_partial(args, res)
        print(f"fpinspector sweep: interrupted after {res.n_done} of {res.domain.size} "
              f"elements{where}",
              file=sys.stderr)
        return 130
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
