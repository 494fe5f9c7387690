"""Imported by the sweep workers' fork server before it forks them (see
:func:`.processes.worker_context`): every module a worker needs, the lazily built tables
f16 sweeps read, the freed heap given back, then the objects made so far frozen out of the
garbage collector's reach, so that no collection in a worker writes to (and so copies)
the pages it shares with the others.

Why the tables and the trim: each worker built the f16 value tables itself (0.75 MiB, with
6 MiB of temporaries while built, which stayed in its heap), and every worker inherited
the fork server's freed heap pages as its own resident memory. Both together: the
2-worker f16 mul sweep's peak fell by 3 MiB (PSS of the process tree)."""

from __future__ import annotations

import gc

import numpy  # noqa: F401

from ..engine import evaluate  # noqa: F401
from ..engine.exact import mp_context
from . import chunk, stages, summary, worker  # noqa: F401
from .alloc import release_freed_buffers

mp_context(300)  # mpmath and its tables, as the exact reference's edge cases load them
try:
    _f16 = numpy.arange(0, 1 << 16, 4096, dtype=numpy.uint16)
    evaluate("mul", _f16, _f16[::-1], format="f16").model_columns()
    del _f16
except Exception:  # noqa: BLE001 - a warm cache only: a worker meets any error itself
    pass
release_freed_buffers()
gc.freeze()
