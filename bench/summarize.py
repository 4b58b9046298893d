#!/usr/bin/env python3
"""Summarise a JMH JSON result of the KV02 foundation benchmarks into docs/benchmarks/kv02.md.

Also the bit profiles beside KV02 (issue #4): Kv02ReadBench.bitWalk and Kv02WriteBench.bitWrite
under profile = kv03 (Policy.stringPolicy()) and kv02bit (the same policy writing KV02) are named
bitWalk[kv03] etc., and the section "KV03 beside KV02" divides the KV02 medians by theirs.

Standard library only. For every benchmark it takes each fork's measurement iterations
(primaryMetric.rawData is one list per fork), computes the median per fork, and reports the
MEDIAN OF THE FORK MEDIANS together with the min-max range of the fork medians. Ratios between
Everett and RocksDB are computed from those medians; their ranges pair the extreme fork medians
(the most pessimistic and most optimistic pairing), so a range that stays above a target holds
for every fork.

usage: summarize.py --jmh RESULT.json [--sizes SIZES.json] [--out kv02.md]
                    [--command "how the run was started"] [--log run.log]
"""

import os
import platform
import statistics
import sys
from datetime import datetime, timezone
import jmhfiles  # noqa: E402

RECORDS = 1_000_000
INPUT_BYTES_PER_RECORD = 48  # 16-byte key + 32-byte value

# Short name -> (group, description). Unknown benchmarks are still listed, under "other".
KNOWN = {
    "everettWrite": ("write", "Everett KV02 writer, put(byte[], byte[]) + finish()"),
    "rocksWriteBytes": ("write", "RocksDB SstFileWriter, put(byte[], byte[]) + finish()"),
    "rocksWriteDirect": ("write", "RocksDB SstFileWriter, put(direct ByteBuffer, direct ByteBuffer) + finish()"),
    "everettWalk": ("walk", "Everett cursor walk (key buffer + value in place)"),
    "rocksWalkBytes": ("walk", "RocksDB SstFileReader iterator, key()/value() byte[]"),
    "rocksWalkDirect": ("walk", "RocksDB SstFileReader iterator, key(ByteBuffer)/value(ByteBuffer), direct"),
    "everettRecordAtRandom": ("point", "Everett recordAt(random ordinal)"),
    "everettRecordAtBlockStart": ("point", "Everett recordAt(random multiple of W): select-dominated"),
    "rocksSeekRandom": ("point", "RocksDB iterator seek(random key) + key/value (context only)"),
    "bitWrite[kv03]": ("write", "Everett KV03 writer (stringPolicy(), RAW), as everettWrite"),
    "bitWrite[kv02bit]": ("write", "Everett KV02 bit-unit writer (stringPolicy() as KV02, RAW), as everettWrite"),
    "bitWalk[kv03]": ("walk", "Everett cursor walk over the KV03 file, as everettWalk"),
    "bitWalk[kv02bit]": ("walk", "Everett cursor walk over the KV02 bit-unit file, as everettWalk"),
}
# The bit profiles beside KV02 (issue #4): label, walk and write benchmark, SizeReport variant format/unit.
PROFILES = [
    ("KV02, byte unit (`defaultBytes()`, RAW; the benchmarks above)", "everettWalk", "everettWrite", ("KV02", "BYTE")),
    ("KV03 (`stringPolicy()`, RAW)", "bitWalk[kv03]", "bitWrite[kv03]", ("KV03", "BIT")),
    ("KV02, bit unit (`stringPolicy()` as KV02, RAW)", "bitWalk[kv02bit]", "bitWrite[kv02bit]", ("KV02", "BIT")),
]
ORDER = list(KNOWN)

# Full-run settings in the benchmark classes; anything lighter is flagged as a smoke run.
FULL_FORKS = 3
FULL_MEASUREMENTS = 3


def median(xs):
    return statistics.median(xs)


def fmt(x, digits=1):
    if x is None:
        return "n/a"
    if abs(x) >= 1000:
        return f"{x:,.0f}"
    return f"{x:.{digits}f}"


def short_name(full):
    return full.rsplit(".", 1)[-1]


def summarise_benchmark(entry):
    pm = entry["primaryMetric"]
    raw = pm.get("rawData") or []
    forks = [f for f in raw if f]
    if not forks:
        raise ValueError(f"{entry['benchmark']}: no rawData")
    fork_medians = [median(f) for f in forks]
    result = {
        "name": short_name(entry["benchmark"]),
        "full": entry["benchmark"],
        "unit": pm["scoreUnit"],
        "forks": len(forks),
        "iterations": [len(f) for f in forks],
        "fork_medians": fork_medians,
        "median": median(fork_medians),
        "min": min(fork_medians),
        "max": max(fork_medians),
        "jmh_score": pm.get("score"),
        "params": entry.get("params") or {},
    }
    sec = entry.get("secondaryMetrics") or {}
    alloc = sec.get("gc.alloc.rate.norm")
    if alloc and alloc.get("rawData"):
        result["alloc_norm"] = median([median(f) for f in alloc["rawData"] if f])
        result["alloc_unit"] = alloc.get("scoreUnit", "B/op")
    return result


def ratio(num, den):
    """num/den from medians, with the range from the extreme fork medians."""
    if num is None or den is None:
        return None
    return {
        "median": num["median"] / den["median"],
        "low": num["min"] / den["max"],
        "high": num["max"] / den["min"],
    }


def fmt_ratio(r, digits=2):
    if r is None:
        return "n/a"
    return f"{r['median']:.{digits}f}× ({r['low']:.{digits}f}–{r['high']:.{digits}f})"


def machine_info():
    info = {}
    info["cores"] = os.cpu_count()
    model = None
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    info["cpu"] = model or platform.processor() or "unknown"
    try:
        with open("/proc/meminfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("MemTotal"):
                    kb = int(line.split()[1])
                    info["memory"] = f"{kb / 1024 / 1024:.1f} GiB"
                    break
    except OSError:
        pass
    info["os"] = f"{platform.system()} {platform.release()}"
    return info


def status(ok):
    if ok is None:
        return "n/a"
    return "**met**" if ok else "**not met**"

def machine_lines(out, first):
    """The machine, the JVM and the forks' flags, from the first JMH entry: every page's record."""
    mi = machine_info()
    out(f"- Machine: {mi['cores']} cores ({mi['cpu']}), {mi.get('memory', 'unknown memory')}, {mi['os']}.")
    out(f"- JVM: {first.get('vmName', '?')} {first.get('vmVersion', '?')} (JDK {first.get('jdkVersion', '?')}), "
        f"JMH {first.get('jmhVersion', '?')}.")
    out(f"- JVM flags of the forks: `{' '.join(first.get('jvmArgs', []))}`.")


def source_lines(out, args):
    """The commands of the run and its raw files (JMH JSON, sizes when the page has them, console log)."""
    for c in args.command:
        out(f"- Command: `{c}`")
    sizes = getattr(args, "sizes", None)
    out("- Raw JMH JSON: " + jmhfiles.describe(args.jmh) + (f"; sizes: `{sizes}`" if sizes else "")
        + (f"; console log: `{args.log}`" if args.log else "") + ".")



def main(argv):
    args = jmhfiles.arguments(__doc__, "docs/benchmarks/kv02.md", sizes_help="SizeReport --json output").parse_args(argv)

    entries = jmhfiles.load(args.jmh)
    sizes = jmhfiles.load_json(args.sizes)

    results = {}
    for e in entries:
        r = summarise_benchmark(e)
        if "profile" in r["params"]:
            r["name"] = f"{r['name']}[{r['params']['profile']}]"
        if r["name"] in results:
            # Same method under several parameter values: keep them apart.
            r["name"] = r["name"] + "[" + ",".join(f"{k}={v}" for k, v in sorted(r["params"].items())) + "]"
        results[r["name"]] = r

    for r in results.values():
        if r["unit"] != "ns/op":
            sys.exit(f"{r['full']}: expected ns/op scores, got {r['unit']}")

    first = entries[0]
    forks_min = min(r["forks"] for r in results.values())
    iters_min = min(min(r["iterations"]) for r in results.values())
    smoke = forks_min < FULL_FORKS or iters_min < FULL_MEASUREMENTS

    g = results.get
    ev_write, rk_write_b, rk_write_d = g("everettWrite"), g("rocksWriteBytes"), g("rocksWriteDirect")
    ev_walk, rk_walk_b, rk_walk_d = g("everettWalk"), g("rocksWalkBytes"), g("rocksWalkDirect")

    # RocksDB's better write variant is the baseline for the write target.
    rk_write_best = None
    for cand in (rk_write_b, rk_write_d):
        if cand and (rk_write_best is None or cand["median"] < rk_write_best["median"]):
            rk_write_best = cand

    # Throughput ratio Everett/RocksDB = RocksDB time / Everett time.
    walk_vs_direct = ratio(rk_walk_d, ev_walk)
    walk_vs_bytes = ratio(rk_walk_b, ev_walk)
    write_vs_bytes = ratio(rk_write_b, ev_write)
    write_vs_direct = ratio(rk_write_d, ev_write)
    write_vs_best = ratio(rk_write_best, ev_write)
    size_ratio = None
    if sizes:
        size_ratio = sizes["kv02Bytes"] / sizes["sstBytes"]

    lines = []
    out = lines.append
    out("# KV02 foundation benchmarks")
    out("")
    if smoke:
        out(f"> **SMOKE RUN — NOT A RESULT.** Only {forks_min} fork(s) and {iters_min} measurement iteration(s) per "
            "benchmark (the full run uses the settings in the benchmark classes). Use these figures only to check "
            "that the harness works.")
        out("")
    out(f"Generated {datetime.now(timezone.utc).strftime('%Y-%m-%d %H:%M UTC')} by `bench/summarize.py` from "
        + jmhfiles.describe(args.jmh) + (f" and `{args.sizes}`" if args.sizes else "") + ".")
    out("")
    out("Data set: 1,000,000 records, 16-byte keys (`8 × 'p'` + big-endian 8-byte ordinal), 32-byte deterministic "
        "values; 48 bytes of input per record, 48,000,000 bytes per file. Everett policy: `Policy.defaultBytes()` "
        "with `ValueGrammar.RAW`, `CommonWidthRule.policy()`. RocksDB: `CompressionType.NO_COMPRESSION`, "
        "default table, env and read options.")
    out("")
    out("Every figure is the **median of the fork medians** (each fork's median over its measurement iterations); "
        "the bracket is the **min–max of the fork medians**. Ratios are taken between medians; their brackets pair "
        "the extreme fork medians (worst and best case).")
    out("")

    out("## Results")
    out("")
    has_alloc = any("alloc_norm" in r for r in results.values())
    header = "| Benchmark | What | ns/record (or ns/lookup) | range over forks | throughput | forks × iterations |"
    sep = "|---|---|---:|---:|---:|---:|"
    if has_alloc:
        header = header[:-1] + " alloc B/op |"
        sep += "---:|"
    out(header)
    out(sep)
    names = [n for n in ORDER if n in results] + sorted(n for n in results if n not in KNOWN)
    for n in names:
        r = results[n]
        group, what = KNOWN.get(n, ("other", r["full"]))
        rate = 1e9 / r["median"]
        if group == "write":
            thr = f"{rate / 1e6:.2f} M rec/s, {rate * INPUT_BYTES_PER_RECORD / 1e6:,.0f} MB/s"
        elif group == "walk":
            thr = f"{rate / 1e6:.2f} M rec/s"
        else:
            thr = f"{rate / 1e6:.2f} M lookups/s"
        iters = r["iterations"]
        it_text = f"{r['forks']} × {iters[0]}" if len(set(iters)) == 1 else f"{r['forks']} × {iters}"
        row = f"| `{n}` | {what} | {fmt(r['median'])} | {fmt(r['min'])}–{fmt(r['max'])} | {thr} | {it_text} |"
        if has_alloc:
            a = r.get("alloc_norm")
            if a is not None and group in ("write", "walk"):
                row += f" {a:.3f} per record |"
            elif a is not None:
                row += f" {a:.1f} |"
            else:
                row += " |"
        out(row)
    out("")
    out("Write and walk scores are per record (`@OperationsPerInvocation(1_000_000)`: one operation = one record of a "
        "whole-file pass). MB/s counts input bytes (10^6 bytes), 48 per record.")
    out("")

    out("## File sizes")
    out("")
    if sizes:
        out("| File | Bytes | Bytes/record | vs SST |")
        out("|---|---:|---:|---:|")
        sst = sizes["sstBytes"]
        for v in sizes.get("kv02Variants", []):
            tag = " (measured)" if v.get("headline") else ""
            name = v["name"].replace(" (measured)", "")
            if (v.get("format", "KV02"), v.get("unit", "BYTE")) == ("KV02", "BYTE"):
                name = "KV02 — " + name
            out(f"| {name}{tag} | {v['bytes']:,} | {v['bytes'] / RECORDS:.3f} | {v['bytes'] / sst:.4f} |")
        out(f"| SST — NO_COMPRESSION, default BlockBasedTableConfig | {sst:,} | {sst / RECORDS:.3f} | 1.0000 |")
        out("")
        props = sizes.get("sstProperties")
        if props:
            out("SST table properties: " + ", ".join(f"{k} = {v}" for k, v in props.items()) + ".")
            out("")
    else:
        out("No size report given (`--sizes`).")
        out("")

    out("## Everett vs RocksDB")
    out("")
    out("| Ratio | Value (range) |")
    out("|---|---:|")
    out(f"| Walk throughput, Everett / RocksDB iterator with direct ByteBuffers (the fair baseline) | {fmt_ratio(walk_vs_direct)} |")
    out(f"| Walk throughput, Everett / RocksDB iterator with byte[] key()/value() | {fmt_ratio(walk_vs_bytes)} |")
    out(f"| Write throughput, Everett / SstFileWriter put(byte[]) | {fmt_ratio(write_vs_bytes)} |")
    out(f"| Write throughput, Everett / SstFileWriter put(direct ByteBuffer) | {fmt_ratio(write_vs_direct)} |")
    out(f"| File size, KV02 / SST | {size_ratio:.4f} |" if size_ratio is not None else "| File size, KV02 / SST | n/a |")
    out("")

    out("## KV03 beside KV02 (issue #4)")
    out("")
    if any(g(walk) or g(write) for _, walk, write, _ in PROFILES[1:]):
        out("The same 1,000,000 records, loop and consumption in each profile, in the same JMH run: the walk is "
            "`everettWalk`'s cursor loop, the write `everettWrite`'s put loop and `finish()`. All three use the RAW "
            "grammar and `CommonWidthRule.policy()`. \"vs KV02\" is the throughput ratio against byte-unit KV02 "
            "(KV02 time / profile time; below 1 means slower than KV02), its bracket pairing the extreme fork medians.")
        out("")
        out("| Profile | walk ns/record | range | walk vs KV02 | write ns/record | range | write vs KV02 | file bytes | vs KV02 |")
        out("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
        variants = {}
        for v in (sizes or {}).get("kv02Variants", []):
            key = (v.get("format", "KV02"), v.get("unit", "BYTE"))
            if v.get("headline") or key != ("KV02", "BYTE"):
                variants.setdefault(key, v["bytes"])
        base_bytes = variants.get(("KV02", "BYTE"))
        for label, walk, write, key in PROFILES:
            wk, wr = g(walk), g(write)
            cells = [label]
            for r, base_r in ((wk, ev_walk), (wr, ev_write)):
                cells += [fmt(r["median"]) if r else "n/a", f"{fmt(r['min'])}–{fmt(r['max'])}" if r else "",
                          fmt_ratio(ratio(base_r, r)) if r and base_r else "n/a"]
            b = variants.get(key)
            cells += [f"{b:,}" if b else "n/a", f"{b / base_bytes:.4f}" if b and base_bytes else "n/a"]
            out("| " + " | ".join(cells) + " |")
        out("")
        out("KV03 frames each value as EG0(byte count) then the bytes (11 + 256 bits here) and each key behind the "
            "one-bit sort code; KV02 with bit units keeps KV02's framing in bits (an EG0 VLEN of 256 bits). File bytes "
            "from `SizeReport` (whole files).")
    else:
        out("Not in this run (no `bitWalk`/`bitWrite`).")
    out("")

    out("## Targets (issue \"KV02 foundation\")")
    out("")
    out("| Target | Measured | Status |")
    out("|---|---|---|")
    if ev_walk:
        out(f"| Walk ≤ 25 ns/record | {fmt(ev_walk['median'])} ns/record ({fmt(ev_walk['min'])}–{fmt(ev_walk['max'])}) | "
            f"{status(ev_walk['median'] <= 25.0)} |")
    if walk_vs_direct:
        out(f"| Walk ≥ 10× RocksDB iterator throughput (direct-buffer iterator) | {fmt_ratio(walk_vs_direct)} | "
            f"{status(walk_vs_direct['median'] >= 10.0)} |")
    if write_vs_best:
        best = short_name(rk_write_best["full"])
        out(f"| Write ≥ 2× SstFileWriter (against its faster variant, `{best}`) | {fmt_ratio(write_vs_best)} | "
            f"{status(write_vs_best['median'] >= 2.0)} |")
    if size_ratio is not None:
        out(f"| File ≤ 0.9× SST size | {size_ratio:.4f}× | {status(size_ratio <= 0.9)} |")
    out("")
    out("A target counts as met when the median meets it; check the bracket to see whether every fork does.")
    out("")

    out("## How this was run")
    out("")
    machine_lines(out, first)
    out(f"- JMH settings (first benchmark): {first.get('forks')} forks, {first.get('warmupIterations')} × "
        f"{first.get('warmupTime')} warm-up, {first.get('measurementIterations')} × {first.get('measurementTime')} "
        f"measurement, mode {first.get('mode')}, {first.get('threads')} thread(s).")
    params = first.get("params")
    if params:
        out(f"- Parameters: {', '.join(f'{k} = {v}' for k, v in params.items())} (`auto` = files under /dev/shm).")
    source_lines(out, args)
    out("")
    out("## Per-fork medians")
    out("")
    out("| Benchmark | fork medians (ns) |")
    out("|---|---|")
    for n in names:
        r = results[n]
        out(f"| `{n}` | {', '.join(fmt(x, 2) for x in r['fork_medians'])} |")
    out("")

    jmhfiles.write_page(lines, args.out)


if __name__ == "__main__":
    main(sys.argv[1:])
