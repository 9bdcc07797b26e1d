#!/usr/bin/env bash
# Fan-out: what 1,000, 5,000 and 10,000 open /ring/events streams cost one ringd and how fast a
# change reaches them all, on loopback only, bounded (about 5 minutes):
#   bench/fanout.sh
# 1. starts target/ringd.jar (memory store) with the heap the Docker image gives a 1 GiB container
#    (-XX:MaxRAMPercentage=75 of 1 GiB: -Xmx768m), ringd.watch.max-streams and
#    server.jetty.max-connections raised to hold the largest count, 100 nodes; heap after a full
#    GC (jcmd GC.run, GC.heap_info) and the server's CPU at rest with no stream open;
# 2. for each count in COUNTS (default "1000 5000 10000"): bench/StreamsLoad.java (one thread, one
#    selector, not a thread per stream) opens that many streams at OPEN_RATE a second (default
#    2000), then: heap after a full GC and a class histogram (the heap per idle stream is the
#    difference over the count), the server's CPU and threads with the streams idle for QUIET s
#    (default 10), then COMMITS (default 20) membership writes one every 500 ms, each event's delay
#    from its committedAt to its receipt by each stream (p50, p99, max, and per version);
# 3. with the largest count open: wrk (-t2 -c32, DURATION s, default 15, bench/route-keys.lua) on
#    GET /route/{key}, with the streams open and after they are closed, the order alternated over
#    ROUNDS (default 2) pairs;
# 4. a reconnect storm: the largest count closed at once and reopened at once with Last-Event-ID,
#    while wrk measures lookups: refusals, the time to reopen them all, lookup p99 during it.
# LOOKUP_WARMUP (default 45) is how long wrk warms the lookup path up before anything is measured.
# SERVER_ARGS adds settings to the server's command line. Everything lands in target/fanout/ (summary.txt). Needs wrk (installed from Debian's packages
# when missing), a JDK (jcmd) and a built jar (built when missing).
set -euo pipefail
cd "$(dirname "$0")/.."
counts=${COUNTS:-1000 5000 10000}
open_rate=${OPEN_RATE:-2000}
quiet=${QUIET:-10}
commits=${COMMITS:-20}
duration=${DURATION:-15}
rounds=${ROUNDS:-2}
heap=${HEAP:--Xmx768m}
server_args=${SERVER_ARGS:-} # more --ringd.* settings for the server, e.g. --ringd.watch.probe-interval=15s
largest=$(printf '%s\n' $counts | sort -n | tail -1)
if ! command -v wrk >/dev/null; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null
fi
[ -f target/ringd.jar ] || ./mvnw -q -B -DskipTests package
ulimit -n $((largest * 2 + 1000)) 2>/dev/null || ulimit -n "$(ulimit -Hn)"

out=target/fanout
rm -rf "$out" && mkdir -p "$out"
summary=$out/summary.txt
token=fanout-bench-admin-token-0123456789
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
# shellcheck disable=SC2086
java $heap -XX:+ExitOnOutOfMemoryError -jar target/ringd.jar --server.port="$port" --server.address=127.0.0.1 \
  --ringd.store=memory --ringd.data-dir="$out/data" --ringd.admin.token="$token" \
  --ringd.watch.max-streams=$((largest + 100)) --server.jetty.max-connections=$((largest + 2000)) $server_args \
  >"$out/ringd.log" 2>&1 &
pid=$!
for _ in $(seq 1 1200); do
  curl -sf -o /dev/null "$base/actuator/health/readiness" && break
  kill -0 "$pid" 2>/dev/null || { echo "fanout.sh: ringd exited (see $out/ringd.log)" >&2; exit 1; }
  sleep 0.1
done
auth="Authorization: Bearer $token"
changes=$(python3 -c 'import json; print(json.dumps({"changes":[{"op":"put","id":"node-%d"%i,"weight":1} for i in range(100)]}))')
curl -sf -X POST "$base/membership" -H "$auth" -H 'Content-Type: application/json' -d "$changes" >/dev/null
# the lookup path compiled: it takes the JIT tens of seconds on two cores, and a shorter warm-up made the
# first measured round (the streams open) the slow one of every run
wrk -t2 -c32 -d"${LOOKUP_WARMUP:-45}s" -s bench/route-keys.lua "$base" >/dev/null
sleep 5 # and the compiler done with it, before the CPU at rest is taken

ticks=$(getconf CLK_TCK)
cpu() { awk '{print $14 + $15}' "/proc/$1/stat"; } # user + system, in ticks
used_heap() { # used heap after a full GC, in KiB
  jcmd "$pid" GC.run >/dev/null
  sleep 1
  jcmd "$pid" GC.heap_info | awk '/used/ {for (i=1;i<=NF;i++) if ($i=="used") {v=$(i+1); sub("K","",v); print v; exit}}'
}
gauge() { curl -sf "$base/actuator/prometheus" | awk -v m="$1" '$1 ~ "^"m"[{ ]" || $1 == m {print $2; exit}'; }
{
  echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), load $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "server: $heap $server_args, $(java -version 2>&1 | head -1)"
} >"$summary"
none=$(used_heap)
jcmd "$pid" GC.class_histogram >"$out/histogram-none.txt"
c0=$(cpu "$pid"); sleep "$quiet"; c1=$(cpu "$pid")
echo "no stream: heap after a full GC $none KiB, server CPU at rest $(python3 -c "print(round(($c1 - $c0) / $ticks / $quiet * 1000, 1))") ms/s, threads $(ls /proc/$pid/task | wc -l)" >>"$summary"
echo "count | heap per idle stream (used after GC / class histogram) | server CPU idle | threads | delivery p50 / p99 / max (ms) | per-version p99 median / max | lost | open" >>"$summary"
echo "streams,heap_kib_per_stream,histogram_kib_per_stream,idle_cpu_ms_per_s,p50_ms,p99_ms,max_ms" >"$out/fanout.csv"
histogram_per() { # KiB per stream that the class histogram grew by, with $2 streams open
  bench/histogram-diff.py "$out/histogram-none.txt" "$out/histogram-$1.txt" "$2"
}
report() { # the summary line and the CSV row of a count, from the variables its run left
  local per hist p50 p99 max
  per=$(python3 -c "print(round(($with - $none) / max(1, float('${streams_now:-0}')), 1))")
  hist=$(histogram_per "$1" "${streams_now:-0}")
  read -r p50 p99 max < <(echo "$line" | sed -E 's/.*p50 ([0-9]+) p99 ([0-9]+) max ([0-9]+);.*/\1 \2 \3/')
  echo "$1 | $per / $hist KiB | $idle ms/s | $threads | $p50 / $p99 / $max | $(echo "$line" | sed -E 's/.*median ([0-9]+) max ([0-9]+).*/\1 \/ \2/') | $(echo "$line" | sed -E 's/.*lost ([0-9]+).*/\1/') | $open_line, gauge $streams_now" >>"$summary"
  echo "$1,$per,$hist,$idle,$p50,$p99,$max" >>"$out/fanout.csv"
}

start_harness() { # count, control dir
  rm -rf "$2" && mkdir -p "$2"
  java -Xmx1g -XX:ActiveProcessorCount=1 bench/StreamsLoad.java "$base" "$1" "$open_rate" "$2" >"$2/harness.log" 2>&1 &
  harness=$!
  for _ in $(seq 1 3000); do
    grep -q '^open' "$2/harness.log" 2>/dev/null && return 0
    kill -0 "$harness" 2>/dev/null || { echo "fanout.sh: the harness exited (see $2/harness.log)" >&2; exit 1; }
    if ! kill -0 "$pid" 2>/dev/null; then
      echo "$1 | ringd exited while the streams opened: $(grep -m1 -oE 'OutOfMemoryError[^\"]*|Terminating due to[^\"]*' "$out/ringd.log" || echo "see $out/ringd.log")" | tee -a "$summary" >&2
      exit 1
    fi
    sleep 0.1
  done
  echo "fanout.sh: streams not open within 300 s" >&2; exit 1
}
stop_harness() { # control dir
  touch "$1/stop"
  wait "$harness" 2>/dev/null || true
  harness=
}
written=0
commit_some() { # each write a new weight for its node, so each makes a version
  for _ in $(seq 1 "$commits"); do
    written=$((written + 1))
    curl -sf -X PUT "$base/nodes/node-$((written % 100))" -H "$auth" -H 'Content-Type: application/json' \
      -d "{\"weight\":$((written / 100 % 2 + 2))}" >/dev/null
    sleep 0.5
  done
  sleep 2
}

for n in $counts; do
  dir=$out/c$n
  start_harness "$n" "$dir"
  open_line=$(grep '^open' "$dir/harness.log")
  for _ in $(seq 1 100); do [ "$(gauge ringd_watch_streams | cut -d. -f1)" -ge "$n" ] 2>/dev/null && break; sleep 0.2; done
  streams_now=$(gauge ringd_watch_streams)
  with=$(used_heap)
  jcmd "$pid" GC.class_histogram >"$out/histogram-$n.txt"
  c0=$(cpu "$pid"); sleep "$quiet"; c1=$(cpu "$pid")
  idle=$(python3 -c "print(round(($c1 - $c0) / $ticks / $quiet * 1000, 1))")
  threads=$(ls /proc/$pid/task | wc -l)
  touch "$dir/reset"; sleep 0.5
  commit_some
  if [ "$n" = "$largest" ]; then break; fi # the largest stays open for the lookups
  stop_harness "$dir"
  line=$(grep '^events' "$dir/harness.log" || echo "events none")
  report "$n"
  sleep 3
done

# 3. lookups with the largest count open, then closed; the pairs' order alternated
dir=$out/c$largest
wrk_run() { # label round
  wrk -t2 -c32 -d"${duration}s" --latency -s bench/route-keys.lua "$base" >"$out/wrk-$1-$2.out"
  echo "$1,$2,$(grep -oE 'Requests/sec: +[0-9.]+' "$out/wrk-$1-$2.out" | grep -oE '[0-9.]+$'),$(awk '$1=="99%" {print $2}' "$out/wrk-$1-$2.out")"
}
: >"$out/wrk.csv"
wrk_run open 1 >>"$out/wrk.csv"
# the storm: close all, reopen all at once with Last-Event-ID, while wrk runs
touch "$dir/close-all"; sleep 3
wrk -t2 -c32 -d"${duration}s" --latency -s bench/route-keys.lua "$base" >"$out/wrk-storm.out" &
wrkpid=$!
sleep 2
touch "$dir/reopen"
for _ in $(seq 1 600); do grep -q '^reopened' "$dir/harness.log" && break; sleep 0.1; done
wait $wrkpid
storm=$(grep '^reopened' "$dir/harness.log" || echo "reopened none")
stop_harness "$dir"
line=$(grep '^events' "$dir/harness.log" || echo "events none")
report "$largest"
sleep 3
wrk_run closed 1 >>"$out/wrk.csv"
for r in $(seq 2 "$rounds"); do
  wrk_run closed "$r" >>"$out/wrk.csv"
  start_harness "$largest" "$dir"
  wrk_run open "$r" >>"$out/wrk.csv"
  stop_harness "$dir"
  sleep 3
done
{
  echo "lookups (wrk -t2 -c32 ${duration}s) with $largest streams open / closed, label,round,requests/s,p99:"
  cat "$out/wrk.csv"
  python3 - "$out/wrk.csv" <<'EOF'
import sys, math
rows = [l.strip().split(",") for l in open(sys.argv[1]) if l.strip()]
by = {}
for label, r, rps, p99 in rows:
    by.setdefault(r, {})[label] = float(rps)
ratios = [v["open"] / v["closed"] for v in by.values() if "open" in v and "closed" in v]
if ratios:
    g = math.exp(sum(math.log(x) for x in ratios) / len(ratios))
    print("open / closed per round: " + ", ".join("%.3f" % x for x in ratios) + "; geometric mean %.3f" % g)
EOF
  echo "reconnect storm ($largest closed at once, reopened at once with Last-Event-ID): $storm (failed: answered other than 200, refusals included); lookups meanwhile: $(grep -oE 'Requests/sec: +[0-9.]+' "$out/wrk-storm.out" | grep -oE '[0-9.]+$')/s, p99 $(awk '$1=="99%" {print $2}' "$out/wrk-storm.out")"
  echo "classes that grew most with $largest streams, per stream (bytes, objects):"
  bench/histogram-diff.py "$out/histogram-none.txt" "$out/histogram-$largest.txt" "${streams_now:-1}" --top 15
  echo "load at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
} >>"$summary"
cat "$summary"
