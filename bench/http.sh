#!/usr/bin/env bash
# HTTP load test of the lookup path, on loopback only, bounded in time:
# starts target/ringd.jar (memory store) on a free port, loads 100 nodes,
# then runs wrk for DURATION seconds (default 10) against
#   GET /settings        the peer: the same stack answering without a ring lookup
#   GET /route/{key}     65,536 distinct keys
#   POST /route          100 keys per request
# and stops the server. Needs wrk (Debian package wrk) and a built jar.
set -euo pipefail
cd "$(dirname "$0")/.."
duration=${DURATION:-10}
command -v wrk >/dev/null || { echo "http.sh: wrk is missing (apt-get install wrk)" >&2; exit 1; }
[ -f target/ringd.jar ] || ./mvnw -q -DskipTests package

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()')
base="http://127.0.0.1:$port"
token=http-bench-admin-token-0123456789
work=$(mktemp -d)
java -Xms1g -Xmx1g -jar target/ringd.jar --server.port="$port" --server.address=127.0.0.1 \
  --ringd.store=memory --ringd.data-dir="$work" --ringd.admin.token="$token" >"$work/ringd.log" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null || true; wait $pid 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 1 120); do curl -sf "$base/actuator/health/readiness" >/dev/null 2>&1 && break; sleep 0.5; done

changes=$(python3 -c 'import json; print(json.dumps({"changes":[{"op":"put","id":"node-%d"%i,"weight":1} for i in range(100)]}))')
curl -sf -X POST "$base/membership" -H "Authorization: Bearer $token" -H 'Content-Type: application/json' \
  -d "$changes" >/dev/null

runs=("GET /settings|/settings|" "GET /route/{key}|/route/x|-s bench/route-keys.lua"
      "POST /route (100 keys)|/route|-s bench/batch-keys.lua")
for run in "${runs[@]}"; do # warm-up: each endpoint, so the JIT has compiled all three
  IFS='|' read -r _ path args <<<"$run"
  # shellcheck disable=SC2086
  wrk -t2 -c16 -d3s $args "$base$path" >/dev/null
done
for run in "${runs[@]}"; do
  IFS='|' read -r name path args <<<"$run"
  echo "== $name"
  # shellcheck disable=SC2086
  wrk -t2 -c32 -d"${duration}s" --latency $args "$base$path" | grep -E "Requests/sec|50%|99%|Non-2xx"
done
