package io.ringd.lookup;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;

import io.ringd.ring.HashRing;
import io.ringd.ring.Node;
import io.ringd.ring.RingConfig;
import io.ringd.state.NodeLoads;

/**
 * How bounded loads spread traffic: for c from 1.1 to 2.0, under uniform and
 * Zipf(1.1) key traffic, routes a stream of requests through the ring library
 * and {@link BoundedLoad#choose} (the very rule {@code /route?bound=c} runs,
 * without HTTP) and prints max load / mean, the mean number of nodes skipped
 * per request, and the share of requests answered by a node other than the
 * key's primary. A node's load is the number of requests it has answered so
 * far (Mirrokni, Thorup and Zadimoghaddam's setting: balls that stay); the
 * ratios are those of the server's decayed counts under steady traffic.
 *
 * <pre>
 * ./mvnw -B -q test-compile org.codehaus.mojo:exec-maven-plugin:3.6.4:java -Dexec.classpathScope=test \
 *     -Dexec.mainClass=io.ringd.lookup.BoundedLoadSimulation [-Dexec.args="nodes keys requests seed"]
 * </pre>
 *
 * Defaults: 50 nodes of weight 1 (md5, 128 points each), 100,000 keys,
 * 1,000,000 requests, seed 42. Deterministic for a given seed.
 */
public final class BoundedLoadSimulation {

    private BoundedLoadSimulation() {
    }

    /** One row of the table. */
    record Row(String traffic, String bound, double maxOverMean, double meanSkipped, double leftPrimary) {
    }

    public static void main(String[] args) {
        int nodes = args.length > 0 ? Integer.parseInt(args[0]) : 50;
        int keys = args.length > 1 ? Integer.parseInt(args[1]) : 100_000;
        int requests = args.length > 2 ? Integer.parseInt(args[2]) : 1_000_000;
        long seed = args.length > 3 ? Long.parseLong(args[3]) : 42;

        List<Node> members = new ArrayList<>();
        for (int i = 0; i < nodes; i++) {
            members.add(Node.of("node-" + i, 1));
        }
        HashRing ring = HashRing.of(RingConfig.defaults(), 1, members);
        long[] hashes = new long[keys];
        for (int k = 0; k < keys; k++) {
            hashes[k] = ring.hash("key-" + k);
        }
        double[] zipf = zipfCdf(keys, 1.1);

        System.out.printf(Locale.ROOT, "%d nodes (md5, 128 points each), %,d keys, %,d requests, seed %d%n",
                nodes, keys, requests, seed);
        System.out.printf(Locale.ROOT, "Zipf(1.1): the hottest key is %.1f%% of the requests (%.1f times a node's "
                + "fair share)%n%n", 100 * zipf[0], zipf[0] * nodes);
        System.out.println("| traffic   | bound c | max load / mean | mean skipped | left their primary |");
        System.out.println("| --------- | ------- | --------------- | ------------ | ------------------ |");
        for (String traffic : List.of("uniform", "zipf-1.1")) {
            List<String> bounds = new ArrayList<>(List.of("none"));
            for (int t = 11; t <= 20; t++) {
                bounds.add(String.format(Locale.ROOT, "%.1f", t / 10.0));
            }
            for (String bound : bounds) {
                Row r = run(ring, hashes, traffic.equals("uniform") ? null : zipf, requests, bound, seed);
                System.out.printf(Locale.ROOT, "| %-9s | %-7s | %15.3f | %12.3f | %17.2f%% |%n", r.traffic(),
                        r.bound(), r.maxOverMean(), r.meanSkipped(), 100 * r.leftPrimary());
            }
        }
    }

    /** Routes {@code requests} keys drawn with {@code cdf} (uniform when null); bound "none" is plain routing. */
    static Row run(HashRing ring, long[] hashes, double[] cdf, int requests, String bound, long seed) {
        Random rnd = new Random(seed); // the same key stream for every bound
        Counts loads = new Counts(ring);
        boolean plain = bound.equals("none");
        double c = plain ? 0 : Double.parseDouble(bound);
        long skipped = 0;
        long moved = 0;
        for (int i = 0; i < requests; i++) {
            int k = cdf == null ? rnd.nextInt(hashes.length) : draw(cdf, rnd.nextDouble());
            BoundedLoad.Choice choice = plain ? new BoundedLoad.Choice(ring.routeHash(hashes[k]), 0)
                    : BoundedLoad.choose(ring, hashes[k], c, loads);
            loads.add(choice.node());
            skipped += choice.skipped();
            if (choice.skipped() > 0) {
                moved++;
            }
        }
        return new Row(cdf == null ? "uniform" : "zipf-1.1", bound, loads.max() / loads.mean(),
                (double) skipped / requests, (double) moved / requests);
    }

    /** Requests answered per node, read as loads. */
    static final class Counts implements NodeLoads.Reading {
        private final Map<String, Integer> index = new HashMap<>();
        private final long[] counts;
        private long total;

        Counts(HashRing ring) {
            List<Node> members = ring.nodes();
            counts = new long[members.size()];
            for (int i = 0; i < members.size(); i++) {
                index.put(members.get(i).id(), i);
            }
        }

        void add(String node) {
            counts[index.get(node)]++;
            total++;
        }

        @Override
        public double mean() {
            return (double) total / counts.length;
        }

        @Override
        public double load(String node) {
            return counts[index.get(node)];
        }

        double max() {
            long max = 0;
            for (long n : counts) {
                max = Math.max(max, n);
            }
            return max;
        }
    }

    /** The cumulative distribution of Zipf(s) over ranks 1 .. n. */
    static double[] zipfCdf(int n, double s) {
        double[] cdf = new double[n];
        double sum = 0;
        for (int i = 0; i < n; i++) {
            sum += 1 / Math.pow(i + 1, s);
            cdf[i] = sum;
        }
        for (int i = 0; i < n; i++) {
            cdf[i] /= sum;
        }
        return cdf;
    }

    /** The rank whose cumulative probability first reaches {@code u}. */
    static int draw(double[] cdf, double u) {
        int lo = 0;
        int hi = cdf.length - 1;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (cdf[mid] < u) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }
}
