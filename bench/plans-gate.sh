#!/usr/bin/env bash
# A ramped join gated on the fleet (src/jmh/java/io/ringd/bench/PlanGateBench.java): one ringd and
# FOLLOWERS RingClients (default 100) in one JVM on loopback; a tenth node joins nine in 1 % steps,
# without a gate and gated on every follower, at each INTERVALS (ms, default 0,500); prints the time
# each step took beyond minStepInterval. TICK is ringd.plans.tick (default 100ms). About a minute.
set -euo pipefail
cd "$(dirname "$0")/.."
exec ./mvnw -q -Pbench test-compile exec:exec -Dbench.main=io.ringd.bench.PlanGateBench \
  -Djmh.args="${FOLLOWERS:-100} ${INTERVALS:-0,500} ${TICK:-100ms}"
