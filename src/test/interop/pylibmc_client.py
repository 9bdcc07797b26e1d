"""Stores keys through pylibmc (libmemcached) as an application would, for io.ringd.interop.

Usage: /usr/bin/python3 pylibmc_client.py REQUEST.json

The request is {"servers": [{"host", "port", "weight"}...], "behaviors": {...}, "keys": [...],
"value": "..."}. Each server is given to pylibmc in its "host:port:weight" form, the one form
that carries a weight. Every key is set to the value through one client with those behaviors;
the answer on standard output is {"stored": n, "behaviors": {...}} with the behaviors as
libmemcached reports them back. Any key not stored is an error (exit status 1).
"""
import json
import sys

import pylibmc


def main():
    with open(sys.argv[1], encoding="utf-8") as f:
        request = json.load(f)
    specs = ["%s:%d:%d" % (s["host"], s["port"], s["weight"]) for s in request["servers"]]
    client = pylibmc.Client(specs, behaviors=request["behaviors"])
    try:
        value = request["value"]
        stored = 0
        keys = request["keys"]
        for i in range(0, len(keys), 500):
            chunk = keys[i:i + 500]
            failed = client.set_multi({k: value for k in chunk})
            if failed:
                sys.stderr.write("not stored: %r\n" % (failed[:5],))
                return 1
            stored += len(chunk)
        behaviors = client.behaviors
        json.dump({"stored": stored,
                   "behaviors": {k: behaviors[k] for k in ("ketama", "ketama_weighted", "hash", "distribution")}},
                  sys.stdout)
        return 0
    finally:
        client.disconnect_all()


if __name__ == "__main__":
    sys.exit(main())
