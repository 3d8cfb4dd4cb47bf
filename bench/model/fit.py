#!/usr/bin/env python3
"""Holds the cost model to the H200: modelled speedups against measured ones, per family.

  bench/model_calibration.sh build/runner/tilecamp /tmp/model.jsonl x emulator   # counters, here
  bench/model/fit.py /tmp/model.jsonl bench/model/h200/calibration.jsonl [--markdown]

The first file gives each kernel's counters and modelled time (this build's model), the second
the H200's measured median (a run of bench/model_calibration.sh on the GPU). Every kernel's
speedup is its family baseline's time over its own (the family's first row is the baseline);
prints, for the fit rows and the held-out rows apart, measured and modelled speedups and their
ratio, and whether the ranking within each family agrees.
"""
import json
import sys


def read(path):
    return [json.loads(line) for line in open(path) if line.strip()]


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    modelled = read(sys.argv[1])
    measured = {r["label"]: r["measured"]["median_us"] for r in read(sys.argv[2]) if r.get("measured")}
    markdown = "--markdown" in sys.argv
    rows = []
    baselines = {}
    for r in modelled:
        label, family = r["label"], r["family"]
        model_us = r["totals"]["modelled_time_us"]
        if family not in baselines:
            baselines[family] = (measured.get(label), model_us, label)
        base_measured, base_model, base_label = baselines[family]
        if label not in measured or base_measured is None:
            continue
        rows.append({"label": label, "set": r["set"], "family": family, "baseline": base_label,
                     "measured_us": measured[label], "modelled_us": model_us,
                     "measured_speedup": base_measured / measured[label], "modelled_speedup": base_model / model_us})
    worst = {"fit": 0.0, "held-out": 0.0}
    for kind in ("fit", "held-out"):
        if markdown:
            print(f"\n| {kind} | family | H200 us | modelled us | H200 speedup | modelled speedup | modelled / H200 |")
            print("|---|---|---|---|---|---|---|")
        else:
            print(f"\n{kind}")
        for row in (r for r in rows if r["set"] == kind):
            ratio = row["modelled_speedup"] / row["measured_speedup"]
            if row["label"] != row["baseline"]:
                worst[kind] = max(worst[kind], abs(ratio - 1))
            if markdown:
                print(f"| {row['label']} | {row['family']} | {row['measured_us']:.1f} | {row['modelled_us']:.1f} | "
                      f"{row['measured_speedup']:.2f} | {row['modelled_speedup']:.2f} | {ratio:.2f} |")
            else:
                flag = "" if abs(ratio - 1) <= 0.25 else "  <-- beyond 25%"
                print(f"  {row['label']:<28} {row['family']:<10} {row['measured_us']:9.1f} {row['modelled_us']:9.1f}"
                      f"  speedup {row['measured_speedup']:6.2f} / {row['modelled_speedup']:6.2f}  ratio {ratio:5.2f}{flag}")
    inversions = []
    for family in sorted({r["family"] for r in rows}):
        members = [r for r in rows if r["family"] == family]
        for a in members:
            for b in members:
                if a["measured_us"] < b["measured_us"] * 0.95 and a["modelled_us"] > b["modelled_us"]:
                    inversions.append(f"{a['label']} < {b['label']}")
    print(f"\nlargest difference of a modelled speedup from the measured one: fit {worst['fit']:.0%}, "
          f"held-out {worst['held-out']:.0%}")
    print("ranking: " + ("the same in every family (differences under 5% aside)" if not inversions
                         else "inverted: " + "; ".join(inversions)))


if __name__ == "__main__":
    main()
