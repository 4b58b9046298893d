#!/usr/bin/env python3
"""Compares two JMH result sets (-rf json) entry by entry: a before/after check of a change.

    python3 bench/compare_runs.py --before A.json [--before A2.json] --after B.json \
        [--before-label old] [--after-label new] [--title "..."] [--out FILE.md]

Entries are matched by benchmark and parameters (a --before or --after given twice reads its
files as one set, later files replacing earlier entries, as bench/jmhfiles.py does; with
--pool-forks the forks of the same entry in several files are pooled instead, for runs split
into rounds that interleave the two sides). For each
match it prints the median of the fork medians with the range over forks on both sides, the
after/before time ratio with its range (from the extreme fork medians), and a verdict: "within
noise" when the two fork ranges overlap, "slower" or "faster" when they do not. Entries present
on one side only are listed below the table. Standard library only.
"""
import argparse
import sys

import jmhfiles
from summarize import fmt, fmt_ratio, ratio, summarise_benchmark


def label(entry):
    params = ", ".join(f"{k}={v}" for k, v in sorted(entry["params"].items()))
    return f"`{entry['name']}`" + (f" ({params})" if params else "")


def verdict(before, after):
    if after["min"] > before["max"]:
        return "slower"
    if after["max"] < before["min"]:
        return "faster"
    return "within noise"


def pooled(paths):
    """Every file's entries, the forks (rawData lists) of the same entry concatenated."""
    merged = {}
    for path in paths:
        for e in jmhfiles.load([path]):
            k = jmhfiles.key(e)
            if k in merged:
                merged[k]["primaryMetric"]["rawData"] = merged[k]["primaryMetric"]["rawData"] + e["primaryMetric"]["rawData"]
            else:
                merged[k] = e
    return list(merged.values())


def compare(before_paths, after_paths, before_label, after_label, title, pool=False):
    load = pooled if pool else jmhfiles.load
    before = {jmhfiles.key(e): summarise_benchmark(e) for e in load(before_paths)}
    after = {jmhfiles.key(e): summarise_benchmark(e) for e in load(after_paths)}
    both = [k for k in after if k in before]
    describe = (lambda ps: "the forks of " + ", ".join(f"`{x}`" for x in ps) + " pooled") if pool else jmhfiles.describe
    lines = [f"## {title}", "",
             f"Before: {describe(before_paths)} ({before_label}). "
             f"After: {describe(after_paths)} ({after_label}). "
             "Median of fork medians, range over forks; the ratio is after time / before time "
             "(above 1: the change costs time), its range from the extreme fork medians.", "",
             f"| Benchmark | {before_label} | range | {after_label} | range | unit | forks | after/before | verdict |",
             "|---|---:|---:|---:|---:|---|---:|---|---|"]
    for k in sorted(both):
        b, a = before[k], after[k]
        lines.append(f"| {label(a)} | {fmt(b['median'], 3)} | {fmt(b['min'], 3)}–{fmt(b['max'], 3)} "
                     f"| {fmt(a['median'], 3)} | {fmt(a['min'], 3)}–{fmt(a['max'], 3)} | {a['unit']} "
                     f"| {b['forks']}/{a['forks']} | {fmt_ratio(ratio(a, b))} | {verdict(b, a)} |")
    if both:
        ratios = sorted(after[k]["median"] / before[k]["median"] for k in both)
        geo = 1.0
        for r in ratios:
            geo *= r
        geo **= 1.0 / len(ratios)
        counts = {v: sum(1 for k in both if verdict(before[k], after[k]) == v) for v in ("within noise", "slower", "faster")}
        lines += ["", f"{len(both)} matched entries: geometric mean of after/before {geo:.3f} "
                      f"(lowest {ratios[0]:.3f}, highest {ratios[-1]:.3f}); "
                      + ", ".join(f"{n} {v}" for v, n in counts.items()) + "."]
    for side, mine, other in (("before", before, after), ("after", after, before)):
        only = [mine[k] for k in sorted(mine) if k not in other]
        if only:
            lines += ["", f"Only in the {side} set: " + "; ".join(label(e) for e in only) + "."]
    return "\n".join(lines) + "\n"


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--before", action="append", required=True)
    p.add_argument("--after", action="append", required=True)
    p.add_argument("--before-label", default="before")
    p.add_argument("--after-label", default="after")
    p.add_argument("--title", default="Before and after")
    p.add_argument("--pool-forks", action="store_true")
    p.add_argument("--out")
    args = p.parse_args(argv)
    text = compare(args.before, args.after, args.before_label, args.after_label, args.title, args.pool_forks)
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            f.write(text)
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main(sys.argv[1:])
