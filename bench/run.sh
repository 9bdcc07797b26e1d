#!/usr/bin/env bash
# Runs the JMH benchmarks with the settings docs/benchmarks.md was measured
# with, printing JMH's table and writing target/jmh-result.json.
# Extra arguments go to JMH after those settings, for example:
#   bench/run.sh LookupBenchmark     # only the benchmarks matching a regex
#   bench/run.sh -l                  # list them
set -euo pipefail
cd "$(dirname "$0")/.."
exec ./mvnw -q -Pbench test-compile exec:exec \
  -Djmh.args="-f 1 -wi 3 -w 1s -i 5 -r 1s -prof gc -rf json -rff target/jmh-result.json $*"
