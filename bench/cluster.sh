#!/usr/bin/env bash
# Three ringd instances on a three-server ZooKeeper ensemble, all in one JVM on loopback
# (src/jmh/java/io/ringd/bench/ClusterBench.java): convergence time from a write's 200 on
# one instance to all three serving it (p50, p99 over WRITES writes, default 200), and write
# throughput through one instance and through three (SECONDS each, default 10). About a minute.
set -euo pipefail
cd "$(dirname "$0")/.."
exec ./mvnw -q -Pbench test-compile exec:exec -Dbench.main=io.ringd.bench.ClusterBench \
  -Djmh.args="${WRITES:-200} ${SECONDS_EACH:-10}"
