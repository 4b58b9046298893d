#!/usr/bin/env bash
# Builds the shaded benchmarks.jar and runs the "IX03 lookups" benchmarks (Everett's cascade in the
# byte and bit profiles and RocksDB get on the same fixture, in the same JMH run, plus the
# single-segment get/seek), then summarises them into docs/benchmarks/lookup.md.
#
#   bench/run-lookup.sh                          # full run: the settings in the benchmark classes
#                                                # (3 forks, 4 × 0.5 s warm-up, 3 × 1 s measurement;
#                                                #  100 configurations × 3 forks: byte 24 (routing
#                                                #  cache), byte from the head 12 (independent),
#                                                #  byte + filters 24, bit 12 (independent),
#                                                #  RocksDB 24, single segment 4 (get/seek, cache
#                                                #  on/off); about 40 minutes on 2 cores, plus
#                                                #  about a minute for LookupSizeReport)
#   TAG=smoke bench/run-lookup.sh -f 1 -wi 1 -i 1 -w 1s -r 1s    # extra arguments go to JMH
#
# Environment:
#   TAG=smoke        a check, not a result: raw files and summary go to bench/target/runs/
#                    (lookup-<date>-smoke.*), never over docs/benchmarks/
#   SKIP_BUILD=1     reuse bench/target/benchmarks.jar
#   SKIP_SIZES=1     skip LookupSizeReport (the summary then has no size sections)
#   BENCH_REGEX=...  JMH benchmark regex (default: LookupBench and SingleSegmentBench)
#   UPDATES=...      earlier raw JSON files this run updates (a partial re-run; see docs/benchmarks/README.md)
#   SIZES=...        the size report to summarise with when this run skips its own (SKIP_SIZES=1)
#
# Outputs (under docs/benchmarks/raw/): lookup-<date>[-TAG].json (JMH -rf json),
# lookup-<date>[-TAG]-sizes.json (LookupSizeReport), lookup-<date>[-TAG].log (console).
set -euo pipefail

KIND=lookup
. "$(dirname "$0")/common.sh"
regex="${BENCH_REGEX:-dev\.everett\.bench\.(LookupBench|SingleSegmentBench)\.}"

size_cmd="java --enable-native-access=ALL-UNNAMED -cp bench/target/benchmarks.jar dev.everett.bench.LookupSizeReport --json $sizes"
jmh_cmd="java --enable-native-access=ALL-UNNAMED -jar bench/target/benchmarks.jar '$regex' -rf json -rff $json${*:+ $*}"

{
  echo "# $(date -u '+%Y-%m-%d %H:%M:%S UTC')  $(nproc) cores  $(uptime)"
  if [ "${SKIP_SIZES:-0}" != "1" ]; then
    echo "# $size_cmd"
    jdk java --enable-native-access=ALL-UNNAMED -cp "$jar" dev.everett.bench.LookupSizeReport --json "$sizes"
  fi
  echo "# $jmh_cmd"
  jdk java --enable-native-access=ALL-UNNAMED -jar "$jar" "$regex" -rf json -rff "$json" "$@"
  echo "# finished $(date -u '+%Y-%m-%d %H:%M:%S UTC')  $(uptime)"
} 2>&1 | tee "$log"

size_args=()
if [ -f "$sizes" ]; then
  size_args=(--sizes "$sizes")
elif [ -n "${SIZES:-}" ]; then
  size_args=(--sizes "$SIZES")
fi
# UPDATES="raw/a.json ..." summarises this run as an update of earlier full runs (see bench/jmhfiles.py);
# SIZES=raw/a-sizes.json takes the size report of such a run when this one skips it.
jmh_args=()
for f in ${UPDATES:-}; do jmh_args+=(--jmh "$f"); done
python3 bench/summarize_lookup.py "${jmh_args[@]}" --jmh "$json" "${size_args[@]}" --log "$log" \
  --command "bench/run-lookup.sh${*:+ $*}" --command "$size_cmd" --command "$jmh_cmd" \
  --out "$summary" > /dev/null
echo "summary: $summary; raw: $json, $sizes, $log"
