"""Nothing done is lost: checkpoints, resume (equal to an uninterrupted run), stage failures
that keep their partial result. Oracle: the uninterrupted sweep of the same domain, and
numpy float16 sqrt (F16-PREC) as the stage."""

from __future__ import annotations

import json
import threading

import numpy as np
import pytest
from _sweep_compare import assert_same_sweep

from fpinspector.model.sweep import Axis, GridDomain, UnaryDomain, load_npz, run_sweep, save_npz
from fpinspector.model.sweep.runner import SweepAborted


def stage(ops):
    """numpy float16 sqrt against float64 sqrt (F16-PREC), with a fired mask."""
    a = ops[0].view(np.float16)
    with np.errstate(all="ignore"):
        m = np.sqrt(a)
        e = np.sqrt(a.astype(np.float64))
        err = (m.astype(np.float64) - e) / np.spacing(m.astype(np.float16)).astype(np.float64)
    return {"model": m.view(np.uint16), "exact": e, "err_model": err,
            "ok_model": np.abs(np.nan_to_num(err)) <= 0.5,
            "fired": {"F32-SQRTNEG": np.signbit(a) & (a != 0)}}


class Killed(Exception):
    """Stands for SIGKILL right after a checkpoint reached the disk."""


def _npz_equal(a, b):
    assert_same_sweep(a, b, meta_ignored=("timings", "chunk_size"))


@pytest.mark.parametrize("keep, top_k, first_n", [(True, 10, 100), (False, 3, 7)])
def test_a_killed_sweep_resumes_to_the_uninterrupted_result(tmp_path, keep, top_k, first_n):
    dom = UnaryDomain(Axis.every("f16"))
    kw = dict(result_format="f16", chunk_size=1000, keep_elements=keep, top_k=top_k,
              first_n=first_n, meta={"op": "sqrt", "format": "f16", "rules": "d3d11"})
    whole = load_npz(save_npz(tmp_path / "whole.npz", run_sweep(dom, stage, **kw)))
    path = tmp_path / "part.npz"
    saves = []

    def checkpoint(res):
        save_npz(path, res)
        saves.append(res.n_done)
        if len(saves) == 3:
            raise Killed

    with pytest.raises(Killed):
        run_sweep(dom, stage, checkpoint=checkpoint, checkpoint_every=0, **kw)
    part = load_npz(path, require_complete=False)
    assert not part.complete and part.n_done == saves[-1] == 3000
    resumed = run_sweep(dom, stage, resume=part, checkpoint_every=0,
                        checkpoint=lambda r: save_npz(path, r),
                        **{**kw, "chunk_size": 777, "top_k": 99})
    _npz_equal(load_npz(save_npz(path, resumed)), whole)


def test_a_grid_resumes_too(tmp_path):
    dom = GridDomain(Axis.bit_range("f16", 0x3C00, 0x3C3F), Axis.log("f16", 1e-3, 1e3, 40))

    def add(ops):
        s = (ops[0].view(np.float16).astype(np.float64) + ops[1].view(np.float16))
        return {"model": s.astype(np.float16).view(np.uint16), "err_model": s * 0}

    whole = run_sweep(dom, add, result_format="f16", chunk_size=100)
    ev = threading.Event()
    part = run_sweep(dom, add, result_format="f16", chunk_size=100, cancel=ev,
                     progress=lambda d, t: ev.set() if d >= 700 else None)
    back = load_npz(save_npz(tmp_path / "p.npz", part), require_complete=False)
    done = run_sweep(dom, add, result_format="f16", chunk_size=64, resume=back)
    assert done.complete and np.array_equal(done.columns["model"], whole.columns["model"])
    assert done.summary.to_dict() == json.loads(json.dumps(whole.summary.to_dict()))


def test_resume_refuses_another_domain_or_mode(tmp_path):
    dom = UnaryDomain(Axis.bit_range("f16", 0, 999))
    ev = threading.Event()
    part = run_sweep(dom, stage, result_format="f16", chunk_size=100, cancel=ev,
                     progress=lambda d, t: ev.set())
    with pytest.raises(ValueError, match="covers"):
        run_sweep(UnaryDomain(Axis.bit_range("f16", 0, 998)), stage, result_format="f16",
                  resume=part)
    with pytest.raises(ValueError, match="kept per-element columns"):
        run_sweep(dom, stage, result_format="f16", resume=part, keep_elements=False)


def test_a_failing_stage_keeps_the_finished_chunks():
    dom = UnaryDomain(Axis.every("f16"))

    def flaky(ops):
        if int(ops[0][0]) == 4000:  # the chunk of elements 4000..4999
            raise OSError("GPU process gone")
        return stage(ops)

    for workers in (1, 2):
        with pytest.raises(SweepAborted, match="GPU process gone") as info:
            run_sweep(dom, flaky, result_format="f16", chunk_size=1000, workers=workers)
        part = info.value.result
        assert not part.complete and part.n_done == 4000
        assert isinstance(info.value.__cause__, OSError)
        ref = run_sweep(UnaryDomain(Axis.bit_range("f16", 0, 3999)), stage,
                        result_format="f16", chunk_size=1000)
        assert np.array_equal(part.columns["model"][:4000], ref.columns["model"])


def test_a_stage_failing_after_cancel_is_a_cancel():
    """Ctrl-C also stops a GPU child process: its failure then means 'cancelled'."""
    ev = threading.Event()

    def dies_on_cancel(ops):
        if ev.is_set():
            raise EOFError("pipe closed")
        return stage(ops)

    res = run_sweep(UnaryDomain(Axis.every("f16")), dies_on_cancel, result_format="f16",
                    chunk_size=1000, cancel=ev, workers=2,
                    progress=lambda d, t: ev.set() if d >= 3000 else None)
    assert not res.complete and res.n_done >= 3000 and res.n_done % 1000 == 0
