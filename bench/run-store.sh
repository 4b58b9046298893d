#!/usr/bin/env bash
# Builds the shaded benchmarks.jar and runs the embedded store's db_bench-style workloads
# (readrandom, seekrandom, readseq, overwrite) for both level layouts beside RocksDB in the same
# JMH run. Results: docs/store.md ("Measurements").
#
#   bench/run-store.sh                      # the settings in StoreBench (one million keys)
#   bench/run-store.sh -p keys=100000       # extra arguments go to JMH
#
# Environment: TAG (appended to the raw file names), SKIP_BUILD=1 (reuse the jar).
# Outputs: docs/benchmarks/raw/store-<date>[-TAG].json and .log. About 8 minutes on 2 cores.
set -euo pipefail

KIND=store
. "$(dirname "$0")/common.sh"
regex='dev\.everett\.bench\.StoreBench\.'
{
  echo "# $(date -u '+%Y-%m-%d %H:%M:%S UTC')  $(nproc) cores  $(uptime)"
  echo "# java --enable-native-access=ALL-UNNAMED -jar bench/target/benchmarks.jar '$regex' -rf json -rff $json${*:+ $*}"
  # shellcheck disable=SC2086
  jdk java --enable-native-access=ALL-UNNAMED -jar "$jar" "$regex" -rf json -rff "$json" "$@"
  echo "# finished $(date -u '+%Y-%m-%d %H:%M:%S UTC')  $(uptime)"
} 2>&1 | tee "$log"
