"""Reading ``fpinspector eval --batch`` rows: a vectorized numpy reader for the common case
(hex patterns / integers separated by spaces or commas) and a per-line reader for the rest
(decimals, ``inf``, ``true``, comments) that turns a bad line into an error row.

Why two readers: a million-row file must not cost a Python ``int()`` per token, but a row the
fast reader cannot take must still be read exactly as the single-value ``eval`` reads it, or
reported with its line number instead of aborting the whole batch.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from ...model.formats import FORMATS
from ...model.reading import excerpt
from .operand import kind_range, read_integer

_SEP = np.zeros(256, bool)
_SEP[[ord(c) for c in " \t\r\n,"]] = True
_HEXVAL = np.full(256, 255, np.uint8)
for _i, _c in enumerate("0123456789abcdef"):
    _HEXVAL[ord(_c)] = _i
    _HEXVAL[ord(_c.upper())] = _i
_TOKCH = _HEXVAL != 255
_TOKCH[[ord("x"), ord("X"), ord("-")]] = True


@dataclass
class Rows:
    """Rows read from a batch file, in file order.

    ``line`` is the 1-based source line; ``obs``/``has_obs`` the optional observed result;
    ``error`` maps row index to a message for rows that could not be read.
    """

    line: np.ndarray
    ops: np.ndarray  # (n, arity) uint64; integer kinds in two's complement
    obs: np.ndarray
    has_obs: np.ndarray
    error: dict[int, str] = field(default_factory=dict)


def _fast(buf: np.ndarray, arity: int, kinds: list[str]):
    """Vectorized reader. Returns (0-based lines, values (n, arity+1) int64 or uint64 per
    column kind, token count per line) of the lines it takes, and the mask of lines left for
    the per-line reader (other characters, odd tokens, wrong field counts)."""
    nlpos = np.flatnonzero(buf == 10)
    nlines = nlpos.size + 1 if buf.size else 0
    tok = _TOKCH[buf]
    slow = np.zeros(nlines, bool)
    other = np.flatnonzero(~(_SEP[buf] | tok))
    slow[np.searchsorted(nlpos, other)] = True  # any other character: the per-line reader
    empty = np.zeros(0, np.int64)
    if not tok.any():
        return empty, np.zeros((0, arity + 1), np.uint64), empty, slow
    start = tok.copy()
    start[1:] &= ~tok[:-1]
    stop = tok.copy()
    stop[:-1] &= ~tok[1:]
    first = np.flatnonzero(start)
    ntok = first.size
    length = np.flatnonzero(stop) - first + 1
    pos = np.flatnonzero(tok)
    t = np.repeat(np.arange(ntok), length)
    rel = pos - first[t]
    ch = buf[pos]
    is_x = (ch == ord("x")) | (ch == ord("X"))
    is_minus = ch == ord("-")
    has_x = np.zeros(ntok, bool)
    has_x[t[is_x]] = True
    neg = np.zeros(ntok, bool)
    neg[t[is_minus]] = True
    d = _HEXVAL[ch].astype(np.uint64)
    d[is_x | is_minus] = 0
    ndig = length - 2 * has_x - neg
    bad = ndig < 1  # 'x' only right after a leading '0' (or '-0'), '-' only first
    bad[t[is_x & ((rel != 1 + neg[t]) | (buf[np.maximum(pos - 1, 0)] != ord("0")))]] = True
    bad[t[is_minus & (rel != 0)]] = True
    bad |= ndig > 16
    not_dec = has_x | (ndig > 10)
    not_dec[t[d > 9]] = True
    r = (first[t] + length[t] - 1 - pos).astype(np.uint64)  # digit rank from the token end
    r[d == 0] = 0
    seg = np.concatenate(([0], np.flatnonzero(np.diff(t)) + 1))
    v_hex = np.add.reduceat(d << (np.uint64(4) * r), seg)
    v_dec = np.add.reduceat(d * (np.uint64(10) ** np.minimum(r, np.uint64(10))), seg)
    tline = np.searchsorted(nlpos, first)
    slow[tline[bad]] = True
    count = np.bincount(tline, minlength=nlines)
    slow |= (count != 0) & (count != arity) & (count != arity + 1)
    lines = np.flatnonzero(~slow & (count > 0))
    ncols = count[lines]
    ftok = np.zeros(nlines, np.int64)
    ftok[tline[::-1]] = np.arange(ntok)[::-1]  # first token of each line
    idx = np.minimum(ftok[lines][:, None] + np.arange(arity + 1)[None, :], ntok - 1)
    present = np.arange(arity + 1)[None, :] < ncols[:, None]
    out = np.zeros(idx.shape, np.uint64)
    col_bad = np.zeros(idx.shape, bool)
    for j, k in enumerate(kinds):
        ij = idx[:, j]
        if k in FORMATS:  # hex patterns, with or without 0x
            out[:, j] = v_hex[ij]
            col_bad[:, j] = neg[ij]
        else:  # integers: decimal, or 0x hex; two's complement into the uint64 column
            hx = has_x[ij]
            mag = np.where(hx, v_hex[ij], v_dec[ij])
            col_bad[:, j] = (~hx & not_dec[ij]) | (hx & (ndig[ij] > 15))
            out[:, j] = np.where(neg[ij], np.uint64(0) - mag, mag)
    out[~present] = 0
    slow[lines[(col_bad & present).any(axis=1)]] = True
    keep = ~slow[lines]
    return lines[keep], out[keep], ncols[keep], slow


def _fast_chunked(buf: np.ndarray, arity: int, kinds: list[str], chunk: int = 1 << 21):
    """``_fast`` over pieces of about ``chunk`` bytes cut at line ends: small temporaries stay
    in the heap and cache (one pass over a 20 MB file was 4x slower, mostly page faults)."""
    parts = []
    base = 0  # byte offset of the piece
    line0 = 0  # line number of its first line
    while base < buf.size or not parts:
        end = min(base + chunk, buf.size)
        if end < buf.size:  # extend to the next line end
            nl = np.flatnonzero(buf[end:] == 10)
            end = end + int(nl[0]) + 1 if nl.size else buf.size
        piece = buf[base:end]
        lines, vals, ncols, slow = _fast(piece, arity, kinds)
        nlines = int(np.count_nonzero(piece == 10))
        if end < buf.size:
            slow = slow[:nlines]  # the empty tail after the piece's last newline
        parts.append((lines + line0, vals, ncols, slow))
        line0 += nlines
        base = end
        if base >= buf.size:
            break
    return (np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts]),
            np.concatenate([p[2] for p in parts]), np.concatenate([p[3] for p in parts]))


def read_rows(text: str, arity: int, kinds: list[str],
              read_token: Callable[[str, str], int], first_line: int = 0) -> Rows:
    """All rows of a batch text, in file order.

    ``kinds`` names the kind of each operand column and of the optional observed-result
    column (``arity + 1`` names). ``read_token(text, kind)`` reads a token the fast reader
    cannot (decimals, ``inf``...), raising ValueError with a message. Blank lines and
    ``#`` comments are skipped; a line that cannot be read becomes an error row.
    ``first_line`` is the number of lines before ``text`` (a chunk of a longer input), so
    line numbers in ``Rows.line`` and in messages are those of the whole input.
    """
    buf = np.frombuffer(text.encode("utf-8", "replace"), np.uint8)
    lines, vals, ncols, slow = _fast_chunked(buf, arity, kinds)
    src = text.split("\n")
    s_lines: list[int] = []
    s_vals: list[list[int]] = []
    s_err: dict[int, str] = {}
    for ln in np.flatnonzero(slow).tolist():
        toks = src[ln].split("#", 1)[0].replace(",", " ").split()
        if not toks:
            continue
        row = len(s_lines)
        s_lines.append(ln)
        got: list[int] = []
        if len(toks) not in (arity, arity + 1):
            s_err[row] = (f"line {first_line + ln + 1}: expected {arity} operand(s) (+ an "
                          f"optional observed result), got {len(toks)} field(s)")
        else:
            try:
                for tk, k in zip(toks, kinds):
                    got.append(_read_slow(tk, k, read_token))
            except (ValueError, ArithmeticError) as exc:
                s_err[row] = f"line {first_line + ln + 1}, field {len(got) + 1}: {exc}"
        has = len(got) == arity + 1 and row not in s_err
        s_vals.append([*(got if row not in s_err else []), *[0] * (arity + 1)][:arity + 1]
                      + [has])
    nf = len(lines)
    all_lines = np.concatenate([lines, np.array(s_lines, np.int64)])
    order = np.argsort(all_lines, kind="stable")
    inv = np.empty_like(order)
    inv[order] = np.arange(order.size)
    sv = np.array([[v & 0xFFFFFFFFFFFFFFFF for v in r[:-1]] for r in s_vals],
                  dtype=np.uint64).reshape(len(s_vals), arity + 1)
    vals_all = np.concatenate([vals, sv])[order]
    has_all = np.concatenate([ncols == arity + 1, np.array([r[-1] for r in s_vals], bool)])
    has_all = has_all[order]
    errors = {int(inv[nf + r]): m for r, m in s_err.items()}
    rows = Rows(all_lines[order] + 1 + first_line, vals_all[:, :arity], vals_all[:, arity],
                has_all, errors)
    _check_ranges(rows, kinds, arity)
    return rows


def _check_ranges(rows: Rows, kinds: list[str], arity: int) -> None:
    """Error rows for patterns wider than their format and integers outside their kind."""
    for j, k in enumerate(kinds):
        col = rows.ops[:, j] if j < arity else rows.obs
        lo, hi = kind_range(k)
        if k in FORMATS:
            out = col > np.uint64(hi)
        else:
            iv = col.view(np.int64)
            out = (iv < lo) | (iv > hi)
        if j == arity:
            out &= rows.has_obs
        for i in np.flatnonzero(out).tolist():
            if i in rows.error:
                continue
            v = int(col[i]) if k in FORMATS else int(col[i:i + 1].view(np.int64)[0])
            what = "observed result" if j == arity else f"operand {j + 1}"
            shown = f"0x{v:X} is wider than {k} ({FORMATS[k].bits} bits)" if k in FORMATS \
                else f"{v} is outside {k} ({lo}..{hi})"
            rows.error[i] = f"line {int(rows.line[i])}: {what}: {shown}"


def _read_slow(tok: str, kind: str, read_token: Callable[[str, str], int]) -> int:
    """One token the vectorized reader left: a hex pattern (with or without 0x), an integer,
    true/false for bool results, else whatever the single-value reader takes."""
    low = tok.lower()
    if kind == "bool" and low in ("true", "false"):
        return int(low == "true")
    if kind in FORMATS:
        try:
            v = int(tok, 16)
        except ValueError:
            v = read_token(tok, kind)
        if v < 0:
            raise ValueError(f"{excerpt(tok, 40)}: a bit pattern cannot be negative")
        if v > FORMATS[kind].mask:
            raise ValueError(f"{excerpt(tok, 40)} is wider than {kind} ({FORMATS[kind].bits} "
                             "bits)")
        return v
    v = read_integer(tok)
    lo, hi = kind_range(kind)
    if not lo <= v <= hi:
        raise ValueError(f"{v} is outside {kind} ({lo}..{hi})")
    return v
