"""SIGINT held while child processes start (the sweep's workers, the GPU process).

Why: a Ctrl-C goes to the whole terminal process group. Children started with SIGINT
blocked inherit the block and keep it for life, so the same Ctrl-C cannot kill them
mid-reply (the parent stops them), and the parent's own Ctrl-C is delivered when the block
ends instead of being lost. Where signals cannot be blocked (Windows), SIGINT is ignored
meanwhile instead.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["interrupts_held"]


@contextmanager
def interrupts_held() -> Iterator[None]:
    """SIGINT held (blocked, or ignored where it cannot be) inside the block; outside the
    main thread, where signal handling cannot change, nothing is done."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    if hasattr(signal, "pthread_sigmask"):
        old_mask = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        try:
            yield
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, old_mask)
        return
    old = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, old)
