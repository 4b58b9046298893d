#!/usr/bin/env python3
"""Tabulates bench/run-merge-floor.sh: each fixture's whole merge beside its publish floor, ns per key.

A floor line also carries the output's CRC32C and one copy of it (ns per key); these are printed in
a second table when present.

TXT holds one line per run, prefixed by the round and the side: "floor" (PublishFloor: the
merged output's bytes published from memory in 64 KiB writes, no merging), "floorN" (the same in
N-byte writes), "ours" and "before" (MergeSteps' sum of medians, start + steps + finish). Each cell is the median over rounds with the range of the
rounds; with --best, the fastest round (this guest's slow spells double single runs). The last
columns set the floor against half of the before side's time, which is issue #14's target: where
floor / before is above 0.5, no merge that publishes its output as a file reaches the target on
this machine, however little its own code costs.

    python3 bench/summarize_merge_floor.py [--best] TXT
"""
import collections
import re
import statistics
import sys

LINE = re.compile(r"^(\d+) (\w+) (\S+) (\S+), (?:median ns per key: .* sum ([\d.]+)|publish floor(?: in [\d,]+-byte writes)?: median ns per key ([\d.]+) "
                  r"\(output [\d,]+ bytes(?:; its CRC32C ([\d.]+), one copy ([\d.]+) ns per key)?\))$")


def rows(path):
    """side -> (policy, variant) -> [per-round ns per key]; a floor side's passes as sides "crc SIDE" and "copy SIDE"."""
    out = collections.defaultdict(lambda: collections.defaultdict(list))
    for line in open(path):
        m = LINE.match(line.strip())
        if m:
            key = (m.group(3), m.group(4))
            out[m.group(2)][key].append(float(m.group(5) or m.group(6)))
            if m.group(7):
                out["crc " + m.group(2)][key].append(float(m.group(7)))
                out["copy " + m.group(2)][key].append(float(m.group(8)))
    return out


def main(argv):
    best = "--best" in argv
    args = [a for a in argv if a != "--best"]
    if len(args) != 1:
        sys.exit(__doc__)
    pick = min if best else statistics.median
    data = rows(args[0])
    floors = sorted((s for s in data if re.fullmatch(r"floor\d*", s)), key=lambda s: (s != "floor", len(s), s))
    sides = floors + [s for s in ("ours", "before") if s in data]
    keys = sorted({k for s in sides for k in data[s]}, key=lambda k: (k[1] != "tail4096", k))

    def cell(xs):
        return f"{pick(xs):,.1f} ({min(xs):,.1f}–{max(xs):,.1f})" if xs else "–"

    def ratio(a, b):
        return f"{pick(a) / pick(b):.2f}" if a and b else "–"

    head = ["policy", "variant"] + sides + ([f"{floors[0]}/ours"] if floors else [])
    if "before" in sides:
        head += ["ours/before"] + [f"{f}/before" for f in floors]
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * 2 + "---:|" * (len(head) - 2))
    for k in keys:
        got = {s: data[s].get(k, []) for s in sides}
        line = [k[0], k[1]] + [cell(got[s]) for s in sides] + ([ratio(got[floors[0]], got.get("ours"))] if floors else [])
        if "before" in sides:
            line += [ratio(got.get("ours"), got["before"])] + [ratio(got[f], got["before"]) for f in floors]
        print("| " + " | ".join(line) + " |")
    # The passes do not depend on the call size: one floor side's (each floor run makes them).
    crc, copy = (data.get("crc " + floors[0]), data.get("copy " + floors[0])) if floors else (None, None)
    passes = sorted(crc, key=lambda k: (k[1] != "tail4096", k)) if crc else []
    if passes:
        print()
        print("| policy | variant | CRC32C of the output | one copy of the output |")
        print("|---|---|---:|---:|")
        for k in passes:
            print(f"| {k[0]} | {k[1]} | {cell(crc[k])} | {cell(copy[k])} |")


if __name__ == "__main__":
    main(sys.argv[1:])
