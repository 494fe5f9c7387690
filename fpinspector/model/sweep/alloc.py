"""Keep freed chunk buffers in the C heap during long sweeps (glibc malloc tuning).

Why: the engine and the sweep runner work in cache-sized chunks, allocating and freeing the
same few hundred KiB to a few MiB numpy temporaries for every chunk. With glibc's defaults
each is a fresh ``mmap`` (or the heap top is trimmed after ``free``), so every chunk faults
its pages in again: a 2^32-element sweep takes 87 M minor page faults and a third of
the CPU time in the kernel (benchmarks/bench_sweep_unary.py, bench_evaluate.py --tune-alloc:
``bench_evaluate.py 2000000 --stage-only`` without and with the tuning: 342k vs 26k minor
page faults, 1.8 s vs 0.13 s of system time, the model stage 1.5-2x faster). Raising the mmap and trim
thresholds makes ``malloc`` reuse the freed blocks instead.
Process-wide and never undone: only entry points (the sweep CLI, benchmarks) call it, never
a library import.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import sys
from typing import Any

__all__ = ["freed_buffers_kept", "keep_freed_buffers", "release_freed_buffers"]

_M_TRIM_THRESHOLD, _M_TOP_PAD, _M_MMAP_THRESHOLD = -1, -2, -3
_done: bool | None = None


def keep_freed_buffers(mmap_mib: int = 32, trim_mib: int = 1024, top_pad_mib: int = 64) -> bool:
    """Make glibc serve blocks below ``mmap_mib`` MiB from the heap and keep up to
    ``trim_mib`` MiB of freed heap (plus ``top_pad_mib`` MiB of slack on each growth).

    Returns True when applied (glibc), False elsewhere (musl, macOS, Windows: nothing is
    changed). Idempotent: the first call's answer is returned by later calls.
    """
    global _done
    if _done is not None:
        return _done
    _done = False
    mallopt = _glibc("mallopt", [ctypes.c_int, ctypes.c_int])
    if mallopt is None:
        return False
    ok = True
    for param, mib in ((_M_MMAP_THRESHOLD, mmap_mib), (_M_TRIM_THRESHOLD, trim_mib),
                       (_M_TOP_PAD, top_pad_mib)):
        ok = mallopt(param, int(mib) << 20) == 1 and ok
    _done = ok
    return ok


def freed_buffers_kept() -> bool:
    """Has :func:`keep_freed_buffers` been applied in this process (so a buffer freed and
    allocated again costs no page faults)?"""
    return bool(_done)


def release_freed_buffers() -> bool:
    """Give the pages of freed heap blocks back to the system now (glibc ``malloc_trim``):
    for a process about to be forked, so its children do not inherit them as resident
    memory. True when done (glibc), False elsewhere."""
    trim = _glibc("malloc_trim", [ctypes.c_size_t])
    if trim is None:
        return False
    trim(0)
    return True


def _glibc(name: str, argtypes: list[Any]) -> Any:
    """glibc's function ``name`` (returning int) with its argument types, or None where
    the C library is not glibc or has no such function."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        fn = getattr(ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6"), name)
    except (OSError, AttributeError):
        return None
    fn.argtypes = argtypes
    fn.restype = ctypes.c_int
    return fn
