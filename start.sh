#!/usr/bin/env bash
# Installs what tilecamp needs (Debian/Ubuntu packages), builds it, and starts the course.
#   ./start.sh           build (if needed) and start tilecamp
#   ./start.sh --test    build and run every test
#   ./start.sh ARGS...   build, then run `tilecamp ARGS...` (e.g. ./start.sh check 02-transpose-tiled)
set -euo pipefail
cd "$(dirname "$0")"

# tmux: the terminal tests (tests/tui) drive tilecamp through it.
packages=(cmake make g++ libcmark-dev doctest-dev libtomlplusplus-dev nlohmann-json3-dev libcli11-dev libfmt-dev libseccomp-dev tmux)
missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "tilecamp: installing ${missing[*]}" >&2
  if [ "$(id -u)" = 0 ]; then sudo=""; elif command -v sudo >/dev/null; then sudo="sudo"; else
    echo "tilecamp: run as root: apt-get install -y ${missing[*]}" >&2; exit 1
  fi
  $sudo apt-get update -q
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q "${missing[@]}"
fi

if [ ! -e /usr/local/cuda/lib64/libnvrtc.so ] && ! ldconfig -p 2>/dev/null | grep -q libnvrtc.so; then
  echo "tilecamp: NVRTC not found. Install the CUDA Toolkit 12 or newer (it provides NVRTC; no GPU is needed)," >&2
  echo "          or point CUDAToolkit_ROOT at it: CUDAToolkit_ROOT=/path/to/cuda ./start.sh" >&2
  exit 1
fi

cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j"$(nproc)"

if [ "${1:-}" = "--test" ]; then
  exec ctest --test-dir build --output-on-failure -j"$(nproc)"
fi
exec build/runner/tilecamp "$@"
