"""``fpinspector gpu-devices``: the GL devices (and Mesa software drivers) this machine opens."""

from __future__ import annotations

import argparse
import json

NAME = "gpu-devices"
HELP = ("list the GL devices and Mesa software drivers that can be opened, with renderer, "
        "GL version and capture paths (each probed in its own process)")


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--json", action="store_true", help="print the list as JSON")
    p.add_argument("--timeout", type=float, default=60.0,
                   help="seconds to wait for each device to open (default 60)")


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


def run(args: argparse.Namespace) -> int:
    from ..gpu.device_list import list_devices
    from ._gpu_args import require_gl_package

    if args.timeout <= 0:
        raise ValueError(f"--timeout must be positive, got {args.timeout}")
    require_gl_package()
    entries = list_devices(timeout=args.timeout)
    if args.json:
        print(json.dumps({"schema": "fpinspector.gpu-devices", "version": 1,
                          "devices": [e.to_dict() for e in entries]}, indent=2))
    else:
        print(_text(entries))
    return 0 if any(e.error is None for e in entries) else 3
