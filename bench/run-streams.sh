#!/usr/bin/env bash
# Builds streams/ and runs the Kafka Streams aggregation benchmark: for each repeat, one JVM per
# store flavour (Kafka Streams' RocksDB stores, Everett stores without and with their write-ahead
# log), each running the aggregation topology, direct get + put and a changelog restore over the
# same records, and reporting records/s, state bytes on disk, heap and process RSS (see
# streams/src/test/java/dev/everett/streams/AggregationBenchmarkRunner.java). Summary: docs/streams.md
# and docs/benchmarks/streams.md.
#
#   bench/run-streams.sh                                  # 1,000,000 records, 100,000 keys, 3 repeats
#   TAG=smoke bench/run-streams.sh --records 100000 --repeats 1   # smoke run: output under bench/target/runs/
#   bench/run-streams.sh --flavours ROCKSDB,EVERETT --repeats 3   # extra arguments go to the runner
#
# Environment: TAG (appended to the raw file names; a tagged run writes under bench/target/runs/),
# SKIP_BUILD=1 (reuse the compiled classes and class path), WORK_DIR (where the stores' state
# directories go: /dev/shm if present, else /tmp; a real disk adds its fsync costs),
# JVM_OPTS (options of every benchmark JVM; default -Xmx2g).
# Outputs: docs/benchmarks/raw/streams-<date>[-TAG].json (every run and the summary), .md (the
# summary table) and .log. About 20 minutes on 2 quiet cores with the defaults (estimated: a
# 100,000-record, 1-repeat smoke run took 3 minutes on one loaded core); allow 40.
set -euo pipefail

KIND=streams
NEEDS_JAR=0
. "$(dirname "$0")/common.sh"

classpath_file="streams/target/bench.classpath"
if [ "${SKIP_BUILD:-0}" != "1" ]; then
  # In one reactor build, the class path names the project's own modules by their target/classes.
  jdk ./mvnw -q -B -pl streams -am test-compile \
    org.apache.maven.plugins:maven-dependency-plugin:3.9.0:build-classpath \
    -Dmdep.outputFile=target/bench.classpath -Dmdep.includeScope=test
fi
[ -f "$classpath_file" ] || { echo "error: $classpath_file not found (run without SKIP_BUILD=1)" >&2; exit 1; }
cp="$root/streams/target/test-classes:$root/streams/target/classes:$(cat "$classpath_file")"
work="${WORK_DIR:-$([ -d /dev/shm ] && echo /dev/shm || echo /tmp)}"

jvm_args=()
for opt in ${JVM_OPTS:--Xmx2g}; do
  jvm_args+=(--jvm-opt "$opt")
done
{
  echo "# $(date -u '+%Y-%m-%d %H:%M:%S UTC')  $(nproc) cores  $(uptime)"
  echo "# AggregationBenchmarkRunner --out $json --work $work ${jvm_args[*]}${*:+ $*}"
  jdk java -cp "$cp" dev.everett.streams.AggregationBenchmarkRunner --out "$json" --work "$work" \
    --jvm-opt --enable-native-access=ALL-UNNAMED "${jvm_args[@]}" "$@"
  echo "# finished $(date -u '+%Y-%m-%d %H:%M:%S UTC')  $(uptime)"
} 2>&1 | tee "$log"
