"""``fpinspector eval``: run one op through the D3D rule engine: model result, exact value,
allowed window, fired rules, and the verdict for an observed GPU result; batch mode too."""

from __future__ import annotations

import argparse
import json
import math
import sys
from typing import Any

import numpy as np

from ..model.engine import OPS, OPTIONS, RULE_SETS, evaluate
from ..model.engine.raw_inputs import VS_EXACT, VS_FLUSHED, raw_evaluation, ulp_error_words
from ..model.engine.rules import arithmetic_gap
from ..model.formats import FORMATS, get_format
from ._eval.operand import INT_RANGES, read_operand
from ._gpu_args import add_device_arguments, open_cli_session
from ._readout import SCHEMA_VERSION

NAME = "eval"
HELP = "evaluate an op under the D3D rules (model, exact, allowed window, fired rules)"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("op", help=f"operation: {', '.join(OPS)}")
    p.add_argument("operands", nargs="*", metavar="A",
                   help="operand bit patterns (0x... hex; integers for int/code ops; a "
                   "decimal such as 1.5 is encoded with nearest-even)")
    p.add_argument("--format", default="f32", help="operand format: f32 (default), f16, f64")
    p.add_argument("--rules", default="d3d11", choices=RULE_SETS, help="rule set")
    p.add_argument("--option", action="append", default=[], metavar="K=V",
                   help=f"AMBIGUOUS switch: {', '.join(OPTIONS)}")
    p.add_argument("--json", action="store_true", help="one JSON object")
    p.add_argument("--gpu-result", default=None, metavar="BITS",
                   help="observed GPU result: adds the verdict and the ULP error")
    p.add_argument("--gpu", action="store_true",
                   help="capture the op on the local GPU (--device / --driver) and judge its "
                   "result like --gpu-result")
    add_device_arguments(p)
    p.add_argument("--batch", default=None, metavar="FILE",
                   help="read operand rows (hex, space/comma separated; an extra last column "
                   "is the observed result) from FILE or '-' (stdin); one JSON line per row")


def _options(items: list[str]) -> dict[str, str]:
    out = {}
    for it in items:
        if "=" not in it:
            raise ValueError(f"--option {it!r}: expected NAME=VALUE")
        k, v = it.split("=", 1)
        out[k.strip()] = v.strip()
    return out


def _operand_kind(op: str, fmt: str) -> str:
    """The operand type's name, as the op table says (itof takes i32 codes whatever
    --format says; add in f11 is refused with a message)."""
    return OPS[op].operand_type(fmt).name


def _num(v: float) -> Any:
    v = float(v)
    if math.isnan(v):
        return "nan"
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    return v


def _hex(p: Any, fmt: str) -> str:
    if fmt in FORMATS:
        return f"0x{int(p):0{(FORMATS[fmt].bits + 3) // 4}X}"
    if fmt == "bool":
        return str(bool(p)).lower()
    return str(int(p))


def _value(p: Any, fmt: str) -> Any:
    if fmt in FORMATS:
        f = FORMATS[fmt]
        b = np.array([int(p)], dtype=f.dtype)
        return {"bits": _hex(p, fmt), "value": _num(f.decode(b)[0]),
                "class": str(f.classify(b)[0])}
    return {"bits": _hex(p, fmt), "value": bool(p) if fmt == "bool" else int(p)}


def _record(ev: Any, args: argparse.Namespace, kinds: list[str], ops: list[int]) -> dict:
    rf = ev.result_format
    d: dict[str, Any] = {
        "schema": "fpinspector.eval", "version": SCHEMA_VERSION,
        "op": ev.op, "format": args.format, "rules": ev.rules,
        "operands": [_value(o, k) for o, k in zip(ops, kinds)],
        "result": _value(np.asarray(ev.bits).reshape(-1)[0], rf),
        "result_format": rf,
        "exact": _num(np.asarray(ev.exact).reshape(-1)[0]),
        "exact_hex": float.hex(float(np.asarray(ev.exact).reshape(-1)[0])),
        "allowed": _allowed_record(ev.allowed_set(0), rf),
        "lo": _hex(np.asarray(ev.lo).reshape(-1)[0], rf),
        "hi": _hex(np.asarray(ev.hi).reshape(-1)[0], rf),
        "nan_ok": bool(np.asarray(ev.nan_ok).reshape(-1)[0]),
        "fired": ev.rules_at(0),
        "explain": ev.explain_at(0),
        "steps": ev.steps_at(0),
        "readings": list(ev.readings),
    }
    tol = getattr(ev, "tolerance", None)
    if tol is not None:
        d["tolerance"] = tol.describe()
    # where the rule set flushed a denormal input and that changed the exact value: the
    # exact value of the raw inputs too, and every error says which one it is against
    raw = raw_evaluation(ev.op, tuple(ops), args.format, ev.rules)
    if raw is not None:
        exact_raw = float(np.asarray(raw.exact).reshape(-1)[0])
        d["exact_raw"] = _num(exact_raw)
        d["exact_raw_hex"] = float.hex(exact_raw)
    if args.gpu_result is not None:
        obs = read_operand(args.gpu_result, rf if rf in FORMATS or rf == "bool" else "int")
        if rf == "bool":
            if obs not in (0, 1):
                raise ValueError(f"--gpu-result {args.gpu_result!r}: a comparison result is "
                                 "true/false (or 1/0)")
            obs = bool(obs)
        elif rf in FORMATS and obs > FORMATS[rf].mask:
            raise ValueError(f"--gpu-result {args.gpu_result!r}: wider than {rf} "
                             f"({FORMATS[rf].bits} bits)")
        elif rf in INT_RANGES and not INT_RANGES[rf][0] <= obs <= INT_RANGES[rf][1]:
            raise ValueError(f"--gpu-result {args.gpu_result!r}: outside {rf} "
                             f"({INT_RANGES[rf][0]}..{INT_RANGES[rf][1]})")
        v = ev.verdict(0, obs)
        # No ULP error where a number would mislead (comparisons, NaN, INF, saturation):
        # null, and ulp_note says why (docs/cli-json.md).
        g = d["gpu_result"] = {**_value(obs, rf), "allowed": bool(v.conformant),
                               "reason": v.reason,
                               "ulp_error": None if v.ulp_error is None else _num(v.ulp_error),
                               "ulp_note": v.ulp_note,
                               "ulp_vs": (VS_FLUSHED if raw is not None else VS_EXACT)
                               .removeprefix("vs ")}
        if raw is not None:
            rv = raw.verdict(0, obs)
            g["ulp_error_raw"] = None if rv.ulp_error is None else _num(rv.ulp_error)
        if rf in FORMATS:  # signed steps from the model's result: the maps' "GPU vs model"
            from ..model.sweep.metrics import ulp_distance  # noqa: PLC0415

            dt = FORMATS[rf].dtype
            g["steps_from_model"] = _num(np.asarray(ulp_distance(
                np.asarray([obs], dt), np.asarray(ev.bits, dt).reshape(-1)[:1], rf))[0])
    return d


def _allowed_record(aset: Any, rf: str) -> dict:
    """The exact allowed set: ranges of patterns (or codes), any NaN, and its text."""
    def show(p: int) -> Any:
        return _hex(p, rf) if rf in FORMATS else p
    return {"ranges": [[show(a), show(b)] for a, b in aset.ranges],
            "any_nan": bool(aset.any_nan), "text": aset.describe()}


def _text(d: dict) -> str:
    lines = [f"{d['op']} in {d['format']} under {d['rules']}"]
    for i, o in enumerate(d["operands"]):
        lines.append(f"  {'ABCDEFGH'[i] if i < 8 else i} = {o['bits']}  {o['value']}"
                     + (f" ({o['class']})" if "class" in o else ""))
    r = d["result"]
    val = f"  {r['value']}" if d["result_format"] != "bool" else ""
    lines.append(f"model result: {r['bits']}{val}" + (f" ({r['class']})" if "class" in r else ""))
    if d["result_format"] != "bool" and "exact_raw" in d:
        lines.append(f"exact:        {d['exact']}  ({d['exact_hex']}) after input flush")
        lines.append(f"              {d['exact_raw']}  ({d['exact_raw_hex']}) of the raw inputs")
    elif d["result_format"] != "bool":
        lines.append(f"exact:        {d['exact']}  ({d['exact_hex']})")
    lines.append(f"allowed:      {d['allowed']['text']}")
    if "tolerance" in d:
        lines.append(f"tolerance:    {d['tolerance']}")
    lines.append("rules fired:  " + (", ".join(d["fired"]) or "none"))
    lines += [f"  - {s}" for s in d["explain"]]
    if "gpu_result" in d:
        g = d["gpu_result"]
        verdict = "CONFORMANT" if g["allowed"] else "NOT CONFORMANT"
        err = ulp_error_words(g["ulp_error"], g["ulp_note"], g.get("ulp_error_raw"),
                              "exact_raw" in d)
        steps = g.get("steps_from_model")
        if isinstance(steps, float) and steps == steps:
            err += f"; {steps:+.6g} steps from the model"
        lines.append(f"gpu result:   {g['bits']}" + ("" if d["result_format"] == "bool"
                     else f"  {g['value']}") + f"  -> {verdict}: {g['reason']}; {err}")
    lines.append("steps:")
    lines += [f"  {i + 1}. {s}" for i, s in enumerate(d["steps"])]
    return "\n".join(lines)


def _capture_on_gpu(args: argparse.Namespace, ev: Any, ops: list[int]) -> str:
    """Capture the op on the chosen GPU; its result becomes ``args.gpu_result`` (text)."""
    from ..gpu import GpuUnavailable

    if args.gpu_result is not None:
        raise ValueError("--gpu and --gpu-result both give the GPU result: use one")
    try:
        session = open_cli_session(args)
    except GpuUnavailable as exc:
        raise ValueError(exc.message) from None
    kind = _operand_kind(args.op, args.format)
    fmt = args.format if kind in FORMATS else kind  # code operands: from_unorm8 on unorm8
    try:
        why = session.unsupported_reason(args.op, fmt)
        if why:
            raise ValueError(f"--gpu: {why}")
        dtype = FORMATS[kind].dtype if kind in FORMATS else np.int64
        arrays = [np.asarray([o], dtype=dtype) for o in ops]
        got = np.asarray(session.capture(args.op, *arrays, format=fmt)).reshape(-1)[0]
        info = session.info
    finally:
        session.close()
    rf = ev.result_format
    args.gpu_result = (str(bool(got)).lower() if rf == "bool"
                       else str(int(got)) if rf not in FORMATS else hex(int(got)))
    dev = "default device" if info.get("device") is None else f"device {info['device']}"
    return f"{info.get('renderer', '?')} ({dev}, {info.get('backend', '?')})"


def run(args: argparse.Namespace) -> int:
    if args.op not in OPS:
        raise ValueError(f"unknown op {args.op!r}; choose one of {', '.join(OPS)}")
    opts = _options(args.option)
    get_format(args.format)
    gap = None if OPS[args.op].traits.converts else arithmetic_gap(args.format, args.rules)
    if gap is not None:  # bf16, FP8 under d3d10/d3d11: say why, before the op table's refusal
        raise ValueError(gap)
    if args.batch is not None:
        if args.gpu:
            raise ValueError("--gpu captures one evaluation; with --batch put the observed "
                             "results in the last column")
        from ._eval.batch import run_batch  # noqa: PLC0415 - numpy-heavy batch path only

        return run_batch(args, opts, _operand_kind(args.op, args.format))
    spec = OPS[args.op]
    if len(args.operands) != spec.arity:
        raise ValueError(f"{args.op} takes {spec.arity} operand(s), got {len(args.operands)}")
    kind = _operand_kind(args.op, args.format)
    ops = [read_operand(t, kind) for t in args.operands]
    ev = evaluate(args.op, *ops, format=args.format, rules=args.rules, options=opts)
    device = _capture_on_gpu(args, ev, ops) if args.gpu else None
    d = _record(ev, args, [kind] * len(ops), ops)
    if device:
        d["gpu_result"]["device"] = device
    sys.stdout.write((json.dumps(d) if args.json else _text(d)) + "\n")
    return 0
