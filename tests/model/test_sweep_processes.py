"""Sweeps in worker processes give exactly what sweeps in stage threads give: the same
summary (histograms, worst inputs, counts, first non-conformant inputs), the same kept
columns and fired-rule masks, chunk callbacks in element order; a cancelled or failed
process sweep keeps every finished chunk and resumes to the uninterrupted result; a worker
that dies is reported, not waited for; workers ignore Ctrl-C (the parent turns it into a
cancel). Oracle: the same sweep run in stage threads (itself tested against evaluate())."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading

import numpy as np
import pytest

from fpinspector.model.sweep import Axis, GridDomain, ModelStage, UnaryDomain, run_sweep
from fpinspector.model.sweep.processes import ChunkDone, ChunkStopped, WorkerPool
from fpinspector.model.sweep.runner import SweepAborted, default_workers
from fpinspector.model.sweep.stages import ModelStageRecipe
from fpinspector.model.sweep.summary import Summary

CHUNK = 1 << 12


@pytest.fixture(scope="module")
def pool():
    with WorkerPool(2) as p:
        yield p


def _same(a, b) -> None:
    assert json.dumps(a.summary.to_dict(), default=repr) == json.dumps(b.summary.to_dict(),
                                                                       default=repr)
    assert sorted(a.columns) == sorted(b.columns) and sorted(a.fired) == sorted(b.fired)
    for k in a.columns:
        np.testing.assert_array_equal(a.columns[k], b.columns[k])
    for k in a.fired:
        np.testing.assert_array_equal(a.fired[k], b.fired[k])
    assert a.n_done == b.n_done and a.complete == b.complete


DOMAINS = {
    "f32 sqrt around 1 and the denormals": ("sqrt", "f32", UnaryDomain(
        Axis.bit_range("f32", 0x007FF000, 0x007FF000 + 6 * CHUNK + 17))),
    "f16 mul grid": ("mul", "f16", GridDomain(Axis.bit_range("f16", 0x3BF0, 0x3C1F),
                                              Axis.bit_range("f16", 0, 0x3FF))),
    "f32 add, all classes": ("add", "f32", GridDomain(Axis.bit_range("f32", 0, 0xFFFFFFFF, 61),
                                                      Axis.bit_range("f32", 0, 0xFFFFFFFF, 997))),
}


@pytest.mark.parametrize("name", sorted(DOMAINS))
@pytest.mark.parametrize("keep", [True, False])
def test_processes_give_what_threads_give_F32_PREC(pool, name, keep):
    op, fmt, dom = DOMAINS[name]
    seen: list[tuple[int, int]] = []
    runs = []
    for processes in (False, True):
        seen.clear()
        runs.append(run_sweep(dom, ModelStage(op, fmt), result_format=fmt, chunk_size=CHUNK,
                              keep_elements=keep, workers=2, processes=processes,
                              pool=pool if processes else None, top_k=7, first_n=13,
                              on_chunk=lambda k0, k1, cols: seen.append((k0, k1))))
        assert seen == [(k, min(k + CHUNK, dom.size)) for k in range(0, dom.size, CHUNK)]
    _same(*runs)
    assert runs[1].timings["stage"] > 0 and "stage.model" in runs[1].timings


def test_a_pool_serves_sweep_after_sweep_and_chunks_callback_sees_columns(pool):
    dom = UnaryDomain(Axis.bit_range("f16", 0, 0xFFFF))
    got = {}

    def keep(k0, k1, cols):
        got[k0] = cols["err_model"].copy()

    for op in ("rsq", "log"):
        got.clear()
        res = run_sweep(dom, ModelStage(op, "f16"), result_format="f16", chunk_size=CHUNK,
                        keep_elements=True, pool=pool, processes=True, on_chunk=keep)
        ref = run_sweep(dom, ModelStage(op, "f16"), result_format="f16", chunk_size=CHUNK,
                        keep_elements=True, processes=False)
        _same(res, ref)
        np.testing.assert_array_equal(np.concatenate([got[k] for k in sorted(got)]),
                                      ref.columns["err_model"])


def _model_digest(k0, operands, out):
    """A caller's chunk reduction (module level: it pickles to the workers): where the chunk
    starts, how many elements, and a digest of its model bits."""
    model = np.asarray(out["model"])
    return k0, len(operands[0]), int(model.astype(np.uint64).sum()), os.getpid()


@pytest.mark.parametrize("keep", [True, False])
def test_chunk_parts_are_computed_where_the_chunk_ran_and_arrive_in_order(pool, keep):
    """``chunk_part`` runs beside the stage (in the worker processes, or a stage thread) and
    ``on_part`` gets every part in element order, columns kept or not; the parts equal the
    stage-thread run's (oracle: numpy sums of the kept model column)."""
    op, fmt, dom = DOMAINS["f32 add, all classes"]
    runs = {}
    for processes in (False, True):
        got: list[tuple] = []
        res = run_sweep(dom, ModelStage(op, fmt), result_format=fmt, chunk_size=CHUNK,
                        keep_elements=keep, workers=2, processes=processes,
                        pool=pool if processes else None, chunk_part=_model_digest,
                        on_part=lambda k0, k1, part: got.append((k0, k1, part)))
        assert [(k0, k1) for k0, k1, _ in got] == [
            (k, min(k + CHUNK, dom.size)) for k in range(0, dom.size, CHUNK)]
        assert all(part[0] == k0 and part[1] == k1 - k0 for k0, k1, part in got)
        pids = {part[3] for _, _, part in got}
        assert (os.getpid() not in pids) if processes else (pids == {os.getpid()})
        runs[processes] = [part[:3] for _, _, part in got]
        if keep:
            model = res.columns["model"].astype(np.uint64)
            assert [p[2] for p in runs[processes]] == [
                int(model[k0:k0 + n].sum()) for k0, n, _ in runs[processes]]
    assert runs[False] == runs[True]


def test_cancel_keeps_the_finished_chunks_and_resume_completes_them(pool):
    dom = UnaryDomain(Axis.bit_range("f32", 0x3F000000, 0x3F000000 + 40 * CHUNK - 1))
    stop = threading.Event()

    def progress(done, total):
        if done >= 10 * CHUNK:
            stop.set()

    part = run_sweep(dom, ModelStage("rcp", "f32"), result_format="f32", chunk_size=CHUNK,
                     keep_elements=False, pool=pool, processes=True, cancel=stop,
                     progress=progress)
    assert not part.complete and 10 * CHUNK <= part.n_done < dom.size
    assert part.n_done % CHUNK == 0 and part.summary.total == part.n_done
    rest = run_sweep(dom, ModelStage("rcp", "f32"), result_format="f32", chunk_size=CHUNK,
                     pool=pool, processes=True, resume=part)
    whole = run_sweep(dom, ModelStage("rcp", "f32"), result_format="f32", chunk_size=CHUNK,
                      keep_elements=False, processes=False)
    _same(rest, whole)


def test_stop_ends_a_span_at_its_chunk_and_the_spans_queued_behind_it(pool):
    """WorkerPool.stop: a long span (1024 chunks) comes back stopped after the chunk its
    worker is in, the span queued behind it stopped without being computed, and the pool
    serves the next sweep (F32-SQRT-RCP summary of a span after the stop)."""
    step = 1 << 12
    dom = UnaryDomain(Axis.bit_range("f32", 0x3F000000, 0x3F000000 + 2048 * step - 1))
    recipes = [ModelStage("sqrt", "f32").recipe() for _ in range(pool.n)]
    snap = Summary("f32", "f32").snapshot()
    pool.begin(dom, recipes, ("f32", "f32", 10, 100), False)
    try:
        pool.submit(0, 0, 1024 * step, snap, step)
        pool.submit(0, 1024 * step, 2048 * step, snap, step)
        pool.stop()
        back = [pool.next_done() for _ in range(2)]
        assert [type(b) for b in back] == [ChunkStopped, ChunkStopped]
        assert [b.k0 for b in back] == [0, 1024 * step] and pool.in_flight == 0
    finally:
        pool.end()
    pool.begin(dom, recipes, ("f32", "f32", 10, 100), False)  # the stop ended with its sweep
    try:
        pool.submit(0, 0, 4 * step, snap, step)
        done = pool.next_done()
        assert isinstance(done, ChunkDone) and [p["n"] for p in done.prepared] == [4 * step]
    finally:
        pool.end()


def test_a_cancelled_sweep_of_long_spans_keeps_only_whole_spans_F32_SQRT_RCP(pool):
    """A cancel while spans run: the workers stop at their current chunk (at most the two
    first spans of 64 chunks are folded, where finishing the four in flight gave 256), and
    the stopped spans are not folded: the partial summary is exactly that of its first
    n_done elements."""
    step = 1 << 12
    dom = UnaryDomain(Axis.bit_range("f32", 0x3F000000, 0x3F000000 + 512 * step - 1))
    stop = threading.Event()

    def progress(done, total):
        stop.set()

    part = run_sweep(dom, ModelStage("sqrt", "f32"), result_format="f32", chunk_size=step,
                     keep_elements=False, pool=pool, processes=True, cancel=stop,
                     progress=progress)
    assert not part.complete and 0 < part.n_done <= 2 * 64 * step
    head = UnaryDomain(Axis.bit_range("f32", 0x3F000000, 0x3F000000 + part.n_done - 1))
    whole = run_sweep(head, ModelStage("sqrt", "f32"), result_format="f32",
                      chunk_size=step, keep_elements=False, processes=False)
    assert json.dumps(part.summary.to_dict(), default=repr) == json.dumps(
        whole.summary.to_dict(), default=repr)


class FailingRecipe(ModelStageRecipe):
    """A ModelStage that raises (or kills its worker) on the chunk holding ``bad``."""

    def __init__(self, bad: int, how: str) -> None:
        super().__init__("sqrt", "f32", "d3d11", None, ())
        self.bad, self.how = bad, how

    def build(self):
        stage = super().build()
        bad, how = self.bad, self.how

        def failing(ops):
            if (ops[0] == np.uint32(bad)).any():
                if how == "die":
                    os._exit(3)
                raise ValueError(f"no sqrt of 0x{bad:08X} today")
            return stage(ops)

        return failing


class FailingStage(ModelStage):
    def __init__(self, bad: int, how: str) -> None:
        super().__init__("sqrt", "f32")
        self.bad, self.how = bad, how

    def recipe(self):
        return FailingRecipe(self.bad, self.how)


@pytest.mark.parametrize("how, message", [("raise", "no sqrt of"), ("die", "worker")])
def test_a_failing_chunk_aborts_with_the_chunks_before_it(how, message):
    lo = 0x40000000
    dom = UnaryDomain(Axis.bit_range("f32", lo, lo + 12 * CHUNK - 1))
    bad = lo + 7 * CHUNK + 5
    with WorkerPool(2) as own:  # (a dead worker leaves this pool unusable)
        with pytest.raises(SweepAborted, match=message) as info:
            run_sweep(dom, FailingStage(bad, how), result_format="f32", chunk_size=CHUNK,
                      keep_elements=True, pool=own, processes=True)
    part = info.value.result
    assert not part.complete and part.n_done == 7 * CHUNK  # every chunk before the failed one
    assert part.n_done % CHUNK == 0 and part.summary.total == part.n_done
    ref = run_sweep(dom, ModelStage("sqrt", "f32"), result_format="f32", chunk_size=CHUNK,
                    keep_elements=True, processes=False)
    np.testing.assert_array_equal(part.columns["model"][: part.n_done],
                                  ref.columns["model"][: part.n_done])


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_workers_ignore_ctrl_c(pool):
    for proc in pool._procs:
        os.kill(proc.pid, signal.SIGINT)
    dom = UnaryDomain(Axis.bit_range("f16", 0, 0xFFFF))
    res = run_sweep(dom, ModelStage("sqrt", "f16"), result_format="f16", chunk_size=CHUNK,
                    pool=pool, processes=True)
    assert res.complete and all(p.is_alive() for p in pool._procs)


def test_small_sweeps_and_unportable_stages_stay_in_threads(monkeypatch):
    """Processes only where they pay: a recipe, two or more workers, enough elements."""
    import fpinspector.model.sweep.runner as runner

    started = []
    monkeypatch.setattr(runner, "WorkerPool", lambda n: started.append(n) or WorkerPool(n))
    dom = UnaryDomain(Axis.bit_range("f16", 0, 0x7FFF))
    run_sweep(dom, ModelStage("exp", "f16"), result_format="f16", chunk_size=CHUNK, workers=2)
    run_sweep(dom, lambda ops: {"model": ops[0]}, result_format="f16", chunk_size=CHUNK,
              workers=2, processes=True)
    assert started == []
    monkeypatch.setattr(runner, "PROCESS_MIN", 1 << 14)
    res = run_sweep(dom, ModelStage("exp", "f16"), result_format="f16", chunk_size=CHUNK,
                    workers=2)
    assert started == [2] and res.complete
    assert default_workers() >= 1


@pytest.mark.skipif(not hasattr(os, "sched_setaffinity"), reason="no affinity mask to set")
def test_default_workers_follow_the_cpus_this_process_may_use():
    """`taskset -c 0` (or a container's CPU set) gives one CPU: one worker, not one per core
    of the machine. Checked in a child process whose affinity is set to one CPU."""
    code = ("import os; os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]}); "
            "from fpinspector.model.sweep.runner import default_workers; "
            "print(default_workers(), os.cpu_count())")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=60, check=True).stdout.split()
    assert out[0] == "1"


def test_default_workers_without_process_cpu_count_use_the_affinity(monkeypatch):
    """Python 3.11/3.12 have no os.process_cpu_count: the affinity mask is asked instead."""
    monkeypatch.delattr(os, "process_cpu_count", raising=False)
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {3, 5}, raising=False)
    monkeypatch.setattr(os, "cpu_count", lambda: 64)
    assert default_workers() == 2


def test_cli_worker_processes_write_the_threads_file(tmp_path, monkeypatch):
    """`fpinspector sweep --workers 2` on a sweep big enough for processes writes the same
    .npz (summary and columns) as `--workers 1` (F16-PREC results are deterministic)."""
    import fpinspector.model.sweep.runner as runner
    from fpinspector.cli import main
    from fpinspector.model.sweep import load_npz

    monkeypatch.setattr(runner, "PROCESS_MIN", 1 << 14)
    results = []
    for w in (1, 2):
        out = tmp_path / f"w{w}.npz"
        assert main(["sweep", "add", "-f", "f16", "-d", "bits:0x3C00:0x3C7F",
                     "--domain-b", "bits:0:0x1FF", "--chunk", "5000", "--workers", str(w),
                     "--out", str(out), "-q"]) == 0
        results.append(load_npz(out))
    _same(*results)


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_a_worker_that_died_idle_is_reported_and_the_pool_says_so():
    dom = UnaryDomain(Axis.bit_range("f16", 0, 0x3FFF))
    with WorkerPool(2) as own:
        assert own.alive
        os.kill(own._procs[1].pid, signal.SIGKILL)
        own._procs[1].join(timeout=10)
        assert not own.alive
        with pytest.raises((SweepAborted, RuntimeError), match="worker"):
            run_sweep(dom, ModelStage("sqrt", "f16"), result_format="f16", chunk_size=CHUNK,
                      pool=own, processes=True)


@pytest.mark.parametrize("keep", [False, True])
def test_a_worker_holds_a_second_chunk_unless_columns_come_back(pool, keep):
    """Summary only: the next chunk waits in a worker's pipe while it computes one, so it
    never idles waiting for the parent; chunks come back in the order each worker got them.
    Kept columns: one chunk each (a worker's shared block holds one chunk's columns)."""
    dom = UnaryDomain(Axis.bit_range("f16", 0, 0xFFFF))
    recipes = [ModelStage("sqrt", "f16").recipe() for _ in range(pool.n)]
    snap = Summary("f16", "f16").snapshot()
    pool.begin(dom, recipes, ("f16", "f16", 10, 100), keep)
    try:
        sent = []
        while pool.free():
            k0 = len(sent) * CHUNK
            pool.submit(pool.free()[0], k0, k0 + CHUNK, snap)
            sent.append(k0)
        depth = 1 if keep else 2
        assert len(sent) == pool.in_flight == depth * pool.n
        back = [pool.next_done() for _ in sent]
        assert sorted(d.k0 for d in back) == sent and pool.in_flight == 0
        for d in back:  # each chunk's own summary part
            assert [p["n"] for p in d.prepared] == [CHUNK] and d.k1 == d.k0 + CHUNK
    finally:
        pool.end()


def _environment_mark(k0, operands, out):
    """A chunk part (module level: it pickles to the workers): the worker's setting."""
    return os.environ.get("FPINSPECTOR_TEST_MARK")


@pytest.mark.parametrize("mark", ["first", "second"])
def test_workers_take_the_environment_of_the_caller_when_the_pool_starts(monkeypatch, mark):
    """The engine reads settings from the environment (FPINSPECTOR_ENGINE_PATHS): a worker
    sees the caller's, as it is when the pool starts, also where workers are forked from a
    fork server started earlier with another environment (the second run)."""
    monkeypatch.setenv("FPINSPECTOR_TEST_MARK", mark)
    dom = UnaryDomain(Axis.bit_range("f16", 0, 2 * CHUNK - 1))
    parts: list = []
    with WorkerPool(2) as own:
        run_sweep(dom, ModelStage("sqrt", "f16"), result_format="f16", chunk_size=CHUNK,
                  pool=own, processes=True, chunk_part=_environment_mark,
                  on_part=lambda k0, k1, part: parts.append(part))
    assert parts == [mark, mark]


@pytest.mark.parametrize("platform", ["win32", "darwin"])
def test_workers_are_spawned_where_forking_is_not_safe(monkeypatch, platform):
    """Windows has no fork; macOS's system libraries are not fork-safe once used."""
    from fpinspector.model.sweep.processes import worker_context

    monkeypatch.setattr(sys, "platform", platform)
    assert worker_context().get_start_method() == "spawn"


def _private_mib(pid: int) -> float:
    with open(f"/proc/{pid}/smaps_rollup") as f:
        fields = dict(line.split()[:2] for line in f if line.startswith("Private_"))
    return (int(fields["Private_Clean:"]) + int(fields["Private_Dirty:"])) / 1024


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/proc smaps_rollup")
def test_workers_share_the_modules_they_import():
    """A worker's numpy, engine and mpmath pages are shared with the other workers (forked
    from one fork server that imported them), not its own. After a small sweep a worker
    holds about 12 MiB privately; a spawned one held 28 MiB, most of it its own copy of
    the same modules (sixteen workers: some 400 MiB of the same data)."""
    from fpinspector.model.sweep.processes import worker_context

    assert worker_context().get_start_method() == "forkserver"
    dom = GridDomain(Axis.bit_range("f16", 0x3C00, 0x3C0F), Axis.bit_range("f16", 0, 511))
    with WorkerPool(2) as own:
        run_sweep(dom, ModelStage("add", "f16"), result_format="f16", chunk_size=CHUNK,
                  pool=own, processes=True)  # each worker has built a stage and used it
        private = [_private_mib(p.pid) for p in own._procs]
    assert max(private) < 18, f"private MiB per worker: {private}"


def test_a_script_without_a_main_guard_runs_once_with_worker_processes(tmp_path):
    """Neither a spawned worker nor one forked from the fork server runs the caller's
    ``__main__`` script again: an API user's script without ``if __name__ ==
    "__main__"`` sweeps once."""
    import subprocess

    script = tmp_path / "unguarded.py"
    script.write_text(
        "from fpinspector.model.sweep import Axis, ModelStage, UnaryDomain, run_sweep\n"
        "from fpinspector.model.sweep.processes import WorkerPool\n"
        "print('script ran', flush=True)\n"
        "with WorkerPool(2) as pool:\n"
        "    res = run_sweep(UnaryDomain(Axis.bit_range('f16', 0, 0x3FFF)),\n"
        "                    ModelStage('sqrt', 'f16'), result_format='f16', chunk_size=4096,\n"
        "                    pool=pool, processes=True)\n"
        "print('complete', res.complete, flush=True)\n")
    res = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                         timeout=120, cwd=tmp_path)
    assert res.returncode == 0, res.stderr[-2000:]
    assert res.stdout.count("script ran") == 1 and "complete True" in res.stdout


EXPRESSIONS = {
    "one axis, a vector's worst component": (
        "n * rsqrt(dot(n, n))", ["n.x"], {"n": [0.5, -2.0, 3.0]},
        lambda: UnaryDomain(Axis.bit_range("f32", 0x007FF000, 0x007FF000 + 5 * CHUNK + 9))),
    "a grid over every class, fired rules": (
        "sqrt(abs(a)) + floor(b) * frac(a) - min(a, b)", ["a", "b"], {},
        lambda: GridDomain(Axis.bit_range("f32", 0, 0xFFFFFFFF, 67),
                           Axis.bit_range("f32", 0, 0xFFFFFFFF, 331))),
}


@pytest.mark.parametrize("name", sorted(EXPRESSIONS))
@pytest.mark.parametrize("keep", [True, False])
def test_expression_sweeps_in_processes_give_what_threads_give_F32_PREC(pool, name, keep):
    """An expression map's stage rebuilt in worker processes from its recipe gives the
    summary, columns and fired rules of the same sweep on stage threads."""
    from fpinspector.model.expr.sweep import ExprStage, expr_sweep_setup

    text, axes, fixed, domain = EXPRESSIONS[name]
    program, slots_ax, slots = expr_sweep_setup(text, axes, fixed, "f32")
    dom = domain()
    runs = []
    for processes in (False, True):
        stage = ExprStage(program, slots_ax, slots, "d3d11", None, None, "worst")
        runs.append(run_sweep(dom, stage, result_format=stage.result_format,
                              chunk_size=CHUNK, keep_elements=keep, workers=2,
                              processes=processes, pool=pool if processes else None,
                              top_k=5, first_n=11))
    _same(*runs)
    assert runs[0].summary.total == dom.size and runs[0].summary.fired
    # the workers computed every chunk (their stage timings came back); this process's
    # stage computed none
    assert runs[1].timings["stage.model"] > 0 and stage.timings == {}


def test_an_expression_stage_with_a_gpu_has_no_recipe_and_runs_on_threads():
    """The expression's GPU session lives in this process: no worker can reach it."""
    from fpinspector.model.expr.sweep import ExprStage, expr_sweep_setup

    program, slots_ax, slots = expr_sweep_setup("a * 2.0", ["a"], {}, "f32")
    assert ExprStage(program, slots_ax, slots).recipe() is not None
    assert ExprStage(program, slots_ax, slots, gpu=object()).recipe() is None
