"""The ``--device N`` / ``--driver NAME`` (GL) and ``--api`` / ``--adapter`` (WebGPU) options
every GPU-using command takes, in one place."""

from __future__ import annotations

import argparse
import importlib.util
from typing import Any

__all__ = ["add_device_arguments", "device_choice", "open_cli_session", "require_gl_package"]

#: The package every GL capture needs (and the one it needs underneath)
GL_PACKAGES = ("moderngl", "glcontext")


def require_gl_package() -> None:
    """Raise ModuleNotFoundError (cli.main: one line, exit 3) when moderngl is missing.

    Asked before a command starts GPU work, so that a child GPU process (gpu-devices,
    a softpipe session, ``--gpu-process``) never dies on the import with a traceback.
    """
    for name in GL_PACKAGES:
        try:
            found = importlib.util.find_spec(name) is not None
        except (ImportError, ValueError):
            found = False
        if not found:
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)


def _index(text: str) -> int:
    try:
        value = int(text, 0)
    except ValueError:
        raise argparse.ArgumentTypeError(f"device index {text!r}: expected 0, 1, 2, ...") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"device index {value}: expected 0 or more")
    return value


def add_device_arguments(p: argparse.ArgumentParser) -> None:
    """Add ``--device`` and ``--driver`` (``fpinspector gpu-devices`` lists the choices)."""
    p.add_argument("--device", type=_index, default=None, metavar="N",
                   help="GL device index (see `fpinspector gpu-devices`; default: the "
                   "default device)")
    p.add_argument("--driver", default=None, metavar="NAME",
                   help="Mesa software driver for Mesa's software device: llvmpipe or "
                   "softpipe (default: Mesa's choice)")
    p.add_argument("--api", default="gl", choices=("gl", "vulkan", "d3d12", "metal"),
                   help="measure through OpenGL (moderngl, the default) or a WebGPU API "
                   "(wgpu: Vulkan, D3D12, Metal)")
    p.add_argument("--adapter", default=None, metavar="N|NAME",
                   help="WebGPU adapter of --api: its index, 'warp' (D3D12's WARP) or a word "
                   "of its name (see `fpinspector gpu-devices`; default: the best one)")


def device_choice(args: argparse.Namespace) -> Any:
    """The DeviceChoice the options name (ValueError with a one-line message when bad)."""
    from ..gpu.devices import DeviceChoice
    from ..gpu.wgpu_devices import parse_adapter

    return DeviceChoice(getattr(args, "device", None), getattr(args, "driver", None),
                        api=getattr(args, "api", None) or "gl",
                        adapter=parse_adapter(getattr(args, "adapter", None)))


def open_cli_session(args: argparse.Namespace, path: str = "auto") -> Any:
    """Open the session the options name. A device or driver that cannot be opened is a
    ValueError (the CLI prints one line and exits 2); no GL at all stays GpuUnavailable."""
    from ..gpu import DeviceUnavailable, open_device

    require_gl_package()
    try:
        return open_device(device_choice(args), path)
    except DeviceUnavailable as exc:
        raise ValueError(exc.message) from None
