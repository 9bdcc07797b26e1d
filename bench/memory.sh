#!/usr/bin/env bash
# Retained size of ring snapshots (JOL), bytes per point at about 100,000 and
# 1,000,000 points: prints a Markdown table (io.ringd.bench.MemoryReport).
set -euo pipefail
cd "$(dirname "$0")/.."
./mvnw -q -B -Pbench test-compile dependency:build-classpath \
  -Dmdep.includeScope=test -Dmdep.outputFile=target/bench.classpath
exec java -Xms2g -Xmx2g -Djdk.attach.allowAttachSelf=true -Djol.magicFieldOffset=true \
  -cp "target/test-classes:target/classes:$(cat target/bench.classpath)" io.ringd.bench.MemoryReport "$@"
