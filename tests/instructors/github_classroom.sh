#!/usr/bin/env bash
# `tilecamp classroom`: the workflow it writes parses as YAML and follows GitHub Classroom's
# command-grader conventions (one classroom-resources/autograding-command-grader step per exercise
# with its test-name, command, timeout and max-score; the grading reporter reading each step's
# result from STEPID_RESULTS, runners listing the steps; the tilecamp build cached by commit).
# Then its grading commands run here as the command grader runs them (/bin/sh in the assignment's
# root, only PATH and HOME in the environment) on a learner's folder: a solved exercise passes, a
# stub fails.
#   github_classroom.sh TILECAMP SOURCE_DIR WORK
# Exits 77 (skipped) where python3 has no YAML parser (apt-get install python3-yaml).
set -euo pipefail
tilecamp=$1 source_dir=$2 work=$3
python3 -c 'import yaml' 2>/dev/null || { echo "SKIPPED: python3 cannot import yaml: apt-get install -y python3-yaml" >&2; exit 77; }
rm -rf "$work"
mkdir -p "$work/home"
export NO_COLOR=1 TILECAMP_ROOT=$source_dir
"$tilecamp" init "$work/assignment" >/dev/null
"$tilecamp" classroom --out "$work/assignment" --exercises 01-vector-add,02-transpose-tiled --seed 4711 \
  --repository my-dept/tilecamp --ref v1.2
workflow=$work/assignment/.github/workflows/classroom.yml
if "$tilecamp" classroom --out "$work/assignment" --repository my-dept/tilecamp 2>"$work/again.err"; then
  echo "FAIL: a second workflow over the first was not refused" >&2; exit 1
fi
grep -q "classroom.yml exists: remove it first" "$work/again.err"

python3 - "$workflow" >"$work/commands" <<'PY'
import sys, yaml
w = yaml.safe_load(open(sys.argv[1]))
def check(condition, what):
    if not condition:
        sys.exit("the workflow: " + what)
check(w["on"] == ["push", "repository_dispatch"], "runs on push")
check(w["permissions"] == {"checks": "write", "actions": "read", "contents": "read"}, "the permissions the reporter needs")
job = w["jobs"]["run-autograding-tests"]
check(job["if"] == "github.actor != 'github-classroom[bot]'", "skips GitHub Classroom's own commits")
steps = job["steps"]
checkout = [s for s in steps if s.get("uses") == "actions/checkout@v4" and s.get("with", {}).get("repository")]
check(checkout and checkout[0]["with"] == {"repository": "my-dept/tilecamp", "ref": "v1.2", "path": ".tilecamp/src"}, "checks out tilecamp")
cache = [s for s in steps if s.get("uses") == "actions/cache@v4"]
check(cache and cache[0]["with"]["path"] == ".tilecamp/build" and "steps.tilecamp.outputs.commit" in cache[0]["with"]["key"], "caches the build by commit")
build = [s for s in steps if s.get("name") == "Build tilecamp"]
check(build and build[0]["if"] == "steps.cache.outputs.cache-hit != 'true'" and "--target tilecamp" in build[0]["run"], "builds on a cache miss")
tests = [s for s in steps if s.get("uses") == "classroom-resources/autograding-command-grader@v1"]
check([s["id"] for s in tests] == ["exercise-01-vector-add", "exercise-02-transpose-tiled"], "one test per exercise")
for s in tests:
    inputs = s["with"]
    check(set(inputs) == {"test-name", "command", "timeout", "max-score"}, "the command grader's inputs")
    check(inputs["max-score"] == 2 and inputs["timeout"] == 10, "2 points, 10 minutes")
    check(inputs["test-name"].startswith(s["id"][len("exercise-"):] + ": "), "the test named by its exercise")
reporter = steps[-1]
check(reporter["uses"] == "classroom-resources/autograding-grading-reporter@v1", "the reporter last")
check(reporter["with"]["runners"] == ",".join(s["id"] for s in tests), "the reporter's runners")
check(reporter["env"] == {s["id"].upper() + "_RESULTS": "${{ steps.%s.outputs.result }}" % s["id"] for s in tests}, "the reporter's results")
for s in tests:
    print(s["id"] + "\t" + s["with"]["command"])
PY

# The grading commands, on the learner's folder with 01-vector-add solved and the built tilecamp
# where the workflow builds it.
cp "$source_dir/solutions/01-vector-add/kernel.cu" "$work/assignment/exercises/01-vector-add/kernel.cu"
mkdir -p "$work/assignment/.tilecamp/build/runner"
ln -s "$tilecamp" "$work/assignment/.tilecamp/build/runner/tilecamp"
failures=0
while IFS=$'\t' read -r id command; do
  status=0
  (cd "$work/assignment" && env -i PATH="$PATH" HOME="$work/home" ${LD_LIBRARY_PATH:+LD_LIBRARY_PATH="$LD_LIBRARY_PATH"} \
    /bin/sh -c "$command") >"$work/$id.log" 2>&1 || status=$?
  case "$id:$status" in
    exercise-01-vector-add:0) echo "$id: passes, as solved";;
    exercise-02-transpose-tiled:1) echo "$id: fails, as the stub";;
    *) echo "FAIL: $id: \`$command\` exited $status"; cat "$work/$id.log"; failures=$((failures + 1));;
  esac
done <"$work/commands"
[ "$(wc -l <"$work/commands")" = 2 ] || { echo "FAIL: expected 2 commands" >&2; failures=$((failures + 1)); }
exit "$((failures > 0))"
