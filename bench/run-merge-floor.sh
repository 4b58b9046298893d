#!/usr/bin/env bash
# Sets the whole merge of the native-merge fixture's tail4096 and fragments variants beside what
# publishing its output costs on this machine with no merging (`PublishFloor`: the merged output's
# bytes written from memory to a new file, forced and renamed over the previous one), on the same
# core, alternating, so both are measured in the same time window (docs/benchmarks/merge.md, "2026-12-07: the floor under the 4 KiB tails").
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
#   FLOOR_WRITES="65536 1048576"
#                     the write call sizes PublishFloor publishes with, one floor run each, in bytes
#                     (default both: 65536 was the segment writer's buffer until 82a443d, 1048576 is
#                     it since; 65536 is the side floor, another size N the side floorN)
#   VARIANTS="tail4096 fragments"
#                     the fixtures run (default both)
#
# Each round runs, per fixture (tail4096, fragments) and policy: `PublishFloor`, then `MergeSteps`
# of ours and then of BEFORE_JAR (1,500 merges or publishes on the tails, 8,000 on the fragments;
# the second half's medians). About 6 minutes a round with BEFORE_JAR; the default is 3 rounds.
#
# Output: merge-floor-<date>[-TAG].txt under docs/benchmarks/raw/ (bench/target/runs/ for a TAG),
# one line per run prefixed by round and side (floor, floorN, ours, before); then the table of
# bench/summarize_merge_floor.py (medians of the rounds; --best on the file for the fastest rounds)
# is printed.
set -euo pipefail

KIND=merge-floor
. "$(dirname "$0")/common.sh"
rounds="${1:-3}"
core="${CORE:-1}"
# Both lists checked before anything runs or a file is written.
read -r -a writes <<< "${FLOOR_WRITES-65536 1048576}"
read -r -a variants <<< "${VARIANTS-tail4096 fragments}"
if [ "${#writes[@]}" -eq 0 ] || [ "${#variants[@]}" -eq 0 ]; then
  echo "FLOOR_WRITES and VARIANTS must each name at least one entry" >&2
  exit 2
fi
for write in "${writes[@]}"; do
  if ! [[ "$write" =~ ^[1-9][0-9]{0,8}$ ]]; then
    echo "FLOOR_WRITES: '$write' is not a call size in bytes (1 to 999999999, no leading zero)" >&2
    exit 2
  fi
done
for variant in "${variants[@]}"; do
  case "$variant" in
    tail4096 | fragments) ;;
    *) echo "VARIANTS: unknown fixture '$variant' (tail4096, fragments)" >&2; exit 2 ;;
  esac
done

# common.sh keeps a second run of the day apart by its .json, which this script does not write.
if [ -e "$raw/$name.txt" ]; then
  name="${name}-$(date -u +%H%M%S)"
fi
txt="$raw/$name.txt"
: > "$txt"
. "$root/bench/merge-sides.sh"
echo "# $(date -u '+%Y-%m-%d %H:%M:%S UTC')  $(nproc) cores  core $core  $(uptime)" | tee -a "$txt"
for ((r = 1; r <= rounds; r++)); do
  for variant in "${variants[@]}"; do
    merges=1500
    if [ "$variant" = fragments ]; then
      merges=8000
    fi
    for policy in byte-fixed8 byte-variable8-24 bit-fixed13 bit-variable8-24; do
      for write in "${writes[@]}"; do
        side=floor
        if [ "$write" != 65536 ]; then
          side="floor$write"
        fi
        # Assigned first: set -e does not see a failure inside echo's arguments.
        line=$(pinned_java "$jar" -Deverett.floor.write="$write" dev.everett.bench.PublishFloor "$policy" "$variant" "$merges")
        echo "$r $side $line" >> "$txt"
      done
      merge_steps "$r" "$policy" "$variant" "$merges" "$txt"
    done
  done
done
echo "# finished $(date -u '+%Y-%m-%d %H:%M:%S UTC')  $(uptime)" >> "$txt"
python3 bench/summarize_merge_floor.py "$txt"
