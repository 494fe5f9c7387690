"""D3D12, WARP and Metal where they cannot run (this Linux machine): everything up to the
driver, exercised through a stand-in for the wgpu module that lists the adapters a Windows
or a macOS machine would show.

What runs here: the adapter list and its numbering per API, the default choice (a discrete
GPU before an integrated one before WARP), ``--adapter warp`` / an index / a word of the
name, the messages for an API this platform's wgpu build lacks or a machine has no driver
for, a session's description (renderer, API, backend) and its reasons per (op, format)
from the adapter's features, the CLI's options and exit codes, and ``gpu-devices``' lines.
What cannot run here: anything after the device opens on a real D3D12 or Metal driver
(shader compilation by naga's HLSL / MSL back ends, a capture, a texture conversion, WARP's
arithmetic): the stand-in's adapters refuse to open a device for a capture.
"""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from fpinspector.cli import main
from fpinspector.gpu import DeviceUnavailable, GpuUnavailable, open_session, wgpu_devices
from fpinspector.gpu.deviations import DEVIATIONS

WARP = "Microsoft Basic Render Driver"


class _Device:
    """Enough of a GPUDevice for a session's description: limits, and destroy()."""

    limits = {"max-compute-workgroups-per-dimension": 65535,
              "max-storage-buffer-binding-size": 1 << 27, "max-texture-dimension-2d": 16384}

    def destroy(self) -> None:
        pass


class _Adapter:
    def __init__(self, backend: str, device: str, kind: str, vendor_id: int,
                 features: tuple[str, ...] = (), opens: bool = False) -> None:
        self.info = {"backend_type": backend, "device": device, "vendor": "",
                     "description": f"{device} driver (stand-in)", "adapter_type": kind,
                     "vendor_id": vendor_id, "device_id": 1}
        self.features = set(features)
        self.opens = opens

    def request_device_sync(self, required_features: list[str]) -> _Device:
        if not self.opens:
            raise RuntimeError(f"{self.info['backend_type']} is not on this machine (stand-in)")
        assert set(required_features) <= self.features
        return _Device()


def _fake_wgpu(monkeypatch, platform: str, adapters: list[_Adapter]) -> None:
    fake = SimpleNamespace(__version__="0.0-stand-in",
                           gpu=SimpleNamespace(enumerate_adapters_sync=lambda: list(adapters)))
    monkeypatch.setattr(wgpu_devices, "_WGPU", fake)
    monkeypatch.setattr(wgpu_devices, "host_platform", lambda: platform)


def _windows(monkeypatch, warp_opens: bool = False) -> None:
    _fake_wgpu(monkeypatch, "win32", [
        _Adapter("Vulkan", "NVIDIA GeForce RTX 4070", "DiscreteGPU", 0x10DE, ("shader-f16",)),
        _Adapter("D3D12", "Intel(R) UHD Graphics 770", "IntegratedGPU", 0x8086),
        _Adapter("D3D12", "NVIDIA GeForce RTX 4070", "DiscreteGPU", 0x10DE,
                 ("shader-f16", "rg11b10ufloat-renderable")),
        _Adapter("D3D12", WARP, "CPU", 0x1414, ("rg11b10ufloat-renderable",),
                 opens=warp_opens),
        _Adapter("OpenGL", "NVIDIA GeForce RTX 4070/PCIe/SSE2", "DiscreteGPU", 0x10DE),
    ])


def test_windows_adapters_are_numbered_per_api_and_warp_is_named(monkeypatch):
    """--api d3d12 --adapter N counts D3D12 adapters only; wgpu's own GL backend is not
    listed (GL is measured through moderngl); the default is the discrete GPU."""
    _windows(monkeypatch)
    entries = wgpu_devices.list_adapters()
    assert [(e.api, e.index, e.device) for e in entries] == [
        ("vulkan", 0, "NVIDIA GeForce RTX 4070"), ("d3d12", 0, "Intel(R) UHD Graphics 770"),
        ("d3d12", 1, "NVIDIA GeForce RTX 4070"), ("d3d12", 2, WARP)]
    warp = entries[-1]
    assert warp.options == "--api d3d12 --adapter 2" and warp.renderer == f"{WARP} via D3D12"
    assert warp.choice.api == "d3d12" and warp.choice.adapter == 2
    assert wgpu_devices.select_adapter("d3d12")[1] == 1  # discrete before integrated, WARP
    assert wgpu_devices.select_adapter("d3d12", "warp")[1] == 2
    assert wgpu_devices.select_adapter("d3d12", "WARP")[1] == 2
    assert wgpu_devices.select_adapter("d3d12", "intel")[1] == 0
    assert wgpu_devices.select_adapter("d3d12", 1)[0].info["device"] == "NVIDIA GeForce RTX 4070"
    with pytest.raises(DeviceUnavailable, match=r"no D3D12 adapter 3: this machine has 0: "
                                                r"Intel.*; 2: Microsoft Basic Render Driver"):
        wgpu_devices.select_adapter("d3d12", 3)
    with pytest.raises(DeviceUnavailable, match="no WARP .D3D12's software adapter on Windows. "
                                                "among the Vulkan adapters"):
        wgpu_devices.select_adapter("vulkan", "warp")


def test_an_api_the_build_or_the_machine_lacks_says_which(monkeypatch):
    _windows(monkeypatch)
    with pytest.raises(DeviceUnavailable,
                       match="no Metal adapter: wgpu on win32 is built with D3D12, Vulkan only"):
        wgpu_devices.select_adapter("metal")
    _fake_wgpu(monkeypatch, "darwin", [_Adapter("Metal", "Apple M2", "IntegratedGPU", 0x106B)])
    assert wgpu_devices.select_adapter("metal")[1] == 0
    with pytest.raises(DeviceUnavailable,
                       match="no D3D12 adapter: wgpu on darwin is built with Metal only"):
        wgpu_devices.select_adapter("d3d12")
    _fake_wgpu(monkeypatch, "win32", [_Adapter("Vulkan", "AMD Radeon", "DiscreteGPU", 0x1002)])
    with pytest.raises(DeviceUnavailable,
                       match="no D3D12 adapter: this machine has no driver for it"):
        wgpu_devices.select_adapter("d3d12")


def test_a_warp_session_describes_itself_and_judges_strictly(monkeypatch):
    """A session on WARP (device opened by the stand-in): the report header's API and
    backend, the adapter type, what it cannot capture and why (its features), and no
    deviation row of Mesa's drivers applies to it. Its captures cannot run here."""
    _windows(monkeypatch, warp_opens=True)
    s = open_session(api="d3d12", adapter="warp")
    try:
        i = s.info
        assert i["renderer"] == f"{WARP} via D3D12" and i["api"] == "d3d12"
        assert i["backend"] == "wgpu/D3D12" and i["device"] == 2 and i["adapter_type"] == "CPU"
        assert i["driver"] == "microsoft" and i["half_float_arithmetic"] == [] and not i["fp64"]
        assert "'shader-f16'" in s.unsupported_reason("mul", "f16")
        assert "'shader-f64'" in s.unsupported_reason("add", "f64")
        assert s.supports("mul", "f32") and s.supports("to_f11", "f32")
        assert "needs wgpu's 'texture-format16bit-norm'" in s.conversion_reason(
            "f32", "unorm16", "render")
        assert ("rgb9e5", "f32", "sample") in s.conversions()
        with pytest.raises(ValueError, match="hardware never encodes"):
            s.convert(np.uint32([0]), "f32", "rgb9e5")
        assert not [d.id for d in DEVIATIONS if d.applies_to(i["renderer"])
                    and d.api != "any"]
    finally:
        s.close()


def test_cli_on_d3d12_and_metal_without_them(monkeypatch, capsys):
    """--api d3d12 --adapter warp reaches the driver and reports that it did not open
    (exit 3, no GPU); --api metal on Windows names what the build has (exit 2)."""
    _windows(monkeypatch)
    assert main(["gpu-report", "--api", "d3d12", "--adapter", "warp", "--samples", "16"]) == 3
    err = capsys.readouterr().err.strip()
    assert f"{WARP} via D3D12: the device did not open: D3D12 is not on this machine" in err
    assert "\n" not in err
    assert main(["gpu-report", "--api", "metal", "--samples", "16"]) == 2
    err = capsys.readouterr().err.strip()
    assert "no Metal adapter: wgpu on win32 is built with D3D12, Vulkan only" in err


def test_gpu_devices_lists_the_d3d12_adapters_and_the_build(monkeypatch):
    from fpinspector.commands.gpu_devices import _webgpu_text, webgpu_adapters

    _windows(monkeypatch)
    w = webgpu_adapters()
    assert w["build_backends"] == ["d3d12", "vulkan"] and w["wgpu"] == "0.0-stand-in"
    assert w["error"] is None
    warp = next(a for a in w["adapters"] if a["device"] == WARP)
    assert warp["options"] == "--api d3d12 --adapter 2" and warp["vendor_id"] == 0x1414
    text = _webgpu_text(w)
    assert "this platform's build has d3d12, vulkan" in text
    assert "--api d3d12 --adapter 2" in text and "0x1414" in text and "CPU" in text


def test_a_device_that_does_not_open_is_gpu_unavailable(monkeypatch):
    _windows(monkeypatch)
    with pytest.raises(GpuUnavailable, match="the device did not open"):
        open_session(api="d3d12")
