"""Remembered dialog folders and recent workspaces (ui/recent.py): a file dialog starts in
the folder it was last left in (the home folder the first time, never the working
directory); File ▸ Open recent lists the workspaces opened or saved, newest first, and
opens them; a workspace that no longer exists is left out."""

from __future__ import annotations

from pathlib import Path

from PySide6 import QtWidgets


def test_dialogs_start_where_they_were_left(make_window, tmp_path, monkeypatch) -> None:
    from fpinspector.ui.shell import actions

    win = make_window()
    seen = []

    def fake_open(parent, title, start, filt):
        seen.append(start)
        return str(tmp_path / "sub" / "w.json"), filt

    (tmp_path / "sub").mkdir()
    actions.save_workspace_to(win, str(tmp_path / "sub" / "w.json"))
    monkeypatch.setattr(QtWidgets.QFileDialog, "getOpenFileName", staticmethod(fake_open))
    actions._ask_open(win)
    actions._ask_open(win)
    assert seen[0] == str(Path.home())
    assert seen[1] == str((tmp_path / "sub").resolve())


def test_recent_workspaces_newest_first_and_opened_from_the_menu(make_window, tmp_path) -> None:
    from fpinspector.ui.shell import actions

    win = make_window()
    paths = []
    for i, bits in enumerate((0x3F800000, 0x40000000, 0x40400000)):
        win.state.update(fmt="f32", bits=bits)
        p = tmp_path / f"w{i}.json"
        assert actions.save_workspace_to(win, str(p))
        paths.append(str(p.resolve()))
    Path(paths[0]).unlink()  # gone: not listed
    actions._fill_recent(win, win.recent_menu)
    names = [a.text() for a in win.recent_menu.actions()]
    assert names == ["w2.json", "w1.json"]
    win.state.update(fmt="f32", bits=0)
    win.recent_menu.actions()[1].trigger()
    assert win.state.bits == 0x40000000
    assert win.messages.text().startswith("opened workspace")
