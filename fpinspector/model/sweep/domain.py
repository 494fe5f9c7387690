"""Sweep input domains: unary ranges (bit ranges, linear/log values, every pattern) and A x B grids.

A domain never materialises more than one chunk of operands: element ``k`` of a domain is
computed from ``k`` alone, so a 2^32-element sweep streams in bounded memory.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..engine.operand_rows import OperandAxis, OperandRows
from ..formats import CodeFormat, FloatFormat, operand_format

__all__ = ["Axis", "UnaryDomain", "GridDomain", "GridOperands", "Domain", "MAX_ELEMENTS"]

AXIS_KINDS = ("bits", "linear", "log", "all")
#: Most elements one sweep may cover: 2^36, sixteen times every f32 pattern (the exhaustive
#: f32 sweep, 2^32, takes under a minute; 2^36 about a quarter of an hour). A request beyond
#: this is refused instead of running for days.
MAX_ELEMENTS = 1 << 36


@dataclass(frozen=True)
class Axis:
    """One operand's samples: ``n`` bit patterns of ``fmt`` generated from their index.

    Parameters
    ----------
    fmt : FloatFormat or CodeFormat
        Format of the operand patterns, or an integer code type (``i32``, ``u32``,
        ``unorm8``, ...: see :mod:`.codes`) whose axes enumerate codes (``bits``/``all``).
    kind : {"bits", "linear", "log", "all"}
        ``bits``: patterns ``start..stop`` (inclusive, as unsigned integers), ``n`` evenly
        spaced in pattern space (every pattern when ``n`` is the span). ``linear`` /
        ``log``: ``n`` values from ``start`` to ``stop`` spaced evenly (log: geometrically,
        both ends of one sign and nonzero), each rounded to the nearest pattern.
        ``all``: every pattern of the format.
    start, stop : float
        Ends of the range (patterns for ``bits``, values otherwise; ignored for ``all``).
    n : int
        Number of samples.
    """

    fmt: FloatFormat | CodeFormat
    kind: str
    start: float
    stop: float
    n: int

    def __post_init__(self) -> None:
        if type(self.n) is not int:
            raise ValueError(f"an axis needs a whole number of samples, got {self.n!r}")
        for end in (self.start, self.stop):
            if type(end) not in (int, float):
                raise ValueError(f"axis ends must be numbers, got {end!r}")
        if self.kind not in AXIS_KINDS:
            raise ValueError(f"unknown axis kind {self.kind!r}; choose one of {', '.join(AXIS_KINDS)}")
        fmt = self.fmt
        code = isinstance(fmt, CodeFormat)
        if code and self.kind in ("linear", "log"):
            raise ValueError(f"{self.fmt.name} operands are integer codes: use bits:LO:HI[:N] "
                             "or all")
        if self.kind in ("bits", "all") and not (type(self.start) is int
                                                  and type(self.stop) is int):
            raise ValueError("a bit-range axis needs whole-number ends")
        if self.kind == "bits":
            lo, hi = int(self.start), int(self.stop)
            flo, fhi = (fmt.lo, fmt.hi) if isinstance(fmt, CodeFormat) else (0, fmt.mask)
            if lo < flo or hi > fhi or lo > hi:
                raise ValueError(
                    f"bit range {lo:#x}..{hi:#x} is not an increasing range of "
                    f"{self.fmt.name} {'codes' if code else 'patterns'} ({flo:#x}..{fhi:#x})"
                )
            if self.n < 1:
                raise ValueError(f"an axis needs at least one sample, got n={self.n}")
            if self.n > hi - lo + 1:
                raise ValueError(f"bit range 0x{lo:X}..0x{hi:X} holds only {hi - lo + 1} patterns")
        elif self.n < 1:
            raise ValueError(f"an axis needs at least one sample, got n={self.n}")
        if self.kind in ("linear", "log"):
            a, b = float(self.start), float(self.stop)
            if not (np.isfinite(a) and np.isfinite(b)):
                raise ValueError("value ranges need finite ends")
            if self.kind == "log" and (a == 0 or b == 0 or (a < 0) != (b < 0)):
                raise ValueError("a log range needs two nonzero ends of the same sign")
        elif self.kind == "all" and self.fmt.bits > 32:
            raise ValueError(f"every {self.fmt.name} pattern is 2^{self.fmt.bits}: too many; "
                             "use bits:LO:HI:N or lin/log ranges")
        elif self.kind == "all" and self.n != 1 << self.fmt.bits:
            raise ValueError(f"'all' on {self.fmt.name} has exactly {1 << self.fmt.bits} samples")
        if self.n > MAX_ELEMENTS:
            raise ValueError(f"{self.n} samples: a sweep covers at most 2^36 = {MAX_ELEMENTS} "
                             "elements (give N to sample a wider range)")

    # ------------------------------------------------------------------------------
    @classmethod
    def every(cls, fmt: str | FloatFormat | CodeFormat) -> Axis:
        """Every pattern of ``fmt`` in increasing pattern order (codes: increasing value)."""
        f = operand_format(fmt)
        if isinstance(f, CodeFormat):
            return cls(f, "all", f.lo, f.hi, 1 << f.bits)
        return cls(f, "all", 0, f.mask, 1 << f.bits)

    @classmethod
    def bit_range(cls, fmt: str | FloatFormat | CodeFormat, start: int, stop: int,
                  n: int | None = None) -> Axis:
        """Patterns (or codes) ``start..stop`` inclusive (all of them, or ``n`` evenly spaced)."""
        f = operand_format(fmt)
        return cls(f, "bits", int(start), int(stop),
                   int(stop) - int(start) + 1 if n is None else int(n))

    @classmethod
    def linear(cls, fmt: str | FloatFormat, start: float, stop: float, n: int) -> Axis:
        """``n`` values evenly spaced from ``start`` to ``stop``, rounded to patterns."""
        return cls(operand_format(fmt), "linear", float(start), float(stop), int(n))

    @classmethod
    def log(cls, fmt: str | FloatFormat, start: float, stop: float, n: int) -> Axis:
        """``n`` values geometrically spaced from ``start`` to ``stop``, rounded to patterns."""
        return cls(operand_format(fmt), "log", float(start), float(stop), int(n))

    # ------------------------------------------------------------------------------
    @property
    def is_log(self) -> bool:
        return self.kind == "log"

    def patterns(self, i0: int = 0, i1: int | None = None) -> np.ndarray:
        """Patterns of samples ``i0..i1-1`` in the format's storage dtype (vectorized)."""
        i1 = self.n if i1 is None else i1
        if not 0 <= i0 <= i1 <= self.n:
            raise ValueError(f"sample range {i0}..{i1} outside 0..{self.n}")
        if self.kind in ("all", "bits") and self.n == int(self.stop) - int(self.start) + 1 \
                and self.fmt.bits <= 32:  # every pattern of a range: one pass, no int64
            lo = int(self.start)
            return np.arange(lo + i0, lo + i1, dtype=self.fmt.dtype)
        idx = np.arange(i0, i1, dtype=np.int64)
        if self.kind in ("all", "bits"):
            lo, span = int(self.start), int(self.stop) - int(self.start)
            if isinstance(self.fmt, CodeFormat):  # <= 32-bit codes, maybe negative: int64
                if self.n == span + 1:
                    return (idx + lo).astype(self.fmt.dtype)
                step, rem = divmod(span, max(self.n - 1, 1))
                return (lo + idx * step + (idx * rem) // max(self.n - 1, 1)).astype(self.fmt.dtype)
            u = idx.astype(np.uint64)  # uint64: f64 patterns above 2^63 stay exact
            if self.n == span + 1:
                pats = u + np.uint64(lo)
            else:  # evenly spaced in pattern space: floor(i * span / (n - 1)), exact in ints
                step, rem = divmod(span, max(self.n - 1, 1))
                pats = np.uint64(lo) + u * np.uint64(step) + (u * np.uint64(rem)) // np.uint64(
                    max(self.n - 1, 1))
            return pats.astype(self.fmt.dtype)
        t = idx / max(self.n - 1, 1)
        if self.kind == "linear":
            vals = self.start + (self.stop - self.start) * t
        else:
            sgn = -1.0 if self.start < 0 else 1.0
            la, lb = np.log(abs(self.start)), np.log(abs(self.stop))
            vals = sgn * np.exp(la + (lb - la) * t)
            vals[idx == 0] = self.start  # ends land exactly where asked
            vals[idx == self.n - 1] = self.stop
        if isinstance(self.fmt, CodeFormat):  # (refused in __post_init__)
            raise ValueError("integer-code axes take bits or all")
        return np.asarray(self.fmt.encode(vals, "rne_sat"), dtype=self.fmt.dtype).reshape(-1)

    def values(self) -> np.ndarray:
        """Decoded value of every sample (float64): what plots put on their axes."""
        if isinstance(self.fmt, CodeFormat):
            return self.patterns().astype(np.float64)
        return self.fmt.decode(self.patterns())

    def describe(self) -> str:
        """The spec string :func:`parse_axis` reads back."""
        if self.kind == "all":
            return "all"
        if self.kind == "bits":
            if isinstance(self.fmt, CodeFormat):
                return f"bits:{int(self.start)}:{int(self.stop)}:{self.n}"
            return f"bits:0x{int(self.start):X}:0x{int(self.stop):X}:{self.n}"
        return f"{'lin' if self.kind == 'linear' else 'log'}:{self.start!r}:{self.stop!r}:{self.n}"


@dataclass(frozen=True)
class UnaryDomain:
    """Inputs of a one-operand op: the samples of one axis."""

    axis: Axis

    @property
    def size(self) -> int:
        return self.axis.n

    @property
    def shape(self) -> tuple[int, ...]:
        return (self.axis.n,)

    @property
    def arity(self) -> int:
        return 1

    @property
    def axes(self) -> tuple[Axis, ...]:
        return (self.axis,)

    def operands(self, k0: int, k1: int) -> tuple[np.ndarray, ...]:
        """Operand patterns of elements ``k0..k1-1``."""
        return (self.axis.patterns(k0, k1),)

    def describe(self) -> str:
        return self.axis.describe()


class GridOperands(tuple[np.ndarray, np.ndarray]):
    """A grid chunk's operands ``(A, B)``, a plain tuple to every reader, with ``layout``:
    how they were made from the grid's rows (engine/operand_rows.py).

    Why: the stage and the summary read the layout to do once per row or once per sweep
    what depends on one operand alone (B's decode and finite mask, the operand classes),
    instead of once per element in every chunk."""

    layout: OperandRows

    def __new__(cls, a: np.ndarray, b: np.ndarray, layout: OperandRows) -> GridOperands:
        self = super().__new__(cls, (a, b))
        self.layout = layout
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (GridOperands, (self[0], self[1], self.layout))


class GridDomain:
    """Inputs of a two-operand op: every pair of A x B, row-major (A = rows, B = columns).

    Element ``k`` is ``(A[k // nb], B[k % nb])``. Both axes are materialised once (at most
    2^16 patterns each for exhaustive f16), the pairs never are.
    """

    #: Largest axis a grid materialises (2^16 = every f16 pattern, with room to spare).
    MAX_AXIS = 1 << 20
    #: Fewest elements a chunk's rows hold on average for :meth:`operands` to give their
    #: layout: the per-row steps cost a few microseconds a row (numpy calls), and save
    #: about 2 ns an element (shorter rows: the flat steps are cheaper).
    LAYOUT_MIN_ROW = 4096

    def __init__(self, a: Axis, b: Axis) -> None:
        for name, ax in (("A", a), ("B", b)):
            if ax.n > self.MAX_AXIS:
                raise ValueError(
                    f"grid axis {name} has {ax.n} samples; at most {self.MAX_AXIS} per axis "
                    "(sweep a sub-range, or use tiles)"
                )
        if a.n * b.n > MAX_ELEMENTS:
            raise ValueError(f"a {a.n} x {b.n} grid is {a.n * b.n} elements; a sweep covers at "
                             f"most 2^36 = {MAX_ELEMENTS}")
        self.a, self.b = a, b
        self._pa = a.patterns()
        self._pb = b.patterns()
        self._b_axis = OperandAxis(self._pb)  # (B's decodes and masks, made once a sweep)
        self._pb = self._b_axis.patterns  # (its read-only copy: one copy kept, and pickled)

    @property
    def size(self) -> int:
        return self.a.n * self.b.n

    @property
    def shape(self) -> tuple[int, int]:
        return (self.a.n, self.b.n)

    @property
    def arity(self) -> int:
        return 2

    @property
    def axes(self) -> tuple[Axis, Axis]:
        return (self.a, self.b)

    def operands(self, k0: int, k1: int) -> tuple[np.ndarray, np.ndarray]:
        """Operand patterns of flat elements ``k0..k1-1`` (A varies slowest): a
        :class:`GridOperands` with their layout where the rows are long enough
        (:data:`LAYOUT_MIN_ROW`), else a tuple."""
        if not 0 <= k0 <= k1 <= self.size:
            raise ValueError(f"element range {k0}..{k1} outside 0..{self.size}")
        # contiguous run of rows: A repeats each row's pattern, B cycles (no divmod pass)
        nb, n = self.b.n, k1 - k0
        r0, c0 = divmod(k0, nb)
        r1 = (k1 - 1) // nb if n else r0
        counts = np.full(r1 - r0 + 1, nb, dtype=np.int64)
        counts[0] -= c0
        counts[-1] -= (r1 + 1) * nb - k1
        a = self._pa[r0 : r1 + 1].repeat(counts) if n else self._pa[:0]
        reps = -(-(c0 + n) // nb)
        if reps > 1:  # B's cycles copied in place (np.tile: ~8 us of Python, a larger copy)
            b = np.empty(n, dtype=self._pb.dtype)
            s = 0
            while s < n:
                c = (c0 + s) % nb
                e = min(n, s + nb - c)
                b[s:e] = self._pb[c : c + e - s]
                s = e
        else:
            b = self._pb[c0 : c0 + n].copy()
        rows = r1 - r0 + 1
        if not n or rows * self.LAYOUT_MIN_ROW > n:
            return a, b
        starts = (0, *(int(x) for x in counts[:-1].cumsum()), n)
        layout = OperandRows(self._pa[r0 : r1 + 1], starts, (c0,) + (0,) * (rows - 1),
                             self._b_axis)
        return GridOperands(a, b, layout)

    def tiles(self, rows: int, cols: int) -> Iterator[tuple[int, int, GridDomain]]:
        """Sub-grids of at most ``rows x cols`` (bit-range axes), with their top-left cell.

        Tiling keeps exhaustive grids such as all f16 x all f16 in pieces a map can show
        or a file can hold; only bit-range and every-pattern axes can be tiled exactly.
        """
        for ax in (self.a, self.b):
            if ax.kind not in ("all", "bits") or ax.n != int(ax.stop) - int(ax.start) + 1:
                raise ValueError("only contiguous bit-range axes can be tiled")
        for r0 in range(0, self.a.n, rows):
            for c0 in range(0, self.b.n, cols):
                ra = Axis.bit_range(self.a.fmt, int(self.a.start) + r0,
                                    int(self.a.start) + min(r0 + rows, self.a.n) - 1)
                rb = Axis.bit_range(self.b.fmt, int(self.b.start) + c0,
                                    int(self.b.start) + min(c0 + cols, self.b.n) - 1)
                yield r0, c0, GridDomain(ra, rb)

    def describe(self) -> str:
        return f"{self.a.describe()} x {self.b.describe()}"


Domain = UnaryDomain | GridDomain
