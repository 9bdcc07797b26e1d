#!/usr/bin/env bash
# Convergence of 1,000 followers of one instance, on loopback only, bounded:
#   bench/followers-converge.sh
# starts target/ringd.jar (memory store, -Xms1g -Xmx1g, --ringd.watch.max-streams=1100, an admin
# token) on a free port, loads 100 nodes, then runs bench/FollowersLoad.java converge: FOLLOWERS
# followers (default 1000), each holding GET /ring/events open (java.net.http line subscribers
# on two threads) and reporting PUT /followers/{id} on each change with its version and
# fingerprint (32 keep-alive connections on one selector thread), timing itself from the
# change's committedAt to sending the report and to its 204; then WARM_UP
# commits (default 5) not counted and COMMITS (default 50), one every INTERVAL_MS (default
# 1000): PUT /nodes/c-N, and right after its answer GET /followers/converged?version=V&wait=PT30S,
# timed from the commit's answer to converged:true. Prints p50/p99 of that, of the followers'
# own apply times (over followers x commits) and of the server's ringd_follower_apply_seconds
# (bucket deltas of /actuator/prometheus, scraped before and after, interpolated), and the CPU
# the server and the harness spent a commit.
# Everything lands in target/followers-converge/ (summary.txt). About 2 minutes. Needs a JDK
# and a built jar (built when missing). OFFLINE= (empty) lets Maven reach the network.
set -euo pipefail
cd "$(dirname "$0")/.."
followers=${FOLLOWERS:-1000}
commits=${COMMITS:-50}
warm_up=${WARM_UP:-5}
interval=${INTERVAL_MS:-1000}
mvn_offline=${OFFLINE--o}
# shellcheck disable=SC2086
[ -f target/ringd.jar ] || ./mvnw -q -B $mvn_offline -DskipTests package

out=target/followers-converge
rm -rf "$out" && mkdir -p "$out"
summary=$out/summary.txt
token=followers-bench-admin-token-0123456789
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()')
base="http://127.0.0.1:$port"
pid=
harness=
cleanup() {
  for p in $harness $pid; do kill "$p" 2>/dev/null || true; done
  for p in $harness $pid; do wait "$p" 2>/dev/null || true; done
  echo "summary: $summary"
}
trap cleanup EXIT
java -Xms1g -Xmx1g -jar target/ringd.jar --server.port="$port" --server.address=127.0.0.1 \
  --ringd.store=memory --ringd.data-dir="$out/data" --ringd.admin.token="$token" \
  --ringd.watch.max-streams=$((followers + 100)) >"$out/ringd.log" 2>&1 &
pid=$!
for _ in $(seq 1 1200); do
  curl -sf -o /dev/null "$base/actuator/health/readiness" && break
  kill -0 "$pid" 2>/dev/null || { echo "followers-converge.sh: the server exited" >&2; exit 1; }
  sleep 0.1
done
changes=$(python3 -c 'import json; print(json.dumps({"changes":[{"op":"put","id":"node-%d"%i,"weight":1} for i in range(100)]}))')
curl -sf -X POST "$base/membership" -H "Authorization: Bearer $token" -H 'Content-Type: application/json' \
  -d "$changes" >/dev/null
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), load $(cut -d' ' -f1-3 /proc/loadavg)" \
  | tee -a "$summary"
echo "$followers followers, $warm_up commits of warm-up, $commits counted, one every $interval ms" | tee -a "$summary"
status=0
timeout --kill-after=10 300 java -Xmx512m bench/FollowersLoad.java converge "$base" "$token" "$followers" \
  "$commits" "$warm_up" "$interval" "$pid" >"$out/harness.out" 2>"$out/harness.err" &
harness=$!
wait "$harness" || status=$?
harness=
grep -vE '^commit [0-9]+' "$out/harness.out" | tee -a "$summary"
if [ -s "$out/harness.err" ]; then
  { echo "harness errors: $(wc -l <"$out/harness.err") lines, the first:"; head -3 "$out/harness.err"; } | tee -a "$summary"
fi
echo "load at the end: $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$summary"
exit $status
