#!/usr/bin/env bash
# The PNG plots of docs/benchmarks.md (docs/benchmarks/*.png), from the results the other
# scripts leave in target/: lookup cost against ring size from bench/run.sh's
# target/jmh-result.json (RingSizeBenchmark), throughput and p99 against seconds since
# start from bench/warmup.sh's target/warmup/*.csv.
# Heap per stream and delivery against open streams from bench/fanout.sh's target/fanout/fanout.csv.
#   bench/plots.sh [JMH_JSON] [WARMUP_DIR] [OUT_DIR] [FANOUT_CSV]
set -euo pipefail
cd "$(dirname "$0")/.."
./mvnw -q -B -Pbench test-compile dependency:build-classpath \
  -Dmdep.includeScope=test -Dmdep.outputFile=target/bench.classpath
exec java -Djava.awt.headless=true -cp "target/test-classes:target/classes:$(cat target/bench.classpath)" \
  io.ringd.bench.PerfPlots "${1:-target/jmh-result.json}" "${2:-target/warmup}" "${3:-docs/benchmarks}" \
  "${4:-target/fanout/fanout.csv}"
