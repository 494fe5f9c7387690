"""Why does llvmpipe's fragment path differ from numpy on a 2^24-element mul? Prints the
evidence written down in docs/gpu.md: every difference, sorted by cause, and the raw-move
check that shows the capture itself changes nothing.

    .venv/bin/python scripts/fragment_path_evidence.py [--driver softpipe] [--log2n 24]
"""

from __future__ import annotations

import argparse

import numpy as np

from fpinspector.gpu import DeviceChoice, open_device
from fpinspector.gpu.fidelity import check_fidelity


def _den(x: np.ndarray) -> np.ndarray:
    return ((x & 0x7F800000) == 0) & ((x & 0x007FFFFF) != 0)


def _nan(x: np.ndarray) -> np.ndarray:
    return ((x & 0x7F800000) == 0x7F800000) & ((x & 0x007FFFFF) != 0)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--driver", default=None, help="Mesa software driver (default: Mesa's)")
    ap.add_argument("--log2n", type=int, default=24, help="log2 of the element count")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    with open_device(DeviceChoice(driver=args.driver), "fragment", process=True) as s:
        print(f"{s.info['renderer']} ({s.info['version']}), fragment path")
        fid = check_fidelity(s, ("fragment",))["fragment"]
        print(f"raw move of every f32/f64 class: {'kept' if fid.raw_bits else 'CHANGED'}"
              f" ({fid.note()})")
        rng = np.random.default_rng(args.seed)
        n = 1 << args.log2n
        a, b = (rng.integers(0, 2**32, n, dtype=np.uint64).astype(np.uint32) for _ in "ab")
        got = s.capture("mul", a, b, path="fragment")
    with np.errstate(all="ignore"):
        ieee = (a.view(np.float32) * b.view(np.float32)).view(np.uint32)
    diff = got != ieee
    den_in = _den(a) | _den(b)
    print(f"mul of {n:,} random bit patterns: {int(diff.sum()):,} results differ from numpy")
    causes = {
        "denormal result flushed to zero (F32-FTZ output)": diff & _den(ieee),
        "denormal operand flushed first (F32-FTZ input)": diff & den_in & ~_den(ieee),
        "NaN x NaN: the other operand's payload (F32-NANOUT)": diff & _nan(ieee),
    }
    rest = diff.copy()
    for name, mask in causes.items():
        print(f"  {int(mask.sum()):>10,}  {name}")
        rest &= ~mask
    print(f"  {int(rest.sum()):>10,}  anything else")
    flush = lambda x: np.where((x & 0x7F800000) == 0, x & np.uint32(0x80000000), x)  # noqa: E731
    fa, fb = flush(a), flush(b)
    with np.errstate(all="ignore"):
        exact = fb.view(np.float32).astype(np.float64) * fa.view(np.float32).astype(np.float64)
        model = (fb.view(np.float32) * fa.view(np.float32)).view(np.uint32)
    tiny = (np.abs(exact) < 2.0**-126) & ~np.isnan(exact)
    model = np.where(tiny, model & np.uint32(0x80000000), model)
    print(f"x86 model (DAZ, FTZ before rounding, b * a operand order) differs on "
          f"{int((got != model).sum()):,} results")


if __name__ == "__main__":
    main()
