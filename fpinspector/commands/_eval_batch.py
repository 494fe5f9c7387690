"""Batch mode of ``fpinspector eval``: operand rows in, one JSON line per row out.

Why this shape: rows are read by a vectorized numpy reader (``_batch_read``), evaluated in
one ``evaluate`` call, and formatted column by column, so a million rows cost about as much
as the JSON text itself. A row that cannot be read becomes an error row (its line number and
the reason) instead of aborting the batch; the exit status is then 1 (docs/cli-json.md).
"""

from __future__ import annotations

import argparse
import json
import sys

import numpy as np

from ..model.engine import OPS, evaluate
from ..model.formats import FORMATS
from ._batch_read import read_rows

_HEXCH = np.frombuffer(b"0123456789ABCDEF", np.uint8)


def _read(path: str) -> str:
    if path == "-":
        return sys.stdin.read()
    with open(path, encoding="utf-8", errors="replace") as fh:
        return fh.read()


def result_kind(op: str, fmt: str) -> str:
    """Kind of an op's result (and of the observed column): a format name, int kind or bool."""
    res = OPS[op].result
    return fmt if res == "same" else res


def _json_hex(a: np.ndarray, width: int) -> list[str]:
    """JSON strings '"0x3F800000"' for uint64 patterns, formatted with numpy (no per-row
    format call)."""
    a = np.asarray(a, np.uint64).reshape(-1)
    sh = np.arange(width - 1, -1, -1, dtype=np.uint64) * np.uint64(4)
    mat = np.empty((a.size, width + 4), np.uint8)
    mat[:, 0] = mat[:, -1] = ord('"')
    mat[:, 1], mat[:, 2] = ord("0"), ord("x")
    mat[:, 3:-1] = _HEXCH[((a[:, None] >> sh[None, :]) & np.uint64(15)).astype(np.intp)]
    return mat.view(f"S{width + 4}").ravel().astype("U").tolist()


def _json_col(a: np.ndarray, kind: str) -> list[str]:
    """One result or operand column as JSON text: hex strings for formats, "true"/"false"
    for bool, decimal strings for integer kinds (schema of docs/cli-json.md)."""
    a = np.asarray(a).reshape(-1)
    if kind in FORMATS:
        return _json_hex(a.astype(np.uint64), (FORMATS[kind].bits + 3) // 4)
    if kind == "bool":
        return np.where(a.astype(bool), '"true"', '"false"').tolist()
    return [f'"{x}"' for x in a.astype(np.int64).tolist()]


def _json_num(a: np.ndarray) -> list[str]:
    """float64 column as JSON numbers; "nan", "inf", "-inf" strings where JSON has none."""
    a = np.asarray(a, np.float64).reshape(-1)
    out = list(map(repr, a.tolist()))
    for i in np.flatnonzero(~np.isfinite(a)).tolist():
        out[i] = '"nan"' if np.isnan(a[i]) else ('"inf"' if a[i] > 0 else '"-inf"')
    return out


def _json_rules(fired: dict[str, np.ndarray], n: int) -> list[str]:
    """Sorted rule-ID lists per row, from one bit code per row (no per-row set building)."""
    names = sorted(k for k, v in fired.items() if np.asarray(v).any())
    code = np.zeros(n, np.uint64)
    for b, k in enumerate(names[:64]):
        code |= np.asarray(fired[k]).reshape(-1).astype(np.uint64) << np.uint64(b)
    uniq, inv = np.unique(code, return_inverse=True)
    texts = [json.dumps([k for b, k in enumerate(names[:64]) if (int(u) >> b) & 1])
             for u in uniq.tolist()]
    return [texts[i] for i in inv.reshape(-1).tolist()]


def _typed(col: np.ndarray, kind: str) -> np.ndarray:
    """uint64 reader column to the dtype evaluate takes for this kind."""
    if kind in FORMATS:
        return col.astype(FORMATS[kind].dtype)
    if kind == "bool":
        return col.astype(bool)
    return col.view(np.int64)


def run_batch(args: argparse.Namespace, opts: dict, kind: str) -> int:
    """Evaluate every readable row in one call; write one JSON line per row to stdout."""
    op = args.op
    arity = OPS[op].arity
    rk = result_kind(op, args.format)
    from .eval import read_operand

    rows = read_rows(_read(args.batch), arity, [kind] * arity + [rk], read_operand)
    n = rows.line.size
    if n == 0:
        raise ValueError("batch input has no rows")
    good = np.ones(n, bool)
    good[list(rows.error)] = False
    gi = np.flatnonzero(good)
    lines: list[str] = [""] * n
    if gi.size:
        ops = [_typed(rows.ops[gi, j], kind) for j in range(arity)]
        ev = evaluate(op, *ops, format=args.format, rules=args.rules, options=opts)
        rf = ev.result_format
        m = gi.size
        opnd = [_json_col(o, kind) for o in ops]
        operands = [", ".join(t) for t in zip(*opnd)] if arity > 1 else opnd[0]
        bits, lo, hi = (_json_col(x, rf) for x in (ev.bits, ev.lo, ev.hi))
        exact = _json_num(ev.exact)
        nan_ok = np.where(np.asarray(ev.nan_ok).reshape(-1), "true", "false").tolist()
        rules = _json_rules(ev.fired, m)
        extra = [""] * m
        has = rows.has_obs[gi]
        if has.any():
            obs = np.where(has, rows.obs[gi], np.asarray(ev.bits).reshape(-1).astype(np.uint64)
                           if rf != "bool" else np.asarray(ev.bits).reshape(-1))
            o = _typed(np.asarray(obs).astype(np.uint64), rf)
            allowed = np.where(np.asarray(ev.allowed(o)).reshape(-1), "true", "false").tolist()
            err = (["null"] * m if rf == "bool" else _json_num(ev.ulp_error(o)))
            for i in np.flatnonzero(has).tolist():
                extra[i] = f', "allowed": {allowed[i]}, "ulp_error": {err[i]}'
        opq = json.dumps(op)
        for i, r in enumerate(gi.tolist()):
            lines[r] = (f'{{"row": {r}, "line": {rows.line[r]}, "op": {opq}, '
                        f'"operands": [{operands[i]}], "bits": {bits[i]}, "exact": {exact[i]}, '
                        f'"lo": {lo[i]}, "hi": {hi[i]}, "nan_ok": {nan_ok[i]}{extra[i]}, '
                        f'"rules": {rules[i]}}}')
    for r, msg in rows.error.items():
        lines[r] = json.dumps({"row": r, "line": int(rows.line[r]), "op": op, "error": msg})
    sys.stdout.write("\n".join(lines) + "\n")
    if rows.error:
        first = min(rows.error)
        print(f"fpinspector eval: error: {len(rows.error)} of {n} rows could not be read "
              f"(first: {rows.error[first]})", file=sys.stderr)
        return 1
    return 0
