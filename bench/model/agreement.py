#!/usr/bin/env python3
"""Do the emulator and a GPU give the same verdict on every kernel of the corpus?

    bench/model/agreement.py EMULATOR.jsonl GPU.jsonl [--markdown]

Each file is what bench/verdicts.sh wrote on one backend: a `check --json` verdict per line with
the kernel's role (solution, stub, wrong) and path. A kernel agrees when both verdicts have the
same status (pass, fail, error). For the kernels whose exercise has a speed threshold, the table
also shows the modelled speedup beside the measured one, and which checks failed on one backend
only: that is where a disagreement comes from. Exits 1 when some kernel disagrees or is missing
from one file.
"""
import json
import sys


def load(path):
    verdicts = {}
    with open(path) as handle:
        for number, line in enumerate(handle, 1):
            line = line.strip()
            if not line:
                continue
            try:
                verdict = json.loads(line)
            except ValueError as error:
                sys.exit(f"{path}:{number}: not a JSON verdict ({error})")
            if "path" not in verdict or "status" not in verdict:
                sys.exit(f"{path}:{number}: expected a verdict with `path` and `status` (bench/verdicts.sh writes them)")
            verdicts[verdict["path"]] = verdict
    return verdicts


def speedup(verdict, metric):
    for check in verdict.get("checks", []):
        if check.get("metric") == metric and isinstance(check.get("value"), (int, float)):
            return check["value"]
    return None


def failed(verdict):
    return {check.get("metric") or check["name"] for check in verdict.get("checks", []) if check.get("status") in ("fail", "error")}


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    markdown = "--markdown" in sys.argv
    if len(args) != 2:
        sys.exit(__doc__.strip().splitlines()[2].strip())
    emulator, gpu = load(args[0]), load(args[1])
    paths = list(emulator) + [p for p in gpu if p not in emulator]
    rows, agree = [], 0
    for path in paths:
        e, g = emulator.get(path), gpu.get(path)
        if e is None or g is None:
            rows.append((path, "?", e["status"] if e else "missing", g["status"] if g else "missing", None, None, "missing"))
            continue
        same = e["status"] == g["status"]
        agree += same
        only = sorted((failed(e) ^ failed(g)) - {"modelled_speedup", "speedup"})
        if (("modelled_speedup" in failed(e)) != ("speedup" in failed(g))):
            only.append("speed")
        rows.append((path, e.get("role", "?"), e["status"], g["status"], speedup(e, "modelled_speedup"), speedup(g, "speedup"),
                     "" if same else "; ".join(only) or "status"))

    def number(x):
        return "" if x is None else f"{x:.2f}"

    if markdown:
        print("| kernel | role | emulator | GPU | modelled speedup | measured speedup | differs on |")
        print("| --- | --- | --- | --- | ---: | ---: | --- |")
        for path, role, ev, gv, ms, gs, diff in rows:
            print(f"| `{path}` | {role} | {ev} | {gv} | {number(ms)} | {number(gs)} | {diff} |")
    else:
        print(f"{'kernel':<70} {'role':<8} {'emu':<5} {'gpu':<5} {'model':>6} {'H200':>6}  differs on")
        for path, role, ev, gv, ms, gs, diff in rows:
            print(f"{path:<70} {role:<8} {ev:<5} {gv:<5} {number(ms):>6} {number(gs):>6}  {diff}")
    compared = sum(1 for r in rows if r[6] != "missing")
    print(f"\n{agree} of {compared} kernels get the same verdict on both backends ({100.0 * agree / max(compared, 1):.1f}%)"
          + (f"; {len(rows) - compared} missing from one file" if compared < len(rows) else ""))
    return 0 if agree == len(rows) else 1


if __name__ == "__main__":
    sys.exit(main())
