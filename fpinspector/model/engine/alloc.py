"""Optional allocator tuning for long sweeps (glibc only): keep freed memory in the heap.

Why: the engine works in cache-sized chunks and every numpy pass allocates a fresh
temporary of a few hundred KiB. With glibc's defaults those come from mmap or from heap
top that is trimmed back to the OS on free, so each chunk page-faults its temporaries in
again; measured, that is a third of the model stage of an exhaustive sweep
(benchmarks/bench_evaluate.py --tune-alloc). Process-wide and not undone: freed memory
stays reserved up to ``trim_mib``, so only long-running sweeps and benchmarks should call
it, never a library import.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import sys

__all__ = ["tune_allocator"]

_M_TRIM_THRESHOLD, _M_TOP_PAD, _M_MMAP_THRESHOLD = -1, -2, -3


def tune_allocator(trim_mib: int = 1024, top_pad_mib: int = 64, mmap_mib: int = 32) -> bool:
    """Make glibc keep freed memory (mallopt) so chunk temporaries stop page-faulting.

    Parameters
    ----------
    trim_mib : int
        Free memory at the heap top kept instead of returned to the OS (M_TRIM_THRESHOLD).
    top_pad_mib : int
        Extra heap requested on each growth (M_TOP_PAD).
    mmap_mib : int
        Allocations below this come from the heap, not mmap (M_MMAP_THRESHOLD).

    Returns
    -------
    bool
        True when every setting was accepted; False off Linux/glibc (nothing changed).
    """
    if not sys.platform.startswith("linux"):
        return False
    name = ctypes.util.find_library("c") or "libc.so.6"
    try:
        libc = ctypes.CDLL(name)
        mallopt = libc.mallopt
    except (OSError, AttributeError):  # musl and others: no mallopt
        return False
    mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
    mallopt.restype = ctypes.c_int
    ok = True
    for param, mib in ((_M_MMAP_THRESHOLD, mmap_mib), (_M_TRIM_THRESHOLD, trim_mib),
                       (_M_TOP_PAD, top_pad_mib)):
        ok &= mallopt(param, int(mib) << 20) == 1
    return bool(ok)
