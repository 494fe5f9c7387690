"""The GPU menu and the GPUs view: device switch at run time (the worker restarts; results
say which device produced them; a bad device keeps the previous one), saved and live
reports side by side, fidelity marks, and sweeps on the selected device."""

from __future__ import annotations

import json

import numpy as np
import pytest
from PySide6 import QtCore, QtTest

from fpinspector.gpu.deviations import host_has_avx512
from fpinspector.gpu.devices import SOFTWARE_DRIVERS, DeviceChoice, renderer_family, select_device


@pytest.fixture(autouse=True)
def _reset_selection():
    yield
    select_device(None)


def _gl_or_skip():
    import fpinspector.gpu as gpu

    try:
        s = gpu.open_session()
    except gpu.GpuUnavailable as exc:
        pytest.skip(exc.message)
    family = renderer_family(s.info["renderer"])
    s.close()
    if family not in SOFTWARE_DRIVERS:
        pytest.skip("switching between Mesa's software drivers needs Mesa")
    return family


def test_menu_and_dock_exist_and_examples_open(make_window):
    win = make_window()
    titles = [a.text() for a in win.menuBar().actions()]
    assert "&GPU" in titles and titles[-1] != "&GPU"
    assert "gpus" in win.docks
    menu = win.gpu_menu
    assert menu.open_example("llvmpipe") and menu.open_example("softpipe")
    view = win.gpus_view
    assert [r.label for r in view.reports] == ["A", "B"]
    headers = [view.rules.horizontalHeaderItem(i).text() for i in range(view.rules.columnCount())]
    assert headers[:4] == ["rule", "path", "probe", "model"] and headers[4].startswith("A: llvm")
    differing = view.rules.rowCount()
    view.only_diff.setChecked(False)
    assert view.rules.rowCount() > differing > 0
    cells = {view.rules.item(r, 2).text(): view.rules.item(r, 5).text()
             for r in range(view.rules.rowCount()) if view.rules.item(r, 1).text() == "fragment"}
    assert cells["ftz-input"].startswith("0x00000001 NO [SOFTPIPE-NO-FTZ]")


def test_the_rules_report_shows_each_paths_f16_fidelity(make_window):
    """The GPUs view lists capture fidelity under the probes: lavapipe's compute path moves
    every f16 class raw (F16-DENORM row), llvmpipe's GL compute path has no f16 route, and
    a report saved before schema version 3 shows its f16 fidelity as not measured."""
    from pathlib import Path

    win = make_window()
    win.gpu_menu.open_example("lavapipe")
    win.gpu_menu.open_example("llvmpipe")
    view = win.gpus_view
    view.only_diff.setChecked(False)
    t = view.rules
    rows = {(t.item(r, 1).text(), t.item(r, 2).text()): [t.item(r, c).text()
                                                         for c in range(t.columnCount())]
            for r in range(t.rowCount())}
    f16 = rows[("compute", "raw-move-f16")]
    assert f16[0] == "F16-DENORM" and f16[3] == "raw bits"
    assert f16[4] == "raw bits ok" and f16[5] == "— (not measured)"
    assert rows[("compute", "raw-move")][4:] == ["raw bits ok", "raw bits ok"]
    old = Path(__file__).resolve().parents[1] / "data" / "gpu_reports" / \
        "lavapipe-schema-v2.json"
    from fpinspector.gpu.report_io import load_report

    view.add_report(load_report(old), str(old))
    rows = {(t.item(r, 1).text(), t.item(r, 2).text()): t.item(r, 6).text()
            for r in range(t.rowCount())}
    assert rows[("compute", "raw-move-f16")] == "— (not measured)"
    assert rows[("compute", "raw-move")] == "raw bits ok"


def test_current_operation_rows_for_reports(make_window, wait_for):
    """mul(denormal, 1): the model flushes (F32-FTZ); softpipe's report expects the denormal
    by SOFTPIPE-NO-FTZ (labelled as expected, not measured)."""
    win = make_window()
    win.gpu_menu.open_example("softpipe")
    win.ctl.paste("0x00000001 3f800000")
    win.show()
    QtTest.QTest.qWaitForWindowExposed(win)
    win.gpu_menu.show_view()  # the dock's tab raised in the shown window
    assert wait_for(lambda: win.gpus_view.isVisible()
                    and not win.gpus_view.visibleRegion().isEmpty(), 3000)  # seen, not behind a tab
    win.gpu_menu.refresh_current()
    t = win.gpus_view.current
    rows = {t.item(r, 0).text().split(":")[0]: [t.item(r, c).text() for c in range(4)]
            for r in range(t.rowCount())}
    assert rows["model"][1] == "0x0"
    assert rows["A"][1] == "0x1" and "SOFTPIPE-NO-FTZ" in rows["A"][3]
    assert "not measured" in rows["A"][3] and rows["A"][2].startswith("NOT conformant")


def test_bad_report_file_is_a_message_and_nothing_else(make_window, tmp_path):
    win = make_window()
    bad = tmp_path / "renderdoc.json"
    bad.write_text(json.dumps({"capture": 1}), encoding="utf-8")
    assert not win.gpu_menu.open_report(str(bad))
    assert "not an fpinspector GPU report" in win.gpus_view.status.text()
    assert win.gpus_view.reports == []


@pytest.mark.gpu
def test_switch_device_at_runtime_and_back_on_failure(make_window, wait_for):
    """ftou(-2) (CONV-FTOI): llvmpipe gives 0xFFFFFFFF on a CPU with AVX-512
    (LLVMPIPE-FTOU-ALLONES) and 0xFFFFFFFE without (LLVMPIPE-FTOU-INT64), softpipe 0xFFFFFFFE
    (SOFTPIPE-FTOU-WRAP): the GPU column follows the device (and says which); a device that
    does not exist leaves the app on the previous one."""
    family = _gl_or_skip()
    other = next(d for d in SOFTWARE_DRIVERS if d != family)
    want = {"llvmpipe": 0xFFFFFFFF if host_has_avx512() else 0xFFFFFFFE,
            "softpipe": 0xFFFFFFFE}
    win = make_window(gpu="auto")
    assert wait_for(lambda: win.gpu is not None and win.gpu.available, 15000)
    win.state.update(op="ftou", op_format="f32", operands=(0xC0000000, 0, 0))
    assert wait_for(lambda: win.ctl.gpu_result == ("u32", want[family]), 15000)
    seen = []
    win.gpu.switched.connect(seen.append)
    win.gpu_menu.switch_to(DeviceChoice(driver=other))
    assert wait_for(lambda: seen, 20000)
    assert other in win.status.text() and "GPU process" in win.status.text()
    assert wait_for(lambda: win.ctl.gpu_result == ("u32", want[other]), 15000)
    assert other in win.ops_view.gpu_box.detail.text()  # the result says its device
    failed = []
    win.gpu.switch_failed.connect(failed.append)
    win.gpu_menu.switch_to(DeviceChoice(9))
    assert wait_for(lambda: failed, 15000)
    assert "no GL device 9" in failed[0] and "still on" in win.gpus_view.status.text()
    assert other in win.status.text() and win.gpu.available
    win.state.update(operands=(0xBF800000, 0, 0))  # ftou(-1): still answered, by `other`
    assert wait_for(lambda: win.ctl.gpu_result == ("u32", 0xFFFFFFFF), 15000)


@pytest.mark.gpu
def test_live_report_joins_the_view(make_window, wait_for):
    _gl_or_skip()
    win = make_window(gpu="auto")
    assert wait_for(lambda: win.gpu is not None and win.gpu.available, 15000)
    win.gpu_menu.open_example("softpipe")
    win.gpu_menu.measure_live()
    assert wait_for(lambda: win.gpus_view.live is not None, 60000)
    header = win.gpus_view.rules.horizontalHeaderItem(4).text()
    assert header.startswith("live: ") and win.gpus_view.measure_button.isEnabled()


@pytest.mark.gpu
def test_results_of_a_class_the_path_does_not_carry_raw_are_marked(make_window, wait_for):
    """A path that canonicalises NaNs (per its fidelity check) marks NaN results."""
    _gl_or_skip()
    win = make_window(gpu="auto")
    assert wait_for(lambda: win.gpu is not None and "fidelity" in win.gpu.info, 15000)
    path = win.gpu.info["path"]
    fid = json.loads(json.dumps(win.gpu.info["fidelity"]))
    fid[path]["classes"]["quiet NaN"] = False
    win.gpu.info = {**win.gpu.info, "fidelity": fid}
    win.state.update(op="sqrt", op_format="f32", operands=(0xBF800000, 0, 0))  # NaN
    assert wait_for(lambda: win.ctl.gpu_result is not None, 15000)
    assert "capture fidelity" in win.ops_view.gpu_box.detail.text()
    win.state.update(operands=(0x40800000, 0, 0))  # sqrt(4) = 2: not marked
    assert wait_for(lambda: win.ctl.gpu_result == ("f32", 0x40000000), 15000)
    assert "capture fidelity" not in win.ops_view.gpu_box.detail.text()


@pytest.mark.gpu
def test_sweep_map_runs_on_the_selected_device(qtbot):
    """The error map's GPU column comes from the app's device: softpipe keeps denormal
    products (SOFTPIPE-NO-FTZ) where llvmpipe's fragment path flushes them."""
    _gl_or_skip()
    from fpinspector.gpu.map_backend import PanelSweepBackend
    from fpinspector.model.sweep import parse_domain, run_sweep

    select_device(DeviceChoice(driver="softpipe"))
    backend = PanelSweepBackend("fragment")
    try:
        stage, rfmt, meta = backend.make("mul", "f32", "d3d11", True)
        assert "softpipe" in meta["device"]
        res = run_sweep(parse_domain("bits:0x00000001:0x00000040 x bits:0x3F800000:0x3F800001",
                                     "f32", 2), stage, result_format=rfmt, meta=meta,
                        keep_elements=True)
        gpu = np.asarray(res.columns["gpu"]).reshape(-1)
        assert (gpu[gpu != 0] <= 0x40).all() and (gpu != 0).any()  # denormals kept
    finally:
        backend.close()


@pytest.mark.gpu
def test_device_menu_lists_the_devices_and_checks_the_one_in_use(make_window, wait_for):
    family = _gl_or_skip()
    win = make_window(gpu="auto")
    assert wait_for(lambda: win.gpu is not None and win.gpu.available, 15000)
    win.gpu_menu.refresh_devices()
    assert wait_for(lambda: win.gpu_menu.devices is not None, 60000)
    acts = [a for a in win.gpu_menu.device_menu.actions() if a.isCheckable()]
    texts = [a.text() for a in acts]
    assert any("softpipe" in t for t in texts) and any("llvmpipe" in t for t in texts)
    checked = [a.text() for a in acts if a.isChecked()]
    assert len(checked) == 1 and family in checked[0]


def test_gui_device_options_select_the_device(monkeypatch):
    import fpinspector.ui.shell.app as app
    from fpinspector import cli
    from fpinspector.gpu.devices import selected_device

    seen = {}
    monkeypatch.setattr(app, "main", lambda gpu="auto": seen.setdefault("dev", selected_device())
                        and 0)
    assert cli.main(["gui", "--driver", "softpipe"]) == 0
    assert seen["dev"] == DeviceChoice(None, "softpipe")
    assert cli.main(["gui", "--driver", "nosuch"]) == 2


@pytest.mark.gpu
def test_closing_while_devices_are_listed_waits_for_the_listing(make_window):
    """The device list runs on a thread: shutting the window down waits for it (a QThread
    destroyed while running would abort the app)."""
    _gl_or_skip()
    win = make_window()
    win.gpu_menu.refresh_devices()
    assert win.gpu_menu._lister is not None and win.gpu_menu._lister.isRunning()
    win.shutdown()
    assert win.gpu_menu._lister is None or win.gpu_menu._lister.isFinished()


def test_the_gpus_dock_fits_a_dock_at_1280x720(qtbot):
    """Every button and the rows filter fit the ~590 px of a docked tab at 1280x720 without
    scrolling sideways (the filter on the buttons' row made it ~700 px wide)."""
    from fpinspector.ui.gpu.gpus_view import GpusView

    view = GpusView(examples=["example.json"])
    qtbot.addWidget(view)
    assert view.minimumSizeHint().width() <= 580
    view.resize(580, 500)
    view.show()
    qtbot.waitExposed(view)
    for w in (view.open_button, view.example_button, view.measure_button, view.remove_button,
              view.only_diff):
        r = QtCore.QRect(w.mapTo(view, QtCore.QPoint(0, 0)), w.size())
        assert w.isVisible() and view.rect().contains(r), w


@pytest.mark.gpu
def test_switch_to_a_webgpu_adapter_same_silicon_other_api(make_window, wait_for):
    """The GPU menu lists the WebGPU adapters too; switching from llvmpipe (GL) to lavapipe
    (Vulkan through wgpu) changes ftou(-1) (CONV-FTOI) from 0xFFFFFFFF
    (LLVMPIPE-FTOU-ALLONES) to WGSL's clamp, 0."""
    family = _gl_or_skip()
    from fpinspector.gpu.wgpu_devices import adapters_or_none

    lavapipe = [a for a in adapters_or_none() if a.family == "lavapipe"]
    if family != "llvmpipe" or not lavapipe:
        pytest.skip("needs llvmpipe through GL and lavapipe through Vulkan")
    win = make_window(gpu="auto")
    assert wait_for(lambda: win.gpu is not None and win.gpu.available, 15000)
    win.gpu_menu.refresh_devices()
    assert wait_for(lambda: win.gpu_menu.devices is not None, 60000)
    acts = [a for a in win.gpu_menu.device_menu.actions() if a.isCheckable()]
    vk = [a for a in acts if "via Vulkan" in a.text()]
    assert vk and not vk[0].isChecked() and "--api vulkan --adapter 0" in vk[0].text()
    win.state.update(op="ftou", op_format="f32", operands=(0xBF800000, 0, 0))
    assert wait_for(lambda: win.ctl.gpu_result == ("u32", 0xFFFFFFFF), 15000)
    seen = []
    win.gpu.switched.connect(seen.append)
    vk[0].trigger()
    assert wait_for(lambda: seen, 30000)
    assert seen[0]["renderer"].endswith(" via Vulkan")
    assert wait_for(lambda: win.ctl.gpu_result == ("u32", 0), 15000)
    win.gpu_menu._devices_found(win.gpu_menu.devices)  # the check mark moved
    checked = [a.text() for a in win.gpu_menu.device_menu.actions() if a.isChecked()]
    assert len(checked) == 1 and "via Vulkan" in checked[0]


@pytest.mark.gpu
def test_f16_sweep_map_runs_on_the_webgpu_adapter_chosen_in_the_device_menu(make_window,
                                                                          wait_for, qtbot):
    """GPU ▸ Device ▸ lavapipe (Vulkan through wgpu), then the Sweep panel's map of f16 mul
    with GPU on: the map's GPU column comes from that adapter (llvmpipe's GL has no f16
    arithmetic, so no other device here could have filled it), equals an independent
    oracle (the exact float64 product rounded once to float16: F16-PREC, F16-DENORM keep
    the denormal products), and the map's title and the sweep's metadata name the adapter
    and its API."""
    _gl_or_skip()
    from fpinspector.gpu.wgpu_devices import adapters_or_none

    if not [a for a in adapters_or_none() if a.family == "lavapipe"]:
        pytest.skip("needs lavapipe through Vulkan (mesa-vulkan-drivers and wgpu)")
    win = make_window(gpu="auto")
    assert wait_for(lambda: win.gpu is not None and win.gpu.available, 15000)
    win.gpu_menu.refresh_devices()
    assert wait_for(lambda: win.gpu_menu.devices is not None, 60000)
    vk = [a for a in win.gpu_menu.device_menu.actions()
          if a.isCheckable() and "via Vulkan" in a.text()]
    assert vk, [a.text() for a in win.gpu_menu.device_menu.actions()]
    seen = []
    win.gpu.switched.connect(seen.append)
    vk[0].trigger()
    assert wait_for(lambda: seen, 30000) and seen[0]["renderer"].endswith(" via Vulkan")
    panel = win._load_sweep_panel()
    panel.use_gpu.setChecked(True)
    panel.op.setCurrentText("mul")
    panel.format.setCurrentText("f16")
    panel.domain_a.setText("bits:0x0001:0x0040")  # f16 denormals
    panel.domain_b.setText("bits:0x3800:0x3803")  # 0.5 and the next three
    assert panel.start_sweep(), panel.map.info.text()
    qtbot.waitUntil(lambda: not panel.is_running(), timeout=60000)
    res = panel.result
    assert res is not None and res.meta["gpu"], panel.map.info.text()
    assert "via Vulkan" in res.meta["device"] and "wgpu/Vulkan" in res.meta["device"]
    title = panel.map.plot.titleLabel.text
    assert "via Vulkan" in title and "wgpu/Vulkan" in title
    a, b = np.meshgrid(np.arange(0x0001, 0x0041, dtype=np.uint16),
                       np.arange(0x3800, 0x3804, dtype=np.uint16), indexing="ij")
    want = (a.view(np.float16).astype(np.float64) * b.view(np.float16).astype(np.float64)
            ).astype(np.float16).view(np.uint16)
    got = np.asarray(res.columns["gpu"]).reshape(a.shape)
    np.testing.assert_array_equal(got, want)
    assert (want < 0x0400).all() and (want != 0).sum() == want.size - 1  # denormals, kept
