#!/usr/bin/env bash
# Builds the shaded benchmarks.jar and runs the "KV02 foundation" benchmarks (Everett and RocksDB
# in the same JMH run) with the KV03 and KV02-bit walk and write beside them (bitWalk, bitWrite),
# then summarises them into docs/benchmarks/kv02.md. Full run: 13 configurations × 5 forks, about
# 23 minutes on 2 cores.
#
#   bench/run-kv02.sh                       # full run: the settings in the benchmark classes
#   bench/run-kv02.sh -f 1 -wi 1 -i 2       # extra arguments go to JMH (here: a smoke run)
#
# Environment:
#   TAG=smoke        a check, not a result: raw files and summary go to bench/target/runs/
#                    (kv02-<date>-smoke.*), never over docs/benchmarks/
#   SKIP_BUILD=1     reuse bench/target/benchmarks.jar
#   BENCH_REGEX=...  JMH benchmark regex (default: all Kv02* benchmarks, the bit profiles included)
#
# Outputs (under docs/benchmarks/raw/): kv02-<date>[-TAG].json (JMH -rf json),
# kv02-<date>[-TAG]-sizes.json (SizeReport), kv02-<date>[-TAG].log (console).
set -euo pipefail

KIND=kv02
. "$(dirname "$0")/common.sh"
regex="${BENCH_REGEX:-dev\.everett\.bench\.Kv02}"

size_cmd="java --enable-native-access=ALL-UNNAMED -cp bench/target/benchmarks.jar dev.everett.bench.SizeReport --json $sizes"
jmh_cmd="java --enable-native-access=ALL-UNNAMED -jar bench/target/benchmarks.jar '$regex' -rf json -rff $json${*:+ $*}"

{
  echo "# $(date -u '+%Y-%m-%d %H:%M:%S UTC')  $(nproc) cores  $(uptime)"
  echo "# $size_cmd"
  jdk java --enable-native-access=ALL-UNNAMED -cp "$jar" dev.everett.bench.SizeReport --json "$sizes"
  echo "# $jmh_cmd"
  jdk java --enable-native-access=ALL-UNNAMED -jar "$jar" "$regex" -rf json -rff "$json" "$@"
} 2>&1 | tee "$log"

# UPDATES="raw/a.json ..." summarises this run as an update of earlier full runs (see bench/jmhfiles.py).
jmh_args=()
for f in ${UPDATES:-}; do jmh_args+=(--jmh "$f"); done
python3 bench/summarize.py "${jmh_args[@]}" --jmh "$json" --sizes "$sizes" --log "$log" \
  --command "bench/run-kv02.sh${*:+ $*}" --command "$size_cmd" --command "$jmh_cmd" \
  --out "$summary" > /dev/null
echo "summary: $summary; raw: $json, $sizes, $log"
