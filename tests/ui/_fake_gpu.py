"""A stand-in GPU session for UI tests: it captures by numpy's float32 product (not the
engine's), refuses the formats its subclass names with its own reason, and has no
conversions, so a test knows what the GPU column must show without the code under test."""

from __future__ import annotations

import numpy as np


class FakeMulSession:
    """Subclasses set ``REASON`` and :meth:`refuses`."""

    info = {"renderer": "fake GPU", "version": "test"}
    REASON = "the fake GPU refuses this format"

    def refuses(self, fmt: str) -> bool:
        return False

    def unsupported_reason(self, op, fmt):
        return self.REASON if self.refuses(fmt) else None

    def supports(self, op, fmt):
        return self.unsupported_reason(op, fmt) is None

    def capture(self, op, *operands, format="f32"):
        a, b = (np.asarray(o, np.uint32).view(np.float32) for o in operands[:2])
        return (a * b).view(np.uint32)

    def convert(self, bits, src, dst):
        raise ValueError(f"fake GPU has no {src}->{dst} conversion")

    def close(self):
        pass
