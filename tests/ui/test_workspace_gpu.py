"""Workspace save/load (atomic, corrupt files) and the GPU worker: no-GPU mode and a real capture."""

from __future__ import annotations

import json
import os

import numpy as np
import pytest

from fpinspector.model.state import InspectorState
from fpinspector.model.state.workspace import load_workspace, save_workspace
from fpinspector.ui.shell import actions


def test_workspace_round_trip(tmp_path, make_window) -> None:
    win = make_window()
    win.state.update(fmt="f64", bits=0x8000000000000001, op="mad", op_format="f16",
                     operands=[0x3C00, 0x0001, 0x8000], rule_set="d3d10", word=0x12345678)
    win.history.add("f32", 0x3F800000)
    path = tmp_path / "ws.json"
    assert actions.save_workspace_to(win, str(path))
    other = make_window()
    assert actions.open_workspace(other, str(path))
    assert other.state.snapshot == win.state.snapshot
    assert ("f32", 0x3F800000) in other.history.entries()
    assert other.ops_view.editors[1].bits() == 0x0001


def test_workspace_write_is_atomic(tmp_path, monkeypatch) -> None:
    """A failure while writing leaves the old file intact and no temp file behind."""
    path = tmp_path / "ws.json"
    s = InspectorState()
    save_workspace(path, s)
    good = path.read_text()
    s.update(bits=0)

    def boom(*a, **k):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", boom)
    with pytest.raises(OSError):
        save_workspace(path, s)
    assert path.read_text() == good
    assert [p.name for p in tmp_path.iterdir()] == ["ws.json"]


@pytest.mark.parametrize(
    "content, msg",
    [
        ("{not json", "not a JSON file .* at line 1"),
        ("[1, 2]", "not an fpinspector workspace"),
        (json.dumps({"fpinspector_workspace": 99}), "unsupported workspace version"),
        (json.dumps({"fpinspector_workspace": 1, "state": {"bits": "0xZZ"}}), "not hexadecimal"),
        (json.dumps({"fpinspector_workspace": 1, "state": {"fmt": "f11", "bits": "0xFFFF"}}),
         "does not fit in 11 bits"),
        (json.dumps({"fpinspector_workspace": 1, "state": {}, "history": [["f16", "0x10000"]]}),
         "does not fit f16"),
    ],
)
def test_corrupt_workspace_gives_a_clear_message(tmp_path, make_window, content, msg) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content)
    with pytest.raises(ValueError, match=msg):
        load_workspace(path)
    win = make_window()
    before = win.state.snapshot
    assert not actions.open_workspace(win, str(path))
    assert win.state.snapshot == before
    assert msg.split()[0] in win.paste_box.message.text()


def test_no_gpu_mode_when_open_session_fails(monkeypatch, make_window, wait_for) -> None:
    """No GL: the status bar says so, the GPU column explains, the model still works."""
    import fpinspector.gpu as gpu

    def refuse(*a, **k):
        raise gpu.GpuUnavailable("no EGL display (test)")

    monkeypatch.setattr(gpu, "open_session", refuse)
    win = make_window(gpu="auto")
    assert wait_for(lambda: win.gpu is not None and win.gpu.available is False)
    assert win.status.text().startswith("No GPU: no EGL display (test)")
    assert "No GPU" in win.ops_view.gpu_box.detail.text()
    win.ctl.paste("0x00000001 3f800000")
    assert "0x00000000" in win.ops_view.model_box.value.text()  # model result still there
    assert "No GPU" in win.ops_view.verdict_text()
    assert win.ops_view.gpu_conformant() is None


def _gpu_or_skip():
    import fpinspector.gpu as gpu

    try:
        s = gpu.open_session()
    except gpu.GpuUnavailable as exc:
        pytest.skip(exc.message)
    return s


@pytest.mark.gpu
def test_gpu_result_and_verdict_match_a_direct_capture(make_window, wait_for) -> None:
    """F32-FTZ headline: the GPU column shows what the GPU layer captures, judged by the model."""
    from fpinspector.model.engine import evaluate

    session = _gpu_or_skip()
    a, b = np.array([1], np.uint32), np.array([0x3F800000], np.uint32)
    direct = int(session.capture("mul", a, b, format="f32")[0])
    session.close()
    ok = bool(evaluate("mul", a, b, format="f32").allowed(np.array([direct], np.uint32))[0])
    win = make_window(gpu="auto")
    assert wait_for(lambda: win.gpu is not None and win.gpu.available is not None, 10000)
    win.ctl.paste("0x00000001 3f800000")
    assert wait_for(lambda: win.ctl.gpu_result is not None, 10000)
    assert win.ctl.gpu_result == ("f32", direct)
    assert win.ops_view.gpu_conformant() is ok
    assert win.ops_view.gpu_box.cells.diff_mask() == direct ^ 0  # model gives +0
    assert ("NOT CONFORMANT" if not ok else "CONFORMANT") in win.ops_view.verdict_text()
