"""WebGPU adapters through wgpu (wgpu-py): the D3D12, Vulkan and Metal devices, listed and chosen.

``wgpu`` is imported only here and only when a WebGPU session or listing is asked for
(:func:`import_wgpu`), so startup and the GL-only commands never pay for it. Without the
package, or without an adapter for the API asked for, the caller gets a
:class:`GpuUnavailable` / :class:`DeviceUnavailable` whose message says which.

An adapter is named per API by index (``--api vulkan --adapter 0``, the order wgpu lists
them) or by a word of its device name; ``warp`` names Microsoft's WARP, the software
adapter D3D12 offers on every Windows machine.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from typing import Any

from .errors import DeviceUnavailable, GpuUnavailable

__all__ = ["APIS", "API_LABELS", "AdapterEntry", "adapters_or_none", "build_backends",
           "describe_adapter", "wgpu_version",
           "import_wgpu", "list_adapters", "parse_adapter", "select_adapter"]

#: the WebGPU APIs ``--api`` takes (``gl`` is the moderngl backend)
APIS = ("vulkan", "d3d12", "metal")
#: wgpu's backend_type names for them
API_LABELS = {"vulkan": "Vulkan", "d3d12": "D3D12", "metal": "Metal"}
_INSTANCE_BACKENDS = {"vulkan": "Vulkan", "d3d12": "DX12", "metal": "Metal"}
#: adapter types, the one a default choice prefers first
_PREFERENCE = ("DiscreteGPU", "IntegratedGPU", "VirtualGPU", "CPU", "Unknown")
#: WARP's device name (D3D12's software adapter)
WARP_NAMES = ("microsoft basic render driver", "warp")

_WGPU: Any = None


def host_platform() -> str:
    """``sys.platform``, asked at call time (tests play Windows and macOS through it)."""
    return sys.platform


def build_backends(platform: str | None = None) -> list[str]:
    """The WebGPU APIs the wgpu-native wheels for this platform are built with (wgpu-native
    builds Vulkan and D3D12 on Windows, Vulkan on Linux, Metal on macOS; each also has a GL
    backend that fpinspector does not use: GL is measured through moderngl)."""
    p = platform or host_platform()
    if p.startswith("win"):
        return ["d3d12", "vulkan"]
    if p == "darwin":
        return ["metal"]
    return ["vulkan"]


@contextmanager
def quiet_native_stderr() -> Iterator[None]:
    """Silence what native drivers print on stderr while the instance probes them (Mesa's
    Vulkan loader prints 'XDG_RUNTIME_DIR is invalid' per adapter on a headless machine);
    fpinspector reports what matters itself. Leaves stderr alone if it has no descriptor."""
    try:
        fd = sys.stderr.fileno()
    except (AttributeError, OSError, ValueError):
        yield
        return
    sys.stderr.flush()
    saved = os.dup(fd)
    try:
        with open(os.devnull, "w") as null:
            os.dup2(null.fileno(), fd)
            try:
                yield
            finally:
                os.dup2(saved, fd)
    finally:
        os.close(saved)


def import_wgpu() -> Any:
    """The ``wgpu`` module, its instance limited to D3D12, Vulkan and Metal (wgpu's GL
    backend is not used). Raises GpuUnavailable (with the reason) when it cannot load."""
    global _WGPU
    if _WGPU is not None:
        return _WGPU
    try:
        import wgpu
    except ImportError as exc:
        raise GpuUnavailable(f"WebGPU capture needs the wgpu package (pip install wgpu): "
                             f"{exc}") from None
    except Exception as exc:  # the native library did not load (wrong platform, ...)
        raise GpuUnavailable(f"the wgpu package did not load: {exc}") from None
    try:
        from wgpu.backends.wgpu_native.extras import set_instance_extras

        set_instance_extras(backends=[_INSTANCE_BACKENDS[a] for a in APIS])
    except Exception:  # noqa: BLE001 - an instance already exists, or older wgpu: all backends
        pass
    _WGPU = wgpu
    return wgpu


@dataclass
class AdapterEntry:
    """One WebGPU adapter as ``gpu-devices`` lists it."""

    api: str
    index: int
    device: str = ""
    vendor: str = ""
    driver: str = ""
    adapter_type: str = ""
    vendor_id: int = 0
    device_id: int = 0
    features: list[str] = field(default_factory=list)
    paths: list[str] = field(default_factory=list)
    error: str | None = None

    @property
    def options(self) -> str:
        return f"--api {self.api} --adapter {self.index}"

    @property
    def choice(self) -> Any:
        """The DeviceChoice that opens this adapter (the app's GPU menu switches to it)."""
        from .devices import DeviceChoice

        return DeviceChoice(api=self.api, adapter=self.index)

    @property
    def renderer(self) -> str:
        return f"{self.device} via {API_LABELS.get(self.api, self.api)}"

    @property
    def family(self) -> str:
        """The driver's short name, as GL sessions' ``info["driver"]``: Mesa's Vulkan
        driver on llvmpipe is lavapipe (it reports its device as "llvmpipe ..."); else the
        first word of the driver's vendor or device name, lower case."""
        first = (self.device.split() or [""])[0].lower()
        if self.api == "vulkan" and first == "llvmpipe":
            return "lavapipe"
        words = (self.vendor or self.device).split()
        return words[0].lower() if words else ""

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "options": self.options, "renderer": self.renderer,
                "family": self.family}


def describe_adapter(adapter: Any, api: str, index: int) -> AdapterEntry:
    """What an adapter says about itself (``adapter.info``, ``adapter.features``)."""
    info = adapter.info
    return AdapterEntry(
        api, index, device=str(info.get("device", "")), vendor=str(info.get("vendor", "")),
        driver=str(info.get("description", "")),
        adapter_type=str(info.get("adapter_type", "")),
        vendor_id=int(info.get("vendor_id", 0) or 0),
        device_id=int(info.get("device_id", 0) or 0),
        features=sorted(str(f) for f in adapter.features),
        paths=["compute", "render", "sample"],
    )


def _adapters(wgpu: Any) -> list[tuple[str, Any]]:
    """(api, adapter) for every D3D12 / Vulkan / Metal adapter, in wgpu's order."""
    with quiet_native_stderr():
        found = wgpu.gpu.enumerate_adapters_sync()
    out = []
    for a in found:
        backend = str(a.info.get("backend_type", ""))
        api = next((k for k, v in API_LABELS.items() if v.lower() == backend.lower()), None)
        if api:
            out.append((api, a))
    return out


def adapters_or_none() -> list[AdapterEntry]:
    """:func:`list_adapters`, or none where wgpu is not there (the GPU menu lists what
    there is: GL devices alone are a complete answer)."""
    try:
        return list_adapters()
    except GpuUnavailable:
        return []


def wgpu_version() -> str | None:
    """The loaded wgpu package's version (None where it does not load)."""
    try:
        return str(getattr(import_wgpu(), "__version__", "")) or None
    except GpuUnavailable:
        return None


def list_adapters() -> list[AdapterEntry]:
    """Every WebGPU adapter, numbered per API (GpuUnavailable without wgpu)."""
    wgpu = import_wgpu()
    per_api: dict[str, int] = {}
    entries = []
    for api, a in _adapters(wgpu):
        i = per_api.get(api, 0)
        per_api[api] = i + 1
        entries.append(describe_adapter(a, api, i))
    return entries


def parse_adapter(text: str | int | None) -> int | str | None:
    """``--adapter`` text: an index ("0", "1") or a word of the device name ("warp")."""
    if text is None or isinstance(text, int):
        return text
    t = text.strip()
    if not t:
        return None
    if t.isdigit():
        return int(t)
    return t.lower()


def select_adapter(api: str, adapter: int | str | None = None) -> tuple[Any, int]:
    """The wgpu adapter ``api`` / ``adapter`` names and its index among ``api``'s adapters.

    ``adapter``: an index, ``"warp"`` (D3D12's WARP), a word of the device name, or None
    for the best one (a discrete GPU before an integrated one before a software one).
    Raises DeviceUnavailable naming what exists when there is no such adapter.
    """
    if api not in APIS:
        raise DeviceUnavailable(f"unknown API {api!r}: --api takes gl, {', '.join(APIS)}")
    wgpu = import_wgpu()
    mine = [a for k, a in _adapters(wgpu) if k == api]
    label = API_LABELS[api]
    if not mine:
        built = build_backends()
        why = ("this machine has no driver for it" if api in built else
               f"wgpu on {host_platform()} is built with {', '.join(API_LABELS[b] for b in built)}"
               " only")
        raise DeviceUnavailable(f"no {label} adapter: {why}")
    names = [f"{i}: {a.info.get('device', '?')}" for i, a in enumerate(mine)]
    choice = parse_adapter(adapter)
    if choice is None:
        ranked = sorted(range(len(mine)), key=lambda i: _PREFERENCE.index(
            str(mine[i].info.get("adapter_type", "Unknown")))
            if str(mine[i].info.get("adapter_type")) in _PREFERENCE else len(_PREFERENCE))
        return mine[ranked[0]], ranked[0]
    if isinstance(choice, int):
        if choice >= len(mine):
            raise DeviceUnavailable(f"no {label} adapter {choice}: this machine has "
                                    f"{'; '.join(names)}")
        return mine[choice], choice
    words = WARP_NAMES if choice == "warp" else (choice,)
    for i, a in enumerate(mine):
        device = str(a.info.get("device", "")).lower()
        if any(w in device for w in words):
            return a, i
    what = ("WARP (D3D12's software adapter on Windows)" if choice == "warp"
            else f"an adapter named {choice!r}")
    raise DeviceUnavailable(f"no {what} among the {label} adapters: {'; '.join(names)}")
