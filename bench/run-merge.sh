#!/usr/bin/env bash
# Builds the shaded benchmarks.jar and runs the merge benchmarks (Everett's native-merge fixture,
# the 1M-key two-way merge against RocksDB compactRange in the same JMH run, and k-way against a
# tree of two-way merges), then summarises them into docs/benchmarks/merge.md.
#
#   bench/run-merge.sh                              # full run: the settings in the benchmark classes
#   bench/run-merge.sh -f 1 -wi 1 -i 2 -w 1s -r 1s  # extra arguments go to JMH (here: a smoke run)
#
# Environment:
#   TAG=smoke        a check, not a result: raw files and summary go to bench/target/runs/
#                    (merge-<date>-smoke.*), never over docs/benchmarks/
#   SKIP_BUILD=1     reuse bench/target/benchmarks.jar
#   BENCH_REGEX=...  JMH benchmark regex (default: all Merge* benchmarks)
#   PROF=...         JMH profiler arguments (default "-prof gc", for gc.alloc.rate.norm per key;
#                    PROF= turns it off)
#   JAVA_OPTS=...    options for the JMH host JVM (not the forks), e.g. -Djmh.ignoreLock=true when
#                    another JMH run holds /tmp/jmh.lock (the figures are then noisy)
#
# Outputs (under docs/benchmarks/raw/): merge-<date>[-TAG].json (JMH -rf json) and
# merge-<date>[-TAG].log (console).
#
# Full run: 3 forks everywhere; MergeBench 60 parameter/method combinations (byte and bit policies)
# × 3 forks × ~8 s, MergeVsRocksBench 2 × 3 × ~25 s, MergeKWayBench 4 × 3 × ~20 s: about 30 minutes
# on 2 cores. A subset: BENCH_REGEX='MergeBench' bench/run-merge.sh -p policy=bit-fixed13,bit-variable8-24
set -euo pipefail

KIND=merge
. "$(dirname "$0")/common.sh"
regex="${BENCH_REGEX:-dev\.everett\.bench\.Merge(Bench|VsRocksBench|KWayBench)\.}"
prof="${PROF--prof gc}"

# shellcheck disable=SC2086  # $prof is split into JMH arguments on purpose
jmh_cmd="java${JAVA_OPTS:+ $JAVA_OPTS} --enable-native-access=ALL-UNNAMED -jar bench/target/benchmarks.jar '$regex'${prof:+ $prof} -rf json -rff $json${*:+ $*}"

{
  echo "# $(date -u '+%Y-%m-%d %H:%M:%S UTC')  $(nproc) cores  $(uptime)"
  echo "# $jmh_cmd"
  # shellcheck disable=SC2086
  jdk java ${JAVA_OPTS:-} --enable-native-access=ALL-UNNAMED -jar "$jar" "$regex" $prof -rf json -rff "$json" "$@"
  echo "# finished $(date -u '+%Y-%m-%d %H:%M:%S UTC')  $(uptime)"
} 2>&1 | tee "$log"

# UPDATES="raw/a.json ..." summarises this run as an update of earlier full runs (see bench/jmhfiles.py).
jmh_args=()
for f in ${UPDATES:-}; do jmh_args+=(--jmh "$f"); done
python3 bench/summarize_merge.py "${jmh_args[@]}" --jmh "$json" --log "$log" \
  --command "bench/run-merge.sh${*:+ $*}" --command "$jmh_cmd" \
  --out "$summary" > /dev/null
echo "summary: $summary; raw: $json, $log"
