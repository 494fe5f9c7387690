"""Every fixed-function conversion row of this driver's deviation table explains real
elements (no stale rows hiding anything), on whichever driver the suite runs (llvmpipe,
or softpipe in the softpipe tier). Arithmetic rows: test_gpu_engine."""

from __future__ import annotations

import re

import numpy as np
import pytest
from gpu_oracle import structured_f32

from fpinspector.gpu.deviations import DEVIATIONS
from fpinspector.gpu.judge import classify_conversion


def _rows(renderer: str) -> list:
    return [d for d in DEVIATIONS if d.renderer and "convert" in d.ops
            and d.applies_to(renderer)]


def _codes(src: str) -> np.ndarray:
    bits = int(re.sub(r"\D", "", src))
    n = 1 << bits
    return np.arange(n) - (n // 2 if src.startswith("snorm") else 0)


def _f32_inputs() -> np.ndarray:
    """Specials, random patterns, and values around each small-float / norm range."""
    (rand,) = structured_f32(n_random=1 << 14, arity=1, seed=9)
    small = np.geomspace(1e-9, 1e-3, 4096).astype(np.float32).view(np.uint32)
    unit = np.linspace(-2, 2, 8193).astype(np.float32).view(np.uint32)
    return np.concatenate([rand, small, unit]).astype(np.uint32)


def test_conversion_deviation_rows_fire(gpu):
    """CONV-* rows (render targets and samplers): each one explains at least one element."""
    rows = _rows(gpu.info["renderer"])
    if not rows:
        pytest.skip(f"no conversion deviation rows for {gpu.info['renderer']}")
    stale = []
    for dev in rows:
        src, dst = dev.format.split("->")
        fired = False
        for path in dev.paths:
            x = _f32_inputs() if src == "f32" else _codes(src)
            got = gpu.convert(x, src, dst, path=path)
            masks = classify_conversion(gpu.info["renderer"], path, src, dst, x, got)
            assert not masks["unexplained"].any(), f"{src}->{dst} ({path}) unexplained"
            fired |= bool(dev.id in masks and masks[dev.id].any())
        if not fired:
            stale.append(dev.id)
    assert not stale, f"rows that never fire (stale?): {stale}"
