"""Batch mode of ``fpinspector eval``: operand rows in, one JSON line per row out.

Parsing is per token, the evaluation is one vectorized call over all rows.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

import numpy as np

from ..model.engine import OPS, evaluate
from ..model.formats import FORMATS


def _read(path: str) -> str:
    if path == "-":
        return sys.stdin.read()
    with open(path, encoding="utf-8") as fh:
        return fh.read()


def _parse_rows(text: str, arity: int, kind: str) -> tuple[list[np.ndarray], np.ndarray | None]:
    rows = []
    for n, line in enumerate(text.splitlines(), 1):
        line = line.split("#", 1)[0].replace(",", " ").strip()
        if not line:
            continue
        toks = line.split()
        if len(toks) not in (arity, arity + 1):
            raise ValueError(f"line {n}: expected {arity} operands (+ optional observed "
                             f"result), got {len(toks)} fields")
        try:
            vals = [int(t, 16 if kind in FORMATS else 0) for t in toks]
        except ValueError:
            raise ValueError(f"line {n}: fields must be hex patterns ({line!r})") from None
        rows.append(vals + ([None] if len(toks) == arity else []))
    if not rows:
        raise ValueError("batch input has no rows")
    cols = list(zip(*rows))
    ops = [np.array(c, dtype=object) for c in cols[:arity]]
    obs = None
    if any(c is not None for c in cols[arity]):
        if any(c is None for c in cols[arity]):
            raise ValueError("either every row or no row gives an observed result")
        obs = np.array(cols[arity], dtype=object)
    return ops, obs


def _col_hex(a: np.ndarray, fmt: str) -> list[str]:
    if fmt in FORMATS:
        w = (FORMATS[fmt].bits + 3) // 4
        return [f"0x{int(x):0{w}X}" for x in a.reshape(-1)]
    if fmt == "bool":
        return ["true" if x else "false" for x in a.reshape(-1)]
    return [str(int(x)) for x in a.reshape(-1)]


def _col_num(a: np.ndarray) -> list[Any]:
    a = np.asarray(a, dtype=np.float64).reshape(-1)
    out: list[Any] = a.tolist()
    for i in np.flatnonzero(~np.isfinite(a)):
        v = a[i]
        out[i] = "nan" if np.isnan(v) else ("inf" if v > 0 else "-inf")
    return out


def run_batch(args: argparse.Namespace, opts: dict, kind: str) -> int:
    """Evaluate every row in one call; write JSON lines to stdout."""
    spec = OPS[args.op]
    arity = spec.arity
    ops, obs = _parse_rows(_read(args.batch), arity, kind)
    if kind in FORMATS:
        ops = [FORMATS[kind].as_bits(o.astype(np.uint64)) for o in ops]
    else:
        ops = [o.astype(np.int64) for o in ops]
    ev = evaluate(args.op, *ops, format=args.format, rules=args.rules, options=opts)
    rf = ev.result_format
    n = len(ops[0])
    cols = {
        "operands": list(zip(*[_col_hex(o, kind) for o in ops])),
        "bits": _col_hex(ev.bits, rf),
        "exact": _col_num(ev.exact),
        "lo": _col_hex(ev.lo, rf),
        "hi": _col_hex(ev.hi, rf),
        "nan_ok": np.asarray(ev.nan_ok).reshape(-1).tolist(),
    }
    rules: list[list[str]] = [[] for _ in range(n)]
    for rid, mask in sorted(ev.fired.items()):
        for i in np.flatnonzero(np.asarray(mask).reshape(-1)):
            rules[i].append(rid)
    if obs is not None:
        o = obs.astype(bool) if rf == "bool" else (
            FORMATS[rf].as_bits(obs.astype(np.uint64)) if rf in FORMATS else obs.astype(np.int64))
        cols["allowed"] = np.asarray(ev.allowed(o)).reshape(-1).tolist()
        cols["ulp_error"] = _col_num(ev.ulp_error(o))
    keys = list(cols)
    out = sys.stdout
    for i in range(n):
        row = {"row": i, "op": args.op, **{k: cols[k][i] for k in keys}, "rules": rules[i]}
        out.write(json.dumps(row) + "\n")
    return 0
