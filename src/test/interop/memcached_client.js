'use strict';
// Stores keys through the npm memcached client as an application would, for io.ringd.interop.
//
// Usage: node memcached_client.js REQUEST.json (with NODE_PATH naming the node_modules that npm ci
// made from this folder's package-lock.json)
//
// The request is {"servers": [{"host", "port", "weight"}...], "keys": [...], "value": "...",
// "mode": "set" or "points"}. The servers go to the client in its object form,
// {"host:port": weight}, the form that carries weights; its ring is the npm hashring package's,
// built by the client with its defaults (md5, compatibility "ketama", which leaves port 11211 out
// of the hashed name). "set" stores every key with at most 8 requests in flight and answers
// {"stored": n}; "points" answers the client's continuum, {"points": [{"hash", "server"}...]}
// as its HashRing holds it (ascending), and stores nothing. Any error exits with status 1.
const fs = require('fs');
const Memcached = require('memcached');

const request = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const servers = {};
for (const s of request.servers) servers[s.host + ':' + s.port] = s.weight;
const client = new Memcached(servers, { retries: 1, timeout: 5000, poolSize: 8, remove: false });

function fail(error) {
  process.stderr.write(String(error && error.stack || error) + '\n');
  client.end();
  process.exit(1);
}

if (request.mode === 'points') {
  const points = client.HashRing.ring.map((node) => ({ hash: node.value, server: node.server }));
  client.end();
  process.stdout.write(JSON.stringify({ points }));
} else {
  const keys = request.keys;
  let next = 0;
  let stored = 0;
  const set = (key) => new Promise((resolve, reject) =>
    client.set(key, request.value, 0, (error, ok) => (error ? reject(error) : ok ? resolve() : reject(new Error('not stored: ' + key)))));
  const worker = async () => {
    while (next < keys.length) {
      await set(keys[next++]);
      stored++;
    }
  };
  Promise.all(Array.from({ length: 8 }, worker)).then(() => {
    client.end();
    process.stdout.write(JSON.stringify({ stored }));
  }, fail);
}
