"""The screenshot script's own Xvfb path: a missing Xvfb is a clear message and exit code 2."""

from __future__ import annotations

from fpinspector.ui.shell import screenshots


def test_xvfb_missing_is_a_clear_error(monkeypatch, capsys, tmp_path) -> None:
    monkeypatch.setattr(screenshots.shutil, "which", lambda name: None)
    assert screenshots.main([str(tmp_path), "--xvfb"]) == 2
    assert "Xvfb is not installed" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []
