"""GPU ▸ Device on its first open: the device in use is listed, checked, before the other
devices are probed (each in a child process, seconds); it showed only "(looking for
devices…)". The other devices join the menu when they answer."""

from __future__ import annotations

import pytest


def _texts(menu) -> list[str]:
    return [a.text() for a in menu.actions()]


def test_without_a_gpu_the_menu_says_so_while_listing(make_window) -> None:
    win = make_window()  # --no-gpu
    texts = _texts(win.gpu_menu.device_menu)
    assert texts == ["(GPU off for this session; listing the devices…)"], texts
    assert not any("looking for devices" in t for t in texts)


@pytest.mark.gpu
def test_first_open_shows_the_device_in_use_then_the_others(make_window, wait_for) -> None:
    win = make_window(gpu="auto")
    if not wait_for(lambda: win.gpu is not None and win.gpu.available is not None, 15000) \
            or not win.gpu.available:
        pytest.skip("no GL device here")
    menu = win.gpu_menu.device_menu
    menu.aboutToShow.emit()  # what the first open does
    acts = menu.actions()
    assert acts[0].isChecked() and acts[0].text().startswith(win.gpu.info["renderer"]), \
        _texts(menu)
    assert acts[0].text().endswith("(default device): in use")
    assert acts[1].text() == "(listing the other devices…)" and not acts[1].isEnabled()
    assert wait_for(lambda: win.gpu_menu.devices is not None, 60000)
    listed = [a for a in menu.actions() if a.isCheckable()]
    assert len(listed) >= 2  # (llvmpipe and softpipe at least, where Mesa runs)
    assert [a.isChecked() for a in listed].count(True) == 1
    assert not any(a.text().startswith("(") for a in menu.actions())
