# Sourced by bench/run-*.sh after setting KIND (kv02, lookup, merge): moves to the repository
# root, names this run's raw files under docs/benchmarks/raw/, builds the shaded benchmarks.jar
# (unless SKIP_BUILD=1, or NEEDS_JAR=0 for a script that builds its own) and defines jdk, which
# runs a command on a JDK 25.
#
# Sets: root, raw, summary, name, json, sizes, log, jar.
cd "$(dirname "${BASH_SOURCE[0]}")/.."
root=$(pwd)

stamp=$(date -u +%Y-%m-%d)
name="${KIND}-${stamp}${TAG:+-$TAG}"
raw="docs/benchmarks/raw"
summary="docs/benchmarks/$KIND.md"
# A tagged run (TAG=smoke, ...) checks the scripts, it does not measure: its raw files and its
# summary go under bench/target/, so it can never overwrite the committed results.
if [ -n "${TAG:-}" ]; then
  raw="bench/target/runs"
  summary="$raw/$KIND.md"
fi
mkdir -p "$raw"
if [ -e "$raw/$name.json" ]; then
  name="${name}-$(date -u +%H%M%S)"
fi
json="$raw/$name.json"
sizes="$raw/$name-sizes.json"
log="$raw/$name.log"

# A script that runs no JMH benchmark (NEEDS_JAR=0) builds what it needs itself.
if [ "${NEEDS_JAR:-1}" = "1" ]; then
  if [ "${SKIP_BUILD:-0}" != "1" ]; then
    ./.ci/with-jdk25 ./mvnw -q -Pbench -pl bench -am package -DskipTests
  fi
  jar="$root/bench/target/benchmarks.jar"
  [ -f "$jar" ] || { echo "error: $jar not found (build with -Pbench)" >&2; exit 1; }
fi

# with-jdk25 puts a JDK 25 first on PATH, so "java" in the commands run through it is that JDK.
jdk() { ./.ci/with-jdk25 "$@"; }
