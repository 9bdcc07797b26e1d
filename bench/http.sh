#!/usr/bin/env bash
# HTTP load test of the lookup path, on loopback only, bounded in time:
# starts target/ringd.jar (memory store) on a free port, loads 100 nodes,
# then runs wrk for DURATION seconds (default 10) against
#   GET /actuator/health/liveness   the peer: the same app answering without a ring lookup
#   GET /settings                   a second peer: a small JSON answer of the same stack
#   GET /route/{key}                65,536 distinct keys
#   POST /route                     1,000 keys per request, varying
# and stops the server. Needs wrk (installed from Debian's packages when missing) and a
# built jar (built when missing). Each run also prints the server's CPU time per request
# (user + system, from /proc), less sensitive than requests/s to what else the machine runs.
# JAR=path runs another jar (a parent commit's, to compare back to back); ONLY=text keeps
# the endpoints whose name contains it (ONLY='POST /route' for the batch alone).
set -euo pipefail
cd "$(dirname "$0")/.."
duration=${DURATION:-10}
jar=${JAR:-target/ringd.jar}
only=${ONLY:-}
if ! command -v wrk >/dev/null; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null
fi
[ -f "$jar" ] || ./mvnw -q -DskipTests package

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()')
base="http://127.0.0.1:$port"
token=http-bench-admin-token-0123456789
work=$(mktemp -d)
java -Xms1g -Xmx1g -jar "$jar" --server.port="$port" --server.address=127.0.0.1 \
  --ringd.store=memory --ringd.data-dir="$work" --ringd.admin.token="$token" ${RINGD_ARGS:-} >"$work/ringd.log" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null || true; wait $pid 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 1 600); do curl -sf "$base/actuator/health/readiness" >/dev/null 2>&1 && break; sleep 0.5; done

changes=$(python3 -c 'import json; print(json.dumps({"changes":[{"op":"put","id":"node-%d"%i,"weight":1} for i in range(100)]}))')
curl -sf -X POST "$base/membership" -H "Authorization: Bearer $token" -H 'Content-Type: application/json' \
  -d "$changes" >/dev/null

runs=("GET /actuator/health/liveness|/actuator/health/liveness|" "GET /settings|/settings|"
      "GET /route/{key}|/route/x|-s bench/route-keys.lua"
      "POST /route (1,000 keys)|/route|-s bench/batch1000-keys.lua")
for run in "${runs[@]}"; do # warm-up: each endpoint, so the JIT has compiled all three
  IFS='|' read -r name path args <<<"$run"
  [[ "$name" == *"$only"* ]] || continue
  # shellcheck disable=SC2086
  wrk -t2 -c16 -d3s $args "$base$path" >/dev/null
done
for run in "${runs[@]}"; do
  IFS='|' read -r name path args <<<"$run"
  [[ "$name" == *"$only"* ]] || continue
  echo "== $name"
  cpu0=$(awk '{print $14 + $15}' "/proc/$pid/stat")
  # shellcheck disable=SC2086
  wrk -t2 -c32 -d"${duration}s" --latency $args "$base$path" >"$work/wrk.out"
  cpu1=$(awk '{print $14 + $15}' "/proc/$pid/stat")
  grep -E "Requests/sec|50%|99%|Non-2xx" "$work/wrk.out"
  requests=$(grep -oE '[0-9]+ requests in' "$work/wrk.out" | grep -oE '^[0-9]+')
  python3 -c "import os; t = ($cpu1 - $cpu0) / os.sysconf('SC_CLK_TCK'); \
print(f'  server CPU {t:.2f} s, {t * 1000 / max($requests, 1):.3f} ms/request')"
done
