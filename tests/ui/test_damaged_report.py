"""A damaged saved report is refused when opened, with the field named; it never reaches
the GPUs view, where it raised "internal error" again on every operation change (the view
recomputes each report's expected result per edit)."""

from __future__ import annotations

import json

import pytest

from fpinspector.gpu.report_io import example_reports


def _damaged(tmp_path, edit):  # noqa: ANN001, ANN202
    data = json.loads(example_reports()["softpipe"].read_text(encoding="utf-8"))
    edit(data)
    path = tmp_path / "damaged.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def _observed_not_hex(d) -> None:  # noqa: ANN001
    d["probes"][0]["observed"] = "0xZZ"


def _renderer_not_text(d) -> None:  # noqa: ANN001
    d["info"]["renderer"] = ["softpipe"]


@pytest.mark.parametrize("edit, field", [(_observed_not_hex, "probes[0].observed"),
                                         (_renderer_not_text, "info.renderer")])
def test_a_damaged_report_is_refused_once_and_ops_keep_working(make_window, tmp_path, edit,
                                                               field):
    win = make_window()
    path = _damaged(tmp_path, edit)
    assert not win.gpu_menu.open_report(str(path))
    assert "damaged GPU report" in win.gpus_view.status.text() and field in \
        win.gpus_view.status.text()
    assert win.gpus_view.reports == []
    win.ctl.paste("0x00000001 3f800000")
    for op in ("add", "mul", "sqrt", "add"):
        win.state.update(op=op)
        win.gpu_menu.refresh_current()
        assert "internal error" not in win.statusBar().currentMessage()
