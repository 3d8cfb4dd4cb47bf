#!/usr/bin/env bash
# `tilecamp autograder` and its run_autograder, run as Gradescope runs it but in a simulated
# /autograder under a temporary root (TILECAMP_AUTOGRADER_ROOT): a passing, a failing, a missing and
# hostile submissions (a kernel that includes the hidden tests, a kernel.cu that is a symbolic link
# to them, an exercises folder linked out of the submission). results.json must score each as
# expected and never carry the hidden tests, the seed or the instructor's paths; nothing may be
# written outside the root (HOME and TMPDIR stay empty).
#   gradescope_autograder.sh TILECAMP SOURCE_DIR WORK
set -euo pipefail
tilecamp=$1 source_dir=$2 work=$3
rm -rf "$work"
mkdir -p "$work/home" "$work/tmp"
export TILECAMP_ROOT=$source_dir NO_COLOR=1
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

secret="hidden-secret-5150"
printf '# %s\n[exercise.01-vector-add]\ncases = [[77777]]\n' "$secret" >"$work/hidden.toml"
seed=918273645546372
out=$("$tilecamp" autograder --out "$work/autograder" --exercises 01-vector-add --hidden "$work/hidden.toml" --seed "$seed")
echo "$out"
for file in setup.sh run_autograder autograder.conf hidden.toml bin/tilecamp course/exercises/course.toml \
  course/exercises/01-vector-add/exercise.toml; do
  [ -f "$work/autograder/$file" ] || fail "the autograder has no $file"
done
[ -x "$work/autograder/run_autograder" ] && [ -x "$work/autograder/setup.sh" ] || fail "the scripts are not executable"
[ ! -e "$work/autograder/course/solutions" ] && [ ! -e "$work/autograder/solutions" ] || fail "the solutions were bundled"
bash -n "$work/autograder/setup.sh" || fail "setup.sh is not valid bash"
if command -v zip >/dev/null; then
  [ -f "$work/autograder.zip" ] || fail "zip is installed but no autograder.zip was made"
  python3 - "$work/autograder.zip" <<'PY' || fail "the zip does not hold setup.sh and run_autograder at its root"
import sys, zipfile
names = set(zipfile.ZipFile(sys.argv[1]).namelist())
sys.exit(0 if {"setup.sh", "run_autograder", "bin/tilecamp", "hidden.toml"} <= names else 1)
PY
else
  grep -q "zip -r ../autograder.zip ." <<<"$out" || fail "without zip, the command to make the zip is not printed"
fi
"$tilecamp" autograder --out "$work/autograder" >/dev/null 2>&1 && fail "a second autograder into a full folder was not refused"

# One submission: a fresh /autograder (source from the zip's folder, run_autograder copied to the
# root as Gradescope does), the submission laid out by `lay_out ROOT/submission`.
grade_submission() {
  local name=$1 lay_out=$2
  local root=$work/roots/$name
  mkdir -p "$root/submission" "$root/results"
  cp -a "$work/autograder" "$root/source"
  cp "$root/source/run_autograder" "$root/run_autograder"
  "$lay_out" "$root/submission" "$root"
  env -i PATH="$PATH" HOME="$work/home" TMPDIR="$work/tmp" TILECAMP_AUTOGRADER_ROOT="$root" \
    ${TILECAMP_CUDA_INCLUDE:+TILECAMP_CUDA_INCLUDE="$TILECAMP_CUDA_INCLUDE"} \
    ${LD_LIBRARY_PATH:+LD_LIBRARY_PATH="$LD_LIBRARY_PATH"} "$root/run_autograder" >"$root/stdout" 2>"$root/stderr" ||
    fail "$name: run_autograder exited $?"
  [ -f "$root/results/results.json" ] || { fail "$name: no results.json"; cat "$root/stderr" >&2; return; }
  local results
  results=$(cat "$root/results/results.json")
  # (A path the student wrote in their own kernel is quoted back to them; the grader's are not.)
  for leak in "$secret" 77777 "$seed" "$root/work" "$work/hidden.toml" "$work/autograder"; do
    grep -qF -- "$leak" <<<"$results" && fail "$name: results.json shows '$leak'"
  done
  true
}

# expect NAME PYTHON-CONDITION (on `r`, the parsed results.json)
expect() {
  python3 - "$work/roots/$1/results/results.json" "$2" <<'PY' || { fail "$1: results.json fails: $2"; cat "$work/roots/$1/results/results.json" >&2; }
import json, sys
r = json.load(open(sys.argv[1]))
sys.exit(0 if eval(sys.argv[2]) else 1)
PY
}

solution=$source_dir/solutions/01-vector-add/kernel.cu
passing() { mkdir -p "$1/exercises/01-vector-add"; cp "$solution" "$1/exercises/01-vector-add/kernel.cu"; }
uploaded() { cp "$solution" "$1/01-vector-add.cu"; }
failing() { sed 's/a\[i\] + b\[i\]/a[i] - b[i]/' "$solution" >"$1/kernel.cu"; }
missing() { echo "my notes" >"$1/README.md"; }
includes_hidden() {
  { echo "#include \"$2/source/hidden.toml\""; cat "$solution"; } >"$1/01-vector-add.cu"
}
linked_to_hidden() { mkdir -p "$1/exercises/01-vector-add"; ln -s "$2/source/hidden.toml" "$1/exercises/01-vector-add/kernel.cu"; }
linked_folder() { ln -s "$2/source/course/exercises" "$1/exercises"; }

grade_submission passing passing
expect passing 'r["score"] == 2 and r["max_score"] == 2 and r["tests"][0]["status"] == "passed"'
expect passing '"hidden case 1" in r["tests"][0]["output"]'
grade_submission uploaded uploaded
expect uploaded 'r["score"] == 2'
grade_submission failing failing
expect failing 'r["score"] == 0 and r["tests"][0]["status"] == "failed" and "some elements of `c` are wrong" in r["tests"][0]["output"]'
grade_submission missing missing
expect missing 'r["score"] == 0 and r["max_score"] == 2 and "not submitted" in json.dumps(r)'
grade_submission includes_hidden includes_hidden
expect includes_hidden 'r["score"] == 0 and "is refused" in r["tests"][0]["output"]'
grade_submission linked_to_hidden linked_to_hidden
expect linked_to_hidden 'r["score"] == 0 and "a symbolic link; submit the file itself" in r["tests"][0]["output"]'
grade_submission linked_folder linked_folder
expect linked_folder 'r["score"] == 0 and "lies outside your folder" in r["tests"][0]["output"]'

# Nothing outside the roots: HOME and TMPDIR untouched, the bundled course unchanged.
[ -z "$(ls -A "$work/home")" ] || fail "run_autograder wrote into HOME: $(ls -A "$work/home")"
[ -z "$(ls -A "$work/tmp")" ] || fail "run_autograder wrote into TMPDIR: $(ls -A "$work/tmp")"
for root in "$work"/roots/*; do
  diff -r "$work/autograder" "$root/source" >/dev/null || fail "$(basename "$root"): the autograder's source folder was changed"
done
[ "$failures" = 0 ] && echo "autograder: 7 submissions graded as expected, nothing hidden shown, nothing written outside the root"
exit "$((failures > 0))"
