#!/usr/bin/env bash
# What 1,000 open /ring/events streams cost one ringd, on loopback only, bounded in time:
# starts target/ringd.jar (memory store) on a free port, loads 100 nodes, measures the
# heap after a full GC, opens STREAMS (default 1000) streams from a second JVM, measures
# the heap again, makes WRITES (default 100) membership writes while they are open, and
# checks that every stream received every change. Needs a JDK (jcmd) and a built jar.
set -euo pipefail
cd "$(dirname "$0")/.."
streams=${STREAMS:-1000}
writes=${WRITES:-100}
[ -f target/ringd.jar ] || ./mvnw -q -DskipTests package

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()')
base="http://127.0.0.1:$port"
token=streams-bench-admin-token-0123456789
work=$(mktemp -d)
java -Xms512m -Xmx512m -jar target/ringd.jar --server.port="$port" --server.address=127.0.0.1 \
  --ringd.store=memory --ringd.data-dir="$work" --ringd.admin.token="$token" \
  --ringd.watch.max-streams=$((streams + 10)) >"$work/ringd.log" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null || true; wait $pid 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 1 120); do curl -sf "$base/actuator/health/readiness" >/dev/null 2>&1 && break; sleep 0.5; done

auth="Authorization: Bearer $token"
changes=$(python3 -c 'import json; print(json.dumps({"changes":[{"op":"put","id":"node-%d"%i,"weight":1} for i in range(100)]}))')
curl -sf -X POST "$base/membership" -H "$auth" -H 'Content-Type: application/json' -d "$changes" >/dev/null

heap() { # used heap after a full GC, in KiB
  jcmd "$pid" GC.run >/dev/null
  sleep 1
  jcmd "$pid" GC.heap_info | awk '/used/ {for (i=1;i<=NF;i++) if ($i=="used") {v=$(i+1); sub("K","",v); print v; exit}}'
}
before=$(heap)
threads_before=$(ls /proc/$pid/task | wc -l)
java bench/StreamsHeap.java "$base" "$streams" $((writes / 10 + 20)) "$writes" >"$work/client.log" 2>&1 &
client=$!
for _ in $(seq 1 120); do grep -q '^open' "$work/client.log" 2>/dev/null && break; sleep 0.5; done
grep -E "^open" "$work/client.log"
open=$(curl -sf "$base/actuator/prometheus" | awk '/^ringd_watch_streams/ {print $2}')
after=$(heap)
threads_after=$(ls /proc/$pid/task | wc -l)
start=$(date +%s%N)
for i in $(seq 1 "$writes"); do
  curl -sf -X PUT "$base/nodes/w-$((i % 10))" -H "$auth" -H 'Content-Type: application/json' \
    -d "{\"weight\":$((i % 7 + 1))}" >/dev/null
done
end=$(date +%s%N)
status=0
wait $client || status=$?
grep -E "^events" "$work/client.log" || tail -5 "$work/client.log"
echo "streams open (server's gauge): $open"
echo "heap used after GC: before ${before} KiB, with the streams ${after} KiB: $(( (after - before) / ${open%.*} )) KiB per stream"
echo "server threads: before $threads_before, with the streams $threads_after"
echo "$writes writes while the streams were open: $(( (end - start) / 1000000 )) ms"
curl -sf "$base/actuator/prometheus" | grep -E '^ringd_watch_delivery_seconds_(count|sum|max)'
exit $status
