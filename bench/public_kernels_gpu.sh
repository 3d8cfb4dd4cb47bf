#!/bin/bash
# The public-code corpus (tests/data/public) on the GPU backend: every kernel the emulator runs
# (the list in tests/CMakeLists.txt), launched on the GPU exactly as its `// run:` line says, its
# output checked against the same CPU reference. Run on the GPU machine from the repository root:
#   bench/public_kernels_gpu.sh TILECAMP [OUT_DIR]
set -u
tilecamp=$1 out=${2:-/tmp/public-gpu}
mkdir -p "$out"
kernels=$(sed -n '/set(TILECAMP_PUBLIC_KERNELS/,/)/p' tests/CMakeLists.txt | grep -o '^  [a-z0-9_]*' | tr -d ' ')
failed=0
for name in $kernels; do
  line=$(grep -m1 '^// run: tilecamp profile ' "tests/data/public/$name.cu" | sed 's|^// run: tilecamp profile ||')
  rm -rf "$out/$name" && mkdir -p "$out/$name"
  eval "set -- $line"
  if ! "$tilecamp" profile "$@" --backend gpu --dump "$out/$name" > "$out/$name/log.txt" 2>&1; then
    # A kernel the emulator reports an error for (on purpose) may still run on the GPU.
    grep -q "error" "$out/$name/log.txt" || { echo "$name: did not run: $(tail -1 "$out/$name/log.txt")"; failed=1; continue; }
  fi
  verdict=$(python3 tests/data/public/check_outputs.py "$name=$out/$name" 2>&1)
  echo "$verdict"
  grep -q "WRONG\|no output" <<<"$verdict" && failed=1
done
exit $failed
