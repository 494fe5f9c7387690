"""Batch mode of ``fpinspector eval``: operand rows in, one JSON line per row out.

Why this shape: the input is read in blocks of whole lines (about 64k rows), and each block
is read by a vectorized numpy reader (``_batch_read``), evaluated in one ``evaluate`` call,
formatted column by column and written out before the next block is read: memory stays
bounded whatever the number of rows, and a million rows cost about as much as the JSON text
itself. A row that cannot be read becomes an error row (its line number and the reason)
instead of aborting the batch; the exit status is then 1 (docs/cli-json.md).
"""

from __future__ import annotations

import argparse
import io
import json
import sys
from collections.abc import Iterator
from typing import IO

import numpy as np

from ...model.engine import OPS, evaluate
from ...model.engine.raw_inputs import RAW_RULES
from ...model.formats import FORMATS
from .batch_read import Rows, read_rows
from .operand import read_operand

_HEXCH = np.frombuffer(b"0123456789ABCDEF", np.uint8)
#: Characters read per block (about 64k rows of two f32 operands).
BLOCK_CHARS = 1 << 21
#: Longest line taken (characters); a longer one is an error, not a memory blow-up.
MAX_LINE_CHARS = 1 << 20


def _open(path: str) -> IO[str]:
    if path != "-":
        return open(path, encoding="utf-8", errors="replace")
    raw = getattr(sys.stdin, "buffer", None)  # bytes: undecodable input is replaced, not fatal
    if raw is None:
        return sys.stdin
    return io.TextIOWrapper(raw, encoding="utf-8", errors="replace")


def blocks(fh: IO[str], size: int | None = None) -> Iterator[tuple[str, int]]:
    """(text of whole lines, number of lines before it) blocks of ``fh``, in order; about
    ``size`` (default :data:`BLOCK_CHARS`) characters each."""
    size = size or BLOCK_CHARS
    rest, line0 = "", 0
    while True:
        chunk = fh.read(size)
        if not chunk:
            break
        text = rest + chunk
        cut = text.rfind("\n")
        if cut < 0:
            if len(text) > MAX_LINE_CHARS:
                raise ValueError(f"line {line0 + 1} is longer than {MAX_LINE_CHARS} characters")
            rest = text
            continue
        rest = text[cut + 1:]
        if len(rest) > MAX_LINE_CHARS:
            raise ValueError(f"line {line0 + text.count(chr(10), 0, cut + 1) + 1} is longer "
                             f"than {MAX_LINE_CHARS} characters")
        yield text[: cut + 1], line0
        line0 += text.count("\n", 0, cut + 1)
    if rest:
        yield rest, line0


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
    """Evaluate the rows block by block; write one JSON line per row to stdout as it goes."""
    arity = OPS[args.op].arity
    kinds = [kind] * arity + [result_kind(args.op, args.format)]
    n_rows, n_err, first_err = 0, 0, ""
    with _open(args.batch) as fh:
        for text, line0 in blocks(fh):
            rows = read_rows(text, arity, kinds, read_operand, first_line=line0)
            if rows.line.size == 0:
                continue
            sys.stdout.write(_block_lines(args, opts, kind, rows, n_rows))
            if rows.error and not first_err:
                first_err = rows.error[min(rows.error)]
            n_rows += int(rows.line.size)
            n_err += len(rows.error)
    if n_rows == 0:
        raise ValueError("batch input has no rows")
    if n_err:
        print(f"fpinspector eval: error: {n_err} of {n_rows} rows could not be read "
              f"(first: {first_err})", file=sys.stderr)
        return 1
    return 0


def _raw_rows(args: argparse.Namespace, kind: str, ops: list[np.ndarray], ev) -> tuple:  # noqa: ANN001
    """The rows where the rule set flushed a denormal operand and that changed the exact
    value (model.engine.raw_inputs, per row), and the op on those rows' raw inputs
    (``ieee754``): their ``exact_raw`` and ``ulp_error_raw``."""
    none = (np.zeros(0, np.intp), None)
    if args.rules == RAW_RULES or kind not in FORMATS or ev.result_format == "bool":
        return none
    f = FORMATS[kind]
    den = np.zeros(len(ops[0]), bool)
    for o in ops:
        den |= np.asarray(f.is_denormal(np.asarray(o))).reshape(-1)
    at = np.flatnonzero(den)
    if not at.size:
        return none
    raw = evaluate(args.op, *(o[at] for o in ops), format=args.format, rules=RAW_RULES)
    ex, rx = np.asarray(ev.exact).reshape(-1)[at], np.asarray(raw.exact).reshape(-1)
    elo = np.asarray(getattr(ev, "exact_lo", np.zeros(len(ops[0])))).reshape(-1)[at]
    rlo = np.asarray(getattr(raw, "exact_lo", np.zeros(at.size))).reshape(-1)
    same = ((ex == rx) & (elo == rlo)) | (np.isnan(ex) & np.isnan(rx))
    if same.all():
        return none
    keep = np.flatnonzero(~same)
    raw = evaluate(args.op, *(o[at[keep]] for o in ops), format=args.format, rules=RAW_RULES)
    return at[keep], raw


def _block_lines(args: argparse.Namespace, opts: dict, kind: str, rows: Rows, row0: int) -> str:
    """The JSON lines of one block of rows (``row0``: rows before it), newline-terminated."""
    op = args.op
    arity = OPS[op].arity
    n = rows.line.size
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
        raw_at, raw_ev = _raw_rows(args, kind, ops, ev)
        if raw_at.size:
            raw_exact = _json_num(raw_ev.exact)
            for j, i in enumerate(raw_at.tolist()):
                extra[i] = f', "exact_raw": {raw_exact[j]}'
        has = rows.has_obs[gi]
        if has.any():
            obs = np.where(has, rows.obs[gi], np.asarray(ev.bits).reshape(-1).astype(np.uint64)
                           if rf != "bool" else np.asarray(ev.bits).reshape(-1))
            o = _typed(np.asarray(obs).astype(np.uint64), rf)
            allowed = np.where(np.asarray(ev.allowed(o)).reshape(-1), "true", "false").tolist()
            err = (["null"] * m if rf == "bool" else _json_num(ev.ulp_error(o)))
            raw_err = _json_num(raw_ev.ulp_error(o[raw_at])) if raw_at.size else []
            raw_of = dict(zip(raw_at.tolist(), raw_err))
            for i in np.flatnonzero(has).tolist():
                extra[i] += f', "allowed": {allowed[i]}, "ulp_error": {err[i]}' + (
                    f', "ulp_error_raw": {raw_of[i]}' if i in raw_of else "")
        opq = json.dumps(op)
        for i, r in enumerate(gi.tolist()):
            lines[r] = (f'{{"row": {row0 + r}, "line": {rows.line[r]}, "op": {opq}, '
                        f'"operands": [{operands[i]}], "bits": {bits[i]}, "exact": {exact[i]}, '
                        f'"lo": {lo[i]}, "hi": {hi[i]}, "nan_ok": {nan_ok[i]}{extra[i]}, '
                        f'"rules": {rules[i]}}}')
    for r, msg in rows.error.items():
        lines[r] = json.dumps({"row": row0 + r, "line": int(rows.line[r]), "op": op,
                               "error": msg})
    return "\n".join(lines) + "\n"
