#!/usr/bin/env python3
"""Summarise the embedded store's db_bench-style runs (bench/run-store.sh) into docs/benchmarks/store.md.

Standard library only. Each run file (--json, repeatable: one per key count) holds the results of
every forked JVM of one run of bench/run-store.sh: one JVM per engine (PARTITIONED, WHOLE_RUN,
ROCKSDB) and repeat, each printed by dev.everett.bench.StoreBench. For every engine and figure the
summary gives the MEDIAN over the repeats with the min-max range. Ratios are Everett / RocksDB
between medians (for ops/s: above 1 = Everett faster; for bytes and write amplification: below 1 =
Everett smaller); their ranges pair the extreme repeats (worst and best pairing). A target is marked
met when the median ratio meets it.

usage: summarize_store.py --merge DIR --into RUN.json [--command CMD] [--log LOG]   # gather a run's forks
       summarize_store.py --json RUN.json [--json RUN10M.json] [--out docs/benchmarks/store.md]
"""

import argparse
import glob
import json
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from summarize import machine_info  # noqa: E402  (shared with the other summaries)

ENGINES = ["PARTITIONED", "WHOLE_RUN", "ROCKSDB"]
EVERETT = ["PARTITIONED", "WHOLE_RUN"]
TITLES = {"PARTITIONED": "Everett partitioned", "WHOLE_RUN": "Everett whole-run", "ROCKSDB": "RocksDB"}
WORKLOADS = [
    ("fillseq", "every key once, ascending, into an empty store"),
    ("fillrandom", "every key once, random order, into an empty store"),
    ("overwrite", "put of a random existing key"),
    ("readrandom", "get of a random existing key"),
    ("seekrandom", "seek to a random key, then 10 `next`"),
    ("readseq", "one step of a forward scan"),
    ("readreverse", "one step of a backward scan"),
    ("deleterandom", "delete of a random key"),
    ("readwhilewriting", "readrandom in one thread while one writer overwrites at a steady rate"),
]
# Issue #15's targets: Everett / RocksDB, medians of the same run.
TARGETS = {"readrandom": 3.0, "seekrandom": 2.0, "readseq": 5.0, "fillrandom": 1.5}
BYTES_TARGET = 0.85
FULL_REPEATS = 3
FULL_KEYS = 1_000_000


def merge(directory, into, command, log):
    runs = []
    for path in sorted(glob.glob(os.path.join(directory, "*.json"))):
        with open(path, encoding="utf-8") as f:
            runs.append(json.load(f))
    if not runs:
        raise SystemExit(f"no fork results in {directory}")
    doc = {"command": command, "log": log, "machine": machine_info(), "runs": runs}
    with open(into, "w", encoding="utf-8") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")


def spread(xs):
    return {"median": statistics.median(xs), "min": min(xs), "max": max(xs), "n": len(xs)}


def fmt_num(x):
    if x >= 1000:
        return f"{x:,.0f}"
    return f"{x:.2f}"


def fmt_spread(s, scale=1.0, unit=""):
    if s is None:
        return "n/a"
    if s["n"] == 1:
        return f"{fmt_num(s['median'] / scale)}{unit}"
    return f"{fmt_num(s['median'] / scale)}{unit} ({fmt_num(s['min'] / scale)}–{fmt_num(s['max'] / scale)})"


def ratio(num, den, lower_is_better=False):
    """num/den between medians; the range pairs the extreme repeats."""
    if num is None or den is None:
        return None
    low, high = num["min"] / den["max"], num["max"] / den["min"]
    return {"median": num["median"] / den["median"], "low": low, "high": high}


def fmt_ratio(r):
    if r is None:
        return "n/a"
    return f"{r['median']:.2f}× ({r['low']:.2f}–{r['high']:.2f})"


def figures(runs):
    """engine -> name -> spread over repeats, for ops/s (ops.<workload>) and the single figures."""
    by_engine = {}
    for r in runs:
        by_engine.setdefault(r["engine"], []).append(r)
    out = {}
    for engine, rs in by_engine.items():
        f = {}
        for w, _ in WORKLOADS:
            xs = [r["ops_per_second"][w] for r in rs if w in r.get("ops_per_second", {})]
            if xs:
                f["ops." + w] = spread(xs)
        for name in ["write_amplification", "data_file_bytes", "directory_bytes", "full_compaction_seconds",
                     "heap_used_after_gc_after_reads", "rss_after_reads", "heap_used_after_gc_at_end", "rss_at_end",
                     "readwhilewriting_writes_per_second"]:
            xs = [r[name] for r in rs if name in r]
            if xs:
                f[name] = spread(xs)
        out[engine] = f
    return out


def section(doc):
    runs = doc["runs"]
    keys = runs[0]["keys"]
    repeats = min(sum(1 for r in runs if r["engine"] == e) for e in ENGINES if any(r["engine"] == e for r in runs))
    first = runs[0]
    f = figures(runs)
    rocks = f.get("ROCKSDB", {})
    lines = []
    smoke = keys < FULL_KEYS or repeats < 2
    lines.append(f"## {keys:,} keys")
    lines.append("")
    if smoke:
        lines.append(f"**SMOKE RUN** ({repeats} repeat(s) of {keys:,} keys): it checks the script, not the store's speed.")
        lines.append("")
    elif repeats < FULL_REPEATS:
        lines.append(f"**Reduced run**: {repeats} repeats per engine where a full run takes {FULL_REPEATS}; "
                     "the ranges are those of fewer samples.")
        lines.append("")
    lines.append(f"Run: `{doc.get('command', '')}`; {repeats} repeat(s) per engine, each engine in its own JVM; "
                 f"{first['seconds']:g} s measured after {first['warmup']:g} s warm-up per timed workload; "
                 f"readwhilewriting writer at {first['write_rate']:,} puts/s with {first['readers']} reader(s). "
                 f"Raw results: `{doc.get('file', '')}`" + (f", console log `{doc['log']}`." if doc.get("log") else "."))
    lines.append("")
    lines.append("| Workload (ops/s) | " + " | ".join(TITLES[e] for e in ENGINES) + " | partitioned / RocksDB | whole-run / RocksDB | target |")
    lines.append("|---|" + "---:|" * (len(ENGINES) + 3))
    for w, what in WORKLOADS:
        cells = [fmt_spread(f.get(e, {}).get("ops." + w)) for e in ENGINES]
        ratios = [fmt_ratio(ratio(f.get(e, {}).get("ops." + w), rocks.get("ops." + w))) for e in EVERETT]
        target = ""
        if w in TARGETS:
            met = [ratio(f.get(e, {}).get("ops." + w), rocks.get("ops." + w)) for e in EVERETT]
            marks = ["met" if m and m["median"] >= TARGETS[w] else "not met" for m in met]
            target = f"≥ {TARGETS[w]:g}×: {marks[0]} / {marks[1]}"
        lines.append(f"| `{w}` ({what}) | " + " | ".join(cells) + " | " + " | ".join(ratios) + f" | {target} |")
    lines.append("")
    lines.append("| After fillrandom and a full compaction | " + " | ".join(TITLES[e] for e in ENGINES)
                 + " | partitioned / RocksDB | whole-run / RocksDB | target |")
    lines.append("|---|" + "---:|" * (len(ENGINES) + 3))

    def row(name, label, scale=1.0, unit="", target=None, compare=True):
        cells = [fmt_spread(f.get(e, {}).get(name), scale, unit) for e in ENGINES]
        rs = [ratio(f.get(e, {}).get(name), rocks.get(name)) for e in EVERETT] if compare else [None, None]
        t = ""
        if target is not None:
            marks = ["met" if r and r["median"] <= target else "not met" for r in rs]
            t = f"≤ {target:g}×: {marks[0]} / {marks[1]}"
        lines.append(f"| {label} | " + " | ".join(cells) + " | " + " | ".join(fmt_ratio(r) if compare else "" for r in rs) + f" | {t} |")

    row("write_amplification", "write amplification (bytes flushed and compacted / bytes flushed)", target=1.0)
    row("data_file_bytes", "data files (segments / SSTs), MB", 1e6, target=BYTES_TARGET)
    row("directory_bytes", "every file in the store's directory, MB", 1e6)
    row("full_compaction_seconds", "full compaction (`compactRange`), s")
    row("heap_used_after_gc_after_reads", "JVM heap used after GC, after the reads, MB", 1e6)
    row("rss_after_reads", "process RSS after the reads, MB", 1e6)
    row("rss_at_end", "process RSS at the end, MB", 1e6)
    row("readwhilewriting_writes_per_second", "readwhilewriting: writer's puts/s", compare=False)
    lines.append("")
    lines.append(f"Raw key and value bytes: {keys * (first['key_bytes'] + first['value_bytes']) / 1e6:,.1f} MB.")
    rocks_bytes = rocks.get("data_file_bytes")
    if rocks_bytes:
        # Neither format compresses values here, so the values alone bound the data files from below.
        values = keys * first["value_bytes"]
        floor = values / rocks_bytes["median"]
        lines.append("")
        lines.append(f"Bytes-on-disk floor: the values alone are {values / 1e6:,.1f} MB, stored uncompressed "
                     f"(the Everett formats do not compress values; RocksDB runs with compression off), "
                     f"{floor:.3f}× RocksDB's data files; the ≤ {BYTES_TARGET:g}× target "
                     + ("is below that floor, out of reach whatever keys, indexes and filters cost."
                        if floor > BYTES_TARGET else "lies above it."))
    lines.append("")
    return lines


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--merge", help="directory of one run's fork results to gather")
    ap.add_argument("--into", help="the run file --merge writes")
    ap.add_argument("--command", default="", help="how the run was started, for the record")
    ap.add_argument("--log", default="", help="the run's console log, for the record")
    ap.add_argument("--json", action="append", default=[], help="run file(s) to summarise (one per key count)")
    ap.add_argument("--out", default="docs/benchmarks/store.md")
    a = ap.parse_args(argv)
    if a.merge:
        merge(a.merge, a.into, a.command, a.log)
        if not a.json:
            return 0
    docs = []
    for path in a.json:
        with open(path, encoding="utf-8") as fh:
            d = json.load(fh)
        d["file"] = path
        docs.append(d)
    docs.sort(key=lambda d: d["runs"][0]["keys"])
    m = docs[0].get("machine", {}) if docs else {}
    out = ["# Embedded store: db_bench-style workloads against RocksDB", "",
           "Generated by `bench/summarize_store.py` from the raw files named below; how to run and what each "
           "figure means: [`../store.md`](../store.md#measurements) and `bench/run-store.sh`.", "",
           f"Machine: {m.get('cores', '?')} cores, {m.get('cpu', m.get('model', '?'))}. Figures are the median over "
           "repeats (one JVM per engine and repeat) with the min–max range; a ratio is Everett / RocksDB between "
           "medians, its range pairing the extreme repeats.", ""]
    for d in docs:
        out.extend(section(d))
    with open(a.out, "w", encoding="utf-8") as fh:
        fh.write("\n".join(out).rstrip() + "\n")
    print(f"wrote {a.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
