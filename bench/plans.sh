#!/usr/bin/env bash
# What ramping a change costs: the steps of a join and a drain of a tenth of
# the nodes at 10, 100 and 1,000 nodes, for ring, ketama and Maglev, with a
# 1 % budget (io.ringd.bench.PlanStepsReport), as a Markdown table with the
# machine. About 2 minutes. The time to plan the ring's steps is measured with
# JMH by bench/run.sh PlanStepsBenchmark (about 1 minute).
#   bench/plans.sh                 # every placement
#   bench/plans.sh ring ketama     # only those
set -euo pipefail
cd "$(dirname "$0")/.."
./mvnw -q -B -Pbench test-compile dependency:build-classpath \
  -Dmdep.includeScope=test -Dmdep.outputFile=target/bench.classpath
exec java -Xms2g -Xmx2g -cp "target/test-classes:target/classes:$(cat target/bench.classpath)" \
  io.ringd.bench.PlanStepsReport "$@"
