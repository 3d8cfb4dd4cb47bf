#!/usr/bin/env python3
"""Runs one kernel of tests/data/public as its header says and checks it, for ctest:
  public_kernels.py TILECAMP NAME
The file's `// run:` line is the command (tilecamp profile ..., run from the repository's root),
its `// diagnostics:` line what the emulator must report: `none`, or `;`-separated
`SEVERITY KIND at line N` (exactly those, nothing else). The outputs are checked against the CPU
references of check_outputs.py. Exit 0 when all holds; otherwise it says what did not."""
import json, os, shlex, subprocess, sys, tempfile

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "data", "public"))
import check_outputs  # noqa: E402


def header(path, key):
    for line in open(path):
        if line.startswith(f"// {key}:"):
            return line.split(":", 1)[1].strip()
    sys.exit(f"{path}: no `// {key}:` line")


def main():
    tilecamp, name = sys.argv[1], sys.argv[2]
    path = os.path.join(here, "data", "public", name + ".cu")
    words = shlex.split(header(path, "run"))
    if words[:2] != ["tilecamp", "profile"]:
        sys.exit(f"{path}: the run line must start with `tilecamp profile`")
    wanted = header(path, "diagnostics")
    wanted = [] if wanted == "none" else sorted(w.strip() for w in wanted.split(";"))
    with tempfile.TemporaryDirectory() as dump:
        run = subprocess.run([tilecamp] + words[1:] + ["--json", "--dump", dump], capture_output=True, text=True,
                             cwd=os.path.dirname(here), timeout=600)
        try:
            report = json.loads(run.stdout)
        except json.JSONDecodeError:
            sys.exit(f"{name}: exit {run.returncode}, no JSON report:\n{run.stdout[-2000:]}{run.stderr[-2000:]}")
        got = sorted(f"{d['severity']} {d['kind']} at line {d['line']}" for d in report["diagnostics"])
        problems = []
        if got != wanted:
            problems.append(f"diagnostics {got}, expected {wanted}:\n" +
                            "\n".join(f"  {d['severity']} {d['kind']} line {d['line']}: {d['message']}"
                                      for d in report["diagnostics"]))
        errors = any(d["severity"] == "error" for d in report["diagnostics"])
        if run.returncode != (1 if errors else 0):
            problems.append(f"exit status {run.returncode}: {run.stderr.strip()[-500:]}")
        if name not in check_outputs.EXPECTED_WRONG:
            arg = check_outputs.REF[name][0]
            out = os.path.join(dump, f"arg{arg}.bin")
            verdict = check_outputs.verdict(name, open(out, "rb").read() if os.path.exists(out) else None)
            if verdict != "OK":
                problems.append(f"output: {verdict}")
    if problems:
        sys.exit(f"{name}:\n" + "\n".join(problems))
    print(f"{name}: runs as written, {len(got)} diagnostic(s) as expected, output agrees with the CPU reference")


if __name__ == "__main__":
    main()
