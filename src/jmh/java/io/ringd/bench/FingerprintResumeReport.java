package io.ringd.bench;

import java.util.Arrays;
import java.util.List;
import java.util.Random;

import io.ringd.ring.FingerprintPeers;
import io.ringd.ring.HashRing;
import io.ringd.ring.Node;
import io.ringd.ring.RingConfig;

/**
 * How much of the fingerprint's bytes (docs/ring.md section 10) a follower
 * would hash again if each ring kept SHA-256 midstates and the next version
 * resumed from the one before its first changed entry (the bound
 * ClientApplyBenchmark's {@code fingerprintResumed} measures): for one-node
 * changes (a join, a removal, a reweight from 1 to 1.01) on 1,000 nodes of
 * the md5 ring (128 points per weight), ketama (160 points per server) and a
 * Maglev table (65,537 entries). Prints the mean, median and smallest share
 * of the entries from the first changed one on, over CHANGES random changes
 * of each kind. Run with
 * {@code ./mvnw -q -Pbench test-compile exec:exec -Dbench.main=io.ringd.bench.FingerprintResumeReport -Djmh.args=""}.
 */
public final class FingerprintResumeReport {

    static final int NODES = 1_000;
    static final int CHANGES = 100;

    private FingerprintResumeReport() {
    }

    public static void main(String[] args) {
        System.out.println("| placement, 1,000 nodes | change | entries | share hashed again: mean | median | least |");
        System.out.println("| --- | --- | ---: | ---: | ---: | ---: |");
        report("md5 ring, 128 points per weight", RingConfig.defaults());
        report("ketama", RingConfig.ketama());
        report("Maglev, M = 65,537", RingConfig.maglev(RingConfig.defaults().hash(),
                RingConfig.DEFAULT_MAGLEV_TABLE_SIZE));
    }

    private static void report(String name, RingConfig config) {
        List<Node> nodes = Fixtures.nodes(NODES);
        HashRing ring = HashRing.of(config, 1, nodes);
        Random rnd = new Random(20261201);
        double[] joins = new double[CHANGES];
        double[] removals = new double[CHANGES];
        double[] reweights = new double[CHANGES];
        for (int c = 0; c < CHANGES; c++) {
            joins[c] = share(ring, ring.put(Node.of("joining-" + c, 1.0)));
            removals[c] = share(ring, ring.remove(nodes.get(rnd.nextInt(NODES)).id()));
            reweights[c] = share(ring, ring.put(Node.of(nodes.get(rnd.nextInt(NODES)).id(), 1.01)));
        }
        int entries = FingerprintPeers.entries(ring);
        row(name, "join", entries, joins);
        row(name, "removal", entries, removals);
        row(name, "reweight 1 to 1.01", entries, reweights);
    }

    /** The share of the next ring's entries from the first one that differs on. */
    private static double share(HashRing before, HashRing after) {
        int entries = FingerprintPeers.entries(after);
        return entries == 0 ? 0 : (double) (entries - FingerprintPeers.firstDifference(before, after)) / entries;
    }

    private static void row(String name, String change, int entries, double[] shares) {
        double[] s = shares.clone();
        Arrays.sort(s);
        double mean = Arrays.stream(s).average().orElse(0);
        System.out.printf("| %s | %s | %,d | %.1f%% | %.1f%% | %.1f%% |%n", name, change, entries, 100 * mean,
                100 * s[s.length / 2], 100 * s[0]);
    }
}
