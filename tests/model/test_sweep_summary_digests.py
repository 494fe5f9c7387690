"""Sweep summaries are bit-identical to the stored ones (issue 41's must-hold: sweep results
unchanged by work on a sweep's speed or memory).

Each case is a smaller cousin of the README's two sweeps (f16 x f16 mul over A ranges x
every B, f32 sqrt over ranges of patterns): zeros, denormals, normals, infinities and NaNs
of both signs, in worker processes with spans and in stage threads, with chunks of 2^17,
2^16 and 2^12, top k of 10 and 300 (the top-k candidate paths with and without a kept
floor), and a GPU that differs from the model on some elements (err_gpu's patched parts).
The digest is the SHA-256 of the summary's JSON (histograms, worst rows, class and rule
counts, first non-conformant rows). The stored digests were computed with the code of
main at c6e0359 (before the memory and per-chunk cost work of issue 41), whose summaries
the C peer test (tests/test_sweep_c_peer.py) checks against an independent brute force.
"""

from __future__ import annotations

import hashlib
import json

import numpy as np
import pytest

from fpinspector.model import evaluate
from fpinspector.model.sweep import Axis, GridDomain, ModelStage, UnaryDomain, run_sweep
from fpinspector.model.sweep.processes import WorkerPool


class OffByOneGpu:
    """A 'GPU' returning the model's bits, one step off where the A pattern's low bits are
    0 mod 7 and B's are 0 mod 5, and a NaN where the result is +0 and B's low bits are 3
    mod 64 (picklable: worker processes build it)."""

    def __call__(self, op, *operands, format="f32"):
        bits = np.asarray(evaluate(op, *operands, format=format).bits).copy()
        a = operands[0].astype(np.int64)
        b = operands[-1].astype(np.int64)
        sel = (a % 7 == 0) & (b % 5 == 0)
        bits[sel] ^= bits.dtype.type(1)
        bits[(bits == 0) & (b % 64 == 3)] = bits.dtype.type(0x7E00 if bits.dtype.itemsize == 2
                                                           else 0x7FC00000)
        return bits

    def connect(self):
        return self

    def close(self) -> None:
        pass


def _mul16(lo: int, hi: int) -> GridDomain:
    return GridDomain(Axis.bit_range("f16", lo, hi), Axis.bit_range("f16", 0, 0xFFFF))


def _sqrt(lo: int, n: int) -> UnaryDomain:
    return UnaryDomain(Axis.bit_range("f32", lo, lo + n - 1))


#: name -> (op, format, domain, chunk, top_k, processes, gpu)
CASES = {
    "mul16 zeros+denormals, spans": ("mul", "f16", _mul16(0x0000, 0x00FF), 1 << 17, 10, True,
                                     False),
    "mul16 normals to inf/NaN, spans": ("mul", "f16", _mul16(0x7BF0, 0x7C4F), 1 << 17, 10,
                                        True, False),
    "mul16 negative denormals, chunk 2^16": ("mul", "f16", _mul16(0x83C0, 0x843F), 1 << 16,
                                             10, True, False),
    "mul16 top 300, chunk 2^12": ("mul", "f16", _mul16(0xFBF0, 0xFC0F), 1 << 12, 300, True,
                                  False),
    "mul16 threads, chunk 2^17": ("mul", "f16", _mul16(0x3BF0, 0x3C2F), 1 << 17, 10, False,
                                  False),
    "mul16 with a differing GPU": ("mul", "f16", _mul16(0x0380, 0x03BF), 1 << 16, 10, False,
                                   True),
    "sqrt denormals and normals, spans": ("sqrt", "f32", _sqrt(0x007C0000, 1 << 23), 1 << 17,
                                          10, True, False),
    "sqrt inf and NaN, spans": ("sqrt", "f32", _sqrt(0x7F7C0000, 1 << 23), 1 << 17, 10,
                                True, False),
    "sqrt negatives, spans": ("sqrt", "f32", _sqrt(0x807C0000, 1 << 22), 1 << 17, 10, True,
                              False),
    "sqrt top 300, chunk 2^12": ("sqrt", "f32", _sqrt(0x3F7F0000, 1 << 18), 1 << 12, 300,
                                 False, False),
    "sqrt with a differing GPU": ("sqrt", "f32", _sqrt(0x00000000, 1 << 18), 1 << 15, 10,
                                  False, True),
}

#: SHA-256 of each case's summary JSON at c6e0359.
DIGESTS = {
    "mul16 negative denormals, chunk 2^16":
        "bda6b0facd5d667f08b8db8decf4dba5b3adfa260f119b81fd84cc62f2a66b88",
    "mul16 normals to inf/NaN, spans":
        "27485bed44dc4ca84814d0b07edb5080c4cc2ac568635072137e7d8127ce82c6",
    "mul16 threads, chunk 2^17":
        "c87dd2f3e5eff90e420d0e6edab6553514a626308c7e7ade8656c62d629e8306",
    "mul16 top 300, chunk 2^12":
        "642fc2b4e926766fed89815986206d8f68bd7dd9f5d6a4d68af47a5aa4c15364",
    "mul16 with a differing GPU":
        "37d86ed9c83396ab91c9949c5a749a7c31e09982283501285c628e332c08ac86",
    "mul16 zeros+denormals, spans":
        "0f63b6d1f65332facadc0fd1d65ce05f22aa6e9660e6570f40f4535b7c0f61da",
    "sqrt denormals and normals, spans":
        "a97150edb20a44016e6db1732cf6654e9f831bfb815b959461b4ed38b5bcd494",
    "sqrt inf and NaN, spans":
        "ac6c757591256ee9a25aa863e446eec3124ea881718e57e1cbc6b96366ff4034",
    "sqrt negatives, spans":
        "d5c5ddb5e6528b3c53654e4c989d71853d6b09b1982d6c214b5097f5efffe113",
    "sqrt top 300, chunk 2^12":
        "e0e1ec4e32e3ac64fec3db97c6946a264d47df896f2c4979697357fc127ce0eb",
    "sqrt with a differing GPU":
        "e86d82c215f728538e98855c2db39a09117098b7ae415895cb662e986dd4d688",
}


def summary_digest(name: str, pool: WorkerPool | None) -> str:
    op, fmt, dom, chunk, top_k, processes, gpu = CASES[name]
    stage = ModelStage(op, fmt, gpu=OffByOneGpu() if gpu else None)
    res = run_sweep(dom, stage, result_format=fmt, chunk_size=chunk, keep_elements=False,
                    workers=2, processes=processes, pool=pool if processes else None,
                    top_k=top_k, first_n=40)
    assert res.complete and res.n_done == dom.size
    text = json.dumps(res.summary.to_dict(), sort_keys=True, default=repr)
    return hashlib.sha256(text.encode()).hexdigest()


@pytest.fixture(scope="module")
def pool():
    with WorkerPool(2) as p:
        yield p


@pytest.mark.parametrize("name", sorted(CASES))
def test_summary_equals_the_stored_digest(pool, name):
    assert summary_digest(name, pool) == DIGESTS[name]
