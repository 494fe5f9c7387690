"""The path table: which kernel computes the model's bits of each (format, op).

One table, one place. ``evaluate(..., paths="reference")`` (or the environment variable
``FPINSPECTOR_ENGINE_PATHS=reference`` for a whole process, e.g. the test suite) turns
every fast kernel off, and the finisher's ordinary-element shortcuts with it: every
element then takes the general code (engine/compute.py, engine/finish/). The
differential test runs both and asserts identical bits, allowed sets, ULP errors and
fired rules (tests/model/test_engine_paths.py), as numpy's NPY_DISABLE_CPU_FEATURES lets
its baseline loops be tested against the SIMD ones.
"""

from __future__ import annotations

import os
from collections.abc import Callable

import numpy as np

from . import fastbits as k
from .context import Ctx

__all__ = ["PATHS", "FAST_KERNELS", "ENV", "use_reference", "bits_kernel"]

#: The values ``evaluate(paths=...)`` takes.
PATHS = ("fast", "reference")
#: Environment variable that sets the default path for the whole process.
ENV = "FPINSPECTOR_ENGINE_PATHS"

#: A kernel returns (bits, rest) or (bits, rest, (hi, lo)): rest = the indices of the
#: elements it does not vouch for (empty: none), and optionally the exact value it computed
#: on the way (valid outside rest).
Kernel = Callable[[Ctx, list[np.ndarray]], tuple]

#: (format, op) -> fast bits kernel (engine/fastbits.py); absent: reference only.
FAST_KERNELS: dict[tuple[str, str], Kernel] = {
    **{("f32", op): k.f32_numpy for op in k.F32_NUMPY_OPS},
    **{("f32", op): k.f32_float64 for op in ("rsq", "exp", "log")},
    ("f32", "mad"): k.f32_mad,
    **{("f32", op): k.f32_round for op in ("round_ne", "round_ni", "round_pi", "round_z")},
    ("f32", "frc"): k.f32_frc,
    **{(f, op): k.compare for f in ("f32", "f16", "f64") for op in k.COMPARE_OPS},
    **{("f64", op): k.f64_numpy for op in k.F64_NUMPY_OPS},
    **{("f16", op): k.f16_float64 for op in k.F64_NUMPY_OPS},
}


def use_reference(paths: str | None) -> bool:
    """Whether an evaluation takes the reference path (``paths`` or the environment)."""
    choice = paths if paths is not None else os.environ.get(ENV, "fast")
    if choice not in PATHS:
        raise ValueError(f"paths={choice!r}: choose one of {', '.join(PATHS)}")
    return choice == "reference"


def bits_kernel(ctx: Ctx) -> Kernel | None:
    """The fast bits kernel of this evaluation, or None (the reference path computes all)."""
    if ctx.reference:
        return None
    return FAST_KERNELS.get((ctx.fmt.name, ctx.op))
