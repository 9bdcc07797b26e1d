#!/usr/bin/env bash
# What 10,000 followers cost ZooKeeper, on loopback only, bounded:
#   bench/followers-zk.sh
# 1. starts one real ZooKeeper server (bench/FollowersZooKeeper.java: the zookeeper jar's
#    ZooKeeperServerMain from the Maven cache, its log and snapshots on disk, mntr allowed, and a
#    sampler that stats every znode of the default ring's followers board every 500 ms) and
#    INSTANCES ringd instances (default 3; target/ringd.jar, ringd.store=zookeeper, -Xmx512m);
# 2. loads 100 nodes (version V1) and one more (V2) through the first, then runs
#    bench/FollowersLoad.java with FOLLOWERS - INSTANCES followers (default 10000 in all, the
#    ring's ringd.followers.max) spread over the instances, each reporting every 20 s as in
#    bench/followers.sh;
# 3. measures, over IDLE s (default 10) before the followers start (the baseline: the sampler
#    and the sessions), over the followers' first reports, over STEADY s (default 30) of steady
#    state SETTLE s (default 60, for the JIT of the three instances) after them, then CONVERGE s
#    (default 25) from a commit (every follower moving to the new version at its next report):
#    each instance's posts (the data version of its znodes) and their bytes, ZooKeeper's mntr
#    counters, its CPU (/proc/<pid>/stat) and disk writes (/proc/<pid>/io), and the instances'
#    CPU; and the time from the commit to GET /followers/converged on another instance answering
#    converged:true; and which threads of instance 1 spent its CPU in the steady state;
# 4. PROBES times (default 100): a probe follower reports a version change to one instance and
#    the next instance's GET /followers is read every 10 ms until it shows it (p50/p99; each must
#    be within 2 s), with ZooKeeper measured over the probes too.
# Everything lands in target/followers-zk/ (summary.txt). About 6 minutes. Needs a JDK and a built
# jar (built when missing); the ZooKeeper jar comes from the Maven cache (dependency:build-classpath,
# offline unless OFFLINE= is set empty).
set -euo pipefail
cd "$(dirname "$0")/.."
instances=${INSTANCES:-3}
followers=${FOLLOWERS:-10000}
idle=${IDLE:-10}
settle=${SETTLE:-60}
steady=${STEADY:-30}
converge=${CONVERGE:-25}
probes=${PROBES:-100}
mvn_offline=${OFFLINE--o}
# shellcheck disable=SC2086
[ -f target/ringd.jar ] || ./mvnw -q -B $mvn_offline -DskipTests package
# shellcheck disable=SC2086
./mvnw -q -B $mvn_offline dependency:build-classpath -Dmdep.includeScope=test \
  -Dmdep.outputFile=target/followers-zk.classpath >/dev/null

out=target/followers-zk
rm -rf "$out" && mkdir -p "$out"
summary=$out/summary.txt
token=followers-bench-admin-token-0123456789
auth="Authorization: Bearer $token"
json='Content-Type: application/json'
control=$out/control
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'; }
zk=
harness=
pids=()
cleanup() {
  for p in $harness "${pids[@]}" $zk; do kill "$p" 2>/dev/null || true; done
  for p in $harness "${pids[@]}" $zk; do wait "$p" 2>/dev/null || true; done
  echo "summary: $summary"
}
trap cleanup EXIT
ctl() { echo "$1" >"$control.tmp" && mv "$control.tmp" "$control"; }
cpu() { awk '{print $14 + $15}' "/proc/$1/stat"; } # user + system, in ticks
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), load $(cut -d' ' -f1-3 /proc/loadavg)" \
  | tee -a "$summary"

# 1. ZooKeeper and the instances.
zkport=$(free_port)
java -Xmx256m -cp "$(cat target/followers-zk.classpath)" bench/FollowersZooKeeper.java "$zkport" "$out/zk" \
  "$out/znodes.csv" /ringd/followers >"$out/zookeeper.log" 2>&1 &
zk=$!
for _ in $(seq 1 600); do
  grep -qs '^zookeeper up' "$out/zookeeper.log" && break
  kill -0 "$zk" 2>/dev/null || { echo "followers-zk.sh: ZooKeeper exited" >&2; cat "$out/zookeeper.log" >&2; exit 1; }
  sleep 0.1
done
bases=()
for i in $(seq 1 "$instances"); do
  port=$(free_port)
  java -Xms512m -Xmx512m -jar target/ringd.jar --server.port="$port" --server.address=127.0.0.1 \
    --ringd.store=zookeeper --ringd.zookeeper.connect="127.0.0.1:$zkport" --ringd.data-dir="$out/data-$i" \
    --ringd.admin.token="$token" >"$out/ringd-$i.log" 2>&1 &
  pids+=($!)
  bases+=("http://127.0.0.1:$port")
done
for i in "${!bases[@]}"; do
  for _ in $(seq 1 1800); do
    curl -sf -o /dev/null "${bases[$i]}/actuator/health/readiness" && break
    kill -0 "${pids[$i]}" 2>/dev/null || { echo "followers-zk.sh: instance $((i + 1)) exited" >&2; exit 1; }
    sleep 0.1
  done
done
b1=${bases[0]}
all=$(IFS=,; echo "${bases[*]}")
ring() { curl -sf "$1/ring" | python3 -c 'import json,sys; r=json.load(sys.stdin); print(str(r["version"]) + ":" + r["fingerprint"])'; }
changes=$(python3 -c 'import json; print(json.dumps({"changes":[{"op":"put","id":"node-%d"%i,"weight":1} for i in range(100)]}))')
curl -sf -X POST "$b1/membership" -H "$auth" -H "$json" -d "$changes" >/dev/null
one=$(ring "$b1")
curl -sf -X PUT "$b1/nodes/extra" -H "$auth" -H "$json" -d '{"weight":1}' >/dev/null
two=$(ring "$b1")
for b in "${bases[@]}"; do
  for _ in $(seq 1 100); do [ "$(ring "$b")" = "$two" ] && break; sleep 0.1; done
done
echo "$instances instances on ZooKeeper 127.0.0.1:$zkport, all at version ${two%%:*}" | tee -a "$summary"

mntr() { # $1 file: ZooKeeper's mntr
  python3 - "$zkport" >"$1" <<'PY'
import socket, sys
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
s.sendall(b"mntr")
data = b""
while True:
    b = s.recv(65536)
    if not b:
        break
    data += b
print(data.decode())
PY
}
mark() { # $1 label: the time, mntr, the disk writes and CPU of ZooKeeper, the CPU of each instance
  local line c
  mntr "$out/mntr-$1.txt"
  line="$1,$(date +%s%3N),$(awk '/^write_bytes/ {print $2}' "/proc/$zk/io"),$(cpu "$zk")"
  for p in "${pids[@]}"; do line="$line,$(cpu "$p")"; done
  echo "$line" >>"$out/marks.csv"
}

mark idle-start # the instances with no follower
sleep "$idle"
mark idle-end

# 2. The followers.
ctl "run start"
mark burst-start
java -XX:ActiveProcessorCount=1 -XX:+UseSerialGC -Xmx256m bench/FollowersLoad.java report "$control" \
  $((followers - instances)) 20 "$all" >"$out/harness.out" 2>"$out/harness.err" &
harness=$!
for _ in $(seq 1 1800); do
  grep -qs '^ready' "$out/harness.out" && break
  kill -0 "$harness" 2>/dev/null || { echo "followers-zk.sh: the harness exited" >&2; cat "$out/harness.err" >&2; exit 1; }
  sleep 0.1
done
mark burst-end
grep '^ready' "$out/harness.out" | tee -a "$summary"
sleep "$settle"
for i in "${!bases[@]}"; do
  echo "instance $((i + 1)) knows $(curl -sf "${bases[$i]}/followers?limit=1" | python3 -c 'import json,sys; s=json.load(sys.stdin)["summary"]; print(sum(s.values()), s)')" \
    | tee -a "$summary"
done

# 3. Steady state, then a convergence.
threads() { # CPU ticks of each thread of instance 1, by name
  for t in /proc/"${pids[0]}"/task/*; do
    echo "$(tr ' ' '_' <"$t/comm") $(awk '{print $14 + $15}' "$t/stat" 2>/dev/null || echo 0)"
  done | awk '{sub(/-[0-9]+$/, "", $1); n[$1] += $2} END {for (k in n) print k, n[k]}' | sort
}
threads >"$out/threads-0.txt"
mark steady-start
sleep "$steady"
mark steady-end
threads >"$out/threads-1.txt"
t0=$(date +%s%N)
three=$(curl -sf -X PUT "$b1/nodes/extra" -H "$auth" -H "$json" -d '{"weight":2}' | python3 -c 'import json,sys; print(json.load(sys.stdin)["version"])')
mark converge-start
b2=${bases[1]:-$b1}
( curl -s "$b2/followers/converged?version=$three&wait=PT60S" >"$out/converged.json"
  echo "$(( ($(date +%s%N) - t0) / 1000000 ))" >"$out/converged.ms" ) &
waiter=$!
sleep "$converge"
mark converge-end
wait "$waiter" || true
echo "commit of version $three on instance 1 -> converged on instance 2: $(cat "$out/converged.ms") ms, $(cat "$out/converged.json")" \
  | tee -a "$summary"

# 4. Probes, last: a probe follower left behind at an older version would hold a convergence
# back until it falls silent (ringd.followers.ttl, 60 s).
mark probe-start
status=0
java -Xmx128m bench/FollowersLoad.java probe "$probes" "$one" "$two" "$all" >"$out/probe.out" 2>&1 || status=$?
mark probe-end
tail -1 "$out/probe.out" | tee -a "$summary"
ctl "stop end"
wait "$harness" || true
harness=
grep '^phase' "$out/harness.out" | tee -a "$summary"

python3 - "$out" "$instances" "$followers" "$(getconf CLK_TCK)" <<'PY' | tee -a "$summary"
import collections, csv, re, sys
out, instances, followers, ticks = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
marks = {}
for line in open(f"{out}/marks.csv"):
    p = line.strip().split(",")
    marks[p[0]] = dict(ms=int(p[1]), disk=int(p[2]), zk=int(p[3]), inst=[int(x) for x in p[4:]])
def mntr(label):
    m = {}
    for line in open(f"{out}/mntr-{label}.txt"):
        p = line.split("\t")
        if len(p) == 2:
            try:
                m[p[0]] = float(p[1])
            except ValueError:
                pass
    return m
samples = collections.defaultdict(list)  # child -> [(ms, bytes, version)]
for r in csv.DictReader(open(f"{out}/znodes.csv")):
    samples[r["child"]].append((int(r["ms"]), int(r["bytes"]), int(r["version"])))
def at(child, ms):
    before = [s for s in samples[child] if s[0] <= ms]
    return before[-1] if before else None
print(f"the followers board: {len(samples)} znodes {sorted(samples)}")
for name, a, b in (("no follower yet", "idle-start", "idle-end"),
                   ("the followers' first reports (instances just started)", "burst-start", "burst-end"),
                   ("steady state", "steady-start", "steady-end"),
                   ("convergence after a commit", "converge-start", "converge-end"),
                   ("probes (GET /followers every 10 ms)", "probe-start", "probe-end")):
    t0, t1 = marks[a]["ms"], marks[b]["ms"]
    secs = (t1 - t0) / 1000
    print(f"== {name}: {secs:.1f} s")
    per_instance = collections.defaultdict(lambda: [0, []])
    for child in samples:
        owner = child.rsplit(".", 1)[0]
        s0, s1 = at(child, t0), at(child, t1)
        if s0 is None or s1 is None:
            continue
        per_instance[owner][0] += s1[2] - s0[2]
        per_instance[owner][1] += [s[1] for s in samples[child] if t0 <= s[0] <= t1]
    total_writes, total_bytes = 0, 0
    for owner, (writes, sizes) in sorted(per_instance.items()):
        mean = sum(sizes) / len(sizes) if sizes else 0
        total_writes += writes
        total_bytes += writes * mean
        print(f"  instance {owner}: {writes} posts, {writes / secs:.2f}/s, {mean:,.0f} bytes a post "
              f"(min {min(sizes, default=0):,}, max {max(sizes, default=0):,})")
    readers = instances - 1
    print(f"  all: {total_writes / secs:.2f} writes/s, {total_bytes / secs / 1024:,.1f} KiB/s written, "
          f"about {total_bytes * readers / secs / 1024:,.1f} KiB/s read back by the {readers} other instances' caches")
    m0, m1 = mntr(a), mntr(b)
    for k in ("zk_packets_received", "zk_packets_sent", "zk_bytes_received_count", "zk_response_bytes",
              "zk_sync_processor_request_queued", "zk_cnt_fsynctime", "zk_sum_fsynctime"):
        if k in m0 and k in m1:
            print(f"  {k}: {(m1[k] - m0[k]) / secs:,.1f}/s")
    for k in ("zk_approximate_data_size", "zk_znode_count", "zk_watch_count", "zk_num_alive_connections",
              "zk_avg_latency", "zk_max_latency"):
        if k in m1:
            print(f"  {k}: {m1[k]:,.0f}")
    print(f"  ZooKeeper CPU {(marks[b]['zk'] - marks[a]['zk']) / ticks / secs * 1000:.1f} ms/s, disk writes "
          f"{(marks[b]['disk'] - marks[a]['disk']) / secs / 1024:,.1f} KiB/s")
    cpus = [(y - x) / ticks / secs * 1000 for x, y in zip(marks[a]["inst"], marks[b]["inst"])]
    print("  instances' CPU: " + ", ".join(f"{c:.0f}" for c in cpus) + " ms/s")
    if a == "idle-start":
        idle_cpu = cpus
    elif a == "steady-start":
        rate = (followers - instances) / 20 / instances
        print(f"  over the idle instances, per report ({rate:.0f} reports/s each): "
              + ", ".join(f"{(c - i) / rate * 1000:.0f}" for c, i in zip(cpus, idle_cpu)) + " us")
t0 = dict(l.split() for l in open(f"{out}/threads-0.txt"))
t1 = dict(l.split() for l in open(f"{out}/threads-1.txt"))
secs = (marks["steady-end"]["ms"] - marks["steady-start"]["ms"]) / 1000
busy = sorted(((int(v) - int(t0.get(k, 0))) / ticks / secs * 1000, k) for k, v in t1.items())[::-1]
print("instance 1's threads in the steady state: " + ", ".join(f"{k} {ms:.0f}" for ms, k in busy[:8] if ms > 0)
      + " ms/s")
PY
exit $status
