#!/usr/bin/env bash
# bench/same-answers.sh OLD.jar NEW.jar: whether a change to the code changed what ringd says.
# Runs one fixed sequence of 85 requests (reads in every placement, admin writes, dry runs, If-Match,
# loads, refusals of every kind, the change stream, the OpenAPI document) against each jar on a
# fresh data folder (file store, loopback, a free port), keeps every answer's status line, headers
# and body, and the state file left behind, then compares the two runs byte for byte. What differs
# by run alone is masked: instants (committedAt), Date headers, ports, keep-alive comments and the
# time-decayed loads (and those answers' Content-Length). Exits 0 when every file is the same.
# Build the old jar from a commit with: git worktree add /tmp/old <commit> && (cd /tmp/old &&
# ./mvnw -q -DskipTests package), then: bench/same-answers.sh /tmp/old/target/ringd.jar target/ringd.jar
set -uo pipefail
old=${1:?old jar}; new=${2:?new jar}
out=$(mktemp -d /tmp/same-answers.XXXXXX)
T=compare-admin-token-0123456789
run() { # jar dir
  local jar=$1 dir=$2 port
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()')
  mkdir -p "$dir/data" "$dir/answers"
  RINGD_ADMIN_TOKEN=$T java -Xshare:auto -jar "$jar" --server.port=$port --server.address=127.0.0.1 \
    --ringd.data-dir="$dir/data" --ringd.warmup.enabled=false >"$dir/log" 2>&1 &
  local pid=$!
  for _ in $(seq 1 240); do curl -sf "http://127.0.0.1:$port/actuator/health/readiness" >/dev/null 2>&1 && break; sleep 0.25; done
  local B="http://127.0.0.1:$port" n=0
  req() { # name, curl args...
    local name=$1; shift; n=$((n+1))
    curl -s -D "$dir/answers/$(printf %03d $n)-$name.h" -o "$dir/answers/$(printf %03d $n)-$name.b" "$@"
  }
  A=(-H "Authorization: Bearer $T")
  J=(-H 'Content-Type: application/json')
  req empty-ring "$B/ring"
  req empty-route "$B/route/user:42"
  req put-a -X PUT "${A[@]}" "${J[@]}" -d '{"weight":1,"zone":"eu-1a"}' "$B/nodes/cache-a"
  req put-b -X PUT "${A[@]}" "${J[@]}" -d '{"weight":1.5,"zone":"eu-1b"}' "$B/nodes/cache-b"
  req put-c -X PUT "${A[@]}" "${J[@]}" -d '{"weight":2}' "$B/nodes/cache-c"
  req replace-c -X PUT "${A[@]}" "${J[@]}" -d '{"weight":2,"zone":"eu-1c"}' "$B/nodes/cache-c"
  req ring "$B/ring"
  req ring-gzip -H 'Accept-Encoding: gzip' "$B/ring"
  etag=$(grep -i '^etag:' "$dir/answers/$(printf %03d $((n-1)))-ring.h" | tr -d '\r' | cut -d' ' -f2)
  req ring-304 -H "If-None-Match: $etag" "$B/ring"
  req nodes "$B/nodes"
  req node-a "$B/nodes/cache-a"
  req node-missing "$B/nodes/nope"
  req settings "$B/settings"
  req route "$B/route/user:42"
  req route-enc "$B/route/user%2F42"
  req route-q "$B/route?key=user/42"
  req route-v "$B/route/user:42?version=2"
  req route-explain "$B/route/user:42?explain=true"
  req route-bound "$B/route/user:42?bound=1.25"
  req pref "$B/preference/user:42?n=3"
  req pref-nz "$B/preference/user:42?n=2&distinctZones=false"
  req batch -X POST "${J[@]}" -d '{"keys":["a","b","c","user:42","\u00e9t\u00e9"]}' "$B/route"
  req ownership "$B/ownership"
  req points "$B/points"
  req diff "$B/diff?from=1&to=4"
  req diff-max "$B/diff?from=0&to=4&maxRanges=3"
  req dry -X POST "${J[@]}" -d '{"changes":[{"op":"put","id":"cache-d","weight":1,"zone":"eu-1a"},{"op":"remove","id":"cache-a"}]}' "$B/diff"
  req batch-write -X POST "${A[@]}" "${J[@]}" -d '{"changes":[{"op":"put","id":"cache-d","weight":1,"zone":"eu-1a"},{"op":"put","id":"cache-c","weight":3,"zone":"eu-1c"}]}' "$B/membership"
  req ifmatch-bad -X PUT "${A[@]}" "${J[@]}" -H 'If-Match: "1"' -d '{"weight":1}' "$B/nodes/cache-e"
  req ifmatch-ok -X PUT "${A[@]}" "${J[@]}" -H 'If-Match: "5"' -d '{"weight":1}' "$B/nodes/cache-e"
  req delete-e -X DELETE "${A[@]}" "$B/nodes/cache-e"
  req delete-missing -X DELETE "${A[@]}" "$B/nodes/cache-e"
  req settings-murmur -X PUT "${A[@]}" "${J[@]}" -d '{"hash":"murmur3"}' "$B/settings"
  req ring-murmur "$B/ring"
  req settings-ketama -X PUT "${A[@]}" "${J[@]}" -d '{"hash":"ketama","vnodesPerWeight":160}' "$B/settings"
  req route-ketama "$B/route/user:42?explain=true"
  req points-ketama "$B/points"
  req settings-maglev -X PUT "${A[@]}" "${J[@]}" -d '{"hash":"md5","algorithm":"maglev","maglevTableSize":1009}' "$B/settings"
  req route-maglev "$B/route/user:42?explain=true"
  req ownership-maglev "$B/ownership"
  req points-maglev "$B/points"
  req diff-maglev "$B/diff?from=8&to=9&maxRanges=5"
  req settings-back -X PUT "${A[@]}" "${J[@]}" -d '{"algorithm":"ring"}' "$B/settings"
  req load-put -X PUT "${A[@]}" "${J[@]}" -d '{"load":42.5}' "$B/nodes/cache-a/load"
  req loads "$B/loads"
  req load-del -X DELETE "${A[@]}" "$B/nodes/cache-a/load"
  # refusals
  req no-token -X PUT "${J[@]}" -d '{"weight":1}' "$B/nodes/x"
  req wrong-token -X PUT -H 'Authorization: Bearer wrong-token-0123456789' "${J[@]}" -d '{"weight":1}' "$B/nodes/x"
  req bad-weight -X PUT "${A[@]}" "${J[@]}" -d '{"weight":10001}' "$B/nodes/x"
  req bad-json -X PUT "${A[@]}" "${J[@]}" -d '{"weight":' "$B/nodes/x"
  req dup-field -X PUT "${A[@]}" "${J[@]}" -d '{"weight":1,"weight":2}' "$B/nodes/x"
  req unknown-field -X PUT "${A[@]}" "${J[@]}" -d '{"weight":1,"colour":"red"}' "$B/nodes/x"
  req bad-id -X PUT "${A[@]}" "${J[@]}" -d '{"weight":1}' "$B/nodes/a%20b"
  req bad-utf8 -X POST "${J[@]}" --data-binary $'{"keys":["\xc0\xaf"]}' "$B/route"
  req nan -X PUT "${A[@]}" "${J[@]}" -d '{"weight":NaN}' "$B/nodes/x"
  req huge -X PUT "${A[@]}" "${J[@]}" -d '{"weight":1e400}' "$B/nodes/x"
  req xml -X PUT "${A[@]}" "${J[@]}" -H 'Accept: application/xml' -d '{"weight":1}' "$B/nodes/x"
  req text-body -X PUT "${A[@]}" -H 'Content-Type: text/plain' -d 'hi' "$B/nodes/x"
  req gzip-body -X PUT "${A[@]}" "${J[@]}" -H 'Content-Encoding: gzip' -d '{"weight":1}' "$B/nodes/x"
  req latin1 -X PUT "${A[@]}" -H 'Content-Type: application/json; charset=ISO-8859-1' -d '{"weight":1}' "$B/nodes/x"
  req unknown-param "$B/ownership?version=1"
  req bad-version "$B/route/k?version=abc"
  req future-version "$B/route/k?version=999"
  req old-version "$B/route/k?version=0"
  req bad-n "$B/preference/k?n=0"
  req long-key "$B/route/$(head -c 5000 /dev/zero | tr '\0' k)"
  req empty-batch -X POST "${J[@]}" -d '{"keys":[]}' "$B/route"
  req trace -X TRACE "$B/ring"
  req options -X OPTIONS "$B/ring"
  req method -X DELETE "$B/ring"
  req notfound "$B/nope"
  req error-direct "$B/error"
  req stale -H 'X-Ring-Version: 2' "$B/route/k"
  req ahead -H 'X-Ring-Version: 999' "$B/route/k"
  req bad-diff "$B/diff?from=5&to=1"
  req bad-settings -X PUT "${A[@]}" "${J[@]}" -d '{"maglevTableSize":1000}' "$B/settings"
  req bad-membership -X POST "${A[@]}" "${J[@]}" -d '{"changes":[{"op":"remove","id":"nope"}]}' "$B/membership"
  req bad-op -X POST "${A[@]}" "${J[@]}" -d '{"changes":[{"op":"jump","id":"x"}]}' "$B/membership"
  # the stream: a snapshot, a resume, a head
  req events-snap --max-time 2 "$B/ring/events"
  req events-resume --max-time 2 -H 'Last-Event-ID: 3' "$B/ring/events"
  req events-after --max-time 2 "$B/ring/events?after=10"
  req events-head -I --max-time 2 "$B/ring/events"
  req apidocs "$B/v3/api-docs"
  req health "$B/actuator/health"
  req final-ring "$B/ring"
  kill $pid; wait $pid 2>/dev/null
  cp -r "$dir/data" "$dir/state"
  rm -f "$dir/state/admin-token"
}
run "$old" "$out/old"
run "$new" "$out/new"
mask() { # normalise what differs by run: instants, Date headers, ports, keep-alive timing, decayed loads
  python3 - "$1" <<'PY'
import re, sys
t = open(sys.argv[1], 'rb').read().decode('utf-8', 'surrogateescape')
t = re.sub(r'\d{4}-\d{2}-\d{2}T[0-9:.]+Z', '<instant>', t)
t = re.sub(r'(?m)^[Dd]ate: .*\n', '', t)
t = re.sub(r'(127\.0\.0\.1|localhost):\d+', r'\1:PORT', t)
t = re.sub(r'(?m)^: keep-alive\r?\n\r?\n', '', t)
if 'load' in sys.argv[1]:
    t = re.sub(r'"(load|decayed|mean)":[-0-9.eE]+', r'"\1":<n>', t)
    t = re.sub(r'(?mi)^content-length: .*\n', '', t)
sys.stdout.write(t)
PY
}
status=0
for f in $(cd "$out/old" && find answers state -type f | sort); do
  if [ ! -f "$out/new/$f" ]; then echo "only in old: $f"; status=1; continue; fi
  if ! cmp -s <(mask "$out/old/$f") <(mask "$out/new/$f"); then
    echo "DIFFERS: $f"; diff <(mask "$out/old/$f") <(mask "$out/new/$f") | head -20; status=1
  fi
done
for f in $(cd "$out/new" && find answers state -type f | sort); do [ -f "$out/old/$f" ] || { echo "only in new: $f"; status=1; }; done
echo "compared $(cd "$out/old" && find answers state -type f | wc -l) files in $out: $([ $status = 0 ] && echo identical || echo DIFFERENT)"
exit $status
