"""Choosing a WebGPU adapter: clear messages without wgpu, for a missing API or adapter,
and WARP's name; no GPU context is needed for most of it."""

from __future__ import annotations

import sys

import pytest

from fpinspector.gpu import DeviceUnavailable, GpuUnavailable, open_session, wgpu_devices


def test_without_wgpu_the_reason_is_one_clear_line(monkeypatch):
    monkeypatch.setattr(wgpu_devices, "_WGPU", None)
    monkeypatch.setitem(sys.modules, "wgpu", None)  # import wgpu -> ImportError
    with pytest.raises(GpuUnavailable, match=r"needs the wgpu package \(pip install wgpu\)"):
        open_session(api="vulkan")


def test_unknown_api_and_path_are_refused():
    with pytest.raises(DeviceUnavailable, match="unknown API 'opengl'"):
        wgpu_devices.select_adapter("opengl")
    with pytest.raises(GpuUnavailable, match="compute shaders only"):
        open_session("fragment", api="vulkan")


def test_build_backends_per_platform():
    """gpu-devices says which APIs the wgpu-native build of each platform has."""
    assert wgpu_devices.build_backends("win32") == ["d3d12", "vulkan"]
    assert wgpu_devices.build_backends("darwin") == ["metal"]
    assert wgpu_devices.build_backends("linux") == ["vulkan"]


def test_parse_adapter():
    assert wgpu_devices.parse_adapter("1") == 1
    assert wgpu_devices.parse_adapter("WARP") == "warp"
    assert wgpu_devices.parse_adapter(" ") is None


@pytest.mark.gpu
def test_adapter_choice_errors_name_what_exists():
    try:
        entries = wgpu_devices.list_adapters()
    except GpuUnavailable as exc:
        pytest.skip(exc.message)
    vulkan = [e for e in entries if e.api == "vulkan"]
    if not vulkan:
        pytest.skip("no Vulkan adapter here")
    with pytest.raises(DeviceUnavailable, match=r"no Vulkan adapter 9: this machine has 0: "):
        wgpu_devices.select_adapter("vulkan", 9)
    with pytest.raises(DeviceUnavailable, match="no WARP"):
        wgpu_devices.select_adapter("vulkan", "warp")
    if sys.platform.startswith("linux"):
        with pytest.raises(DeviceUnavailable, match="no D3D12 adapter: wgpu on linux is built"):
            wgpu_devices.select_adapter("d3d12")
    adapter, index = wgpu_devices.select_adapter("vulkan", vulkan[0].device.split()[0])
    assert index == 0 and adapter.info["device"] == vulkan[0].device
    assert vulkan[0].options == "--api vulkan --adapter 0"
    assert "compute" in vulkan[0].paths and vulkan[0].features


def test_gpu_devices_without_wgpu_says_why(monkeypatch):
    """gpu-devices' WebGPU part without the package: no adapters, the reason, the build's
    APIs; the GL listing is unaffected (exit code from GL devices alone)."""
    from fpinspector.commands.gpu_devices import _webgpu_text, webgpu_adapters

    monkeypatch.setattr(wgpu_devices, "_WGPU", None)
    monkeypatch.setitem(sys.modules, "wgpu", None)
    w = webgpu_adapters()
    assert w["adapters"] == [] and w["wgpu"] is None and w["build_backends"]
    assert "needs the wgpu package" in w["error"]
    assert "none: WebGPU capture needs the wgpu package" in _webgpu_text(w)


def test_texture_formats_an_adapter_lacks_are_named():
    """A conversion whose format needs a feature the adapter lacks is refused with the
    feature's name (never emulated)."""
    from fpinspector.gpu.wgpu_conversions import FORMATS, conversion_requirement

    assert conversion_requirement(FORMATS["r16float"], "render", set()) is None
    why = conversion_requirement(FORMATS["rg11b10ufloat"], "render", set())
    assert why and "rg11b10ufloat-renderable" in why
    assert conversion_requirement(FORMATS["rg11b10ufloat"], "sample", set()) is None
    assert "texture-format16bit-norm" in conversion_requirement(FORMATS["r16unorm"], "sample",
                                                                set())
    assert "no render target in core WebGPU" in conversion_requirement(
        FORMATS["r8snorm"], "render", {"texture-format16bit-norm"})
