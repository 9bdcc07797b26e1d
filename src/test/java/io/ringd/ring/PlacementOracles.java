package io.ringd.ring;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * Brute-force oracles for the ketama and Maglev placements and for diffs
 * that involve a table, written from the contract (docs/ring.md
 * sections 14 and 15) without the library's code: the Maglev
 * table filled round by round as Envoy does (every member visited in every
 * round), ketama's points from the JDK's MD5, flows counted value class by
 * value class with floor division.
 */
final class PlacementOracles {

    static final long SPACE = 1L << 32;

    private PlacementOracles() {
    }

    static byte[] md5(String s) {
        try {
            return MessageDigest.getInstance("MD5").digest(s.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    static List<Node> sortedById(Collection<Node> nodes) {
        List<Node> sorted = new ArrayList<>(nodes);
        sorted.sort(Comparator.comparing(Node::id));
        return sorted;
    }

    // ------------------------------------------------------------ Maglev

    /** The table as the contract words it: rounds r = 1, 2, ..., every member in ascending id order each round. */
    static String[] maglevTable(Collection<Node> nodes, int m) {
        List<Node> sorted = sortedById(nodes);
        int n = sorted.size();
        String[] table = new String[m];
        if (n == 0) {
            return new String[0];
        }
        long[] offset = new long[n];
        long[] skip = new long[n];
        long[] next = new long[n];
        double[] target = new double[n];
        double maxWeight = 0;
        for (int i = 0; i < n; i++) {
            String id = sorted.get(i).placementKey();
            offset[i] = RingTesting.digest32("MD5", id + "#offset") % m;
            skip[i] = RingTesting.digest32("MD5", id + "#skip") % (m - 1) + 1;
            maxWeight = Math.max(maxWeight, sorted.get(i).weight());
        }
        int filled = 0;
        for (long round = 1; filled < m; round++) {
            for (int i = 0; i < n && filled < m; i++) {
                if (round * sorted.get(i).weight() < target[i]) {
                    continue;
                }
                target[i] += maxWeight;
                int c = (int) ((offset[i] + skip[i] * next[i]) % m);
                while (table[c] != null) {
                    next[i]++;
                    c = (int) ((offset[i] + skip[i] * next[i]) % m);
                }
                table[c] = sorted.get(i).id();
                next[i]++;
                filled++;
            }
        }
        return table;
    }

    /** The hash values of entry e of a table of m entries. */
    static long valuesOf(int e, int m) {
        return (SPACE - 1 - e) / m + 1;
    }

    /** Exact counts per id (every member listed, 0 for none). */
    static Map<String, Long> tableCounts(Collection<Node> nodes, String[] table) {
        Map<String, Long> out = new TreeMap<>();
        nodes.forEach(n -> out.put(n.id(), 0L));
        for (int e = 0; e < table.length; e++) {
            out.merge(table[e], valuesOf(e, table.length), Long::sum);
        }
        return out;
    }

    static String tableFingerprint(String[] table) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            for (String id : table) {
                sha.update(id.getBytes(StandardCharsets.US_ASCII));
                sha.update((byte) '\n');
            }
            return java.util.HexFormat.of().formatHex(sha.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The first n distinct owners reading the table forward from entry e, wrapping. */
    static List<String> tablePreference(String[] table, int e, int n) {
        List<String> out = new ArrayList<>();
        long owning = Arrays.stream(table).distinct().count();
        for (int i = 0; out.size() < Math.min(n, owning); i++) {
            String o = table[(e + i) % table.length];
            if (!out.contains(o)) {
                out.add(o);
            }
        }
        return out;
    }

    /** Zone-aware preference over a walk order, literally as the contract words it. */
    static List<String> zoned(List<String> order, Map<String, String> zones, int n) {
        java.util.Set<String> all = new java.util.TreeSet<>();
        for (String id : order) {
            all.add(zoneKey(zones, id));
        }
        List<String> taken = new ArrayList<>();
        java.util.Set<String> takenZones = new java.util.TreeSet<>();
        for (String id : order) {
            if (taken.size() >= n || takenZones.equals(all)) {
                break;
            }
            if (takenZones.add(zoneKey(zones, id))) {
                taken.add(id);
            }
        }
        for (String id : order) {
            if (taken.size() >= n) {
                break;
            }
            if (!taken.contains(id)) {
                taken.add(id);
            }
        }
        return taken;
    }

    private static String zoneKey(Map<String, String> zones, String id) {
        String z = zones.get(id);
        return z == null ? "node " + id : "zone " + z;
    }

    // ------------------------------------------------------------ ketama

    /** libketama's digest count, written again here: float quotient, double product, rounded to float, floored. */
    static int ketamaDigests(double weight, double sum, int n) {
        float pct = (float) weight / (float) sum;
        double product = (double) pct * 40.0 * (double) (float) n;
        return Math.max(1, (int) Math.floor((double) (float) product));
    }

    /**
     * The digest count of each flavor, written again here from the clients' C, Java and
     * JavaScript: libmemcached and spymemcached compute in float and add a double 1e-10; hashring
     * computes in doubles.
     */
    static int ketamaDigests(KetamaFlavor flavor, double weight, double sum, int n) {
        switch (flavor) {
            case LIBKETAMA:
                return ketamaDigests(weight, sum, n);
            case LIBMEMCACHED: {
                float pct = (float) weight / (float) sum;
                float f = pct * (float) 160 / (float) 4 * (float) n;
                return Math.max(1, (int) Math.floor((float) ((double) f + 0.0000000001)));
            }
            default:
                return Math.max(1, (int) Math.floor(weight / sum * 40 * n));
        }
    }

    /** The ketama ring of libketama's count: point -> owner (smallest id wins a collision). */
    static TreeMap<Long, String> ketamaRing(Collection<Node> nodes) {
        return ketamaRing(nodes, KetamaFlavor.LIBKETAMA);
    }

    /** The ketama ring of {@code flavor}'s count, each node placed by its hashKey or id. */
    static TreeMap<Long, String> ketamaRing(Collection<Node> nodes, KetamaFlavor flavor) {
        List<Node> sorted = sortedById(nodes);
        double sum = 0;
        for (Node n : sorted) {
            sum += n.weight();
        }
        TreeMap<Long, String> ring = new TreeMap<>();
        for (Node n : sorted) {
            int ks = ketamaDigests(flavor, n.weight(), sum, sorted.size());
            for (int k = 0; k < ks; k++) {
                byte[] d = md5(n.placementKey() + "-" + k);
                for (int j = 0; j < 4; j++) {
                    long p = (d[4 * j] & 0xffL) | (d[4 * j + 1] & 0xffL) << 8 | (d[4 * j + 2] & 0xffL) << 16
                            | (d[4 * j + 3] & 0xffL) << 24;
                    ring.merge(p, n.id(), (a, b) -> a.compareTo(b) <= 0 ? a : b);
                }
            }
        }
        return ring;
    }

    static long ketamaVnodes(Collection<Node> nodes) {
        return ketamaVnodes(nodes, KetamaFlavor.LIBKETAMA);
    }

    static long ketamaVnodes(Collection<Node> nodes, KetamaFlavor flavor) {
        double sum = 0;
        for (Node n : sortedById(nodes)) {
            sum += n.weight();
        }
        long total = 0;
        for (Node n : nodes) {
            total += 4L * ketamaDigests(flavor, n.weight(), sum, nodes.size());
        }
        return total;
    }

    /** The owner of h on a ring given as point -> owner. */
    static String ringOwner(TreeMap<Long, String> ring, long h) {
        if (ring.isEmpty()) {
            return null;
        }
        Map.Entry<Long, String> e = ring.ceilingEntry(h);
        return e != null ? e.getValue() : ring.firstEntry().getValue();
    }

    static TreeMap<Long, String> ringOf(HashRing ring) {
        TreeMap<Long, String> out = new TreeMap<>();
        for (int i = 0; i < ring.pointCount(); i++) {
            out.put(ring.pointAt(i), ring.ownerAt(i));
        }
        return out;
    }

    static String[] tableOf(HashRing table) {
        String[] out = new String[table.pointCount()];
        for (int e = 0; e < out.length; e++) {
            out[e] = table.ownerAt(e);
        }
        return out;
    }

    static Map<String, Long> ringCounts(Collection<Node> nodes, TreeMap<Long, String> ring) {
        Map<String, Long> out = new TreeMap<>();
        nodes.forEach(n -> out.put(n.id(), 0L));
        long prev = ring.isEmpty() ? 0 : ring.lastKey() - SPACE;
        for (Map.Entry<Long, String> e : ring.entrySet()) {
            out.merge(e.getValue(), e.getKey() - prev, Long::sum);
            prev = e.getKey();
        }
        return out;
    }

    // ------------------------------------------------------------ flows, by brute force

    /** Flows "from->to" -> count, moved ones only; {@code null} owner for an empty side. */
    static Map<String, Long> flowsOf(RingDiff diff) {
        Map<String, Long> out = new TreeMap<>();
        for (RingDiff.Flow f : diff.flows()) {
            out.put(f.from() + "->" + f.to(), f.count());
        }
        return out;
    }

    /** Two tables of the same size: entry by entry. */
    static Map<String, Long> tableFlows(String[] a, String[] b) {
        Map<String, Long> out = new TreeMap<>();
        for (int e = 0; e < a.length; e++) {
            if (!Objects.equals(a[e], b[e])) {
                out.merge(a[e] + "->" + b[e], valuesOf(e, a.length), Long::sum);
            }
        }
        return out;
    }

    /**
     * Two tables of coprime sizes m1, m2 with m1 * m2 small: each class
     * c mod m1*m2 is one (entry of a, entry of b) pair (Chinese remainder
     * theorem) and holds floor((2^32 - 1 - c) / (m1 m2)) + 1 values.
     */
    static Map<String, Long> tableFlowsByCrt(String[] a, String[] b) {
        long t = (long) a.length * b.length;
        Map<String, Long> out = new TreeMap<>();
        for (long c = 0; c < t && c < SPACE; c++) {
            String from = a[(int) (c % a.length)];
            String to = b[(int) (c % b.length)];
            if (!from.equals(to)) {
                out.merge(from + "->" + to, (SPACE - 1 - c) / t + 1, Long::sum);
            }
        }
        return out;
    }

    /** A ring against a table: for every arc [lo, hi] and every entry e, the values h of the arc with h mod m = e. */
    static Map<String, Long> ringToTableFlows(TreeMap<Long, String> ring, String[] table, boolean tableFirst) {
        int m = table.length;
        Map<String, Long> out = new TreeMap<>();
        long lo = 0;
        List<long[]> arcs = new ArrayList<>();
        List<String> owners = new ArrayList<>();
        for (Map.Entry<Long, String> p : ring.entrySet()) {
            arcs.add(new long[] {lo, p.getKey()});
            owners.add(p.getValue());
            lo = p.getKey() + 1;
        }
        if (lo <= SPACE - 1) {
            arcs.add(new long[] {lo, SPACE - 1});
            owners.add(ring.firstEntry().getValue());
        }
        for (int i = 0; i < arcs.size(); i++) {
            long a = arcs.get(i)[0];
            long b = arcs.get(i)[1];
            for (int e = 0; e < m; e++) {
                long count = Math.floorDiv(b - e, m) - Math.floorDiv(a - 1 - e, m);
                if (count > 0 && !owners.get(i).equals(table[e])) {
                    String key = tableFirst ? table[e] + "->" + owners.get(i) : owners.get(i) + "->" + table[e];
                    out.merge(key, count, Long::sum);
                }
            }
        }
        return out;
    }

    /** Two rings given as point -> owner: every boundary of either cuts the circle into constant segments. */
    static Map<String, Long> ringFlows(TreeMap<Long, String> a, TreeMap<Long, String> b) {
        java.util.TreeSet<Long> bounds = new java.util.TreeSet<>(a.keySet());
        bounds.addAll(b.keySet());
        bounds.add(SPACE - 1);
        Map<String, Long> out = new HashMap<>();
        long start = 0;
        for (long end : bounds) {
            String from = ringOwner(a, end);
            String to = ringOwner(b, end);
            if (!Objects.equals(from, to)) {
                out.merge(from + "->" + to, end - start + 1, Long::sum);
            }
            start = end + 1;
        }
        return new TreeMap<>(out);
    }

    static long sum(Map<String, Long> flows) {
        return flows.values().stream().mapToLong(Long::longValue).sum();
    }
}
