"""A damaged partial sweep never resumes: sweep files carry the SHA-256 of their contents
(``meta["sha256"]``), ``--resume`` refuses a file whose checksum fails or that has none
(written before checksums), and a file whose numbers disagree with each other (class counts,
histograms, non-conformant count vs elements done) is refused even with a valid checksum."""

from __future__ import annotations

import io
import json

import numpy as np
import pytest

from fpinspector.cli import main
from fpinspector.model.sweep import Axis, UnaryDomain, load_npz, run_sweep, save_npz
from fpinspector.model.sweep.io import CHECKSUM_KEY, content_digest

pytest.importorskip("fpinspector.model.engine")


def _members(path) -> dict[str, np.ndarray]:  # noqa: ANN001
    with np.load(path) as z:
        return {k: z[k] for k in z.files}


def _rewrite(path, edit, *, rehash: bool = False) -> None:  # noqa: ANN001
    """Edit a saved file's meta/summary dicts in place (``edit(meta, summary)``), as a user
    or a disk might; ``rehash`` also writes a matching checksum (a deliberate forgery)."""
    m = _members(path)
    meta, summary = json.loads(str(m["meta"])), json.loads(str(m["summary"]))
    edit(meta, summary)
    stext = json.dumps(summary)
    if rehash:
        arrays = {k: v for k, v in m.items() if k not in ("meta", "summary")}
        meta[CHECKSUM_KEY] = content_digest(meta, stext, arrays)
    m["meta"], m["summary"] = np.array(json.dumps(meta)), np.array(stext)
    buf = io.BytesIO()
    np.savez(buf, **m)
    path.write_bytes(buf.getvalue())


def _move_counts(meta, summary) -> None:  # noqa: ANN001
    """Move counts between two bins: totals still equal the sum of the bins."""
    for h in summary["histograms"].values():
        k = next(i for i, c in enumerate(h) if c)
        h[k] -= 1
        h[(k + 1) % len(h)] += 1


CMD = ["sweep", "sqrt", "-f", "f16", "-d", "bits:0:999", "-q"]


def test_an_edited_histogram_is_refused_by_resume(tmp_path, capsys):
    """Before checksums, a consistent edit of the counts 'resumed' (exit 0) to a wrong result."""
    out = tmp_path / "s.npz"
    assert main([*CMD, "--out", str(out)]) == 0
    _rewrite(out, _move_counts)
    capsys.readouterr()
    assert main([*CMD, "--out", str(out), "--resume"]) == 2
    err = capsys.readouterr().err
    assert "cannot resume" in err and "do not match their SHA-256 checksum" in err


def test_a_file_without_checksum_is_refused_by_resume_with_a_clear_message(tmp_path, capsys):
    out = tmp_path / "s.npz"
    assert main([*CMD, "--out", str(out)]) == 0
    _rewrite(out, lambda meta, summary: meta.pop(CHECKSUM_KEY))
    capsys.readouterr()
    assert main([*CMD, "--out", str(out), "--resume"]) == 2
    assert "saved no checksum" in capsys.readouterr().err
    assert load_npz(out).n_done == 1000  # viewing an old file still works


def _stage(ops):
    a = ops[0]
    return {"model": a, "err_model": (a & 7).astype(np.float64), "ok_model": (a & 3) != 0,
            "fired": {"X": (a & 1) == 1}}


@pytest.fixture
def partial(tmp_path):
    calls = []

    def cancel() -> bool:
        calls.append(1)
        return len(calls) > 3

    res = run_sweep(UnaryDomain(Axis.bit_range("f16", 0, 9999)), _stage, result_format="f16",
                    chunk_size=1000, cancel=cancel, meta={"op": "mov"})
    assert not res.complete and 0 < res.n_done < 10_000
    return save_npz(tmp_path / "p.npz", res)


def test_a_partial_file_round_trips_with_its_checksum(partial):
    back = load_npz(partial, require_complete=False, require_checksum=True)
    assert CHECKSUM_KEY not in back.meta and back.summary.total == back.n_done


@pytest.mark.parametrize("edit", [
    _move_counts,
    lambda meta, summary: summary["fired"].update(X=summary["fired"]["X"] - 1),
    lambda meta, summary: meta.update(op="add"),
])
def test_any_edit_fails_the_checksum(partial, edit):
    _rewrite(partial, edit)
    with pytest.raises(ValueError, match="SHA-256 checksum"):
        load_npz(partial, require_complete=False)


def test_an_edited_array_fails_the_checksum(partial):
    m = _members(partial)
    m["col__model"] = m["col__model"].copy()
    m["col__model"][5] ^= 1
    buf = io.BytesIO()
    np.savez(buf, **m)
    partial.write_bytes(buf.getvalue())
    with pytest.raises(ValueError, match="SHA-256 checksum"):
        load_npz(partial, require_complete=False)


def _class_off(meta, summary) -> None:  # noqa: ANN001
    c = summary["operand_classes"][0]
    c[next(iter(c))] += 1


@pytest.mark.parametrize("edit, message", [
    (_class_off, r"operand_classes\[0\]: counts"),
    (lambda meta, summary: summary.update(nonconformant_count=0), "nonconformant_count"),
    (lambda meta, summary: meta.update(n_done=meta["n_done"] - 1), "shape|counts"),
])
def test_inconsistent_numbers_are_refused_even_with_a_valid_checksum(partial, edit, message):
    _rewrite(partial, edit, rehash=True)
    with pytest.raises(ValueError, match=message):
        load_npz(partial, require_complete=False, require_checksum=True)


@pytest.mark.parametrize("special", ["/dev/zero", "fifo", "folder"])
def test_a_device_pipe_or_folder_is_refused_at_once(tmp_path, special):
    """Bounded read: a sweep file is read by seeking, so only a regular file is opened (a
    pipe with no writer would block, a device never ends)."""
    import os
    import sys

    if special == "/dev/zero":
        if not os.path.exists("/dev/zero"):
            pytest.skip("no /dev/zero")
        path = "/dev/zero"
    elif special == "fifo":
        if sys.platform == "win32":
            pytest.skip("POSIX pipe")
        path = str(tmp_path / "p.npz")
        os.mkfifo(path)
    else:
        path = str(tmp_path)
    with pytest.raises(ValueError, match="not a regular file"):
        load_npz(path, require_complete=False)
