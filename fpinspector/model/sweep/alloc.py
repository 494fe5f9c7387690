"""Keep freed chunk buffers in the C heap during long sweeps (glibc malloc tuning).

Why: a streaming sweep allocates and frees the same few megabyte-sized numpy arrays for
every chunk. With glibc's defaults, each is a fresh ``mmap`` (or its heap is trimmed after
``free``), so every chunk faults its pages in again: on a 2^32-element sweep that was tens
of millions of page faults and a third of the CPU time in the kernel. Raising the mmap and
trim thresholds makes ``malloc`` reuse the freed blocks instead. Peak memory is unchanged
(the same blocks are reused); memory is returned to the OS less eagerly.
"""

from __future__ import annotations

import ctypes
import ctypes.util

__all__ = ["keep_freed_buffers"]

_M_TRIM_THRESHOLD = -1
_M_MMAP_THRESHOLD = -3
_done: bool | None = None


def keep_freed_buffers(mmap_threshold: int = 32 << 20, trim_threshold: int = 1 << 30) -> bool:
    """Ask glibc to serve blocks up to ``mmap_threshold`` bytes from the heap and to keep
    up to ``trim_threshold`` bytes of freed heap. Returns True when applied (glibc), False
    elsewhere (musl, macOS, Windows: nothing to do). Idempotent; process-wide, so only
    entry points (CLI, benchmarks, apps) call it."""
    global _done
    if _done is not None:
        return _done
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        mallopt = libc.mallopt
    except (OSError, AttributeError):
        _done = False
        return False
    mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
    ok = bool(mallopt(_M_MMAP_THRESHOLD, int(mmap_threshold)))
    ok = bool(mallopt(_M_TRIM_THRESHOLD, int(trim_threshold))) and ok
    _done = ok
    return ok
