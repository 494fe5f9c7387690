#!/usr/bin/env bash
# Build fpinspector's wheel, install it (not editable) into a fresh venv and run a smoke test
# from outside the source tree: decode, eval, gpu-devices, gpu-report (+ --out), gpu-compare
# of the shipped example reports, and the app started offscreen. Missing package data or an
# assumption that the source tree is there fails here. Linux (needs Mesa's EGL for the GPU
# steps; set WHEEL_SMOKE_NO_GPU=1 on a machine without GL).
set -euo pipefail
cd "$(dirname "$0")/.."
SRC=$(pwd)
PY=${PYTHON:-python3}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/fpinspector-wheel.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

echo "== wheel: build"
"$PY" -m pip wheel -q --no-deps -w "$WORK/dist" "$SRC" >"$WORK/build.log" 2>&1 \
  || { cat "$WORK/build.log"; echo "wheel smoke: the wheel does not build"; exit 1; }
WHEEL=$(ls "$WORK"/dist/fpinspector-*.whl)
echo "   $(basename "$WHEEL")"
"$PY" -c "import sys, zipfile; names = zipfile.ZipFile(sys.argv[1]).namelist(); sys.exit(0 if any(
    n.endswith('.dist-info/licenses/LICENSE') for n in names) else 'wheel smoke: no LICENSE in the wheel')" "$WHEEL"
echo "== wheel: install into a fresh venv"
"$PY" -m venv "$WORK/venv"
"$WORK/venv/bin/python" -m pip install -q "$WHEEL" >"$WORK/install.log" 2>&1 \
  || { cat "$WORK/install.log"; echo "wheel smoke: the wheel does not install"; exit 1; }
FP="$WORK/venv/bin/fpinspector"
[ -x "$FP" ] || { echo "wheel smoke: no fpinspector entry point"; exit 1; }
[ -x "$WORK/venv/bin/fpinspector-gui" ] || { echo "wheel smoke: no fpinspector-gui entry point"; exit 1; }

cd "$WORK"  # outside the source tree: nothing may come from $SRC
export QT_QPA_PLATFORM=offscreen
loc=$("$WORK/venv/bin/python" -c "import fpinspector, os; print(os.path.dirname(fpinspector.__file__))")
case "$loc" in "$SRC"*) echo "wheel smoke: fpinspector imported from the source tree ($loc)"; exit 1;; esac

echo "== smoke: decode, eval"
"$FP" decode 0x3f800000 | grep -q "1"
"$FP" eval mul 0x00000001 0x3f800000 --json | grep -q '"F32-FTZ"'
echo "== smoke: gpu-compare of the shipped examples (package data)"
"$FP" gpu-compare example:llvmpipe example:softpipe | grep -q "SOFTPIPE-NO-FTZ"
if [ -z "${WHEEL_SMOKE_NO_GPU:-}" ]; then
  echo "== smoke: gpu-devices, gpu-report, gpu-report --driver softpipe --out"
  "$FP" gpu-devices | grep -q "softpipe"
  "$FP" gpu-report --samples 1024 | grep -q "GPU rules report"
  "$FP" gpu-report --samples 1024 --driver softpipe --json --out report.json | grep -q "^wrote"
  "$FP" gpu-compare example:softpipe report.json >/dev/null
  "$FP" eval frc 0xB0800000 --gpu --driver softpipe | grep -q "gpu result"
fi
echo "== smoke: the app starts and quits offscreen"
set +e
FPINSPECTOR_QUIT_AFTER_SHOW=1 timeout 120 "$FP" gui $([ -n "${WHEEL_SMOKE_NO_GPU:-}" ] && echo --no-gpu) \
  >"$WORK/app.log" 2>&1
rc=$?
set -e
grep -v "does not support propagateSizeHints" "$WORK/app.log" || true
[ "$rc" -eq 0 ] || { echo "wheel smoke: the app did not start (exit $rc)"; exit 1; }
echo "wheel smoke: ok"
