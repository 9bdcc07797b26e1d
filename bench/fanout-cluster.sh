#!/usr/bin/env bash
# Fan-out over three instances: STREAMS (default 30,000) open /ring/events streams through the
# HAProxy of docker-compose.cluster.yml (run without Docker) to three ringd instances sharing one
# ZooKeeper, on loopback only, bounded (stopped after LIMIT s, default 900; about 5 minutes):
#   bench/fanout-cluster.sh                  # STREAMS=3000 for a quick check
# 1. starts one real ZooKeeper server (bench/FollowersZooKeeper.java: the zookeeper jar from the
#    Maven cache) and three instances of target/ringd.jar (ringd.store=zookeeper; HEAP, default
#    -Xmx768m, the heap the Docker image gives a 1 GiB container; ringd.watch.max-streams
#    PER_INSTANCE, default 12000, and server.jetty.max-connections 1,000 more), and loads 100 nodes;
# 2. makes HAProxy's configuration from deploy/haproxy/haproxy.cfg at run time, so that the run
#    uses that file's choices (balance leastconn for the streams, the checks, timeouts, options):
#    the servers at 127.0.0.1:<port of each instance>, no Docker resolvers nor init-addr, the
#    frontend and the stats page bound to loopback, the global maxconn raised to hold the streams;
#    and starts HAProxy on it (installed from Debian's packages when missing). A proxied stream
#    takes HAProxy two file descriptors (the client's, the server's): when the hard limit
#    (ulimit -Hn) cannot hold them all in one process, HAPROXIES processes (default: as few as hold
#    STREAMS) run the same configuration, each bound to its own loopback address (127.0.0.1,
#    127.0.0.2, ...; the same ports), which also keeps each address under the ephemeral ports one
#    destination has (about 28,000); the summary says how many ran and why;
# 3. with no stream open: each instance's heap after a full GC (jcmd GC.run, GC.heap_info) and
#    class histogram, and the CPU at rest of the instances, HAProxy and ZooKeeper over QUIET s
#    (default 10); then bench/StreamsLoad.java (one thread, one selector) opens STREAMS streams
#    through HAProxy, OPEN_RATE a second in all (default 500: at 2,000, bench/fanout.sh's rate,
#    HAProxy's checks took the busy instances out on this machine), from as few harness JVMs as
#    the file-descriptor limit allows, each spreading its streams over the HAProxy addresses; per
#    instance: the streams it holds (its ringd_watch_streams gauge, and HAProxy's count), the heap
#    per idle stream (heap after a full GC and class histogram total, the difference over its
#    streams), RSS, threads; the CPU of each process while the streams open and over QUIET s with
#    them idle (instances, HAProxy processes, ZooKeeper, harnesses); HAProxy's own counts
#    (sessions, the answers it made itself, failed checks);
# 4. COMMITS (default 20) membership writes through HAProxy, one every 500 ms: each change event's
#    delay from its committedAt to its receipt by each stream (p50, p99, max, and per version), the
#    streams that missed a version (lost), the events received against those expected; and each
#    instance's own account (ringd_watch_delivery_seconds: from the commit to the event written).
# HAPROXIES and HARNESS_STREAMS (streams a harness JVM opens) override what the file-descriptor
# limit makes them. SERVER_ARGS adds settings to each instance's command line. Everything lands in
# target/fanout-cluster/ (summary.txt, progress.log, the generated haproxy-*.cfg, logs). Needs a
# JDK (jcmd) and a built jar (built when missing); the ZooKeeper jar comes from the Maven cache
# (dependency:build-classpath, offline unless OFFLINE= is set empty).
set -euo pipefail
cd "$(dirname "$0")/.."
started=$(date +%s)
streams=${STREAMS:-30000}
per_instance=${PER_INSTANCE:-12000}
open_rate=${OPEN_RATE:-500} # in all
quiet=${QUIET:-10}
commits=${COMMITS:-20}
heap=${HEAP:--Xmx768m}
limit=${LIMIT:-900}
server_args=${SERVER_ARGS:-} # more settings for each instance, e.g. --ringd.watch.keep-alive=15s
mvn_offline=${OFFLINE--o}
instances=3 # the servers of deploy/haproxy/haproxy.cfg: ringd1, ringd2, ringd3

out=target/fanout-cluster
rm -rf "$out" && mkdir -p "$out"
summary=$out/summary.txt
zk=
watchdog=
pids=()
haps=()
harn=()
cleanup() {
  trap '' TERM INT # a second signal (the watchdog's) must not cut the cleanup short
  set +e
  [ -n "$watchdog" ] && kill "$watchdog" 2>/dev/null
  for p in "${harn[@]}" "${haps[@]}" "${pids[@]}"; do kill "$p" 2>/dev/null; done
  for p in "${harn[@]}" "${haps[@]}" "${pids[@]}"; do wait "$p" 2>/dev/null; done
  [ -n "$zk" ] && kill "$zk" 2>/dev/null && wait "$zk" 2>/dev/null # the last: the instances' sessions closed
  echo "summary: $summary"
}
trap cleanup EXIT
trap 'echo "fanout-cluster.sh: stopped (a signal, or over LIMIT=$limit s)" | tee -a "$summary" >&2; exit 124' TERM INT
( trap 'kill $s 2>/dev/null; exit 0' TERM; sleep "$limit" & s=$!; wait $s; kill -TERM $$ ) &
watchdog=$!
progress() { echo "$(date +%T) +${SECONDS}s $*" | tee -a "$out/progress.log" >&2; }
die() { echo "fanout-cluster.sh: $*" | tee -a "$summary" >&2; exit 1; }
alive() { # every process started so far still runs, or the script stops, naming the one that does not
  local i st
  [ -z "$zk" ] || kill -0 "$zk" 2>/dev/null || die "ZooKeeper exited (see $out/zookeeper.log)"
  for i in "${!pids[@]}"; do
    kill -0 "${pids[$i]}" 2>/dev/null || die "instance $((i + 1)) exited: $(grep -m1 -oE 'OutOfMemoryError[^"]*|Terminating due to[^"]*' \
      "$out/ringd-$((i + 1)).log" || echo "see $out/ringd-$((i + 1)).log")"
  done
  for i in "${!haps[@]}"; do
    kill -0 "${haps[$i]}" 2>/dev/null || die "HAProxy $((i + 1)) exited (see $out/haproxy-$((i + 1)).log)"
  done
  for i in "${!harn[@]}"; do
    if ! kill -0 "${harn[$i]}" 2>/dev/null; then
      st=0; wait "${harn[$i]}" || st=$?
      die "harness $((i + 1)) exited, status $st (see $out/harness-$((i + 1))/harness.log)"
    fi
  done
}
wait_until() { # SECONDS COMMAND...: until the command succeeds (1 when the time is up), the processes checked
  local deadline=$((SECONDS + $1))
  shift
  until "$@"; do
    alive
    [ "$SECONDS" -lt "$deadline" ] || return 1
    sleep 0.2
  done
}

if ! command -v haproxy >/dev/null; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq haproxy >/dev/null
fi
# shellcheck disable=SC2086
[ -f target/ringd.jar ] || ./mvnw -q -B $mvn_offline -DskipTests package
classpath=target/fanout-cluster.classpath
if [ ! -s "$classpath" ] || [ pom.xml -nt "$classpath" ]; then
  # shellcheck disable=SC2086
  ./mvnw -q -B $mvn_offline dependency:build-classpath -Dmdep.includeScope=test \
    -Dmdep.outputFile="$classpath" >/dev/null
fi

# File descriptors: one per stream in a harness and an instance, two per stream in HAProxy.
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
nofile=$(ulimit -n)
[ "$nofile" = unlimited ] && nofile=1048576
hap_cap=$(((nofile - 200) / 2))                                       # streams one HAProxy process holds
haproxies=${HAPROXIES:-$(((streams + hap_cap - 201) / (hap_cap - 200)))} # each with 200 to spare
harness_cap=${HARNESS_STREAMS:-$((nofile - 1000 < 15000 ? nofile - 1000 : 15000))} # streams one harness JVM opens
harnesses=$(((streams + harness_cap - 1) / harness_cap))
naddr=$(((streams + 19999) / 20000)) # at most 20,000 connections to one address
[ "$naddr" -lt "$haproxies" ] && naddr=$haproxies
share=$(((streams + haproxies - 1) / haproxies))
hap_maxconn=$((share + 200))

token=fanout-cluster-bench-admin-token-0123456789
auth="Authorization: Bearer $token"
json='Content-Type: application/json'
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'; }
cpu() { awk '{print $14 + $15}' "/proc/$1/stat"; } # user + system, in ticks
rss() { awk '/^VmRSS/ {print $2}' "/proc/$1/status"; } # KiB
ticks=$(getconf CLK_TCK)
ms_per_s() { python3 -c "print(round(($2 - $1) / $ticks / $quiet * 1000, 1))"; }
used_heap() { # used heap after a full GC, in KiB
  jcmd "$1" GC.run >/dev/null
  sleep 1
  jcmd "$1" GC.heap_info | awk '/used/ {for (i=1;i<=NF;i++) if ($i=="used") {v=$(i+1); sub("K","",v); print v; exit}}'
}
histogram() { # pid file: the class histogram (live objects: a full GC first); prints its total, in bytes
  jcmd "$1" GC.class_histogram >"$2"
  awk '$1 == "Total" {print $3}' "$2"
}
gauge() { curl -sf "$1/actuator/prometheus" | awk -v m="$2" '$1 ~ "^"m"[{ ]" || $1 == m {print $2; exit}'; }
{
  echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), load $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "streams $streams; instances: $instances x ($heap, ringd.watch.max-streams=$per_instance, server.jetty.max-connections=$((per_instance + 1000)) $server_args), $(java -version 2>&1 | head -1)"
  echo "file descriptors: ulimit -n $nofile (hard $(ulimit -Hn)): one HAProxy process holds at most $hap_cap streams -> $haproxies HAProxy process(es), maxconn $hap_maxconn each, on $naddr loopback address(es); $harnesses harness JVM(s); $(haproxy -v | head -1)"
} >"$summary"

# 1. ZooKeeper, the instances, 100 nodes.
progress "ZooKeeper and $instances instances"
zkport=$(free_port)
java -Xmx256m -cp "$(cat "$classpath")" bench/FollowersZooKeeper.java "$zkport" "$out/zk" \
  "$out/znodes.csv" /ringd/followers >"$out/zookeeper.log" 2>&1 &
zk=$!
wait_until 120 grep -qs '^zookeeper up' "$out/zookeeper.log" || die "ZooKeeper not up within 120 s"
ports=()
bases=()
for i in $(seq 1 "$instances"); do
  port=$(free_port)
  # shellcheck disable=SC2086
  java $heap -XX:+ExitOnOutOfMemoryError -jar target/ringd.jar --server.port="$port" --server.address=127.0.0.1 \
    --ringd.store=zookeeper --ringd.zookeeper.connect="127.0.0.1:$zkport" --ringd.data-dir="$out/data-$i" \
    --ringd.admin.token="$token" --ringd.watch.max-streams="$per_instance" \
    --server.jetty.max-connections=$((per_instance + 1000)) $server_args >"$out/ringd-$i.log" 2>&1 &
  pids+=($!)
  ports+=("$port")
  bases+=("http://127.0.0.1:$port")
done
for i in "${!bases[@]}"; do
  wait_until 300 curl -sf -o /dev/null "${bases[$i]}/actuator/health/readiness" \
    || die "instance $((i + 1)) not ready within 300 s"
done
progress "instances ready"
changes=$(python3 -c 'import json; print(json.dumps({"changes":[{"op":"put","id":"node-%d"%i,"weight":1} for i in range(100)]}))')
curl -sf -X POST "${bases[0]}/membership" -H "$auth" -H "$json" -d "$changes" >/dev/null
version() { curl -sf "$1/ring" | python3 -c 'import json,sys; print(json.load(sys.stdin)["version"])'; }
v=$(version "${bases[0]}")
at_version() { [ "$(version "$1")" = "$v" ]; }
for b in "${bases[@]}"; do
  wait_until 30 at_version "$b" || die "$b not at version $v within 30 s"
done

# 2. HAProxy, its configuration made from deploy/haproxy/haproxy.cfg.
lbport=$(free_port)
statsport=$(free_port)
addr() { echo "127.0.0.$1"; } # the k-th loopback address, from 1
addresses=$(for j in $(seq 1 "$naddr"); do printf '%s%s' "$([ "$j" -gt 1 ] && echo ,)" "$(addr "$j"):$lbport"; done)
for k in $(seq 1 "$haproxies"); do
  binds=$(for j in $(seq 1 "$naddr"); do if [ $(((j - 1) % haproxies + 1)) -eq "$k" ]; then printf '%s ' "$(addr "$j"):$lbport"; fi; done)
  python3 - deploy/haproxy/haproxy.cfg "$out/haproxy-$k.cfg" "$hap_maxconn" "$binds" "$(addr "$k"):$statsport" \
    "${ports[*]}" "$k" "$haproxies" <<'PY'
import re, sys
src, dst, maxconn, binds, stats, ports, k, n = sys.argv[1:]
binds, ports = binds.split(), ports.split()
out, section, done = [], None, {"maxconn": 0, "bind": 0, "stats": 0, "server": 0, "default-server": 0, "resolvers": 0}
header = re.compile(r"^(global|defaults|frontend|backend|listen|resolvers|peers|userlist|cache|program|http-errors|ring|mailers)\b")
for line in open(src):
    s = line.strip()
    if header.match(line):
        section = s
        if s.startswith("resolvers "):  # Docker's embedded DNS: nothing to resolve here
            done["resolvers"] += 1
            continue
    elif section and section.startswith("resolvers "):
        if s and not s.startswith("#"):
            continue
        if not s:
            section = None
    if section == "global" and re.match(r"maxconn\s+\d+$", s):
        line = re.sub(r"\d+", maxconn, line)
        done["maxconn"] += 1
    elif s.startswith("default-server ") and "resolvers" in s:
        rest = re.sub(r"\s(init-addr|resolvers)\s+\S+", "", " " + s[len("default-server"):]).strip()
        done["default-server"] += 1
        if not rest:
            continue
        line = "    default-server " + rest + "\n"
    elif s.startswith("bind ") and section == "frontend stats":
        line = "    bind %s\n" % stats
        done["stats"] += 1
    elif s.startswith("bind ") and section and section.startswith("frontend "):
        line = "".join("    bind %s\n" % b for b in binds)
        done["bind"] += 1
    else:
        m = re.match(r"server\s+ringd(\d+)\s+ringd\d+:8080(\s.*)?$", s)
        if m:
            line = "    server ringd%s 127.0.0.1:%s%s\n" % (m.group(1), ports[int(m.group(1)) - 1], m.group(2) or "")
            done["server"] += 1
    out.append(line)
want = {"maxconn": 1, "bind": 1, "stats": 1, "server": 2 * len(ports), "default-server": 1, "resolvers": 1}
if done != want:
    sys.exit("deploy/haproxy/haproxy.cfg is not as bench/fanout-cluster.sh expects: %s, expected %s" % (done, want))
open(dst, "w").write("# Made by bench/fanout-cluster.sh from deploy/haproxy/haproxy.cfg (process %s of %s): servers on\n"
                     "# 127.0.0.1, no Docker resolvers nor init-addr, loopback binds, maxconn %s.\n" % (k, n, maxconn)
                     + "".join(out))
PY
  haproxy -c -q -f "$out/haproxy-$k.cfg" >"$out/haproxy-$k.check" 2>&1 \
    || die "haproxy -c refused $out/haproxy-$k.cfg: $(cat "$out/haproxy-$k.check")"
  haproxy -db -f "$out/haproxy-$k.cfg" >"$out/haproxy-$k.log" 2>&1 &
  haps+=($!)
done
stats() { curl -sf "http://$(addr "$1"):$statsport/;csv"; } # HAProxy process k's counters
lbstats() { # a stats CSV: the frontend's sessions and the answers HAProxy made itself, the checks
  python3 - "$1" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
head = [h.lstrip("# ") for h in rows[0]]
rows = [dict(zip(head, r)) for r in rows[1:] if len(r) > 1]
num = lambda r, k: int(r.get(k) or 0)
fe = next(r for r in rows if r["pxname"] == "ringd" and r["svname"] == "FRONTEND")
be = next(r for r in rows if r["pxname"] == "ringd_events" and r["svname"] == "BACKEND")
checked = [r for r in rows if r["pxname"] == "ringd" and r["svname"] not in ("FRONTEND", "BACKEND")]
print("sessions %s (limit %s, %d in all), 4xx %d (request errors %d), 5xx %d (server errors %d); "
      "checks failed %d, servers down %s s" % (fe["scur"], fe["slim"], num(fe, "stot"),
      num(fe, "hrsp_4xx"), num(fe, "ereq"), num(fe, "hrsp_5xx"), num(be, "eresp"),
      sum(num(r, "chkfail") for r in checked), "/".join(str(num(r, "downtime")) for r in checked)))
PY
}
all_up() { # every HAProxy process sees every instance up
  local k
  for k in $(seq 1 "$haproxies"); do
    [ "$(stats "$k" | awk -F, '$1 == "ringd_events" && $2 ~ /^ringd[0-9]+$/ && $18 == "UP"' | wc -l)" -eq "$instances" ] || return 1
  done
}
wait_until 120 all_up || echo "not every instance up in every HAProxy within 120 s: going on" | tee -a "$summary" >&2
for k in $(seq 1 "$haproxies"); do
  wait_until 30 curl -sf -o /dev/null "http://$(addr "$k"):$lbport/actuator/health/readiness" \
    || die "no answer through HAProxy $k within 30 s"
done
progress "$haproxies HAProxy process(es) up"
lb="http://127.0.0.1:$lbport"
warnings=$(cat "$out"/haproxy-*.log | grep -ciE 'warning|alert' || true)
[ "$warnings" -gt 0 ] && { echo "HAProxy's warnings:"; cat "$out"/haproxy-*.log | grep -iE 'warning|alert' | sort | uniq -c; } >>"$summary"
sleep 5 # the instances' start-up work done before the CPU at rest is taken

# 3. No stream, then STREAMS idle streams.
progress "no stream: heap, histograms, CPU at rest"
allpids() { echo "${pids[*]} ${haps[*]} $zk ${harn[*]}"; }
cpu_all() { for p in $(allpids); do printf '%s ' "$(cpu "$p")"; done; }
declare -a none_heap none_hist
for i in "${!pids[@]}"; do
  none_heap[$i]=$(used_heap "${pids[$i]}")
  none_hist[$i]=$(histogram "${pids[$i]}" "$out/histogram-none-$((i + 1)).txt")
done
read -r -a c0 <<<"$(cpu_all)"; sleep "$quiet"; read -r -a c1 <<<"$(cpu_all)"
declare -a none_cpu
for j in "${!c0[@]}"; do none_cpu[$j]=$(ms_per_s "${c0[$j]}" "${c1[$j]}"); done

mkdir -p "$out/classes" && javac -d "$out/classes" bench/StreamsLoad.java # once for all the harnesses
progress "opening $streams streams"
servers_cpu() { for p in "${pids[@]}" "${haps[@]}" "$zk"; do printf '%s ' "$(cpu "$p")"; done; }
read -r -a o0 <<<"$(servers_cpu)"
t_open=$(date +%s%N)
per=$(((streams + harnesses - 1) / harnesses))
rate=$((open_rate / harnesses > 0 ? open_rate / harnesses : 1))
left=$streams
for h in $(seq 1 "$harnesses"); do
  n=$((left < per ? left : per))
  left=$((left - n))
  dir=$out/harness-$h
  mkdir -p "$dir"
  java -Xmx1g -XX:ActiveProcessorCount=1 -cp "$out/classes" StreamsLoad "$lb" "$n" "$rate" "$dir" "$addresses" \
    >"$dir/harness.log" 2>&1 &
  harn+=($!)
done
for h in $(seq 1 "$harnesses"); do
  wait_until 360 grep -qs '^open' "$out/harness-$h/harness.log" || die "harness $h not open within 360 s"
done
open_s=$(python3 -c "print(round(($(date +%s%N) - $t_open) / 1e9, 1))")
read -r -a o1 <<<"$(servers_cpu)"
harness_ticks=0
for p in "${harn[@]}"; do harness_ticks=$((harness_ticks + $(cpu "$p"))); done
opening_cpu=$(python3 - "$ticks" "$open_s" "${o0[*]}" "${o1[*]}" "$instances" "$haproxies" "$harness_ticks" <<'PY'
import sys
ticks, secs = int(sys.argv[1]), float(sys.argv[2])
a, b = [int(x) for x in sys.argv[3].split()], [int(x) for x in sys.argv[4].split()]
n, h, harness = int(sys.argv[5]), int(sys.argv[6]), int(sys.argv[7])
ms = [(y - x) / ticks / secs * 1000 for x, y in zip(a, b)]
print("instances " + ", ".join("%.0f" % m for m in ms[:n]) + " ms/s; HAProxy %.0f ms/s in all; ZooKeeper %.0f ms/s; "
      "harnesses %.0f ms/s (their start included)" % (sum(ms[n:n + h]), ms[n + h], harness / ticks / secs * 1000))
PY
)
opened=$(cat "$out"/harness-*/harness.log | awk '/^open/ {a += $2; f += $4} END {print a + 0, f + 0}')
gauges() { for b in "${bases[@]}"; do printf '%s ' "$(gauge "$b" ringd_watch_streams | cut -d. -f1)"; done; }
counted() { [ "$(gauges | awk '{for (i=1;i<=NF;i++) s+=$i; print s + 0}')" -ge "${opened%% *}" ]; }
wait_until 20 counted || true
progress "open: $opened (answered, failed); heap, histograms, CPU with the streams idle"
read -r -a held <<<"$(gauges)"
# HAProxy's own count: the current sessions of each server of ringd_events, over all processes
for k in $(seq 1 "$haproxies"); do stats "$k" >"$out/stats-$k.csv"; done
declare -a lbheld
for i in $(seq 1 "$instances"); do
  lbheld[$((i - 1))]=$(cat "$out"/stats-*.csv | awk -F, -v s="ringd$i" '$1 == "ringd_events" && $2 == s {n += $5} END {print n + 0}')
done
declare -a with_heap with_hist with_rss threads fds hap_rss
for k in "${!haps[@]}"; do hap_rss[$k]=$(rss "${haps[$k]}"); done
for i in "${!pids[@]}"; do
  with_heap[$i]=$(used_heap "${pids[$i]}")
  with_hist[$i]=$(histogram "${pids[$i]}" "$out/histogram-$((i + 1)).txt")
  with_rss[$i]=$(rss "${pids[$i]}")
  threads[$i]=$(ls "/proc/${pids[$i]}/task" | wc -l)
  fds[$i]=$(ls "/proc/${pids[$i]}/fd" | wc -l)
done
threads_cpu() { # CPU ticks of each thread of instance 1, by name (pool numbers dropped)
  for t in /proc/"${pids[0]}"/task/*; do
    echo "$(tr ' ' '_' <"$t/comm") $(awk '{print $14 + $15}' "$t/stat" 2>/dev/null || echo 0)"
  done | awk '{sub(/-[0-9]+$/, "", $1); n[$1] += $2} END {for (k in n) print k, n[k]}' | sort
}
threads_cpu >"$out/threads-0.txt"
read -r -a c0 <<<"$(cpu_all)"; sleep "$quiet"; read -r -a c1 <<<"$(cpu_all)"
threads_cpu >"$out/threads-1.txt"
declare -a idle_cpu
for j in "${!c0[@]}"; do idle_cpu[$j]=$(ms_per_s "${c0[$j]}" "${c1[$j]}"); done
load_idle=$(cut -d' ' -f1-3 /proc/loadavg)

# 4. COMMITS writes through HAProxy, each a new weight for its node (so each makes a version).
progress "$commits writes through HAProxy"
for h in $(seq 1 "$harnesses"); do touch "$out/harness-$h/reset"; done
# each instance's own account, ringd_watch_delivery_seconds: from the commit to the event written to a stream
delivery_hist() { for i in "${!bases[@]}"; do curl -sf "${bases[$i]}/actuator/prometheus" \
  | grep '^ringd_watch_delivery_seconds_\(bucket\|count\|sum\)' >"$out/delivery-$1-$((i + 1)).txt" || true; done; }
delivery_hist before
sleep 0.5
refused=0
for w in $(seq 1 "$commits"); do
  code=$(curl -s -o /dev/null -w '%{http_code}' -X PUT "$lb/nodes/node-$((w % 100))" -H "$auth" -H "$json" \
    -d "{\"weight\":$((w / 100 % 2 + 2))}" || true)
  [ "$code" = 200 ] || refused=$((refused + 1))
  sleep 0.5
done
sleep 3
delivery_hist after
for h in $(seq 1 "$harnesses"); do touch "$out/harness-$h/stop"; done
for p in "${harn[@]}"; do wait "$p" 2>/dev/null || true; done
harn=()
progress "the harnesses stopped"

{
  echo "opened through HAProxy: $opened (answered 200, failed) in $open_s s (the harness JVMs' start included), $harnesses harness(es) at $rate/s each; load after the idle phase $load_idle"
  echo "CPU while the streams opened: $opening_cpu"
  echo "no stream: heap after a full GC $(for i in "${!pids[@]}"; do printf '%s ' "$((none_heap[$i] / 1024)) MiB"; done)(instances 1..$instances)"
  echo "instance | streams (gauge / HAProxy's) | heap after GC, none -> with | per idle stream: heap_info / histogram | RSS | threads | fds | CPU at rest, no stream -> streams idle"
  for i in "${!pids[@]}"; do
    n=${held[$i]:-0}
    echo "$((i + 1)) | ${n} / ${lbheld[$i]} | $((none_heap[$i] / 1024)) -> $((with_heap[$i] / 1024)) MiB | $(python3 -c "n = max(1, $n); print('%.1f KiB / %.1f KiB' % ((${with_heap[$i]} - ${none_heap[$i]}) / n, (${with_hist[$i]} - ${none_hist[$i]}) / 1024 / n))") | $((with_rss[$i] / 1024)) MiB | ${threads[$i]} | ${fds[$i]} | ${none_cpu[$i]} -> ${idle_cpu[$i]} ms/s"
  done
  for k in $(seq 1 "$haproxies"); do
    j=$((instances + k - 1))
    echo "HAProxy $k ($(addr "$k")) | $(lbstats "$out/stats-$k.csv") | RSS $((hap_rss[$((k - 1))] / 1024)) MiB | CPU at rest ${none_cpu[$j]} -> ${idle_cpu[$j]} ms/s"
  done
  j=$((instances + haproxies))
  echo "ZooKeeper | CPU at rest ${none_cpu[$j]} -> ${idle_cpu[$j]} ms/s"
  for h in $(seq 1 "$harnesses"); do
    echo "harness $h | CPU with the streams idle ${idle_cpu[$((j + h))]} ms/s"
  done
  echo "writes through HAProxy: $commits, refused $refused"
  cat "$out"/harness-*/harness.log | grep -E '^(open|failures|events)' | sed 's/^/harness: /'
  python3 - "$out" "$commits" "$refused" <<'PY'
import glob, math, re, sys
out, commits, refused = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
by = {}
for f in glob.glob(out + "/harness-*/receipts.csv"):
    for line in list(open(f))[1:]:
        v, d = line.strip().split(",")
        by.setdefault(int(v), []).append(int(d))
lost = open_ = 0
for f in glob.glob(out + "/harness-*/harness.log"):
    for line in open(f):
        m = re.match(r"events \d+ versions \d+ streams-open (\d+) lost (\d+)", line)
        if m:
            open_ += int(m.group(1))
            lost += int(m.group(2))
def rank(s, q):
    return s[max(0, math.ceil(q * len(s)) - 1)] if s else 0
alls = sorted(d for ds in by.values() for d in ds)
p99s = sorted(rank(sorted(ds), 0.99) for ds in by.values())
expected = open_ * (commits - refused)
print("delivery, commit to receipt, over %d streams and %d versions: p50 %d ms, p99 %d ms, max %d ms; per-version p99 median %d, max %d ms; "
      "events %d of %d expected (streams open x writes), lost %d"
      % (open_, len(by), rank(alls, 0.5), rank(alls, 0.99), alls[-1] if alls else 0,
         p99s[len(p99s) // 2] if p99s else 0, p99s[-1] if p99s else 0, len(alls), expected, lost))
PY
  python3 - "$out" "$instances" <<'PY'
import re, sys
out, n = sys.argv[1], int(sys.argv[2])
def read(p):
    b, c, s = {}, 0, 0.0
    for line in open(p):
        m = re.match(r'ringd_watch_delivery_seconds_bucket\{.*le="([^"]+)".*\} (\S+)', line)
        if m:
            b[float(m.group(1))] = float(m.group(2))
        elif line.startswith("ringd_watch_delivery_seconds_count"):
            c = float(line.split()[-1])
        elif line.startswith("ringd_watch_delivery_seconds_sum"):
            s = float(line.split()[-1])
    return b, c, s
parts = []
for i in range(1, n + 1):
    try:
        (b0, c0, s0), (b1, c1, s1) = read(f"{out}/delivery-before-{i}.txt"), read(f"{out}/delivery-after-{i}.txt")
    except OSError:
        continue
    count = c1 - c0
    if count <= 0:
        parts.append(f"instance {i}: none")
        continue
    le = sorted(b1)
    def q(x):  # the upper bound of the bucket holding the quantile
        for bound in le:
            if b1[bound] - b0.get(bound, 0) >= x * count:
                return bound
        return float("inf")
    parts.append(f"instance {i}: {count:.0f} events, mean {(s1 - s0) / count * 1000:.0f} ms, "
                 f"p50 <= {q(0.5) * 1000:.0f} ms, p99 <= {q(0.99) * 1000:.0f} ms")
print("the instances' own delivery (ringd_watch_delivery_seconds, commit to written, bucket bounds): " + "; ".join(parts))
PY
  echo "instance 1's threads with the streams idle: $(python3 - "$out/threads-0.txt" "$out/threads-1.txt" "$ticks" "$quiet" <<'PY'
import sys
a = dict(l.split() for l in open(sys.argv[1]))
b = dict(l.split() for l in open(sys.argv[2]))
ticks, secs = int(sys.argv[3]), float(sys.argv[4])
busy = sorted(((int(v) - int(a.get(k, 0))) / ticks / secs * 1000, k) for k, v in b.items())[::-1]
print(", ".join("%s %.0f" % (k, ms) for ms, k in busy[:8] if ms > 0) + " ms/s")
PY
)"
  echo "classes that grew most on instance 1 with its ${held[0]:-0} streams, per stream (bytes, objects):"
  bench/histogram-diff.py "$out/histogram-none-1.txt" "$out/histogram-1.txt" "${held[0]:-1}" --top 12
  echo "load at the end: $(cut -d' ' -f1-3 /proc/loadavg); $(($(date +%s) - started)) s in all"
} >>"$summary"
cat "$summary"
