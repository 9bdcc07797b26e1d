#!/usr/bin/env bash
# 100 named rings of 50 nodes x 128 points (md5) on one instance, on loopback only, bounded:
#   bench/rings.sh
# 1. seeds two file-store data folders with target/ringd.jar: "one" holds the ring default
#    (50 nodes), "hundred" the same and RINGS (default 100) named rings r-000 .. of 50 nodes each;
# 2. starts the jar STARTS times (default 3) on a fresh copy of each folder, in turn, timing from the
#    launch to the first 200 of /actuator/health/readiness (polled every 50 ms, as warmup.sh),
#    and Spring's "process running for" (context up, before the 3 s lookup warm-up); on the last
#    start of each, touches every ring with 3 s of lookups, then takes the used heap after a full
#    GC (jcmd GC.heap_info, as streams.sh) and a class histogram: (hundred - one) / RINGS is the
#    heap per ring, and the classes that grew most are printed per ring;
# 3. on that "hundred" instance, wrk (-t2 -c32, DURATION s, default 6) with bench/rings-keys.lua:
#    GET /route/{key} (default, no prefix), GET /rings/r-000/route/{key} (one ring) and the same
#    spread at random over all RINGS rings, the three in turn ROUNDS times (default 4, so that a
#    shared machine's drift hits all alike; ratios per round) after a round of warm-up, each with the server's CPU per
#    request (/proc), as http.sh;
# 4. in-process: RingsLookupBenchmark (JMH, Rings.get(name).service().current().ring().route(key),
#    one ring against spread over 100) and RingStateSizes (StateCodec's stored form of one ring,
#    raw and gzipped as ZooKeeperRingStore writes it, against jute.maxbuffer); and RingsLoad, the
#    101 rings loaded from the folder by Rings alone, without parts (metrics, loads, streams).
# Everything lands in target/rings/ (summary.txt). About 6 minutes on 2 cores at rest, 15 with
# other builds running. Needs wrk (installed from Debian's packages when missing), a JDK (jcmd)
# and a built jar (built when missing). OFFLINE= (empty) lets Maven reach the network; it runs with -o by default.
set -euo pipefail
cd "$(dirname "$0")/.."
rings=${RINGS:-100}
starts=${STARTS:-3}
duration=${DURATION:-6}
rounds=${ROUNDS:-4}
mvn_offline=${OFFLINE--o}
if ! command -v wrk >/dev/null; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null
fi
# shellcheck disable=SC2086
[ -f target/ringd.jar ] || ./mvnw -q -B $mvn_offline -DskipTests package

out=target/rings
rm -rf "$out" && mkdir -p "$out"
summary=$out/summary.txt
token=rings-bench-admin-token-0123456789
auth="Authorization: Bearer $token"
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'; }
pid=
cleanup() { if [ -n "$pid" ]; then kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; fi; }
trap cleanup EXIT
start() { # $1 data folder, $2 log: starts the jar, sets pid, port and base
  port=$(free_port); base="http://127.0.0.1:$port"
  java -Xms1g -Xmx1g -jar target/ringd.jar --server.port="$port" --server.address=127.0.0.1 \
    --ringd.data-dir="$1" --ringd.admin.token="$token" --ringd.rings.max=$((rings + 1)) >"$2" 2>&1 &
  pid=$!
}
wait_ready() {
  for _ in $(seq 1 2400); do
    curl -sf -o /dev/null "$base/actuator/health/readiness" && return 0
    kill -0 "$pid" 2>/dev/null || { echo "rings.sh: the server exited" >&2; return 1; }
    sleep 0.05
  done
  echo "rings.sh: not ready after 120 s" >&2; return 1
}
stop() { kill "$pid"; wait "$pid" 2>/dev/null || true; pid=; }
heap() { # used heap after a full GC, in KiB
  jcmd "$pid" GC.run >/dev/null
  sleep 1
  jcmd "$pid" GC.heap_info | awk '/used/ {for (i=1;i<=NF;i++) if ($i=="used") {v=$(i+1); sub("K","",v); print v; exit}}'
}
members() { # $1 prefix of the ids: a batch of 50 puts
  python3 -c "import json,sys; print(json.dumps({'changes':[{'op':'put','id':'%s-cache-%02d'%(sys.argv[1],i),'weight':1} for i in range(50)]}))" "$1"
}

# 1. The two data folders.
start "$out/one" "$out/seed.log"
wait_ready
curl -sf -X POST "$base/membership" -H "$auth" -H 'Content-Type: application/json' -d "$(members default)" >/dev/null
stop
cp -r "$out/one" "$out/hundred"
start "$out/hundred" "$out/seed.log"
wait_ready
for r in $(seq 0 $((rings - 1))); do
  name=$(printf 'r-%03d' "$r")
  curl -sf -X POST "$base/rings" -H "$auth" -H 'Content-Type: application/json' \
    -d "{\"name\":\"$name\",\"settings\":{}}" >/dev/null
  curl -sf -X POST "$base/rings/$name/membership" -H "$auth" -H 'Content-Type: application/json' \
    -d "$(members "$name")" >/dev/null
done
echo "rings served: $(curl -sf "$base/rings" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(len(d["rings"]) if isinstance(d,dict) else len(d))')" \
  | tee -a "$summary"
stop
echo "data folders: one $(du -sk "$out/one" | cut -f1) KiB, hundred $(du -sk "$out/hundred" | cut -f1) KiB" | tee -a "$summary"

# 2. Start-up and heap.
touch_rings() { # $1: the lua script's RINGS (0: default only)
  RINGS=$1 wrk -t2 -c16 -d3s -s bench/rings-keys.lua "$base/x" >/dev/null
}
for s in $(seq 1 "$starts"); do # alternated, so that a machine's drift hits both alike
  for variant in one hundred; do
    data=$(mktemp -d)
    cp -r "$out/$variant/." "$data/"
    t0=$(date +%s.%N)
    start "$data" "$out/$variant-$s.log"
    wait_ready
    ready=$(python3 -c "import time; print(round(time.time() - $t0, 3))")
    spring=$(grep -oE 'process running for [0-9.]+' "$out/$variant-$s.log" | grep -oE '[0-9.]+$' || echo '?')
    loading=$(grep "Serving ring version" "$out/$variant-$s.log" | python3 -c '
import sys, datetime
t = [datetime.datetime.fromisoformat(l.split()[0].rstrip("Z")) for l in sys.stdin]
print(round((t[-1] - t[0]).total_seconds(), 2) if t else "?")')
    echo "start $variant #$s: ready after $ready s (Spring started, before warm-up: $spring s; from the" \
      "first ring served to the last: $loading s)" | tee -a "$summary"
    echo "$variant,$s,$ready,$spring" >>"$out/starts.csv"
    if [ "$s" = "$starts" ]; then
      h0=$(heap)
      if [ "$variant" = one ]; then touch_rings 0; else touch_rings "$rings"; fi
      h1=$(heap)
      jcmd "$pid" GC.class_histogram >"$out/histogram-$variant.txt"
      echo "heap $variant: $h0 KiB at ready, $h1 KiB after every ring served lookups" | tee -a "$summary"
      echo "$variant,$h0,$h1" >>"$out/heap.csv"
    fi
    if [ "$variant" = hundred ] && [ "$s" = "$starts" ]; then
      break 2 # stays up for the HTTP load
    fi
    stop
    rm -rf "$data"
  done
done
python3 - "$out" "$rings" <<'PY' | tee -a "$summary"
import sys, statistics
out, rings = sys.argv[1], int(sys.argv[2])
starts = {}
for line in open(f"{out}/starts.csv"):
    v, s, ready, spring = line.strip().split(",")
    starts.setdefault(v, []).append((float(ready), float(spring) if spring != "?" else float("nan")))
for v, xs in starts.items():
    print(f"start-up {v}: median ready {statistics.median(x[0] for x in xs):.2f} s, "
          f"median Spring started {statistics.median(x[1] for x in xs):.2f} s ({len(xs)} starts)")
heap = {l.split(",")[0]: [int(x) for x in l.strip().split(",")[1:]] for l in open(f"{out}/heap.csv")}
for i, when in enumerate(["at ready", "after lookups on every ring"]):
    d = heap["hundred"][i] - heap["one"][i]
    print(f"heap per ring {when}: ({heap['hundred'][i]} - {heap['one'][i]}) KiB / {rings} = {d / rings:.1f} KiB")
def histogram(name):
    h = {}
    for line in open(f"{out}/histogram-{name}.txt"):
        p = line.split()
        if len(p) >= 4 and p[0].endswith(":"):
            h[p[3]] = (int(p[1]), int(p[2]))
    return h
one, hundred = histogram("one"), histogram("hundred")
grown = sorted(((hundred[c][1] - one.get(c, (0, 0))[1], hundred[c][0] - one.get(c, (0, 0))[0], c)
                for c in hundred), reverse=True)
print(f"classes that grew most, per ring ((hundred - one) / {rings}):")
for b, n, c in grown[:12]:
    print(f"  {b / rings / 1024:8.1f} KiB {n / rings:9.1f} objects  {c}")
PY

# 3. HTTP: the ring default without the prefix, one named ring, and all of them.
load() { # $1 label, $2 the lua script's RINGS
  echo "== $1" | tee -a "$summary"
  local cpu0 cpu1 requests
  cpu0=$(awk '{print $14 + $15}' "/proc/$pid/stat")
  RINGS=$2 wrk -t2 -c32 -d"${duration}s" --latency -s bench/rings-keys.lua "$base/x" >"$out/wrk.out"
  cpu1=$(awk '{print $14 + $15}' "/proc/$pid/stat")
  grep -E "Requests/sec|50%|99%|Non-2xx" "$out/wrk.out" | tee -a "$summary"
  requests=$(grep -oE '[0-9]+ requests in' "$out/wrk.out" | grep -oE '^[0-9]+')
  python3 -c "import os; t = ($cpu1 - $cpu0) / os.sysconf('SC_CLK_TCK'); \
print(f'  server CPU {t:.2f} s, {t * 1000 / max($requests, 1):.3f} ms/request')" | tee -a "$summary"
  rps=$(grep -oE 'Requests/sec: +[0-9.]+' "$out/wrk.out" | grep -oE '[0-9.]+$')
  echo "$1,$rps,$(python3 -c "import os; print(($cpu1 - $cpu0) / os.sysconf('SC_CLK_TCK') * 1000 / max($requests, 1))")" \
    >>"$out/http.csv"
}
for round in $(seq 0 "$rounds"); do # round 0 warms the three up and is not counted
  load "default /route/{key} #$round" 0
  load "one ring /rings/r-000/route/{key} #$round" 1
  load "$rings rings /rings/r-NNN/route/{key} #$round" "$rings"
done
python3 - "$out/http.csv" <<'PY' | tee -a "$summary"
import sys
import statistics
rows = [l.strip().rsplit(",", 2) for l in open(sys.argv[1])]
rows = [r for r in rows if not r[0].endswith("#0")]
one = [(float(r), float(c)) for n, r, c in rows if n.startswith("one ring")]
spread = [(float(r), float(c)) for n, r, c in rows if " rings " in n]
default = [(float(r), float(c)) for n, r, c in rows if n.startswith("default")]
pairs = [s[0] / o[0] for o, s in zip(one, spread)]
cpu = [o[1] / s[1] for o, s in zip(one, spread)]
print("HTTP: spread / one ring, requests/s of each pair (one ring, then spread): "
      + ", ".join(f"{p:.2f}" for p in pairs) + f"; geometric mean {statistics.geometric_mean(pairs):.3f}")
print("HTTP: one ring's CPU per request / spread's, each pair: " + ", ".join(f"{p:.2f}" for p in cpu)
      + f"; geometric mean {statistics.geometric_mean(cpu):.3f} (above 1: spread costs less)")
prefix = [o[0] / d[0] for d, o in zip(default, one)]
print("HTTP: one named ring / default without the prefix, requests/s of each round: "
      + ", ".join(f"{p:.2f}" for p in prefix) + f"; geometric mean {statistics.geometric_mean(prefix):.3f}")
PY
stop
rm -rf "$data"

# 4. In-process: the lookup through Rings, and the stored form's size (IN_PROCESS=no skips them).
[ "${IN_PROCESS:-yes}" = yes ] || exit 0
# shellcheck disable=SC2086
./mvnw -q -B $mvn_offline -Pbench test-compile dependency:build-classpath \
  -Dmdep.includeScope=test -Dmdep.outputFile=target/bench.classpath
cp="target/test-classes:target/classes:$(cat target/bench.classpath)"
java -cp "$cp" org.openjdk.jmh.Main RingsLookupBenchmark -f 1 -wi 3 -w 1s -i 5 -r 1s -prof gc \
  -rf json -rff "$out/jmh.json" 2>&1 | grep -vE 'INFO|DEBUG' | tee "$out/jmh.txt" | sed -n '/^Benchmark/,$p' \
  | tee -a "$summary"
java -cp "$cp" io.ringd.bench.RingsLoad "$out/hundred" 5 2>&1 | grep -vE 'INFO|DEBUG' | tee -a "$summary"
java -Xmx4g -cp "$cp" io.ringd.bench.RingStateSizes 2>&1 | grep -vE 'INFO|DEBUG' | tee -a "$summary"
