#!/usr/bin/env bash
# Propagation to Java clients (src/jmh/java/io/ringd/bench/ClientPropagationBench.java): one
# ringd and CLIENTS RingClients (default 100) in one JVM on loopback; p50/p99 of the time from an
# admin write's 200 until every client routes at the new version, over WRITES writes (default
# 200), and the JVM's CPU per write. HANDOFF (default 16, the client's default; 0 keeps none) sets
# the versions each client keeps for handoff, REPORTS=false turns follower reports off: both only
# to see where the time goes. Each write waits until every client has reported the last one
# (GET /followers/converged) and 50 ms more; APART=false writes them back to back, so that one
# write's 100 reports run during the next one's propagation. Then the JMH comparison of a client lookup with the library's and
# with HTTP /route, unless LOOKUPS=0.
set -euo pipefail
cd "$(dirname "$0")/.."
./mvnw -q -Pbench test-compile exec:exec -Dbench.main=io.ringd.bench.ClientPropagationBench \
  -Djmh.args="${CLIENTS:-100} ${WRITES:-200} ${HANDOFF:-16} ${REPORTS:-true} ${APART:-true}"
if [ "${LOOKUPS:-1}" != 0 ]; then
  exec bench/run.sh ClientLookupBenchmark
fi
