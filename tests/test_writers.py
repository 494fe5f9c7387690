"""One writer policy: every file fpinspector writes goes through ``atomic_write``, and a full
disk while writing (an injected ``OSError(ENOSPC)``) leaves the previous file whole."""

from __future__ import annotations

import ast
import errno
import os
from pathlib import Path

import numpy as np
import pytest

from fpinspector.model.state import atomic
from fpinspector.model.state.atomic import atomic_write

PACKAGE = Path(__file__).resolve().parents[1] / "fpinspector"
#: The one module allowed to open files for writing and rename them into place.
WRITER = PACKAGE / "model" / "state" / "atomic.py"
_RENAMES = {"os.replace", "os.rename", "shutil.copy", "shutil.copyfile", "shutil.copy2",
            "shutil.move", "os.truncate"}
_NUMPY_SAVERS = {"np.save", "np.savez", "np.savez_compressed", "np.savetxt"}


def _mode(call: ast.Call) -> str:
    args = [a for a in call.args[1:2]] + [k.value for k in call.keywords if k.arg == "mode"]
    return next((a.value for a in args if isinstance(a, ast.Constant)
                 and isinstance(a.value, str)), "r")


#: Opens for writing that write no file, each with its reason: (module, call as scanned).
NOT_FILES = {
    # the local value channel on Windows: a named pipe to the running app, not a file
    ("fpinspector/model/send/channel.py", "open(path)"),
    ("fpinspector/model/send/channel.py", "open(address())"),
}


def other_writers(root: Path = PACKAGE) -> list[str]:
    """``file:line: call`` of every call that writes a file other than through atomic_write:
    write_text/write_bytes, open(..., 'w'/'a'/'x'/'+'), os.open for writing (but os.devnull,
    also with open(); and the :data:`NOT_FILES`),
    renames and copies, numpy savers and Qt/pyqtgraph savers given a path (a ``.save``,
    ``.export`` or ``.tofile`` whose first argument is not an in-memory buffer; the sweep
    panel's own ``self.export`` goes through the atomic savers)."""
    found = []
    for path in sorted(root.rglob("*.py")):
        if path == WRITER:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            name = ast.unparse(node.func)
            first = ast.unparse(node.args[0]) if node.args else ""
            bad = (name.endswith((".write_text", ".write_bytes", ".setFileName"))
                   or (name in ("open", "io.open", "builtins.open") and first != "os.devnull"
                       and any(c in _mode(node) for c in "wax+"))
                   or (name == "os.open" and first != "os.devnull" and any(
                       f in ast.unparse(node) for f in ("O_WRONLY", "O_RDWR", "O_CREAT")))
                   or name in _RENAMES
                   or (name in _NUMPY_SAVERS and first != "fh")
                   or (name.endswith((".save", ".tofile", ".export")) and node.args
                       and first not in ("buf", "fh") and name != "self.export"))
            where = path.relative_to(root.parent).as_posix()
            if bad and (where, f"{name}({first})") not in NOT_FILES:
                found.append(f"{where}:{node.lineno}: {name}({first})")
    return found


def test_no_writer_outside_atomic_write():
    """The scan itself: every file the package writes goes through atomic_write."""
    assert other_writers() == []


def test_the_scan_finds_each_kind_of_writer(tmp_path):
    """The scan can fail: each forbidden spelling of a write is found."""
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "bad.py").write_text(
        "from pathlib import Path\nimport os, numpy as np\n"
        "Path('a').write_text('x')\nopen('b', 'w')\nopen('c', mode='ab')\n"
        "os.replace('a', 'b')\nnp.save('d.npy', 1)\nimg.save('e.png')\n"
        "exporter.export('f.png')\nos.open('g', os.O_WRONLY)\n"
        "open('ok')\nopen('ok', 'rb')\nnp.savez(fh, a=1)\nimg.save(buf, 'PNG')\n"
        "os.open(os.devnull, os.O_WRONLY)\nopen(os.devnull, 'w')\n", encoding="utf-8")
    got = [line.split(": ", 1)[1] for line in other_writers(pkg)]
    assert got == ["Path('a').write_text('x')", "open('b')", "open('c')", "os.replace('a')",
                   "np.save('d.npy')", "img.save('e.png')", "exporter.export('f.png')",
                   "os.open('g')"]


class _FullDisk:
    """A file object whose writes fail with ENOSPC after ``room`` bytes (a disk filling up)."""

    def __init__(self, fh, room: int) -> None:  # noqa: ANN001
        self._fh, self._room = fh, room

    def write(self, data):  # noqa: ANN001, ANN201
        self._room -= len(data)
        if self._room < 0:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return self._fh.write(data)

    def __getattr__(self, name: str):  # noqa: ANN204
        return getattr(self._fh, name)

    def __enter__(self):  # noqa: ANN204
        return self

    def __exit__(self, *exc) -> None:  # noqa: ANN002
        self._fh.close()


@pytest.fixture(params=["write", "fsync"])
def full_disk(request, monkeypatch):
    """ENOSPC injected into atomic_write: during the writes (after 64 bytes), or at the
    final fsync (where delayed allocation reports it on real file systems)."""
    if request.param == "write":
        real = os.fdopen
        monkeypatch.setattr(atomic.os, "fdopen", lambda *a, **k: _FullDisk(real(*a, **k), 64))
    else:
        def fsync(fd: int) -> None:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

        monkeypatch.setattr(atomic.os, "fsync", fsync)
    return request.param


def _sweep_result():
    from fpinspector.model.sweep import Axis, UnaryDomain, run_sweep

    def stage(ops):
        a = ops[0]
        return {"model": a, "err_model": (a & 7).astype(np.float64), "ok_model": (a & 3) != 0,
                "fired": {"X": (a & 1) == 1}}

    return run_sweep(UnaryDomain(Axis.bit_range("f16", 0, 99)), stage, result_format="f16",
                     meta={"op": "mov"})


def _writers():
    from fpinspector.gpu.report_io import example_reports, load_report, save_report
    from fpinspector.model.sweep import save_npz, write_csv_elements, write_csv_summary

    res = _sweep_result()
    report = load_report(example_reports()["softpipe"])
    out = {"save_npz": lambda p: save_npz(p, res),
           "write_csv_summary": lambda p: write_csv_summary(p, res),
           "write_csv_elements": lambda p: write_csv_elements(p, res),
           "save_report (gpu-report --out)": lambda p: save_report(p, report),
           "atomic_write": lambda p: atomic_write(p, lambda fh: fh.write("x" * 1000))}
    try:
        from fpinspector.model.state import InspectorState
        from fpinspector.model.state.workspace import save_workspace
    except ImportError:  # (no Qt: the workspace writer is tested with the UI)
        return out
    out["save_workspace"] = lambda p: save_workspace(p, InspectorState(), [("f32", 1)] * 50)
    return out


@pytest.mark.parametrize("name", list(_writers()))
def test_a_full_disk_keeps_the_previous_file(tmp_path, full_disk, name):
    """Nothing previously saved is destroyed by a failed write, and no temp file is left."""
    target = tmp_path / "saved.file"
    target.write_bytes(b"previous contents\n")
    with pytest.raises(OSError) as info:
        _writers()[name](target)
    assert info.value.errno == errno.ENOSPC
    assert target.read_bytes() == b"previous contents\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["saved.file"]
