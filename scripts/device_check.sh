#!/usr/bin/env bash
# One pass of the checks that need a real GPU, on a borrowed Linux machine with an NVIDIA
# GPU and no network (the workplace's device machines): the GPU tier through GL (EGL) and
# through Vulkan (wgpu), a gpu-report of each, the README's sweep figures with all cores and
# with fewer workers, the per-core comparison with the C peer, and the capture benchmarks.
#
# Run from the repository root, with the GL/Vulkan loaders unpacked from .gl/*.deb and the
# wheels of .whl/ (moderngl, glcontext, wgpu, cffi, pycparser, rendercanvas) next to it:
#   bash scripts/device_check.sh OUTDIR [STEP...]
# Each step has its own time limit, so one that hangs costs only its own minutes; every
# step's output goes to OUTDIR/device.log, reports to OUTDIR/*.json. STEPs (default: all):
# setup tier-gl tier-vk reports figures figures8 peer peer8 peer4 peer2 scaling percore
# capture. The peer steps are both README sweeps without the GPU next to the C peer (all
# cores, then 8, 4 and 2 workers); scaling prints the terms of docs/sweeps.md's projection.
set -u
OUT_DIR=${1:?usage: device_check.sh OUTDIR [STEP...]}
shift
STEPS=${*:-"setup tier-gl tier-vk reports figures figures8 peer peer8 peer4 peer2 scaling percore capture"}
LOG="$OUT_DIR/device.log"
export PYTHONUNBUFFERED=1
PY=${PYTHON:-python3}

step() {  # step NAME LIMIT_S COMMAND...: runs it when NAME is asked for, logs time and rc
    local name=$1 limit=$2
    shift 2
    case " $STEPS " in *" $name "*) ;; *) return 0 ;; esac
    echo "== $name ($(date -u +%T), load $(cut -d' ' -f1-3 /proc/loadavg)): $*" | tee -a "$LOG"
    local t0=$SECONDS
    timeout -k 10 "$limit" "$@" >>"$LOG" 2>&1
    echo "== $name: rc $? in $((SECONDS - t0)) s" | tee -a "$LOG"
}

if [ -d .gl ]; then
    for f in .gl/*.deb; do dpkg -x "$f" /; done
    ldconfig
fi
if [ -d .whl ]; then
    "$PY" -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
        --target /tmp/site .whl/*.whl >>"$LOG" 2>&1 || echo "wheels did not install" | tee -a "$LOG"
fi
export PYTHONPATH="/tmp/site:$PWD${PYTHONPATH:+:$PYTHONPATH}"
# NVIDIA's ICD and EGL vendor files where the image keeps them (README of the device tool)
for f in /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json; do
    [ -f "$f" ] && export VK_DRIVER_FILES=$f
done
for f in /usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json; do
    [ -f "$f" ] && export __EGL_VENDOR_LIBRARY_FILENAMES=$f
done

step setup 60 bash -c "nvidia-smi -L; nproc; lscpu | grep -E 'Model name|Thread|Core|Socket|NUMA node|MHz'; cat /proc/loadavg; $PY -VV; \
    $PY -c 'import numpy, mpmath, moderngl, wgpu; print(numpy.__version__, mpmath.__version__, moderngl.__version__, wgpu.__version__)'; \
    $PY -m fpinspector gpu-devices"
step tier-gl 200 "$PY" -m pytest -q -p no:cacheprovider --maxfail=30 -n 8 -rfE tests/gpu -k "not wgpu"
step tier-vk 120 env FPINSPECTOR_TEST_API=vulkan "$PY" -m pytest -q -p no:cacheprovider \
    -n 4 -rfE tests/gpu -k wgpu
step reports 120 bash -c "$PY -m fpinspector gpu-report --json --out $OUT_DIR/gl_report.json >/dev/null; \
    $PY -m fpinspector gpu-report --api vulkan --json --out $OUT_DIR/vk_report.json >/dev/null; \
    $PY -m fpinspector gpu-report | tail -40"
step figures 150 "$PY" benchmarks/readme_figures.py
step figures8 150 "$PY" benchmarks/readme_figures.py --workers 8
step peer 100 "$PY" benchmarks/c_peer.py --full
step peer8 130 "$PY" benchmarks/c_peer.py --full --workers 8
step peer4 150 "$PY" benchmarks/c_peer.py --full --workers 4
step peer2 240 "$PY" benchmarks/c_peer.py --full --workers 2
step scaling 120 "$PY" benchmarks/bench_sweep_scaling.py --repeat 2
step percore 120 "$PY" benchmarks/bench_sweep_per_core.py --repeat 2
step capture 120 bash -c "$PY benchmarks/bench_gpu_capture.py; $PY benchmarks/bench_wgpu_capture.py"
echo "== done $(date -u +%T)" | tee -a "$LOG"
