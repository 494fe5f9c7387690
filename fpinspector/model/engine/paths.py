"""Which kernel computes the model's bits of each (format, op): the op row's ``fast``.

Each op row (engine/optable.py) names its kernels per format.
``evaluate(..., paths="reference")`` (or the environment variable
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

from .context import Ctx
from .optable import OPS

__all__ = ["PATHS", "FAST_KERNELS", "ENV", "use_reference", "bits_kernel"]

#: The values ``evaluate(paths=...)`` takes.
PATHS = ("fast", "reference")
#: Environment variable that sets the default path for the whole process.
ENV = "FPINSPECTOR_ENGINE_PATHS"

#: A kernel returns (bits, rest) or (bits, rest, (hi, lo)): rest = the indices of the
#: elements it does not vouch for (empty: none), and optionally the exact value it computed
#: on the way (valid outside rest; everywhere for fastbits.COMPLETES_REST's kernels, which
#: may add the exact value as float32 as a fourth item).
Kernel = Callable[[Ctx, list[np.ndarray]], tuple]

#: (format, op) -> fast bits kernel (engine/fastbits.py) of the op table's rows at import
#: (each row's ``fast``: the engine reads the row); absent: reference only.
FAST_KERNELS: dict[tuple[str, str], Kernel] = {
    (f, name): kernel for name, spec in OPS.items() for f, kernel in spec.fast.items()}


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
    return ctx.spec.fast.get(ctx.fmt.name)
