#!/usr/bin/env bash
# Installs what tilecamp needs (Debian/Ubuntu packages), builds it, and starts the course.
#   ./start.sh           build the program (if needed) and start the course in ./course
#   ./start.sh --test    build everything and run every test
#   ./start.sh ARGS...   build, then run `tilecamp ARGS...` in ./course (e.g. ./start.sh check 02-transpose-tiled)
# The course you work in is ./course (TILECAMP_COURSE_DIR to choose another), made on the first
# run by `tilecamp init`: the lessons and the stubs, without the solutions; this folder's own
# exercises stay as shipped for the tests. CUDAToolkit_ROOT points at a CUDA Toolkit elsewhere
# than /usr/local/cuda.
set -euo pipefail
cd "$(dirname "$0")"
here=$PWD

# tmux: the terminal tests (tests/tui) drive tilecamp through it; python3 runs tests/public_kernels.py.
packages=(cmake make g++ libcmark-dev doctest-dev libtomlplusplus-dev nlohmann-json3-dev libcli11-dev libfmt-dev libseccomp-dev tmux python3)
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

cuda=${CUDAToolkit_ROOT:-/usr/local/cuda}
if [ ! -e "$cuda/lib64/libnvrtc.so" ] && ! ldconfig -p 2>/dev/null | grep -q libnvrtc.so; then
  echo "tilecamp: NVRTC not found in $cuda. Install the CUDA Toolkit 12 or newer (it provides NVRTC; no GPU is needed)," >&2
  echo "          or point CUDAToolkit_ROOT at it: CUDAToolkit_ROOT=/path/to/cuda ./start.sh" >&2
  exit 1
fi
# Release: no debug information, which would cost a third of the build's time.
cmake_args=(-S . -B build -DCMAKE_BUILD_TYPE=Release)
[ -n "${CUDAToolkit_ROOT:-}" ] && cmake_args+=("-DCUDAToolkit_ROOT=$CUDAToolkit_ROOT")
command -v ccache >/dev/null && cmake_args+=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)

if [ "${1:-}" = "--test" ]; then
  cmake "${cmake_args[@]}" >/dev/null
  cmake --build build -j"$(nproc)"
  exec ctest --test-dir build --output-on-failure -j"$(nproc)"
fi

# The program alone (not the tests): one line of progress, the compiler's words in build/build.log.
cmake "${cmake_args[@]}" >/dev/null
if [ ! -x build/runner/tilecamp ]; then
  echo "tilecamp: building the program on $(nproc) core(s); the first build takes about 4 minutes on 2 cores" >&2
fi
log=build/build.log
status=0
if [ -t 2 ]; then
  cmake --build build --target tilecamp -j"$(nproc)" >"$log" 2>&1 &
  builder=$!
  while kill -0 "$builder" 2>/dev/null; do
    line=$(grep -o '^\[ *[0-9]*%\] [A-Za-z].*' "$log" | tail -1 | sed 's|/[^ ]*/||g' | cut -c1-70)
    printf '\r\033[K%s' "${line:-configuring...}" >&2
    sleep 1
  done
  wait "$builder" || status=$?
  printf '\r\033[K' >&2
else
  cmake --build build --target tilecamp -j"$(nproc)" >"$log" 2>&1 || status=$?
fi
if [ "$status" != 0 ]; then
  tail -n 40 "$log" >&2
  echo "tilecamp: the build failed (the whole log: $here/$log)" >&2
  exit "$status"
fi

course=${TILECAMP_COURSE_DIR:-course}
if [ ! -e "$course/exercises/course.toml" ]; then
  build/runner/tilecamp init "$course" >&2
  if ! command -v tilecamp >/dev/null 2>&1; then  # said once, with the new folder
    echo "tilecamp: to type \`tilecamp\` in any shell, add it to your PATH: export PATH=\"$here/build/runner:\$PATH\"" >&2
  fi
fi
cd "$course"
exec "$here/build/runner/tilecamp" "$@"
