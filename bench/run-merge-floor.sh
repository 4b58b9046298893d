#!/usr/bin/env bash
# Sets each native-merge fixture's whole merge beside the least any merge of it pays on this
# machine to publish its output (`PublishFloor`: the merged output's bytes written from memory to a
# new file, forced and renamed over the previous one, with no merging), on the same core,
# alternating (docs/benchmarks/merge.md, "2026-12-07: the floor under the 4 KiB tails").
#
#   bench/run-merge-floor.sh [ROUNDS]
#
# Environment:
#   BEFORE_JAR=...    a second benchmarks.jar that has dev.everett.bench.MergeSteps (say, built in a
#                     worktree of an older commit, with MergeSteps.java copied in if it predates it),
#                     run after ours in every round
#   CORE=1            the core every run is pinned to (taskset)
#   TAG=...           as in the other run-*.sh scripts: a check, its files go to bench/target/runs/
#   SKIP_BUILD=1      reuse bench/target/benchmarks.jar
#
# Each round runs, per fixture (tail4096, fragments) and policy: `PublishFloor`, then `MergeSteps`
# of ours and then of BEFORE_JAR (1,500 merges or publishes on the tails, 8,000 on the fragments;
# the second half's medians). About 4 minutes a round with BEFORE_JAR; the default is 3 rounds.
#
# Output (under docs/benchmarks/raw/): merge-floor-<date>[-TAG].txt (one line per run, prefixed by
# round and side: floor, ours, before) and the table printed by bench/summarize_merge_floor.py.
set -euo pipefail

KIND=merge-floor
. "$(dirname "$0")/common.sh"
rounds="${1:-3}"
core="${CORE:-1}"

# common.sh keeps a second run of the day apart by its .json, which this script does not write.
if [ -e "$raw/$name.txt" ]; then
  name="${name}-$(date -u +%H%M%S)"
fi
txt="$raw/$name.txt"
: > "$txt"
sides=("ours:$jar")
if [ -n "${BEFORE_JAR:-}" ]; then
  sides+=("before:$BEFORE_JAR")
fi
run() { jdk taskset -c "$core" java --enable-native-access=ALL-UNNAMED -Xms2g -Xmx2g -cp "$@"; }
echo "# $(date -u '+%Y-%m-%d %H:%M:%S UTC')  $(nproc) cores  core $core  $(uptime)" | tee -a "$txt"
for ((r = 1; r <= rounds; r++)); do
  for fixture in "tail4096 1500" "fragments 8000"; do
    # shellcheck disable=SC2086  # the fixture's two words on purpose
    set -- $fixture
    for policy in byte-fixed8 byte-variable8-24 bit-fixed13 bit-variable8-24; do
      echo "$r floor $(run "$jar" dev.everett.bench.PublishFloor "$policy" "$1" "$2")" >> "$txt"
      for side in "${sides[@]}"; do
        echo "$r ${side%%:*} $(run "${side#*:}" dev.everett.bench.MergeSteps "$policy" "$1" "$2")" >> "$txt"
      done
    done
  done
done
echo "# finished $(date -u '+%Y-%m-%d %H:%M:%S UTC')  $(uptime)" >> "$txt"
python3 bench/summarize_merge_floor.py "$txt"
