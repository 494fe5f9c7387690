"""Hostile workspace files: every one is a "Cannot open workspace FILE: why" message in the
app (never a traceback, never "Cannot paste"), the state untouched; big files are refused
before they are read."""

from __future__ import annotations

import json
import time

import pytest

from fpinspector.model.state.workspace import MAX_WORKSPACE_BYTES, load_workspace
from fpinspector.ui.shell import actions

GOOD_STATE = {"fmt": "f32", "bits": "0x3F800000"}


def _ws(**over):
    doc = {"fpinspector_workspace": 1, "state": GOOD_STATE, "history": []}
    doc.update(over)
    return json.dumps(doc)


CASES = [
    ('{"fpinspector_workspace": 1, "state": {}, "history": [["f32", Infinity]]}',
     "Infinity is not a JSON number"),
    ('{"fpinspector_workspace": 1, "state": {}, "history": [["f32", NaN]]}', "NaN"),
    ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
    ('{"fpinspector_workspace": ' + "[" * 100_000 + "]" * 100_000 + "}", "nested too deeply"),
    (_ws(fpinspector_workspace=True), "unsupported workspace version True"),
    (_ws(fpinspector_workspace=1.0), "unsupported workspace version 1.0"),
    (_ws(history=[["f32", 1.5]]), "history entry 0: the pattern must be a hex string"),
    (_ws(history=[["f32", True]]), "history entry 0: the pattern"),
    (_ws(history=[["f32", "12"]]), "history entry 0: the pattern"),
    (_ws(history=[["f32", "0x1_0"]]), "history entry 0: the pattern"),
    (_ws(history=[["f99", "0x1"]]), "unknown format"),
    (_ws(history=[[1, "0x1"]]), "expected \\[format, pattern\\]"),
    (_ws(history=[["f32", "0x1", "extra"]]), "expected \\[format, pattern\\]"),
    (_ws(history={"f32": "0x1"}), "history must be a list"),
    (_ws(history=[["f16", "0x1"]] * 10_001), "at most 10000"),
    (_ws(extra=1), "unknown key"),
    ('{"fpinspector_workspace": 1, "state": {"bits": 1' + "0" * 5000 + "}}", "Cannot open"),
    ("\udcff", "not UTF-8"),
]


@pytest.mark.parametrize("content, msg", CASES)
def test_hostile_workspace_files_raise_only_value_error(tmp_path, content, msg):
    path = tmp_path / "bad.json"
    if content == "\udcff":
        path.write_bytes(b'{"fpinspector_workspace": 1, "\xff": 2}')
    else:
        path.write_text(content)
    with pytest.raises(ValueError, match=msg) as info:
        load_workspace(path)
    assert str(info.value).startswith(f"Cannot open workspace {path}: ")


def test_a_huge_file_is_refused_without_reading_it(tmp_path):
    path = tmp_path / "huge.json"
    with open(path, "wb") as fh:  # sparse: 100 MB on paper, nothing on disk
        fh.truncate(100 << 20)
    t = time.perf_counter()
    with pytest.raises(ValueError, match="more than 16,777,216 bytes"):
        load_workspace(path)
    assert time.perf_counter() - t < 1.0
    assert MAX_WORKSPACE_BYTES == 16 << 20


def test_missing_files_and_folders_are_messages(tmp_path):
    with pytest.raises(ValueError, match="Cannot open workspace .*: No such file"):
        load_workspace(tmp_path / "nope.json")
    with pytest.raises(ValueError, match="Cannot open workspace"):
        load_workspace(tmp_path)


def test_a_byte_order_mark_is_fine(tmp_path):
    path = tmp_path / "bom.json"
    path.write_bytes(b"\xef\xbb\xbf" + _ws(history=[["f16", "0x3C00"], ["f32", 1]]).encode())
    snap, history = load_workspace(path)
    assert snap.bits == 0x3F800000 and history == [("f16", 0x3C00), ("f32", 1)]


@pytest.mark.parametrize("content", [CASES[0][0], CASES[2][0], _ws(history=[["f32", 1.5]])])
def test_the_app_reports_a_bad_workspace_as_a_workspace_error(tmp_path, make_window, content):
    path = tmp_path / "bad.json"
    path.write_text(content)
    win = make_window()
    before = win.state.snapshot
    assert not actions.open_workspace(win, str(path))
    assert win.state.snapshot == before
    shown = win.paste_box.message.text()
    assert shown.startswith(f"Cannot open workspace {path}: ") and "Cannot paste" not in shown
    assert win.statusBar().currentMessage().startswith("Cannot open workspace")


def test_an_unknown_op_in_a_workspace_is_refused(tmp_path):
    path = tmp_path / "op.json"
    path.write_text(_ws(state={**GOOD_STATE, "op": "nosuchop"}))
    with pytest.raises(ValueError, match="Cannot open workspace .*unknown op 'nosuchop'"):
        load_workspace(path)
