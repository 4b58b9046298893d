#!/usr/bin/env bash
# Runs Everett's own C++ encoded merger (its benchmark bench/native_encoded.cc, built here from a
# checkout of Everett's public source) beside ours on the same native-merge fixture, on the same
# core, alternating, so that the two are compared on one machine in one time window
# (docs/benchmarks/merge.md, "2026-12-07: beside Everett's C++ merger, built and run on this
# machine"). Everett's code is only compiled and
# run, from its own checkout; nothing of it enters this repository.
#
#   EVERETT_SRC=/path/to/everett bench/run-merge-vs-cpp.sh [ROUNDS]
#
# Environment:
#   EVERETT_SRC=...   a checkout of Everett's source (its include/diet/ and bench/native_encoded.cc)
#   BEFORE_JAR=...    a second benchmarks.jar that has dev.everett.bench.MergeSteps (say, built in a
#                     worktree of an older commit, with MergeSteps.java copied in if it predates it) run
#                     after ours in every round, for a three-way comparison
#   CORE=1            the core every run is pinned to (taskset)
#   TAG=...           as in the other run-*.sh scripts: a check, its files go to bench/target/runs/
#   SKIP_BUILD=1      reuse bench/target/benchmarks.jar
#
# Each round runs, per fixture (fragments, tail4096, prefix0): the C++ benchmark (its four policies,
# 60 merges each, of which the first 10 are dropped as warm-up), then `MergeSteps` for each policy
# (8,000 merges; 1,500 for tail4096; the second half's medians), ours and then BEFORE_JAR's. C++
# builds its output in memory; ours publishes a file (force, atomic rename), as `MergeBench` does.
# About 3.5 minutes a round, 7.5 with BEFORE_JAR; the default is 3 rounds.
#
# Outputs (under docs/benchmarks/raw/): merge-vs-cpp-<date>[-TAG]-cpp.csv (the C++ benchmark's CSV),
# merge-vs-cpp-<date>[-TAG]-java.txt (one MergeSteps line per run, prefixed by round and side) and
# the table printed by bench/summarize_merge_vs_cpp.py.
set -euo pipefail

KIND=merge-vs-cpp
. "$(dirname "$0")/common.sh"
rounds="${1:-3}"
core="${CORE:-1}"
src="${EVERETT_SRC:?set EVERETT_SRC to a checkout of the Everett source}"
[ -f "$src/bench/native_encoded.cc" ] && [ -d "$src/include/diet" ] \
  || { echo "error: $src has no bench/native_encoded.cc and include/diet/" >&2; exit 1; }

# The flags of Everett's own runner (bench/native_encoded.py), for this machine's processor.
cpp="$root/bench/target/everett-native-encoded"
mkdir -p "$root/bench/target"
g++ -std=c++20 -O3 -DNDEBUG -march=native -I"$src/include" "$src/bench/native_encoded.cc" -o "$cpp"

# common.sh keeps a second run of the day apart by its .json, which this script does not write.
if [ -e "$raw/$name-cpp.csv" ]; then
  name="${name}-$(date -u +%H%M%S)"
fi
csv="$raw/$name-cpp.csv"
txt="$raw/$name-java.txt"
: > "$csv"
: > "$txt"
. "$root/bench/merge-sides.sh"
echo "# $(date -u '+%Y-%m-%d %H:%M:%S UTC')  $(nproc) cores  core $core  $(uptime)" | tee -a "$txt"
for ((r = 1; r <= rounds; r++)); do
  for fixture in "fragments 0 fragments 8000" "ids 4096 tail4096 1500" "ids 0 prefix0 8000"; do
    # shellcheck disable=SC2086  # the fixture's four words on purpose
    set -- $fixture
    taskset -c "$core" "$cpp" 4096 0 60 "$1" "$2" | sed "s/^/$r,/" >> "$csv"
    for policy in byte-fixed8 byte-variable8-24 bit-fixed13 bit-variable8-24; do
      merge_steps "$r" "$policy" "$3" "$4" "$txt"
    done
  done
done
echo "# finished $(date -u '+%Y-%m-%d %H:%M:%S UTC')  $(uptime)" >> "$txt"
python3 bench/summarize_merge_vs_cpp.py "$csv" "$txt"
