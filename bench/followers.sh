#!/usr/bin/env bash
# 10,000 followers reporting every 20 s to one instance, on loopback only, bounded:
#   bench/followers.sh
# 1. starts target/ringd.jar (memory store, -Xms1g -Xmx1g, the default settings otherwise) on a
#    free port, loads 100 nodes, warms the lookup path up with wrk, takes the server's CPU at
#    rest for QUIET s (default 10) and its used heap after a full GC (jcmd GC.heap_info, as
#    streams.sh) with no follower known;
# 2. starts bench/FollowersLoad.java (java.net.http sendAsync on one thread, not a thread per
#    follower; -XX:ActiveProcessorCount=1): it reports FOLLOWERS ids (default 10000) once, then
#    each every PERIOD s (default 20), FOLLOWERS / PERIOD reports a second spread evenly, with
#    the ring's current version and fingerprint; a control file pauses and resumes it. Heap
#    after a full GC with them known: (known - none) / FOLLOWERS is the heap per follower;
# 3. ROUNDS rounds (default 4, after one of warm-up not counted), the order of each pair
#    alternated (without, with; then with, without): wrk (-t2 -c32, DURATION s, default 20,
#    bench/route-keys.lua, as http.sh) on GET /route/{key} with the followers reporting and
#    paused, then QUIET s (default 10) without wrk: paused, reporting, sending GET /settings at
#    the same rate instead (the peer of a report) and reporting while one GET /followers/converged
#    waits for a version not made (every report then recounts the followers for it): server CPU
#    (/proc/<pid>/stat) per second, per lookup, per report and per peer request, the harness's own
#    CPU, the reports' p50/p99 as the harness saw them; then the heap after a full GC once more,
#    the harness stopped (its connections closed), the 10,000 still known;
# 4. with the 10,000 known, wrk -t1 -c1 for 5 s each on GET /followers?limit=1, GET /followers
#    (1,000 shown), GET /followers/converged?wait=PT0S and GET /settings (the peer): what a
#    read of the followers costs the server.
# Everything lands in target/followers/ (summary.txt). About 8 minutes. Needs wrk (installed from
# Debian's packages when missing), a JDK (jcmd) and a built jar (built when missing). OFFLINE=
# (empty) lets Maven reach the network; it runs with -o by default.
set -euo pipefail
cd "$(dirname "$0")/.."
followers=${FOLLOWERS:-10000}
period=${PERIOD:-20}
duration=${DURATION:-20}
quiet=${QUIET:-10}
rounds=${ROUNDS:-4}
mvn_offline=${OFFLINE--o}
if ! command -v wrk >/dev/null; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null
fi
# shellcheck disable=SC2086
[ -f target/ringd.jar ] || ./mvnw -q -B $mvn_offline -DskipTests package

out=target/followers
rm -rf "$out" && mkdir -p "$out"
summary=$out/summary.txt
token=followers-bench-admin-token-0123456789
control=$out/control
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
  --ringd.store=memory --ringd.data-dir="$out/data" --ringd.admin.token="$token" >"$out/ringd.log" 2>&1 &
pid=$!
for _ in $(seq 1 1200); do
  curl -sf -o /dev/null "$base/actuator/health/readiness" && break
  kill -0 "$pid" 2>/dev/null || { echo "followers.sh: the server exited" >&2; exit 1; }
  sleep 0.1
done
changes=$(python3 -c 'import json; print(json.dumps({"changes":[{"op":"put","id":"node-%d"%i,"weight":1} for i in range(100)]}))')
curl -sf -X POST "$base/membership" -H "Authorization: Bearer $token" -H 'Content-Type: application/json' \
  -d "$changes" >/dev/null

ticks=$(getconf CLK_TCK)
cpu() { awk '{print $14 + $15}' "/proc/$1/stat"; } # user + system, in ticks
heap() { # used heap after a full GC, in KiB
  jcmd "$pid" GC.run >/dev/null
  sleep 1
  jcmd "$pid" GC.heap_info | awk '/used/ {for (i=1;i<=NF;i++) if ($i=="used") {v=$(i+1); sub("K","",v); print v; exit}}'
}
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), load $(cut -d' ' -f1-3 /proc/loadavg)" \
  | tee -a "$summary"

ctl() { echo "$1" >"$control.tmp" && mv "$control.tmp" "$control"; } # never read half written

# 1. Warm-up, the server at rest and its heap with no follower known. More connections than wrk and
# the harness will hold at once, so that the container's pools of connections and buffers are as full as later.
wrk -t2 -c96 -d5s -s bench/route-keys.lua "$base/route/x" >/dev/null
sleep 10 # the JIT done with what the warm-up compiled
c0=$(cpu "$pid"); sleep "$quiet"; c1=$(cpu "$pid")
rest_none=$(python3 -c "print(($c1 - $c0) / $ticks / $quiet * 1000)")
heap_none=$(heap)
jcmd "$pid" GC.class_histogram >"$out/histogram-none.txt"

# 2. The followers, all reported once.
ctl "pause start"
java -XX:ActiveProcessorCount=1 -XX:+UseSerialGC -Xmx256m bench/FollowersLoad.java report "$control" \
  "$followers" "$period" "$base" >"$out/harness.out" 2>"$out/harness.err" &
harness=$!
for _ in $(seq 1 1800); do
  grep -qs '^ready' "$out/harness.out" && break
  kill -0 "$harness" 2>/dev/null || { echo "followers.sh: the harness exited" >&2; cat "$out/harness.err" >&2; exit 1; }
  sleep 0.1
done
grep '^ready' "$out/harness.out" | tee -a "$summary"
known=$(curl -sf "$base/followers?limit=1" | python3 -c 'import json,sys; s=json.load(sys.stdin)["summary"]; print(sum(s.values()))')
heap_known=$(heap)
jcmd "$pid" GC.class_histogram >"$out/histogram-known.txt"
echo "followers known: $known" | tee -a "$summary"

# 3. Rounds.
phase() { # $1 wrk|quiet, $2 with|without|peer|waiting, $3 round
  local label="$1-$2-$3" c0 c1 h0 h1 t0 t1 requests rps p50 p99 waiter=
  case "$2" in
    with|waiting) ctl "run $label" ;;
    peer) ctl "peer $label" ;;
    *) ctl "pause $label" ;;
  esac
  sleep 0.3 # the harness reads its control file every 100 ms
  if [ "$2" = waiting ]; then # a version not made yet: it waits the whole phase
    v=$(curl -sf "$base/ring" | python3 -c 'import json,sys; print(json.load(sys.stdin)["version"] + 1)')
    curl -s -o "$out/waiter-$3.json" "$base/followers/converged?version=$v&wait=PT$((quiet + 1))S" &
    waiter=$!
    sleep 0.2
  fi
  c0=$(cpu "$pid"); h0=$(cpu "$harness"); t0=$(date +%s.%N)
  if [ "$1" = wrk ]; then
    wrk -t2 -c32 -d"${duration}s" --latency -s bench/route-keys.lua "$base/route/x" >"$out/wrk-$label.out"
  else
    sleep "$quiet"
  fi
  c1=$(cpu "$pid"); h1=$(cpu "$harness"); t1=$(date +%s.%N)
  if [ -n "$waiter" ]; then wait "$waiter" || true; fi # answers converged:false when its wait runs out
  requests=0; rps=0; p50=-; p99=-
  if [ "$1" = wrk ]; then
    requests=$(grep -oE '[0-9]+ requests in' "$out/wrk-$label.out" | grep -oE '^[0-9]+')
    rps=$(grep -oE 'Requests/sec: +[0-9.]+' "$out/wrk-$label.out" | grep -oE '[0-9.]+$')
    p50=$(awk '$1=="50%" {print $2}' "$out/wrk-$label.out")
    p99=$(awk '$1=="99%" {print $2}' "$out/wrk-$label.out")
  fi
  echo "$1,$2,$3,$(python3 -c "print($t1 - $t0)"),$requests,$rps,$(python3 -c "print(($c1 - $c0) / $ticks)"),$(python3 -c "print(($h1 - $h0) / $ticks)"),$p50,$p99" \
    | tee -a "$out/rounds.csv"
}
echo "kind,followers,round,seconds,requests,requests_per_s,server_cpu_s,harness_cpu_s,wrk_p50,wrk_p99" >"$out/rounds.csv"
for round in $(seq 0 "$rounds"); do # round 0 warms up and is not counted
  if [ $((round % 2)) = 1 ]; then order="without with"; else order="with without"; fi
  for f in $order; do phase wrk "$f" "$round"; done
  for f in $order; do phase quiet "$f" "$round"; done
  if [ "$round" != 0 ]; then
    if [ $((round % 2)) = 1 ]; then order="peer waiting"; else order="waiting peer"; fi
    for f in $order; do phase quiet "$f" "$round"; done
  fi
done
ctl "stop end"
wait "$harness" || true
harness=
sleep 2 # the harness's connections closed
heap_end=$(heap)
jcmd "$pid" GC.class_histogram >"$out/histogram-end.txt"
grep '^phase' "$out/harness.out" >"$out/reports.txt" || true

# 4. Reads of the followers, at 10,000 known.
echo "read,requests,requests_per_s,server_cpu_s,p50,p99" >"$out/reads.csv"
for path in "/settings" "/followers?limit=1" "/followers" "/followers/converged?wait=PT0S"; do
  wrk -t1 -c1 -d2s "$base$path" >/dev/null # warm-up
  c0=$(cpu "$pid")
  wrk -t1 -c1 -d5s --latency "$base$path" >"$out/wrk-read.out"
  c1=$(cpu "$pid")
  echo "GET $path,$(grep -oE '[0-9]+ requests in' "$out/wrk-read.out" | grep -oE '^[0-9]+'),$(grep -oE 'Requests/sec: +[0-9.]+' "$out/wrk-read.out" | grep -oE '[0-9.]+$'),$(python3 -c "print(($c1 - $c0) / $ticks)"),$(awk '$1=="50%" {print $2}' "$out/wrk-read.out"),$(awk '$1=="99%" {print $2}' "$out/wrk-read.out")" \
    >>"$out/reads.csv"
done
echo "load at the end: $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$summary"

python3 - "$out" "$followers" "$heap_none" "$heap_known" "$heap_end" "$rest_none" <<'PY' | tee -a "$summary"
import csv, re, statistics, sys
out, followers = sys.argv[1], int(sys.argv[2])
heap_none, heap_known, heap_end, rest_none = int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]), float(sys.argv[6])
rows = list(csv.DictReader(open(f"{out}/rounds.csv")))
reports = {}
for line in open(f"{out}/reports.txt"):
    m = re.match(r"phase (\S+) \S+ seconds ([\d.]+) reports (\d+) ok (\d+) failed (\d+).* rate ([\d.]+)/s "
                 r"p50 ([\d.]+) ms p99 ([\d.]+) ms max ([\d.]+) ms", line)
    if m:
        reports[m.group(1)] = dict(seconds=float(m.group(2)), sent=int(m.group(3)), ok=int(m.group(4)),
                                   failed=int(m.group(5)), rate=float(m.group(6)), p50=float(m.group(7)),
                                   p99=float(m.group(8)), max=float(m.group(9)))
def get(kind, f, r):
    return next(x for x in rows if x["kind"] == kind and x["followers"] == f and x["round"] == str(r))
rounds = sorted({int(x["round"]) for x in rows if x["round"] != "0"})
print(f"heap used after a full GC: no follower {heap_none} KiB; {followers} known, the harness stopped "
      f"{heap_end} KiB: {(heap_end - heap_none) * 1024 / followers:.0f} bytes per follower "
      f"(right after the first reports, the harness's connections open: {heap_known} KiB, "
      f"{(heap_known - heap_none) * 1024 / followers:.0f})")
def histogram(name):
    h = {}
    for line in open(f"{out}/histogram-{name}.txt"):
        p = line.split()
        if len(p) >= 4 and p[0].endswith(":"):
            h[p[3]] = (int(p[1]), int(p[2]))
    return h
none, end = histogram("none"), histogram("end")
grown = sorted(((end[c][1] - none.get(c, (0, 0))[1], end[c][0] - none.get(c, (0, 0))[0], c) for c in end),
               reverse=True)
print(f"classes that grew most, per follower ((known, harness stopped - none) / {followers}):")
for b, n, c in grown[:8]:
    print(f"  {b / followers:8.1f} bytes {n / followers:6.2f} objects  {c}")
print(f"server CPU at rest, no follower known: {rest_none:.1f} ms/s")
print("round | lookups/s without, with, ratio | server CPU per lookup without, with (us) | wrk p99 without, with"
      " | reports/s, their p50 / p99 (harness) under wrk | harness CPU ms/s")
ratios, cpu_ratio = [], []
for r in rounds:
    a, b = get("wrk", "without", r), get("wrk", "with", r)
    ra, rb = float(a["requests_per_s"]), float(b["requests_per_s"])
    ca = float(a["server_cpu_s"]) / int(a["requests"]) * 1e6
    cb = float(b["server_cpu_s"]) / int(b["requests"]) * 1e6
    ratios.append(rb / ra); cpu_ratio.append(cb / ca)
    rep = reports.get(f"wrk-with-{r}", {})
    print(f"{r} | {ra:,.0f}, {rb:,.0f}, {rb / ra:.3f} | {ca:.1f}, {cb:.1f} | {a['wrk_p99']}, {b['wrk_p99']} | "
          f"{rep.get('rate', 0):.1f}, {rep.get('p50', 0):.2f} / {rep.get('p99', 0):.2f} ms | "
          f"{float(b['harness_cpu_s']) / float(b['seconds']) * 1000:.1f}")
print(f"lookups with / without: geometric mean {statistics.geometric_mean(ratios):.3f}, median "
      f"{statistics.median(ratios):.3f} (min {min(ratios):.3f}); server CPU per lookup with / without: geometric "
      f"mean {statistics.geometric_mean(cpu_ratio):.3f}, median {statistics.median(cpu_ratio):.3f}")
print("round | server CPU ms/s without wrk: paused (known, not reporting), reporting, GET /settings at the same "
      "rate, reporting with a waiter | reports/s | server CPU per report, per GET /settings | a waiter's cost | "
      "reports p50 / p99 / max (harness) | harness CPU ms/s reporting")
per_report, per_peer, waiter = [], [], []
for r in rounds:
    a, b = get("quiet", "without", r), get("quiet", "with", r)
    c, d = get("quiet", "peer", r), get("quiet", "waiting", r)
    sa, sb, sc, sd = (float(x["server_cpu_s"]) / float(x["seconds"]) * 1000 for x in (a, b, c, d))
    rep = reports.get(f"quiet-with-{r}", {})
    rate = rep.get("rate", 0)
    peer_rate = reports.get(f"quiet-peer-{r}", {}).get("rate", 0)
    per = (sb - sa) / rate * 1000 if rate else float("nan")
    peer = (sc - sa) / peer_rate * 1000 if peer_rate else float("nan")
    per_report.append(per); per_peer.append(peer); waiter.append(sd - sb)
    print(f"{r} | {sa:.1f}, {sb:.1f}, {sc:.1f}, {sd:.1f} | {rate:.1f} | {per:.0f} us, {peer:.0f} us | "
          f"{sd - sb:+.1f} ms/s | {rep.get('p50', 0):.2f} / {rep.get('p99', 0):.2f} / {rep.get('max', 0):.2f} ms | "
          f"{float(b['harness_cpu_s']) / float(b['seconds']) * 1000:.1f}")
print(f"server CPU per report (reporting less paused, over the reports): median {statistics.median(per_report):.0f} us;"
      f" per GET /settings at the same rate {statistics.median(per_peer):.0f} us; one waiter while reporting "
      f"{statistics.median(waiter):+.1f} ms/s")
failed = sum(v["failed"] for v in reports.values())
print(f"reports refused or failed in all phases: {failed}")
print("reads with the followers known (wrk -t1 -c1, 5 s each):")
for x in csv.DictReader(open(f"{out}/reads.csv")):
    n = int(x["requests"])
    print(f"  {x['read']}: {float(x['requests_per_s']):,.0f}/s, server CPU {float(x['server_cpu_s']) / n * 1e3:.2f} ms a "
          f"request, p50 {x['p50']}, p99 {x['p99']}")
PY
