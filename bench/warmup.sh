#!/usr/bin/env bash
# Warm-up of the lookup path, on loopback only: how soon after the process starts does
# GET /route/{key} run at full speed, and what p99 do the first seconds of load see?
#
# Each variant starts the jar on a copy of the same file-store state (100 nodes x 128
# points, md5), polls /actuator/health/readiness every 50 ms as a load balancer would, and
# from the moment it answers 200 runs wrk in 1-second slices (-t2 -c16, 65,536 distinct
# keys) for LOAD_SECONDS (default 40): one CSV line per slice in target/warmup/VARIANT.csv
# (seconds since the process started at the slice's end, requests/s, p50 ms, p99 ms).
# Variants (VARIANTS="plain warmup cds image" by default):
#   plain   java -Xmx1g -jar target/ringd.jar --ringd.warmup.enabled=false  (as before)
#   warmup  the same jar with the lookup warm-up before readiness (the default now)
#   cds     warm-up, the jar extracted (java -Djarmode=tools extract) and an AppCDS archive
#           made by a training run (-XX:ArchiveClassesAtExit), -XX:SharedArchiveFile
#   image   the container image's JVM settings (Dockerfile: JAVA_TOOL_OPTIONS and the
#           archive), on this JDK: the image's JDK 25 AOT cache cannot be made here, so
#           the AppCDS archive stands in for it
# Then prints a summary table (bench/WarmupSummary.java). Needs wrk (installed from
# Debian's packages when missing) and a built jar (built when missing).
set -euo pipefail
cd "$(dirname "$0")/.."
load_seconds=${LOAD_SECONDS:-40}
variants=${VARIANTS:-plain warmup cds image}
if ! command -v wrk >/dev/null; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null
fi
[ -f target/ringd.jar ] || ./mvnw -q -DskipTests package

out=target/warmup
rm -rf "$out" && mkdir -p "$out"
token=warmup-bench-admin-token-0123456789
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'; }
pid=
cleanup() { if [ -n "$pid" ]; then kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; fi; }
trap cleanup EXIT
wait_ready() { # $1 base URL; answers when readiness is 200
  for _ in $(seq 1 1200); do
    curl -sf -o /dev/null "$1/actuator/health/readiness" && return 0
    kill -0 "$pid" 2>/dev/null || { echo "warmup.sh: the server exited" >&2; return 1; }
    sleep 0.05
  done
  echo "warmup.sh: not ready after 60 s" >&2; return 1
}
stop() { kill "$pid"; wait "$pid" 2>/dev/null || true; pid=; }

# The extracted jar (ringd.jar + lib/), which class data sharing needs (no nested jars).
java -Djarmode=tools -jar target/ringd.jar extract --destination "$out/app" >/dev/null

# Training run: builds the state every variant starts from, and the AppCDS archive of
# the classes a lookup-serving instance loads.
port=$(free_port); base="http://127.0.0.1:$port"
java -XX:ArchiveClassesAtExit="$out/app/ringd.jsa" -Xmx1g -jar "$out/app/ringd.jar" --server.port="$port" \
  --server.address=127.0.0.1 --ringd.data-dir="$out/seed" --ringd.admin.token="$token" \
  >"$out/training.log" 2>&1 &
pid=$!
wait_ready "$base"
changes=$(python3 -c 'import json; print(json.dumps({"changes":[{"op":"put","id":"node-%d"%i,"weight":1} for i in range(100)]}))')
curl -sf -X POST "$base/membership" -H "Authorization: Bearer $token" -H 'Content-Type: application/json' \
  -d "$changes" >/dev/null
wrk -t2 -c16 -d5s -s bench/route-keys.lua "$base/route/x" >/dev/null
wrk -t2 -c16 -d2s -s bench/batch-keys.lua "$base/route" >/dev/null
stop

run_variant() { # $1 name, then the java command line's options before the jar
  local name=$1; shift
  local data; data=$(mktemp -d)
  cp -r "$out/seed/." "$data/"
  port=$(free_port); base="http://127.0.0.1:$port"
  local t0; t0=$(date +%s.%N)
  "$@" --server.port="$port" --server.address=127.0.0.1 --ringd.data-dir="$data" \
    --ringd.admin.token="$token" >"$out/$name.log" 2>&1 &
  pid=$!
  wait_ready "$base"
  local ready; ready=$(python3 -c "import time; print(round(time.time() - $t0, 3))")
  echo "# $name: ready after $ready s" | tee -a "$out/summary.txt"
  echo "seconds,requests_per_s,p50_ms,p99_ms" >"$out/$name.csv"
  echo "$ready,0,0,0" >>"$out/$name.csv"
  local end; end=$(python3 -c "print($t0 + $ready + $load_seconds)")
  while python3 -c "import sys,time; sys.exit(0 if time.time() < $end else 1)"; do
    wrk -t2 -c16 -d1s --latency -s bench/route-keys.lua "$base/route/x" >"$out/slice.txt" || true
    python3 - "$t0" "$out/slice.txt" >>"$out/$name.csv" <<'PY'
import re, sys, time
t0, text = float(sys.argv[1]), open(sys.argv[2]).read()
def ms(label):
    m = re.search(r"^\s*" + label + r"%\s+([\d.]+)(us|ms|s)\s*$", text, re.M)
    if not m: return 0.0
    v, u = float(m.group(1)), m.group(2)
    return v / 1000 if u == "us" else v * 1000 if u == "s" else v
rps = re.search(r"Requests/sec:\s+([\d.]+)", text)
errors = re.search(r"Non-2xx or 3xx responses: (\d+)", text)
print("%.2f,%.0f,%.3f,%.3f" % (time.time() - t0, float(rps.group(1)) if rps and not errors else 0, ms("50"), ms("99")))
PY
  done
  stop
  rm -rf "$data"
}

for v in $variants; do
  case $v in
    plain)  run_variant plain java -Xmx1g -jar target/ringd.jar --ringd.warmup.enabled=false ;;
    warmup) run_variant warmup java -Xmx1g -jar target/ringd.jar ;;
    cds)    run_variant cds java -Xmx1g -XX:SharedArchiveFile="$out/app/ringd.jsa" -jar "$out/app/ringd.jar" ;;
    image)  JAVA_TOOL_OPTIONS="-XX:MaxRAMPercentage=75 -XX:InitialRAMPercentage=25 -XX:+ExitOnOutOfMemoryError" \
              run_variant image java -XX:SharedArchiveFile="$out/app/ringd.jsa" \
              -jar "$out/app/ringd.jar" ;;
    *) echo "warmup.sh: unknown variant $v" >&2; exit 2 ;;
  esac
done
java bench/WarmupSummary.java "$out" $variants | tee -a "$out/summary.txt"
