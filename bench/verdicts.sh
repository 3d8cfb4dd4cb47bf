#!/bin/bash
# Checks every kernel of the course's verdict corpus (each exercise's solution, its stub and its
# wrong solutions in tests/data/wrong) on one backend and writes each verdict, as `check --json`
# gives it with the file's role added, one per line, to OUT_FILE. Run once with --backend gpu on a
# GPU and once with --backend emulator; bench/model/agreement.py compares the two.
#   bench/verdicts.sh TILECAMP OUT_FILE gpu|emulator [ONLY]
# ONLY, a file of paths (relative to the source tree, one per line), limits the run to those.
set -u
tilecamp=$(realpath "$1")
out=$2
backend=$3
only=${4:-}
source=$(cd "$(dirname "$0")/.." && pwd)
export TILECAMP_ROOT="$source" NO_COLOR=1
: >"$out"
ids=$(sed -n 's/^id = "\(.*\)"/\1/p' "$source/exercises/course.toml")
for id in $ids; do
  files=("solution:$source/solutions/$id/kernel.cu" "stub:$source/exercises/$id/kernel.cu")
  for wrong in "$source/tests/data/wrong/$id"/*.cu; do [ -e "$wrong" ] && files+=("wrong:$wrong"); done
  for entry in "${files[@]}"; do
    role=${entry%%:*} file=${entry#*:}
    [ -n "$only" ] && ! grep -qxF "${file#"$source"/}" "$only" && continue
    json=$("$tilecamp" check "$id" --file "$file" --backend "$backend" --seed 1 --json --time-limit 300 2>/dev/null)
    REPORT="$json" python3 - "$id" "$role" "${file#"$source"/}" "$out" <<'PY'
import json, os, sys
exercise, role, path, out = sys.argv[1:5]
try:
    verdict = json.loads(os.environ["REPORT"])
except ValueError:
    verdict = {"status": "error", "checks": [], "error": "no JSON"}
verdict.update({"role": role, "path": path})
with open(out, "a") as handle:
    handle.write(json.dumps(verdict) + "\n")
print(f"{exercise:<28} {role:<9} {verdict['status']:<6} {path}")
PY
  done
done
