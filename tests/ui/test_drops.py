"""Drag and drop (ui/drops.py): text dropped on the window is a paste; a file dropped is
opened as what it holds: a workspace, a GPU report (GPUs view), a saved sweep (Sweep
panel); a file that is none of them is one clear message and changes nothing."""

from __future__ import annotations

import numpy as np
from PySide6 import QtCore, QtGui


def _drop(win, mime: QtCore.QMimeData) -> QtGui.QDropEvent:
    ev = QtGui.QDropEvent(QtCore.QPointF(20, 20), QtCore.Qt.DropAction.CopyAction, mime,
                          QtCore.Qt.MouseButton.LeftButton, QtCore.Qt.KeyboardModifier.NoModifier)
    win.dropEvent(ev)
    return ev


def _files(*paths) -> QtCore.QMimeData:
    mime = QtCore.QMimeData()
    mime.setUrls([QtCore.QUrl.fromLocalFile(str(p)) for p in paths])
    return mime


def test_dropped_text_is_a_paste(make_window) -> None:
    win = make_window()
    assert win.acceptDrops()
    mime = QtCore.QMimeData()
    mime.setText("1.5 2.5")
    _drop(win, mime)
    assert win.state.operands[:2] == tuple(int(np.float32(x).view(np.uint32)) for x in (1.5, 2.5))
    assert win.paste_box.edit.text() == "1.5 2.5"
    assert win.messages.text().startswith("read as")


def test_dropped_files_open_as_what_they_hold(make_window, tmp_path) -> None:
    from fpinspector.gpu.report_io import example_reports
    from fpinspector.model.sweep import run_sweep, save_npz
    from fpinspector.model.sweep.domain import GridDomain
    from fpinspector.model.sweep.specs import parse_axis
    from fpinspector.model.sweep.stages import ModelStage
    from fpinspector.ui.shell import actions

    win = make_window()
    win.state.update(fmt="f32", bits=0x40490FDB)
    ws = tmp_path / "w.json"
    assert actions.save_workspace_to(win, str(ws))
    win.state.update(fmt="f32", bits=0)
    _drop(win, _files(ws))
    assert win.state.bits == 0x40490FDB and win.messages.text().startswith("opened workspace")
    examples = example_reports()
    if examples:
        name = sorted(examples)[0]
        _drop(win, _files(examples[name]))
        assert len(win.gpus_view.reports) == 1
    res = run_sweep(GridDomain(parse_axis("lin:1:2:4", "f32"), parse_axis("lin:1:2:3", "f32")),
                    ModelStage("mul", "f32"), result_format="f32",
                    meta={"op": "mul", "format": "f32", "rules": "d3d11"})
    npz = tmp_path / "s.npz"
    save_npz(npz, res)
    _drop(win, _files(npz))
    assert win.sweep_panel is not None and win.sweep_panel.result is not None
    assert win.sweep_panel.result.domain.size == 12
    before = win.state.snapshot
    junk = tmp_path / "junk.bin"
    junk.write_bytes(b"\x00\x01 not a workspace")
    _drop(win, _files(junk))
    assert win.paste_box.is_error() and win.messages.text().startswith("Cannot open")
    assert win.state.snapshot == before
