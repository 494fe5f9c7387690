"""Atomic saves: killed saves leave no litter for long, links stay links, the folder is synced."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import textwrap

import pytest

from fpinspector.model.state import atomic
from fpinspector.model.state.atomic import atomic_write, stale_temp_files

posix_only = pytest.mark.skipif(os.name != "posix", reason="flock, symlinks and SIGKILL")


def _temps(folder, name):
    return sorted(p.name for p in folder.iterdir() if p.name.startswith(f".{name}."))


def test_a_stale_temp_file_is_removed_by_the_next_save(tmp_path):
    (tmp_path / ".ws.json.abc123.tmp").write_text("half a file")
    (tmp_path / ".other.json.x.tmp").write_text("not ours")
    atomic_write(tmp_path / "ws.json", lambda fh: fh.write("{}"))
    assert _temps(tmp_path, "ws.json") == []
    assert (tmp_path / ".other.json.x.tmp").exists()  # another file's temp is left alone
    assert (tmp_path / "ws.json").read_text() == "{}"


@posix_only
def test_a_live_save_in_another_process_is_not_touched(tmp_path):
    import fcntl

    live = tmp_path / ".ws.json.live.tmp"
    live.write_text("being written")
    with open(live, "rb") as fh:  # its writer holds the lock, as atomic_write does
        fcntl.flock(fh.fileno(), fcntl.LOCK_EX)
        assert stale_temp_files(tmp_path / "ws.json") == []
        atomic_write(tmp_path / "ws.json", lambda f: f.write("{}"))
        assert live.exists()
    assert stale_temp_files(tmp_path / "ws.json") == [live]


@posix_only
def test_saves_killed_mid_write_are_cleaned_by_the_next_save(tmp_path):
    """SIGKILL during the write (after the temp file exists): the old file is intact and the
    next save leaves no temp file."""
    target = tmp_path / "s.json"
    target.write_text("old")
    code = textwrap.dedent(f"""
        import sys, time
        from fpinspector.model.state.atomic import atomic_write
        def write(fh):
            fh.write("new, half")
            fh.flush()
            print("writing", flush=True)
            time.sleep(60)
        atomic_write({str(target)!r}, write)
    """)
    for _ in range(3):
        p = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
        assert p.stdout.readline().strip() == "writing"
        p.kill()
        p.wait()
        p.stdout.close()
    # each killed save removed its predecessor's temp file: one is left, not three
    assert len(_temps(tmp_path, "s.json")) == 1 and target.read_text() == "old"
    atomic_write(target, lambda fh: fh.write("new"))
    assert _temps(tmp_path, "s.json") == [] and target.read_text() == "new"


@posix_only
def test_saving_through_a_symlink_keeps_the_link(tmp_path):
    real = tmp_path / "data" / "real.json"
    real.parent.mkdir()
    real.write_text("old")
    link = tmp_path / "link.json"
    link.symlink_to(real)
    assert atomic_write(link, lambda fh: fh.write("new")) == link
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert real.read_text() == "new"
    assert _temps(real.parent, "real.json") == [] and _temps(tmp_path, "link.json") == []


@posix_only
def test_the_folder_is_fsynced_after_the_rename(tmp_path, monkeypatch):
    synced = []
    real_fsync = os.fsync

    def spy(fd):
        synced.append(stat.S_ISDIR(os.fstat(fd).st_mode))
        return real_fsync(fd)

    monkeypatch.setattr(atomic.os, "fsync", spy)
    atomic_write(tmp_path / "x.txt", lambda fh: fh.write("x"))
    assert synced == [False, True]  # the file's data, then the folder entry


@posix_only
def test_replacing_a_file_keeps_its_mode(tmp_path):
    p = tmp_path / "private.json"
    p.write_text("old")
    p.chmod(0o600)
    atomic_write(p, lambda fh: fh.write("new"))
    assert stat.S_IMODE(p.stat().st_mode) == 0o600 and p.read_text() == "new"


def test_a_failed_write_leaves_the_old_file_and_no_temp(tmp_path):
    p = tmp_path / "a.txt"
    p.write_text("old")

    def boom(fh):
        fh.write("partial")
        raise RuntimeError("disk on fire")

    with pytest.raises(RuntimeError):
        atomic_write(p, boom)
    assert p.read_text() == "old" and _temps(tmp_path, "a.txt") == []


def _refuse_replace(monkeypatch, times: int) -> list[float]:
    """os.replace raises PermissionError (WinError 5: a scanner holds the file) `times` times."""
    real = os.replace
    calls: list[float] = []

    def flaky(src, dst):
        calls.append(src)
        if len(calls) <= times:
            raise PermissionError(13, "Access is denied", str(dst))
        real(src, dst)

    monkeypatch.setattr(atomic.os, "replace", flaky)
    monkeypatch.setattr(atomic.time, "sleep", lambda s: None)
    return calls


def test_a_rename_refused_for_a_moment_is_retried(tmp_path, monkeypatch):
    """Windows: an antivirus or indexer holding the old file makes the rename fail briefly;
    the save still lands, whole, and leaves no temp file."""
    (tmp_path / "ws.json").write_text("old")
    calls = _refuse_replace(monkeypatch, times=3)
    atomic_write(tmp_path / "ws.json", lambda fh: fh.write("new"))
    assert len(calls) == 4
    assert (tmp_path / "ws.json").read_text() == "new"
    assert _temps(tmp_path, "ws.json") == []


def test_a_rename_refused_for_good_fails_and_keeps_the_old_file(tmp_path, monkeypatch):
    (tmp_path / "ws.json").write_text("old")
    calls = _refuse_replace(monkeypatch, times=10**6)
    with pytest.raises(PermissionError):
        atomic_write(tmp_path / "ws.json", lambda fh: fh.write("new"))
    assert len(calls) == len(atomic.REPLACE_RETRY_PAUSES) + 1  # bounded: about 1.5 s
    assert sum(atomic.REPLACE_RETRY_PAUSES) < 2
    assert (tmp_path / "ws.json").read_text() == "old"
    assert _temps(tmp_path, "ws.json") == []
