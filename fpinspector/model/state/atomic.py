"""Atomic file writes: a temp file in the target's folder, fsync, then ``os.replace``.

Why: a crash, a full disk or a cancelled sweep must leave either the old file or the new
one, never half of one. The file gets the usual permissions (0666 less the umask), not
mkstemp's private 0600.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any, Callable

__all__ = ["atomic_write"]


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def atomic_write(path: str | os.PathLike, write: Callable[[Any], None], *,
                 binary: bool = False, encoding: str = "utf-8") -> Path:
    """Call ``write(fh)`` on a temp file beside ``path`` and move it into place atomically."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        os.fchmod(fd, 0o666 & ~_umask())
        mode = "wb" if binary else "w"
        kw = {} if binary else {"encoding": encoding, "newline": ""}
        with os.fdopen(fd, mode, **kw) as fh:
            write(fh)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    return target
