"""``fpinspector expr``: an expression step by step under the D3D rules, with its exact
value, and on the GPU (every step, first divergence, the freely compiled variant)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from ..model.engine.rules import RULE_SETS
from ._gpu_args import add_device_arguments

NAME = "expr"
HELP = ("evaluate an HLSL-like expression step by step under the D3D rules (model, allowed "
        "set, rules, exact value; --gpu: every GPU step and the first divergence)")


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("expression", help='e.g. "n * rsqrt(dot(n, n))" (see docs/expressions.md)')
    p.add_argument("--set", "-s", action="append", default=[], metavar="NAME=VALUE",
                   dest="bindings", help="bind a variable: x=1.5, p=0x00000001, "
                   "n=float3(1e-20,0,0), u=uint(0x3c00); repeatable")
    p.add_argument("--format", "-f", default="f32", choices=("f32", "f16"),
                   help="format of float values (default f32)")
    p.add_argument("--rules", "-r", default="d3d11", choices=RULE_SETS)
    p.add_argument("--option", "-o", action="append", default=[], metavar="NAME=VALUE",
                   help="rule-engine option (AMBIGUOUS switches), repeatable")
    p.add_argument("--gpu", action="store_true", help="also run it on the GPU, every step")
    p.add_argument("--gpu-path", default="auto", choices=("auto", "compute", "fragment"))
    add_device_arguments(p)  # --device, --driver (GL), --api, --adapter (WebGPU)
    p.add_argument("--json", action="store_true", help="one JSON object (docs/expressions.md)")
    p.add_argument("--fail-on-nonconformant", action="store_true",
                   help="exit 1 when a GPU step leaves the allowed set")


def _bindings(items: list[str]) -> dict[str, str]:
    out: dict[str, str] = {}
    for it in items:
        name, sep, value = it.partition("=")
        if not sep or not name.strip():
            raise ValueError(f"--set {it!r}: expected NAME=VALUE, e.g. x=1.5")
        out[name.strip()] = value.strip()
    return out


def _usage_error(message: str, detail: str = "") -> int:
    print(f"fpinspector expr: error: {message}", file=sys.stderr)
    if detail:
        print(detail, file=sys.stderr)
    return 2


def run(args: argparse.Namespace) -> int:
    from ..model.expr import BindingError, ExprError, evaluate_expr, judge_gpu  # noqa: PLC0415
    from ..model.expr.report import element_report  # noqa: PLC0415
    from ._sweep_common import rule_options as _options  # noqa: PLC0415

    try:
        ev = evaluate_expr(args.expression, _bindings(args.bindings), args.format, args.rules,
                           _options(args.option))
    except ExprError as exc:
        return _usage_error(str(exc), exc.caret(args.expression))
    except BindingError as exc:
        return _usage_error(f"--set {exc}")
    judge = free = info = None
    if args.gpu:
        judge, free, info = _gpu(ev, args, judge_gpu)
    rep = element_report(ev, 0, judge, free, info)
    if judge is not None:
        from ..gpu.expr_deviations import step_deviations  # noqa: PLC0415
        from ..model.expr.report import attach_deviations  # noqa: PLC0415

        attach_deviations(rep, step_deviations(ev, judge, info["renderer"], info["path"]))
    if args.json:
        print(json.dumps(rep, indent=1, allow_nan=False))
    else:
        print(format_text(rep))
    if args.fail_on_nonconformant and judge is not None and not rep["gpu"]["conformant"]:
        return 1
    return 0


def _gpu(ev: Any, args: argparse.Namespace, judge_gpu: Any) -> tuple:
    """The expression on the GPU the options name: ``--api``/``--adapter`` (WebGPU) or
    ``--device``/``--driver`` (GL; this process opens its first GL context here, so Mesa
    gives it the driver asked for)."""
    from ..gpu import GpuUnavailable, open_session  # noqa: PLC0415
    from ..gpu.expr_capture import ExprRunner  # noqa: PLC0415
    from ..gpu.wgpu_devices import parse_adapter  # noqa: PLC0415
    from ._gpu_args import require_gl_package  # noqa: PLC0415

    api = args.api
    if api == "gl" and args.adapter is not None:
        raise ValueError("--adapter picks a WebGPU adapter: give --api vulkan, d3d12 or metal")
    if api != "gl" and (args.device is not None or args.driver is not None):
        raise ValueError("--device and --driver pick a GL device: leave out --api, or use "
                         "--adapter with it")
    if api == "gl":
        require_gl_package()
    try:
        session = open_session(args.gpu_path, api=api, adapter=parse_adapter(args.adapter),
                               device=args.device, driver=args.driver)
    except GpuUnavailable as exc:
        raise ValueError(exc.message) from None
    try:
        runner = ExprRunner(session)
        why = runner.unsupported_reason(ev.program)
        if why:
            raise ValueError(f"GPU: {why}")
        words = runner.run(ev.program, ev.slots)
        free = runner.run(ev.program, ev.slots, variant="free")
        info = {"renderer": session.info["renderer"], "version": session.info["version"],
                "path": session.path}
        runner.close()
    finally:
        session.close()
    return judge_gpu(ev, words), free, info


def _cell(v: dict[str, Any]) -> str:
    return v["hex"] if v["hex"] in ("true", "false") else f"{v['hex']} ({v['text']})"


def format_text(rep: dict[str, Any]) -> str:
    """The report as a terminal table: bindings, steps, result, GPU."""
    lines = [f"{rep['expression']}    [{rep['format']}, {rep['rules']}]"]
    for name, b in rep["bindings"].items():
        lines.append(f"  {name} : {b['type']} = " + ", ".join(_cell(c) for c in b["components"]))
    gpu = "gpu" in rep
    lines.append("")
    for s in rep["steps"]:
        mark = ""
        if gpu and rep["gpu"]["first_divergence"] == s["index"]:
            mark = "  <<< first divergence"
        lines.append(f"r{s['index']} = {s['instruction']} {', '.join(s['operands'])}"
                     f"    ({s['label']}){mark}")
        lines.append("     inputs : " + ", ".join(_cell(v) for v in s["inputs"]))
        lines.append(f"     model  : {_cell(s['model'])}    exact {s['exact']}")
        if s["allowed"] is not None:
            lines.append(f"     allowed: {s['allowed']['text']}")
        if gpu:
            ok = "allowed" if s["gpu_allowed"] else "NOT ALLOWED" + (
                f" (known deviation {s['gpu_deviation']})" if "gpu_deviation" in s else "")
            lines.append(f"     GPU    : {_cell(s['gpu'])}  {ok}  (model on the GPU's inputs: "
                         f"{_cell(s['gpu_fed_model'])})")
        if s["rules"]:
            lines.append(f"     rules  : {' '.join(s['rules'])}")
    lines.append("")
    res = rep["result"]
    lines.append(f"result ({res['type']}):")
    for k, c in enumerate(res["components"]):
        name = "xyzw"[k] if len(res["components"]) > 1 else "value"
        lines.append(f"  {name}: model {_cell(c['model'])}, exact {c['exact']}, "
                     f"error {c['ulp_error']} ULP vs exact of the raw inputs ({c['format']})")
        if gpu:
            lines.append(f"     GPU {_cell(c['gpu'])} ({c['gpu_ulp_error']} ULP vs exact); "
                         f"compiled freely (no precise): {_cell(c['free'])} "
                         f"({c['free_ulp_error']} ULP vs exact): "
                         f"{c['free_note']}")
    if gpu:
        g = rep["gpu"]
        where = ("conformant at every step" if g["conformant"] else
                 f"first leaves the allowed set at r{g['first_divergence']}")
        lines.append(f"GPU: {g.get('renderer', '?')} ({g.get('path', '?')} path): {where}")
    return "\n".join(lines)
