#!/usr/bin/env bash
# Writes docs/algorithms.md and its plots (docs/algorithms/*.png): balance,
# movement, lookup cost (JMH) and bounded loads of the ring, ketama, Maglev,
# rendezvous and jump hashing, with the machine it ran on. About 5 minutes.
#   bench/algorithms.sh              # the report, into docs/
#   bench/algorithms.sh --quick      # smaller samples, short JMH runs, into target/algorithms-quick/
#   bench/algorithms.sh --out DIR    # DIR/algorithms.md and DIR/algorithms/
# Compiles with the bench profile (src/jmh/java, JMH, XChart) and runs
# io.ringd.bench.AlgorithmsReport on the test class path; JMH forks its own
# JVMs from it.
set -euo pipefail
cd "$(dirname "$0")/.."
./mvnw -q -B -Pbench test-compile dependency:build-classpath \
  -Dmdep.includeScope=test -Dmdep.outputFile=target/algorithms.classpath
exec java -Xms2g -Xmx2g -Djava.awt.headless=true \
  -cp "target/test-classes:target/classes:$(cat target/algorithms.classpath)" \
  io.ringd.bench.AlgorithmsReport "$@"
