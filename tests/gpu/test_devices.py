"""Choosing the GL device: EGL device index, Mesa software driver, platform fallback, child
GPU processes, and the one-line errors for a device or driver that cannot be opened."""

from __future__ import annotations

import json
import os

import moderngl
import numpy as np
import pytest

from fpinspector.cli import main
from fpinspector.gpu import ChildSession, DeviceChoice, DeviceUnavailable, open_device
from fpinspector.gpu import context as context_mod
from fpinspector.gpu import devices as devices_mod
from fpinspector.gpu.device_list import list_devices
from fpinspector.gpu.devices import SOFTWARE_DRIVERS, in_process_conflict, renderer_family

CLASSES = np.array([0, 0x80000000, 1, 0x807FFFFF, 0x00800000, 0x3F800000, 0x7F800000,
                    0xFF800000, 0x7FC00000, 0x7FA00001, 0xFFFFFFFF, 0x7F800001], np.uint32)


def _other_driver(gpu) -> str:
    family = renderer_family(gpu.info["renderer"])
    if family not in SOFTWARE_DRIVERS:
        pytest.skip(f"{gpu.info['renderer']} is not one of Mesa's software drivers")
    return next(d for d in SOFTWARE_DRIVERS if d != family)


# -- no GL needed ------------------------------------------------------------------------
@pytest.mark.parametrize("kw, msg", [({"index": -1}, "0 or more"),
                                     ({"driver": "radeonsi"}, "unknown driver 'radeonsi'")])
def test_bad_choices_are_value_errors(kw, msg):
    with pytest.raises(ValueError, match=msg):
        DeviceChoice(**kw)


def test_choice_labels_and_environment():
    assert DeviceChoice().label() == "default device"
    assert DeviceChoice(1, "softpipe").label() == "device 1 / softpipe"
    env = {"FPINSPECTOR_GL_DEVICE": "0", "FPINSPECTOR_GL_DRIVER": "softpipe"}
    assert DeviceChoice.from_environment(env) == DeviceChoice(0, "softpipe")
    with pytest.raises(ValueError, match="FPINSPECTOR_GL_DEVICE"):
        DeviceChoice.from_environment({"FPINSPECTOR_GL_DEVICE": "gpu"})


def test_mesa_keeps_the_first_driver_so_switching_needs_a_child(monkeypatch):
    """A display this process initialised with llvmpipe cannot become softpipe in-process."""
    monkeypatch.setattr(devices_mod, "_DISPLAYS", {})
    assert in_process_conflict("egl", 0, "softpipe") is None  # nothing opened yet
    devices_mod.note_display("egl", 0, "llvmpipe (LLVM 15)", None)
    assert in_process_conflict("egl", 0, "llvmpipe") is None
    assert "separate GPU process" in in_process_conflict("egl", 0, "softpipe")
    assert in_process_conflict("egl", 1, "softpipe") is None  # another device


@pytest.mark.parametrize("platform, backend", [("win32", "wgl"), ("darwin", "cgl"),
                                               ("linux", "glx")])
def test_without_egl_the_platform_context_is_used_and_named(monkeypatch, platform, backend):
    """No EGL (Windows, macOS): the default standalone context, and info says which."""
    seen = []

    class FakeCtx:
        info = {"GL_RENDERER": "Some GPU"}

        def release(self):
            pass

    def create(**kw):
        seen.append(kw)
        if kw.get("backend") == "egl":
            raise OSError("libEGL.so not loaded")
        return FakeCtx()

    monkeypatch.setattr(context_mod, "egl_devices", lambda: None)
    monkeypatch.setattr(devices_mod.sys, "platform", platform)
    monkeypatch.setattr(devices_mod, "_DISPLAYS", {})
    monkeypatch.setattr(moderngl, "create_context", create)
    ctx, origin = context_mod.create_context(DeviceChoice())
    assert origin["backend"] == backend and "backend" not in seen[-1]
    ctx, origin = context_mod.create_context(DeviceChoice(0))  # device 0 = the default
    assert origin["backend"] == backend
    with pytest.raises(DeviceUnavailable, match=f"only its default device.*{backend}|"
                                                f"{backend}.*only its default device"):
        context_mod.create_context(DeviceChoice(1))


# -- on the GL driver of this run -----------------------------------------------------
@pytest.mark.gpu
def test_a_device_index_that_does_not_exist_is_named(gpu):
    with pytest.raises(DeviceUnavailable, match="no GL device 99"):
        open_device(DeviceChoice(99))


@pytest.mark.gpu
def test_info_says_backend_device_driver_and_process(gpu):
    info = gpu.info
    assert info["backend"] in ("egl", "wgl", "cgl", "glx")
    assert info["driver"] == renderer_family(info["renderer"])
    assert info["process"] == "in-process"


@pytest.mark.gpu
def test_other_software_driver_opens_in_a_child_process(gpu):
    """Mesa keeps this process's driver, so the other one runs in a child: its renderer is
    the driver asked for, and a raw move of every f32 class keeps every bit (F32-NANOUT)."""
    other = _other_driver(gpu)
    with open_device(DeviceChoice(driver=other), "fragment") as s:
        assert isinstance(s, ChildSession) and s.info["process"] == "child"
        assert renderer_family(s.info["renderer"]) == other
        np.testing.assert_array_equal(s.capture("mov", CLASSES), CLASSES)
        assert s.supports("mul") and s.unsupported_reason("mul") is None
        with pytest.raises(ValueError, match="no GPU kernel"):
            s.capture("no_such_op", CLASSES)
    with pytest.raises(ValueError, match="closed"):
        s.capture("mov", CLASSES)


@pytest.mark.gpu
def test_child_session_returns_what_the_in_process_session_returns(gpu):
    """Same driver in and out of process: identical bits (the transport adds nothing)."""
    rng = np.random.default_rng(3)
    a, b = (rng.integers(0, 2**32, 4099, dtype=np.uint64).astype(np.uint32) for _ in range(2))
    family = renderer_family(gpu.info["renderer"])
    driver = family if family in SOFTWARE_DRIVERS else None
    with ChildSession("fragment", DeviceChoice(driver=driver)) as child:
        np.testing.assert_array_equal(child.capture("mul", a, b, path="fragment"),
                                      gpu.capture("mul", a, b, path="fragment"))
        np.testing.assert_array_equal(child.convert(a, "f32", "f16"), gpu.convert(a, "f32", "f16"))


@pytest.mark.gpu
def test_a_driver_that_does_not_start_says_so_in_one_line(gpu):
    if renderer_family(gpu.info["renderer"]) not in SOFTWARE_DRIVERS:
        pytest.skip("Mesa driver selection: this run's device is not a Mesa software driver")
    # d3d12 needs WSL; zink (GL over Vulkan) starts wherever a Vulkan driver is installed:
    # on lavapipe since bootstrap installs mesa-vulkan-drivers
    with pytest.raises(DeviceUnavailable) as info:
        open_device(DeviceChoice(driver="d3d12"), process=True)
    assert info.value.message.startswith("driver d3d12 did not start")
    assert "\n" not in info.value.message


@pytest.mark.gpu
def test_list_devices_has_both_mesa_software_drivers(gpu):
    if os.environ.get("FPINSPECTOR_TEST_PRETEND_RENDERER"):
        pytest.skip("the listing's child processes see the real renderer, not the pretended one")
    entries = list_devices()
    good = {e.driver for e in entries if e.error is None}
    assert renderer_family(gpu.info["renderer"]) in good
    if renderer_family(gpu.info["renderer"]) in SOFTWARE_DRIVERS:
        assert set(SOFTWARE_DRIVERS) <= good
        soft = next(e for e in entries if e.driver == "softpipe")
        assert soft.paths == ["fragment"] and soft.version_code == 330
        assert soft.options.endswith("--driver softpipe") or soft.default_driver


@pytest.mark.gpu
def test_cli_gpu_devices_json_and_bad_device_exit_2(gpu, capsys):
    assert main(["gpu-devices", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["schema"] == "fpinspector.gpu-devices" and data["devices"]
    assert main(["gpu-report", "--device", "99", "--samples", "16"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("fpinspector gpu-report: error: no GL device 99") and "\n" not in err
    assert main(["gpu-report", "--driver", "nosuch"]) == 2
    assert "unknown driver 'nosuch'" in capsys.readouterr().err


@pytest.mark.gpu
def test_raw_gl_entry_points_come_from_the_context_loader(gpu, monkeypatch):
    """On Windows GL 3.0 entry points (glClampColor) exist only through the context's
    wglGetProcAddress: the raw calls ask the context's loader first, not the library."""
    from fpinspector.gpu import glraw

    monkeypatch.setattr(glraw, "_proc", lambda name: None)  # no library exports at all
    assert not glraw.RawGL().available
    assert glraw.RawGL(glraw.context_loader(gpu.ctx)).available
