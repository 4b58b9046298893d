#!/usr/bin/env bash
# Builds the shaded benchmarks.jar and runs point lookups and seeks over an everett-compaction
# version in both layouts (partitioned, whole-run) after a realistic history (one million keys in
# fourteen flushed batches, level-0 files present) beside RocksDB built from the same history, in
# the same JMH run. Results: docs/benchmarks/compaction.md ("Reads over a version").
#
#   bench/run-version-read.sh                              # the settings in VersionReadVsRocksBench
#   TAG=smoke bench/run-version-read.sh -p keys=100000 -wi 1 -i 1 -w 1 -r 1   # a smoke run
#
# Environment: TAG (appended to the raw file names; a tagged run writes under bench/target/runs/),
# SKIP_BUILD=1 (reuse the jar), JAVA_OPTS (options for the JMH host JVM).
# Outputs: docs/benchmarks/raw/version-read-<date>[-TAG].json and .log.
# About 15 minutes on 2 quiet cores (fifteen trials: each builds its history, 20-40 s, then
# measures 5 + 5 one-second iterations).
set -euo pipefail

KIND=version-read
. "$(dirname "$0")/common.sh"
regex='dev\.everett\.bench\.(VersionReadVsRocksBench|WholeRunSeekBench)\.'
{
  echo "# $(date -u '+%Y-%m-%d %H:%M:%S UTC')  $(nproc) cores  $(uptime)"
  echo "# java${JAVA_OPTS:+ $JAVA_OPTS} --enable-native-access=ALL-UNNAMED -jar bench/target/benchmarks.jar '$regex' -rf json -rff $json${*:+ $*}"
  # shellcheck disable=SC2086
  jdk java ${JAVA_OPTS:-} --enable-native-access=ALL-UNNAMED -jar "$jar" "$regex" -rf json -rff "$json" "$@"
  echo "# finished $(date -u '+%Y-%m-%d %H:%M:%S UTC')  $(uptime)"
} 2>&1 | tee "$log"
