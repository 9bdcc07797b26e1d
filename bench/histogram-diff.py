#!/usr/bin/env python3
"""What a JVM's heap grew by between two class histograms (jcmd GC.class_histogram), per stream,
for bench/fanout.sh and bench/fanout-cluster.sh:
  bench/histogram-diff.py BEFORE AFTER STREAMS           # KiB per stream, all classes together
  bench/histogram-diff.py BEFORE AFTER STREAMS --top N   # the N classes that grew most (bytes, objects)
"""
import re
import sys


def read(path):
    """class name -> (instances, bytes)"""
    d = {}
    for line in open(path):
        m = re.match(r"\s*\d+:\s+(\d+)\s+(\d+)\s+(\S+)", line)
        if m:
            d[m.group(3)] = (int(m.group(1)), int(m.group(2)))
    return d


def main(args):
    a, b, n = read(args[0]), read(args[1]), max(1.0, float(args[2]))
    if len(args) > 4 and args[3] == "--top":
        grew = sorted(((b[k][1] - a.get(k, (0, 0))[1], b[k][0] - a.get(k, (0, 0))[0], k) for k in b),
                      reverse=True)[:int(args[4])]
        for bytes_, objs, k in grew:
            print("  %9.1f bytes %6.2f objects  %s" % (bytes_ / n, objs / n, k))
    else:
        print(round(sum(b[k][1] - a.get(k, (0, 0))[1] for k in b) / 1024 / n, 1))


if __name__ == "__main__":
    main(sys.argv[1:])
