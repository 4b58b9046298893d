#!/usr/bin/env bash
# Builds the shaded benchmarks.jar and runs the embedded store's db_bench-style workloads
# (dev.everett.bench.StoreBench, a timed harness: fillseq, fillrandom, readrandom, seekrandom,
# readseq, readreverse, readwhilewriting, overwrite, deleterandom; write amplification, bytes on
# disk, heap and RSS) for both Everett layouts and RocksDB, each engine in its own JVM so that RSS
# is that engine's, REPEATS times, engines interleaved. Results: docs/benchmarks/store.md.
#
#   bench/run-store.sh                # one million keys, 3 repeats: about 25 minutes on 2 cores
#   KEYS=10000000 bench/run-store.sh  # ten million keys, 3 repeats: about 75 minutes on 2 cores
#   TAG=smoke KEYS=100000 REPEATS=1 MEASURE_SECONDS=1 WARMUP=1 bench/run-store.sh   # smoke: a few minutes
#
# Environment: KEYS (1000000), REPEATS (3), MEASURE_SECONDS (10, per timed workload), WARMUP (3),
# WRITE_RATE (readwhilewriting's writer, puts/s: 10000), READERS (1), ENGINES
# ("PARTITIONED WHOLE_RUN ROCKSDB"), JVM_OPTS (-Xmx3g), DIR (the stores' parent: /dev/shm if
# present), TAG (appended to the raw file names; a tagged run writes under bench/target/runs/),
# SKIP_BUILD=1 (reuse the jar), PIN_CPU (run every engine's JVM under `taskset -c $PIN_CPU`, so
# that builds or other work on the remaining cores do not share its core).
# Even repeats run the engines in the reverse order, so that no engine always runs first (on a
# cold page cache and a cool machine). An engine-repeat that fails is logged with its exit code
# and the run goes on: the summary then has fewer samples for that engine, and the script exits
# non-zero at the end.
# Outputs: docs/benchmarks/raw/store-<keys>-<date>[-TAG].json (every JVM's results) and .log; the
# summary docs/benchmarks/store.md covers the newest raw file of each key count.
set -euo pipefail

KEYS=${KEYS:-1000000}
REPEATS=${REPEATS:-3}
MEASURE=${MEASURE_SECONDS:-10}
WARMUP=${WARMUP:-3}
WRITE_RATE=${WRITE_RATE:-10000}
READERS=${READERS:-1}
ENGINES=${ENGINES:-PARTITIONED WHOLE_RUN ROCKSDB}
JVM_OPTS=${JVM_OPTS:--Xmx3g}

KIND=store
. "$(dirname "$0")/common.sh"
# One raw file per key count: store-1m-<date>.json, store-10m-<date>.json, store-100000-<date>.json.
case "$KEYS" in
  1000000) label=1m ;;
  10000000) label=10m ;;
  *) label=$KEYS ;;
esac
name="store-${label}-${stamp}${TAG:+-$TAG}"
if [ -e "$raw/$name.json" ]; then
  name="${name}-$(date -u +%H%M%S)"
fi
json="$raw/$name.json"
log="$raw/$name.log"
forks="bench/target/store-forks/$name"
rm -rf "$forks"
mkdir -p "$forks"

pin=()
if [ -n "${PIN_CPU:-}" ]; then
  pin=(taskset -c "$PIN_CPU")
fi
args=(--keys "$KEYS" --seconds "$MEASURE" --warmup "$WARMUP" --write-rate "$WRITE_RATE" --readers "$READERS")
if [ -n "${DIR:-}" ]; then
  args+=(--dir "$DIR")
fi
command="KEYS=$KEYS REPEATS=$REPEATS MEASURE_SECONDS=$MEASURE WARMUP=$WARMUP WRITE_RATE=$WRITE_RATE READERS=$READERS${PIN_CPU:+ PIN_CPU=$PIN_CPU}${TAG:+ TAG=$TAG} bench/run-store.sh"
{
  echo "# $(date -u '+%Y-%m-%d %H:%M:%S UTC')  $(nproc --all) cores  $(uptime)"
  echo "# $command"
  for r in $(seq 1 "$REPEATS"); do
    order=$ENGINES
    if [ $((r % 2)) = 0 ]; then
      order=$(printf '%s\n' $ENGINES | tac | tr '\n' ' ')
    fi
    for engine in $order; do
      echo "# repeat $r, $engine: ${pin[*]} java $JVM_OPTS --enable-native-access=ALL-UNNAMED -cp bench/target/benchmarks.jar dev.everett.bench.StoreBench --engine $engine ${args[*]} --out $forks/$engine-$r.json"
      rc=0
      # shellcheck disable=SC2086
      jdk "${pin[@]}" java $JVM_OPTS --enable-native-access=ALL-UNNAMED -cp "$jar" dev.everett.bench.StoreBench \
        --engine "$engine" "${args[@]}" --out "$forks/$engine-$r.json" || rc=$?
      if [ "$rc" != 0 ]; then
        echo "# repeat $r, $engine FAILED with exit code $rc: no sample from it"
        echo "$engine-$r" >>"$forks/failed"
      fi
    done
  done
  echo "# finished $(date -u '+%Y-%m-%d %H:%M:%S UTC')  $(uptime)"
} 2>&1 | tee "$log"

python3 bench/summarize_store.py --merge "$forks" --into "$json" --command "$command" --log "$log"
# The summary shows the newest run of each key count found where this run's raw file went.
runs=()
for size in 1m 10m; do
  newest=$(ls -t "$raw"/store-"$size"-*.json 2>/dev/null | head -n 1 || true)
  if [ -n "$newest" ]; then
    runs+=(--json "$newest")
  fi
done
case "$label" in 1m|10m) ;; *) runs+=(--json "$json") ;; esac
python3 bench/summarize_store.py "${runs[@]}" --out "$summary"
if [ -s "$forks/failed" ]; then
  echo "error: engine-repeats failed (see $log): $(tr '\n' ' ' <"$forks/failed")" >&2
  exit 1
fi
