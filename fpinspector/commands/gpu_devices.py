"""``fpinspector gpu-devices``: the GL devices (and Mesa software drivers) this machine opens,
and the WebGPU adapters (D3D12, Vulkan, Metal through wgpu) beside them."""

from __future__ import annotations

import argparse
import json

from ._args import seconds

NAME = "gpu-devices"
HELP = ("list the GL devices and Mesa software drivers that can be opened, with renderer, "
        "GL version and capture paths (each probed in its own process), and the WebGPU "
        "adapters (D3D12, Vulkan, Metal) with API, driver, type and features")
#: adapter features that change what fpinspector can capture
CAPTURE_FEATURES = ("shader-f16", "rg11b10ufloat-renderable", "texture-format16bit-norm",
                    "texture-adapter-specific-format-features")


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--json", action="store_true", help="print the list as JSON")
    p.add_argument("--timeout", type=seconds(0, 3600), default=60.0,
                   help="seconds to wait for each device to open, at most 3600 (default 60)")


def _text(entries: list) -> str:  # noqa: ANN001 - DeviceEntry list
    rows = [("options", "renderer", "GL", "backend", "capture paths")]
    for e in entries:
        tag = "" if e.error else ("  (default)" if e.default_driver and e.index in (0, None)
                                  else "")
        if e.error:
            rows.append((e.options, f"does not open: {e.error}", "", "", ""))
        else:
            rows.append((e.options, e.renderer + tag, e.version, e.backend,
                         ", ".join(e.paths) + ("" if "compute" in e.paths
                                               else " (no compute: GL < 4.3)")))
    widths = [max(len(r[i]) for r in rows) for i in range(4)]
    lines = ["GL devices (fpinspector gpu-devices; pass the options to gpu-report, sweep, "
             "eval --gpu or the app's GPU menu)"]
    for r in rows:
        lines.append("  " + "  ".join(c.ljust(w) for c, w in zip(r[:4], widths)) + "  " + r[4])
    return "\n".join(line.rstrip() for line in lines)


def webgpu_adapters() -> dict:
    """The WebGPU part of the listing: wgpu's version, the APIs this platform's wgpu build
    has, every adapter, or why there are none (no wgpu installed, ...)."""
    from ..gpu.errors import GpuUnavailable
    from ..gpu.wgpu_devices import build_backends, list_adapters, wgpu_version

    out: dict = {"build_backends": build_backends(), "adapters": [], "error": None,
                 "wgpu": None}
    try:
        out["adapters"] = [a.to_dict() for a in list_adapters()]
        out["wgpu"] = wgpu_version()
    except GpuUnavailable as exc:
        out["error"] = exc.message
    return out


def _webgpu_text(w: dict) -> str:
    lines = [f"WebGPU adapters (wgpu {w['wgpu'] or 'not loaded'}; this platform's build has "
             f"{', '.join(w['build_backends'])}; pass --api and --adapter)"]
    if w["error"]:
        return "\n".join(lines + [f"  none: {w['error']}"])
    if not w["adapters"]:
        return "\n".join(lines + ["  none: no D3D12, Vulkan or Metal adapter on this machine"])
    rows = [("options", "device", "vendor", "driver", "type", "capture paths", "features")]
    for a in w["adapters"]:
        feats = [f for f in CAPTURE_FEATURES if f in a["features"]]
        rows.append((a["options"], a["device"], a["vendor"] or f"0x{a['vendor_id']:04X}",
                     a["driver"], a["adapter_type"], ", ".join(a["paths"]),
                     ", ".join(feats) + f" ({len(a['features'])} features)"))
    widths = [max(len(r[i]) for r in rows) for i in range(6)]
    for r in rows:
        lines.append("  " + "  ".join(c.ljust(w) for c, w in zip(r[:6], widths)) + "  " + r[6])
    return "\n".join(line.rstrip() for line in lines)


def run(args: argparse.Namespace) -> int:
    from ..gpu.device_list import list_devices
    from ._gpu_args import require_gl_package

    if args.timeout <= 0:
        raise ValueError(f"--timeout must be positive, got {args.timeout}")
    require_gl_package()
    entries = list_devices(timeout=args.timeout)
    webgpu = webgpu_adapters()
    if args.json:
        print(json.dumps({"schema": "fpinspector.gpu-devices", "version": 1,
                          "devices": [e.to_dict() for e in entries], "webgpu": webgpu},
                         indent=2))
    else:
        print(_text(entries) + "\n\n" + _webgpu_text(webgpu))
    return 0 if any(e.error is None for e in entries) or webgpu["adapters"] else 3
