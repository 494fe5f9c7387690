"""``fpinspector sweep --expr``: error maps over a whole expression (two variables as the
A and B axes, the others bound with --set), with the GPU judged step by step."""

from __future__ import annotations

import argparse
from typing import Any

__all__ = ["add_expr_arguments", "expr_plan", "ExprSweepPlan"]


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


def expr_plan(args: argparse.Namespace) -> ExprSweepPlan:
    """The expression sweep the arguments ask for; ValueError (ExprError: with a caret) for
    bad ones."""
    from ...model.expr import variables_in  # noqa: PLC0415
    from ...model.expr.sweep import expr_sweep_setup  # noqa: PLC0415
    from ...model.sweep import GridDomain, UnaryDomain, parse_axis  # noqa: PLC0415
    from .._sweep_common import rule_options as _options  # noqa: PLC0415
    from ..expr import _bindings  # noqa: PLC0415

    if args.op is not None:
        raise ValueError("give either OP or --expr, not both")
    if args.c_value is not None:
        raise ValueError("--c is for mad; fix expression variables with --set NAME=VALUE")
    if args.gpu_process:
        raise ValueError("--gpu-process is for single ops; expression sweeps run the GPU "
                         "in a thread")
    text = args.expr
    fixed = _bindings(args.bindings)
    axes = ([a.strip() for a in args.axes.split(",") if a.strip()] if args.axes
            else [v for v in variables_in(text) if v not in fixed])
    if not 1 <= len(axes) <= 2:
        raise ValueError(f"a map sweeps 1 or 2 variables, got {len(axes)} "
                         f"({', '.join(axes) or 'none'}): bind the others with --set")
    program, axis_slots, slots = expr_sweep_setup(text, axes, fixed, args.format.strip().lower())
    specs = [args.domain, args.domain_b or args.domain][: len(axes)]
    ax = [parse_axis(s, program.format) for s in specs]
    domain = UnaryDomain(ax[0]) if len(ax) == 1 else GridDomain(ax[0], ax[1])
    return ExprSweepPlan(text, axes, fixed, program, axis_slots, slots, domain, args.rules,
                         _options(args.option), args.component)


class ExprSweepPlan:
    """An expression sweep as the sweep command's steps see a plan (like
    :class:`~fpinspector.model.sweep.SweepPlan`): its domain, stage, saved metadata, one-line
    description and run; plus how it opens the GPU and what it adds to the report."""

    #: the expression's GPU runs on stage threads, so workers never hand it spans
    gpu_spans = False

    def __init__(self, text: str, axes: list[str], fixed: dict[str, Any], program: Any,
                 axis_slots: list[int], slots: list[Any], domain: Any, rules: str,
                 options: dict[str, Any], component: str) -> None:
        from ...model.expr.sweep import ExprStage  # noqa: PLC0415

        self.text, self.axes, self.fixed, self.program = text, axes, fixed, program
        self.axis_slots, self.slots, self.domain = axis_slots, slots, domain
        self.rules, self.options, self.component = rules, options, component
        self.fmt = program.format
        self.result_format = ExprStage(program, axis_slots, slots).result_format

    def stage(self, gpu: Any = None) -> Any:
        from ...model.expr.sweep import ExprStage  # noqa: PLC0415

        return ExprStage(self.program, self.axis_slots, self.slots, self.rules,
                         self.options or None, gpu, self.component)

    def meta(self, **extra: Any) -> dict[str, Any]:
        out: dict[str, Any] = {"op": "expr", "expression": self.text, "variables": self.axes,
                               "bindings": self.fixed, "format": self.fmt, "rules": self.rules,
                               "component": self.component,
                               "options": {k: str(v) for k, v in self.options.items()},
                               "result_format": self.result_format}
        out.update(extra)
        return out

    def describe(self) -> str:
        return (f"{self.text}  over {' x '.join(self.axes)} = {self.domain.describe()}"
                + "".join(f", {k} = {v}" for k, v in self.fixed.items())
                + f"  [{self.fmt}, {self.rules}]")

    def run(self, stage: Any, *, meta: dict[str, Any] | None = None, **kwargs: Any) -> Any:
        from ...model.sweep import run_sweep  # noqa: PLC0415

        return run_sweep(self.domain, stage, result_format=self.result_format,
                         meta=self.meta(**(meta or {})), **kwargs)

    def open_gpu(self, args: argparse.Namespace, meta: dict[str, Any], child: bool) -> Any:
        """The expression's GPU session (in this process, whatever ``child``)."""
        gpu = _open_gpu(args.gpu_path, self.program)
        meta["renderer"] = gpu.info["renderer"]
        return gpu

    def report_lines(self, res: Any) -> list[str]:
        """With the GPU and per-element columns: the first divergent step, counted."""
        if "first_bad" not in res.columns:
            return []
        return [_divergence_counts(res.columns["first_bad"], self.program)]


def _open_gpu(path: str, program: Any) -> Any:
    from ...gpu import GpuUnavailable  # noqa: PLC0415
    from ...gpu.expr_capture import ExprGpu  # noqa: PLC0415
    from .._gpu_args import require_gl_package  # noqa: PLC0415

    require_gl_package()
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
