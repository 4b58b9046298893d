#!/usr/bin/env python3
"""Tabulates bench/run-merge-vs-cpp.sh: Everett's C++ encoded merger beside ours, ns per key.

CPP.csv is the C++ benchmark's CSV with the round prepended to each line; JAVA.txt holds one
MergeSteps line per run, prefixed by the round and the side ("ours", "before"). Per round, a C++
figure is the median over merges 10 to 59 of one run, and ours is MergeSteps' sum of medians
(start + steps + finish). Each cell is the median over rounds with the range of the rounds; a
ratio is taken between those medians. With --best, cells and ratios take the fastest round
instead: on a guest whose slow spells double single runs (they show as raised start and finish
figures in MergeSteps' lines), the fastest round is the machine's fast state for both sides.

    python3 bench/summarize_merge_vs_cpp.py [--best] CPP.csv JAVA.txt
"""
import collections
import re
import statistics
import sys

POLICIES = {"byte_fixed": "byte-fixed8", "byte_variable": "byte-variable8-24",
            "bit_fixed": "bit-fixed13", "bit_variable": "bit-variable8-24"}
VARIANTS = ["fragments", "tail4096", "prefix0"]  # the script's fixtures first; any others after them
STEPS = re.compile(r"^(\d+) (\w+) (\S+) (\S+), median ns per key: .* sum ([\d.]+)$")


def cpp_rows(path):
    """(policy, variant) -> [per-round median ns per key]."""
    runs = collections.defaultdict(list)
    for line in open(path):
        f = line.strip().split(",")
        if len(f) < 9 or not f[0].isdigit() or f[1] == "profile":
            continue
        rnd, profile, fixture, prefix, tail, merge, record_ns = f[0], f[1], f[2], f[4], f[5], int(f[6]), float(f[8])
        # MergeFixture's variant names: fragments, tail<T> or prefix<P>.
        variant = "fragments" if fixture == "fragments" else (f"tail{tail}" if tail != "0" else f"prefix{prefix}")
        if merge >= 10 and profile in POLICIES:
            runs[(rnd, POLICIES[profile], variant)].append(record_ns)
    out = collections.defaultdict(list)
    for (rnd, policy, variant), xs in runs.items():
        out[(policy, variant)].append(statistics.median(xs))
    return out


def java_rows(path):
    """side -> (policy, variant) -> [per-round sum of medians]."""
    out = collections.defaultdict(lambda: collections.defaultdict(list))
    for line in open(path):
        m = STEPS.match(line.strip())
        if m:
            out[m.group(2)][(m.group(3), m.group(4))].append(float(m.group(5)))
    return out


PICK = statistics.median


def cell(xs):
    if not xs:
        return "–"
    return f"{PICK(xs):,.1f} ({min(xs):,.1f}–{max(xs):,.1f})"


def main():
    global PICK
    args = sys.argv[1:]
    if args and args[0] == "--best":
        PICK = min
        args = args[1:]
    if len(args) != 2:
        sys.exit(__doc__)
    cpp = cpp_rows(args[0])
    java = java_rows(args[1])
    sides = [s for s in ("ours", "before") if s in java]
    columns = ["policy", "variant", "C++"] + sides + [f"C++/{s}" for s in sides]
    if len(sides) == 2:
        columns.append("ours/before")
    print("| " + " | ".join(columns) + " |")
    print("|" + "---|" * len(columns))
    found = {v for _, v in cpp} | {v for s in sides for _, v in java[s]}
    for variant in VARIANTS + sorted(found - set(VARIANTS)):
        for policy in POLICIES.values():
            key = (policy, variant)
            if key not in cpp and all(key not in java[s] for s in sides):
                continue
            c = PICK(cpp[key]) if cpp.get(key) else None
            row = [policy, variant, cell(cpp.get(key, []))] + [cell(java[s].get(key, [])) for s in sides]
            for s in sides:
                xs = java[s].get(key, [])
                row.append(f"{c / PICK(xs):.2f}" if c and xs else "–")
            if len(sides) == 2:
                a, b = java["ours"].get(key, []), java["before"].get(key, [])
                row.append(f"{PICK(a) / PICK(b):.2f}" if a and b else "–")
            print("| " + " | ".join(row) + " |")


if __name__ == "__main__":
    main()
