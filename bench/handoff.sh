#!/usr/bin/env bash
# Handoff read-through against real memcached (src/jmh/java/io/ringd/bench/HandoffDemo.java,
# docs/handoff.md): starts 26 memcached servers on loopback (Debian's /usr/bin/memcached), two
# fleets for each scenario, one read through the previous owners and one not; runs a Zipf
# read-through workload routed by a RingClient following a ringd (in the program's JVM) while
# one server joins, then while one is drained (left running), then while one crashes (shut
# down); prints the table and writes target/handoff/{join,drain,crash}.csv and
# docs/handoff.png (or $PNG). About 4 minutes; stops every process it started. RATE, BEFORE,
# AFTER, KEYS, ZIPF, WARM and SEED change the workload.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v memcached >/dev/null || { echo "needs memcached (apt-get install memcached)" >&2; exit 1; }
./mvnw -q -B -Pbench test-compile dependency:build-classpath \
  -Dmdep.includeScope=test -Dmdep.outputFile=target/bench.classpath

pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
}
trap cleanup EXIT
free_ports() { # $1 free loopback ports, comma-separated
  python3 -c 'import socket,sys
ss=[socket.socket() for _ in range(int(sys.argv[1]))]
[s.bind(("127.0.0.1",0)) for s in ss]
print(",".join(str(s.getsockname()[1]) for s in ss))' "$1"
}
user=; [ "$(id -u)" = 0 ] && user="-u nobody" # memcached refuses to run as root otherwise
fleet() { # starts a memcached on each port of $1
  local port
  for port in ${1//,/ }; do
    memcached -l 127.0.0.1 -p "$port" -U 0 -m 64 -t 1 -c 64 -A $user & # -A: the crash is a shutdown
    pids+=($!)
  done
}
ports=($(free_ports 26 | tr , ' '))
join_with=$(IFS=,; echo "${ports[*]:0:5}"); join_without=$(IFS=,; echo "${ports[*]:5:5}")
drain_with=$(IFS=,; echo "${ports[*]:10:4}"); drain_without=$(IFS=,; echo "${ports[*]:14:4}")
crash_with=$(IFS=,; echo "${ports[*]:18:4}"); crash_without=$(IFS=,; echo "${ports[*]:22:4}")
for f in "$join_with" "$join_without" "$drain_with" "$drain_without" "$crash_with" "$crash_without"; do
  fleet "$f"
done
for port in "${ports[@]}"; do
  for _ in $(seq 1 50); do
    (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break
    sleep 0.1
  done
done

java -Xms1g -Xmx1g -Djava.awt.headless=true \
  -Drate="${RATE:-4000}" -Dbefore="${BEFORE:-15}" -Dafter="${AFTER:-30}" -Dkeys="${KEYS:-100000}" \
  -Dzipf="${ZIPF:-1.0}" -Dwarm="${WARM:-1000000}" -Dseed="${SEED:-21}" \
  -cp "target/test-classes:target/classes:$(cat target/bench.classpath)" io.ringd.bench.HandoffDemo \
  target/handoff "${PNG:-docs/handoff.png}" "$join_with" "$join_without" "$drain_with" "$drain_without" \
  "$crash_with" "$crash_without"
