"""Device-behaviour checks of the GPU tier: strict where the project ships the driver's
deviation rows (llvmpipe, softpipe), findings elsewhere (see tests/gpu/conftest.py)."""

from __future__ import annotations

from fpinspector.gpu.devices import renderer_family

#: Drivers whose deviation rows (and example reports) the project ships: strict checks there
STRICT_DRIVERS = ("llvmpipe", "softpipe")
#: Device behaviours no deviation row names, seen on a non-strict device in this run
FINDINGS: list[str] = []


def strict_device(renderer: str) -> bool:
    """Whether this renderer's behaviour is pinned by shipped deviation rows."""
    return renderer_family(renderer) in STRICT_DRIVERS


class DeviceBehaviour:
    """``check(ok, message)``: an assertion on llvmpipe/softpipe, a finding elsewhere
    (kept in ``findings`` and in ``sink``, the run's list the test summary prints)."""

    def __init__(self, renderer: str, test: str, sink: list[str] | None = None) -> None:
        self.renderer, self.test, self.strict = renderer, test, strict_device(renderer)
        self.findings: list[str] = []
        self.sink = FINDINGS if sink is None else sink

    def check(self, ok: bool, message: str) -> bool:
        if ok:
            return True
        assert not self.strict, message
        line = f"{self.test}: {message}"
        self.findings.append(line)
        self.sink.append(line)
        return False
