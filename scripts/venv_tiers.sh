#!/usr/bin/env bash
# The dependency range pyproject.toml claims, proven (run by .ci/run; Linux, like CI):
#   floors  the fast tier (no GL) on Python 3.11 with every runtime dependency pinned to the
#           lowest version pyproject allows (read from pyproject, so the floors cannot drift)
#   newest  the fast tier on the newest Python here (pyenv's 3.13 if present) with the newest
#           releases pip finds, then decode, eval, sweep and the app started offscreen
#   bare    a venv with neither moderngl nor PySide6: the model commands and gpu-compare of
#           saved reports work, the GPU commands and the app say why not in one line
# Each tier's time is printed. TIERS="floors newest bare" picks some.
set -euo pipefail
cd "$(dirname "$0")/.."
SRC=$(pwd)
WORK=$(mktemp -d "${TMPDIR:-/tmp}/fpinspector-tiers.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
TIERS=${TIERS:-floors newest bare}
FAST=(-m pytest -q -p no:cacheprovider -m "not gpu and not slow")
export QT_QPA_PLATFORM=offscreen

pyenv_python() {  # newest pyenv Python whose version starts with $1 (e.g. 3.13), if any
  local root
  root=$(pyenv root 2>/dev/null || echo "${PYENV_ROOT:-$HOME/.pyenv}")
  ls -d "$root"/versions/"$1"* 2>/dev/null | sort -V | tail -1 | sed 's|$|/bin/python3|'
}

find_python() {  # $1: minor version wanted; prints a python for it or nothing
  local p
  p=$(pyenv_python "$1")
  if [ -n "$p" ] && [ -x "$p" ]; then echo "$p"; return; fi
  command -v "python$1" 2>/dev/null || true
}

make_venv() {  # $1 python, $2 venv dir
  "$1" -m venv "$2"
  "$2/bin/python" -m pip install -q --upgrade pip >/dev/null 2>&1 || true
}

floors_file() {  # name==floor for every ">=" of [project] dependencies (markers kept)
  "$1" - "$SRC/pyproject.toml" <<'EOF'
import re, sys, tomllib
deps = tomllib.load(open(sys.argv[1], "rb"))["project"]["dependencies"]
for dep in deps:
    req, _, marker = dep.partition(";")
    m = re.match(r"\s*([A-Za-z0-9_.-]+)\s*(?:\[[^]]*\])?\s*.*?>=\s*([0-9][^,\s]*)", req)
    if not m:
        sys.exit(f"venv tiers: no floor (>=) for {dep!r} in pyproject.toml")
    print(f"{m.group(1)}=={m.group(2)}" + (f"; {marker.strip()}" if marker.strip() else ""))
EOF
}

versions() {  # the versions a venv got, on one line
  "$1/bin/python" -c "
import importlib.metadata as m, platform
names = ['numpy', 'PySide6-Essentials', 'pyqtgraph', 'moderngl', 'mpmath', 'pytest']
got = []
for n in names:
    try: got.append(f'{n} {m.version(n)}')
    except m.PackageNotFoundError: pass
print('   Python', platform.python_version() + ':', ', '.join(got))"
}

FAILED=()
fast_tier() {  # $1 venv, $2 tier name; a failure is counted, the tier's other checks still run
  (cd "$SRC" && FPINSPECTOR_GL_BACKEND=off-in-the-fast-tier "$1/bin/python" "${FAST[@]}") \
    || FAILED+=("$2: the fast tier")
}

tier_floors() {
  local py
  py=$(find_python 3.11)
  if [ -z "$py" ]; then
    py=${PYTHON:-python3}
    echo "   no Python 3.11 here (pyenv install 3.11): floors on $("$py" --version 2>&1)"
  fi
  floors_file "$py" >"$WORK/floors.txt"
  echo "   pins: $(tr '\n' ' ' <"$WORK/floors.txt")"
  make_venv "$py" "$WORK/floors"
  "$WORK/floors/bin/python" -m pip install -q -c "$WORK/floors.txt" -e "$SRC[test]" \
    >"$WORK/floors.log" 2>&1 || { cat "$WORK/floors.log"; echo "venv tiers: floors do not install"; exit 1; }
  versions "$WORK/floors"
  fast_tier "$WORK/floors" floors
}

tier_newest() {
  local py="" v
  for v in 3.13 3.12; do
    py=$(find_python "$v")
    [ -n "$py" ] && break
    echo "   no Python $v here (pyenv install $v)"
  done
  if [ -z "$py" ]; then
    py=${PYTHON:-python3}
    echo "   newest tier falls back to $("$py" --version 2>&1): the newest packages only"
  fi
  make_venv "$py" "$WORK/newest"
  "$WORK/newest/bin/python" -m pip install -q --upgrade --upgrade-strategy eager \
    -e "$SRC[test]" >"$WORK/newest.log" 2>&1 \
    || { cat "$WORK/newest.log"; echo "venv tiers: newest releases do not install"; exit 1; }
  versions "$WORK/newest"
  fast_tier "$WORK/newest" newest
  local fp="$WORK/newest/bin/fpinspector"
  echo "   decode, eval, sweep and the app (offscreen) on the newest"
  (cd "$WORK" && "$fp" decode 0x3f800000 --format f32 | grep -q "1.0")
  (cd "$WORK" && "$fp" eval rcp --format f64 0x3ff0000000000000 | grep -q "0x3FF0000000000000")
  (cd "$WORK" && "$fp" sweep rcp --format f16 --out "$WORK/rcp.npz" >/dev/null 2>&1)
  [ -s "$WORK/rcp.npz" ] || { echo "venv tiers: sweep wrote nothing on the newest"; exit 1; }
  local rc=0
  (cd "$WORK" && FPINSPECTOR_QUIT_AFTER_SHOW=1 timeout 180 "$fp" gui --no-gpu >"$WORK/app.log" 2>&1) || rc=$?
  grep -v "does not support propagateSizeHints" "$WORK/app.log" || true
  [ "$rc" -eq 0 ] || { echo "venv tiers: the app did not start on the newest (exit $rc)"; exit 1; }
}

tier_bare() {
  local py=${PYTHON:-python3} fp rc
  make_venv "$py" "$WORK/bare"
  "$WORK/bare/bin/python" -m pip install -q numpy mpmath >"$WORK/bare.log" 2>&1 \
    && "$WORK/bare/bin/python" -m pip install -q --no-deps -e "$SRC" >>"$WORK/bare.log" 2>&1 \
    || { cat "$WORK/bare.log"; echo "venv tiers: bare venv does not install"; exit 1; }
  fp="$WORK/bare/bin/fpinspector"
  cd "$WORK"
  "$fp" decode 0x3c00 --format f16 | grep -q "1.0"
  "$fp" eval mul 0x00000001 0x3f800000 --json | grep -q '"F32-FTZ"'
  "$fp" gpu-compare example:llvmpipe example:softpipe | grep -q "SOFTPIPE-NO-FTZ"
  rc=0; "$fp" gpu-report >/dev/null 2>"$WORK/err" || rc=$?
  [ "$rc" -eq 3 ] && [ "$(wc -l <"$WORK/err")" -eq 1 ] && grep -q moderngl "$WORK/err" \
    || { cat "$WORK/err"; echo "venv tiers: gpu-report without moderngl: exit $rc"; exit 1; }
  rc=0; "$fp" gui >/dev/null 2>"$WORK/err" || rc=$?
  [ "$rc" -eq 2 ] && [ "$(wc -l <"$WORK/err")" -eq 1 ] && grep -q PySide6 "$WORK/err" \
    || { cat "$WORK/err"; echo "venv tiers: the app without PySide6: exit $rc"; exit 1; }
  cd "$SRC"
  echo "   model commands and gpu-compare ok; gpu-report exit 3, gui exit 2, one line each"
}

for tier in $TIERS; do
  echo "== venv tier: $tier"
  start=$SECONDS
  "tier_$tier"
  echo "== venv tier $tier: $((SECONDS - start)) s"
done
if [ ${#FAILED[@]} -gt 0 ]; then
  printf 'venv tiers: failed: %s\n' "${FAILED[@]}"
  exit 1
fi
