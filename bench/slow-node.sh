#!/usr/bin/env bash
# The fleet as the load signal (docs/algorithms.md section 6): five memcached servers on loopback
# (Debian's /usr/bin/memcached, installed when missing), each behind a forwarder of a delaying proxy
# (bench/DelayProxy.java), ringd from target/ringd.jar with ringd.load.source=followers, and
# application instances (bench/SlowNode.java: RingClients reporting as followers) routing every
# request with GET /route/{key}?bound=1.25 and timing memcached. The proxy slows one server (mc-3)
# down for a while; the harness measures how the requests leave it and come back, per second and per
# key, with membership unchanged. About 3 minutes; stops every process it started.
#   bench/slow-node.sh           # into target/slow-node/ (or $OUT): summary.txt, seconds.csv, loads.csv,
#                                # moves.csv, facts.properties, slow-node.png, section.md
#   bench/slow-node.sh --docs    # the same, then the plot to docs/algorithms/slow-node.png and the
#                                # section into docs/algorithms.md (section 6)
# RATE, APPS, WORKERS, KEYS, BOUND, JIT, WARM, SLOW_FROM, SLOW_UNTIL, DELAY_MS, DURATION, REPORT_MS and
# SEED change the run (defaults: 2000 requests a second, 3 instances of 4 threads, 10000 keys, bound
# 1.25, 10 s of JIT warm-up before time 0, the base from 30 s, slow from 40 s to 70 s by 20 ms, 135 s,
# reports every 1000 ms, seed 7).
#
# The harness is a single-file program run on target/ringd-client.jar and the Jackson jars the client
# needs (docs/client.md), taken from the server's jar: the Spring Boot jar itself cannot serve as a
# class path, its classes sit under BOOT-INF/classes. The plot and the section are drawn afterwards by
# io.ringd.bench.SlowNodeReport (src/jmh, XChart), from the files the harness wrote.
set -euo pipefail
cd "$(dirname "$0")/.."
docs=false
for a in "$@"; do
  case "$a" in
    --docs) docs=true ;;
    *) echo "usage: bench/slow-node.sh [--docs]" >&2; exit 2 ;;
  esac
done
out=${OUT:-target/slow-node}
commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
[ -z "$(git status --porcelain 2>/dev/null)" ] || commit="$commit and the uncommitted changes of the working tree"

if [ ! -x /usr/bin/memcached ]; then
  # as .ci/run: no service of the package starts while it is installed
  export DEBIAN_FRONTEND=noninteractive
  policy=/usr/sbin/policy-rc.d
  if [ ! -e "$policy" ]; then
    printf '#!/bin/sh\n# bench/slow-node.sh: no service starts while installing memcached\nexit 101\n' >"$policy"
    chmod 755 "$policy"
    trap 'rm -f "$policy"' EXIT
  fi
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends memcached >/dev/null
  if [ -n "$(trap -p EXIT)" ]; then rm -f "$policy"; trap - EXIT; fi
fi
[ -f target/ringd.jar ] && [ -f target/ringd-client.jar ] || ./mvnw -q -B -DskipTests package
# The report's class path first, so nothing compiles while the run is measured.
./mvnw -q -B -Pbench test-compile dependency:build-classpath \
  -Dmdep.includeScope=test -Dmdep.outputFile=target/bench.classpath

rm -rf "$out"
mkdir -p "$out/lib"
python3 - "$out/lib" <<'EOF'
import re, sys, zipfile
with zipfile.ZipFile("target/ringd.jar") as z:
    for n in z.namelist():
        if re.fullmatch(r"BOOT-INF/lib/jackson-(databind|core)-3[^/]*\.jar|BOOT-INF/lib/jackson-annotations-[^/]*\.jar", n):
            open(sys.argv[1] + "/" + n.rsplit("/", 1)[1], "wb").write(z.read(n))
EOF
cp="target/ringd-client.jar:$(ls "$out"/lib/*.jar | tr '\n' ':')"

pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
}
trap cleanup EXIT
ports=($(python3 -c 'import socket
ss=[socket.socket() for _ in range(12)]
[s.bind(("127.0.0.1",0)) for s in ss]
print(" ".join(str(s.getsockname()[1]) for s in ss))'))
mc=("${ports[@]:0:5}") fwd=("${ports[@]:5:5}") control=${ports[10]} port=${ports[11]}
user=; [ "$(id -u)" = 0 ] && user="-u nobody" # memcached refuses to run as root otherwise
for p in "${mc[@]}"; do
  memcached -l 127.0.0.1 -p "$p" -U 0 -m 64 -t 1 -c 256 $user &
  pids+=($!)
done
# Every server behind a forwarder of the proxy, so every node's path has the same hop; only mc-3's
# is ever delayed.
java -Xmx64m -XX:TieredStopAtLevel=1 bench/DelayProxy.java "$control" \
  "${fwd[0]}=${mc[0]}" "${fwd[1]}=${mc[1]}" "${fwd[2]}=${mc[2]}" "${fwd[3]}=${mc[3]}" "${fwd[4]}=${mc[4]}" \
  2>"$out/proxy.log" &
pids+=($!)
token=slow-node-admin-token-0123456789
base="http://127.0.0.1:$port"
java -Xms512m -Xmx512m -jar target/ringd.jar --server.port="$port" --server.address=127.0.0.1 \
  --ringd.store=memory --ringd.admin.token="$token" --ringd.load.source=followers \
  --ringd.followers.ttl=10s >"$out/ringd.log" 2>&1 &
pids+=($!)
ringd=$!
for _ in $(seq 1 1200); do
  curl -sf -o /dev/null "$base/actuator/health/readiness" && break
  kill -0 "$ringd" 2>/dev/null || { echo "slow-node.sh: ringd exited (see $out/ringd.log)" >&2; exit 1; }
  sleep 0.1
done
for p in "${mc[@]}" "${fwd[@]}" "$control"; do
  for _ in $(seq 1 100); do (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null && break; sleep 0.1; done
done

slow=mc-3
nodes="mc-1=${fwd[0]},mc-2=${fwd[1]},mc-3=${fwd[2]},mc-4=${fwd[3]},mc-5=${fwd[4]}"
java -Xms512m -Xmx512m -Drate="${RATE:-2000}" -Dapps="${APPS:-3}" -Dworkers="${WORKERS:-4}" \
  -Dkeys="${KEYS:-10000}" -Dbound="${BOUND:-1.25}" -Djit="${JIT:-10}" -Dwarm="${WARM:-30}" -DslowFrom="${SLOW_FROM:-40}" \
  -DslowUntil="${SLOW_UNTIL:-70}" -Ddelay="${DELAY_MS:-20}" -Dduration="${DURATION:-135}" \
  -Dreport="${REPORT_MS:-1000}" -Dseed="${SEED:-7}" -Dcommit="$commit" \
  -cp "$cp" bench/SlowNode.java "$out" "$base" "$token" "$control" "$slow" "$nodes"
cleanup
pids=()

report_args=("$out")
$docs && report_args+=(--docs)
java -Djava.awt.headless=true -cp "target/test-classes:target/classes:$(cat target/bench.classpath)" \
  io.ringd.bench.SlowNodeReport "${report_args[@]}"
