#!/usr/bin/env bash
# A bounded soak of ringd on loopback only: starts target/ringd.jar (file store, a temp data
# folder, a free port) and drives it for --seconds N (default 60) with a mix of /route lookups,
# POST /route batches, /preference, /ring/events clients that reconnect with Last-Event-ID, and
# membership changes (io.ringd.soak.Soak, in the test sources). Every answer is checked against
# the library's ring for the version it reports; the heap after a full GC (jcmd) and the open
# files (/proc/<pid>/fd) of the server are sampled. Exits non-zero on any 5xx, any wrong answer,
# any error, or a heap or file count that keeps growing. Stops by itself. Needs a JDK and Linux.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=60
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds) seconds=${2:?--seconds needs a number}; shift 2 ;;
    *) echo "usage: bench/soak.sh [--seconds N]" >&2; exit 2 ;;
  esac
done
[ -f target/ringd.jar ] || ./mvnw -q -DskipTests package
./mvnw -q test-compile
./mvnw -q dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile=target/soak.classpath >/dev/null
# the soak stops by itself after $seconds; the timeout only guards against a hang
exec timeout --kill-after=10 $((seconds + 300)) java -Dringd.jar=target/ringd.jar \
  -cp "target/test-classes:target/classes:$(cat target/soak.classpath)" io.ringd.soak.Soak --seconds "$seconds"
