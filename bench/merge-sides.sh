# Sourced by bench/run-merge-floor.sh and bench/run-merge-vs-cpp.sh after common.sh, with core set:
# the jars timed side by side (ours, then BEFORE_JAR's if it is set) and how each is run.

sides=("ours:$jar")
if [ -n "${BEFORE_JAR:-}" ]; then
  sides+=("before:$BEFORE_JAR")
fi

# pinned_java CLASSPATH CLASS ARGS...: a JDK 25 on the chosen core, with the merge tools' heap.
pinned_java() { jdk taskset -c "$core" java --enable-native-access=ALL-UNNAMED -Xms2g -Xmx2g -cp "$@"; }

# merge_steps ROUND POLICY VARIANT MERGES FILE: MergeSteps of every side, one line each, prefixed by
# the round and the side, appended to FILE.
merge_steps() {
  local side line
  for side in "${sides[@]}"; do
    # Assigned first: set -e does not see a failure inside echo's arguments.
    line=$(pinned_java "${side#*:}" dev.everett.bench.MergeSteps "$2" "$3" "$4")
    echo "$1 ${side%%:*} $line" >> "$5"
  done
}
