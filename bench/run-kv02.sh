#!/usr/bin/env bash
# Builds the shaded benchmarks.jar and runs the "KV02 foundation" benchmarks (Everett and RocksDB
# in the same JMH run), then summarises them into docs/benchmarks/kv02.md.
#
#   bench/run-kv02.sh                       # full run: the settings in the benchmark classes
#   bench/run-kv02.sh -f 1 -wi 1 -i 2       # extra arguments go to JMH (here: a smoke run)
#
# Environment:
#   TAG=smoke        appended to the raw file names (kv02-<date>-smoke.json)
#   SKIP_BUILD=1     reuse bench/target/benchmarks.jar
#   BENCH_REGEX=...  JMH benchmark regex (default: all KV02 benchmarks)
#
# Outputs (under docs/benchmarks/raw/): kv02-<date>[-TAG].json (JMH -rf json),
# kv02-<date>[-TAG]-sizes.json (SizeReport), kv02-<date>[-TAG].log (console).
set -euo pipefail

cd "$(dirname "$0")/.."
root=$(pwd)

stamp=$(date -u +%Y-%m-%d)
name="kv02-${stamp}${TAG:+-$TAG}"
raw="docs/benchmarks/raw"
mkdir -p "$raw"
if [ -e "$raw/$name.json" ]; then
  name="${name}-$(date -u +%H%M%S)"
fi
json="$raw/$name.json"
sizes="$raw/$name-sizes.json"
log="$raw/$name.log"
regex="${BENCH_REGEX:-dev\.everett\.bench\.Kv02}"

if [ "${SKIP_BUILD:-0}" != "1" ]; then
  ./.ci/with-jdk25 ./mvnw -q -Pbench -pl bench -am package -DskipTests
fi
jar="$root/bench/target/benchmarks.jar"
[ -f "$jar" ] || { echo "error: $jar not found (build with -Pbench)" >&2; exit 1; }

# with-jdk25 puts a JDK 25 first on PATH, so "java" below is that JDK.
jdk() { ./.ci/with-jdk25 "$@"; }

size_cmd="java --enable-native-access=ALL-UNNAMED -cp bench/target/benchmarks.jar dev.everett.bench.SizeReport --json $sizes"
jmh_cmd="java --enable-native-access=ALL-UNNAMED -jar bench/target/benchmarks.jar '$regex' -rf json -rff $json${*:+ $*}"

{
  echo "# $(date -u '+%Y-%m-%d %H:%M:%S UTC')  $(nproc) cores  $(uptime)"
  echo "# $size_cmd"
  jdk java --enable-native-access=ALL-UNNAMED -cp "$jar" dev.everett.bench.SizeReport --json "$sizes"
  echo "# $jmh_cmd"
  jdk java --enable-native-access=ALL-UNNAMED -jar "$jar" "$regex" -rf json -rff "$json" "$@"
} 2>&1 | tee "$log"

python3 bench/summarize.py --jmh "$json" --sizes "$sizes" --log "$log" \
  --command "bench/run-kv02.sh${*:+ $*}" --command "$size_cmd" --command "$jmh_cmd" \
  --out docs/benchmarks/kv02.md > /dev/null
echo "summary: docs/benchmarks/kv02.md; raw: $json, $sizes, $log"
