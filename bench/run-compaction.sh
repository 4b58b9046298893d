#!/usr/bin/env bash
# Builds the shaded benchmarks.jar and runs the compaction benchmark (one million 16-byte keys
# with 100-byte values in four overlapping runs, outputs split at 64 and 4 MiB, against RocksDB
# compactRange in the same JMH run). Results: docs/benchmarks/compaction.md.
#
#   bench/run-compaction.sh                        # the settings in CompactionVsRocksBench
#   TAG=smoke bench/run-compaction.sh -wi 1 -i 2   # extra arguments go to JMH (here: a smoke run)
#
# Environment: TAG (appended to the raw file names; a tagged run writes under bench/target/runs/),
# SKIP_BUILD=1 (reuse the jar), JAVA_OPTS (options for the JMH host JVM, e.g. -Djmh.ignoreLock=true).
# Outputs: docs/benchmarks/raw/compaction-<date>.json and .log (a tagged run: bench/target/runs/
# compaction-<date>-TAG.*). About 6 minutes on 2 cores.
set -euo pipefail

KIND=compaction
. "$(dirname "$0")/common.sh"
regex='dev\.everett\.bench\.CompactionVsRocksBench\.'
{
  echo "# $(date -u '+%Y-%m-%d %H:%M:%S UTC')  $(nproc) cores  $(uptime)"
  echo "# java${JAVA_OPTS:+ $JAVA_OPTS} --enable-native-access=ALL-UNNAMED -jar bench/target/benchmarks.jar '$regex' -rf json -rff $json${*:+ $*}"
  # shellcheck disable=SC2086
  jdk java ${JAVA_OPTS:-} --enable-native-access=ALL-UNNAMED -jar "$jar" "$regex" -rf json -rff "$json" "$@"
  echo "# finished $(date -u '+%Y-%m-%d %H:%M:%S UTC')  $(uptime)"
} 2>&1 | tee "$log"
