#!/usr/bin/env bash
# Set up everything fpinspector needs on a fresh Debian/Ubuntu machine: the system
# libraries Qt and Mesa (EGL + llvmpipe) need, Mesa's Vulkan driver (lavapipe, for the
# WebGPU backend's tests), Xvfb, then a virtual environment with the
# package, its test tools and its linters (ruff, mypy).
# Idempotent: installs only what is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

APT_PACKAGES=(
  libegl1 libegl-mesa0 libgl1 libgl1-mesa-dri libgles2 libglx-mesa0
  libfontconfig1 libfreetype6 libxkbcommon0 libxkbcommon-x11-0 libdbus-1-3
  libxcb-cursor0 libxcb-icccm4 libxcb-image0 libxcb-keysyms1 libxcb-randr0
  libxcb-render-util0 libxcb-shape0 libxcb-xinerama0 libxcb-xkb1 libx11-xcb1
  xvfb xauth fonts-dejavu-core
  gdb lldb python3-lldb-14 gcc python3-renderdoc  # debugger corpus, fpi and RenderDoc extension tests
  clang  # the lldb corpus of clang's ext_vector_type (scripts/capture_debuggers/probe_ext.c)
  gdb-multiarch qemu-user gcc-aarch64-linux-gnu libc6-dev-arm64-cross  # the AArch64 gdb corpus (probe_arm.c)
  mesa-vulkan-drivers libvulkan1  # lavapipe: the WebGPU (Vulkan) tier
)

missing=()
for p in "${APT_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "bootstrap: installing Debian packages: ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
fi
stamp=.venv/.fpinspector-installed
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
  .venv/bin/python -m pip install -q --upgrade pip >/dev/null 2>&1 || true
  .venv/bin/python -m pip install -q -e ".[test,dev]"
  touch "$stamp"
fi
