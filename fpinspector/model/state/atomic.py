"""Atomic file writes: a temp file in the target's folder, fsync, ``os.replace``, fsync the folder.

Why: a crash, a full disk, a kill or a cancelled sweep must leave either the old file or the
new one, never half of one. Details a user would otherwise trip over:

- the file gets the usual permissions (0666 less the umask), or keeps the mode of the file it
  replaces, never mkstemp's private 0600;
- saving through a symbolic link writes the file it points to and keeps the link;
- a save killed half-way leaves its ``.NAME.*.tmp`` file behind; the next save of the same
  name removes those (each writer holds a lock on its own temp file while it lives, so a save
  in progress in another process is never touched);
- the folder is fsynced after the rename, so the new name itself survives a power cut;
- the rename is retried for about a second and a half when it is refused
  (``PermissionError``): on Windows a virus scanner, the search indexer or a sync client
  holds a just-written file open for a moment, and a rename onto it fails with "access
  denied" although nothing is wrong.
"""

from __future__ import annotations

import os
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

__all__ = ["atomic_write", "stale_temp_files"]

try:  # POSIX: a temp file's writer holds an exclusive flock on it until it exits
    import fcntl
except ImportError:  # Windows: an open file cannot be deleted, which protects it instead
    fcntl = None  # type: ignore[assignment]


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _temp_prefix(target: Path) -> str:
    return f".{target.name}."


def stale_temp_files(path: str | os.PathLike) -> list[Path]:
    """Temp files of earlier saves of ``path`` whose writer is gone (killed or crashed)."""
    target = _real_target(Path(path))
    prefix = _temp_prefix(target)
    try:
        names = os.listdir(target.parent)
    except OSError:
        return []
    out = []
    for name in names:
        if name.startswith(prefix) and name.endswith(".tmp") and _writer_gone(target.parent / name):
            out.append(target.parent / name)
    return out


def _writer_gone(tmp: Path) -> bool:
    if fcntl is None:
        return True  # Windows: unlinking a file still open for writing fails, so it is safe
    try:
        fd = os.open(tmp, os.O_RDONLY)
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return False  # locked: a live save
    finally:
        os.close(fd)  # (also drops the lock we may have taken)
    return True


def _remove_stale(target: Path) -> None:
    for tmp in stale_temp_files(target):
        try:
            os.unlink(tmp)
        except OSError:
            pass


def _real_target(target: Path) -> Path:
    """The file a save of ``target`` must replace: symbolic links followed (kept as links)."""
    if target.is_symlink():
        return Path(os.path.realpath(target))
    return target


#: Pauses between the tries of a refused rename (seconds; about 1.5 s in all)
REPLACE_RETRY_PAUSES = (0.02, 0.05, 0.1, 0.2, 0.4, 0.7)


def _replace(tmp: str, target: Path) -> None:
    """``os.replace``, tried again after a short pause while it raises PermissionError."""
    for pause in REPLACE_RETRY_PAUSES:
        try:
            os.replace(tmp, target)
            return
        except PermissionError:
            time.sleep(pause)
    os.replace(tmp, target)  # the last try: its error is the caller's


def _fsync_dir(folder: Path) -> None:
    if os.name != "posix":
        return  # Windows cannot open a folder for fsync; NTFS journals the rename
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass  # some filesystems (and /proc-like mounts) refuse: the data itself is synced
    finally:
        os.close(fd)


def atomic_write(path: str | os.PathLike, write: Callable[[Any], None], *,
                 binary: bool = False, encoding: str = "utf-8") -> Path:
    """Call ``write(fh)`` on a temp file beside ``path`` and move it into place atomically.

    Returns the path written (``path`` itself, also when it is a symbolic link: the file
    it points to is replaced and the link kept).
    """
    given = Path(path)
    target = _real_target(given)
    target.parent.mkdir(parents=True, exist_ok=True)
    _remove_stale(target)
    try:
        mode = target.stat().st_mode & 0o7777
    except OSError:
        mode = 0o666 & ~_umask()
    fd, tmp = tempfile.mkstemp(prefix=_temp_prefix(target), suffix=".tmp", dir=target.parent)
    try:
        if fcntl is not None:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        if hasattr(os, "fchmod"):
            os.fchmod(fd, mode)
        fmode = "wb" if binary else "w"
        kw: dict[str, Any] = {} if binary else {"encoding": encoding, "newline": ""}
        with os.fdopen(fd, fmode, **kw) as fh:
            write(fh)
            fh.flush()
            os.fsync(fh.fileno())
            if fcntl is not None:
                _replace(tmp, target)  # still locked: a cleaner never sees it unlocked
        if fcntl is None:  # Windows renames only closed files
            _replace(tmp, target)
            os.chmod(target, mode)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    _fsync_dir(target.parent)
    return given
