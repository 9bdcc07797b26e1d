package io.ringd.ring;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The brute-force oracle of the ring tests: the ring rebuilt from scratch
 * by hashing every {@code "id#i"}, resolving collisions to the byte-wise
 * smallest id and sorting, then answered by linear scans. It shares no code
 * with {@link HashRing} beyond the {@link KeyHash} it is given.
 */
final class LinearScanRing {

    static final long SPACE = 1L << 32;
    static final long MAX_HASH = SPACE - 1;

    final KeyHash hash;
    /** Ring points, unsigned, strictly ascending. */
    final long[] points;
    /** Owner of each point. */
    final String[] owners;
    /** Every id that placed a vnode at a point, for each point. */
    final Map<Long, Set<String>> contenders;
    /** Members in ascending id order, with their zone (null for none). */
    final Map<String, String> zones = new TreeMap<>();
    final Map<String, Node> nodes = new TreeMap<>();

    LinearScanRing(KeyHash hash, int vnodesPerWeight, Collection<Node> members) {
        this.hash = hash;
        TreeMap<Long, String> owner = new TreeMap<>();
        Map<Long, Set<String>> all = new TreeMap<>();
        for (Node n : members) {
            zones.put(n.id(), n.zone());
            nodes.put(n.id(), n);
            double product = vnodesPerWeight * n.weight();
            long k = Math.max(1L, (long) Math.floor(product + 0.5));
            for (long i = 0; i < k; i++) {
                long p = Integer.toUnsignedLong(hash.hash(n.placementKey() + "#" + i));
                all.computeIfAbsent(p, x -> new TreeSet<>()).add(n.id());
                String had = owner.get(p);
                if (had == null || bytewiseLess(n.id(), had)) {
                    owner.put(p, n.id());
                }
            }
        }
        points = new long[owner.size()];
        owners = new String[owner.size()];
        int i = 0;
        for (Map.Entry<Long, String> e : owner.entrySet()) {
            points[i] = e.getKey();
            owners[i] = e.getValue();
            i++;
        }
        contenders = all;
    }

    static LinearScanRing of(HashRing ring) {
        return new LinearScanRing(ring.config().hash(), ring.config().vnodesPerWeight(), ring.nodes());
    }

    static boolean bytewiseLess(String a, String b) {
        return Arrays.compareUnsigned(a.getBytes(StandardCharsets.US_ASCII), b.getBytes(StandardCharsets.US_ASCII)) < 0;
    }

    boolean isEmpty() {
        return points.length == 0;
    }

    /** Index of the first point >= h by linear scan, 0 past the last point. */
    int index(long h) {
        for (int i = 0; i < points.length; i++) {
            if (points[i] >= h) {
                return i;
            }
        }
        return 0;
    }

    /** The owner of hash value h, null on an empty ring. */
    String owner(long h) {
        return points.length == 0 ? null : owners[index(h)];
    }

    /** Every owning node, in the order a clockwise walk from h first meets it. */
    List<String> walk(long h) {
        List<String> out = new ArrayList<>();
        int start = index(h);
        for (int j = 0; j < points.length; j++) {
            String o = owners[(start + j) % points.length];
            if (!out.contains(o)) {
                out.add(o);
            }
        }
        return out;
    }

    List<String> preference(long h, int n) {
        List<String> w = walk(h);
        return w.subList(0, Math.min(n, w.size()));
    }

    /** Zone-aware preference, literally as the contract words it. */
    List<String> zonedPreference(long h, int n) {
        List<String> order = walk(h);
        Set<String> allZones = new TreeSet<>();
        for (String id : order) {
            allZones.add(zoneKey(id));
        }
        List<String> taken = new ArrayList<>();
        Set<String> takenZones = new TreeSet<>();
        for (String id : order) {
            if (taken.size() >= n || takenZones.equals(allZones)) {
                break;
            }
            if (takenZones.add(zoneKey(id))) {
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

    private String zoneKey(String id) {
        String z = zones.get(id);
        return z == null ? "node " + id : "zone " + z; // a zoneless node is a zone of its own
    }

    /** Exact hash values owned per member (ascending id, zero for members owning nothing). */
    Map<String, Long> counts() {
        Map<String, Long> out = new LinkedHashMap<>();
        zones.keySet().forEach(id -> out.put(id, 0L));
        for (int i = 0; i < points.length; i++) {
            long lower = i == 0 ? points[points.length - 1] - SPACE : points[i - 1];
            out.merge(owners[i], points[i] - lower, Long::sum);
        }
        return out;
    }

    /** Ring points owned per member after collisions. */
    Map<String, Integer> pointsOwned() {
        Map<String, Integer> out = new LinkedHashMap<>();
        zones.keySet().forEach(id -> out.put(id, 0));
        for (String o : owners) {
            out.merge(o, 1, Integer::sum);
        }
        return out;
    }

    /** Ids other than {@code id} that placed a vnode on a point {@code id} owns. */
    Set<String> contendersOf(String id) {
        Set<String> out = new TreeSet<>();
        for (int i = 0; i < points.length; i++) {
            if (owners[i].equals(id)) {
                out.addAll(contenders.get(points[i]));
            }
        }
        out.remove(id);
        return out;
    }

    /**
     * The exact diff between two oracle rings, by brute force: every
     * boundary of either ring cuts the circle into segments, and each
     * segment's owners are looked up by linear scan at its last value.
     */
    static Diff diff(LinearScanRing a, LinearScanRing b) {
        TreeSet<Long> bounds = new TreeSet<>();
        for (long p : a.points) {
            bounds.add(p);
        }
        for (long p : b.points) {
            bounds.add(p);
        }
        bounds.add(MAX_HASH);
        List<RingDiff.Range> ranges = new ArrayList<>();
        Map<List<String>, Long> flows = new TreeMap<>((x, y) -> {
            int c = compareNullable(x.get(0), y.get(0));
            return c != 0 ? c : compareNullable(x.get(1), y.get(1));
        });
        long moved = 0;
        long start = 0;
        for (long end : bounds) {
            String from = a.owner(end);
            String to = b.owner(end);
            if (!Objects.equals(from, to)) {
                moved += end - start + 1;
                flows.merge(Arrays.asList(from, to), end - start + 1, Long::sum);
                int last = ranges.size() - 1;
                if (last >= 0 && ranges.get(last).end() + 1 == start
                        && Objects.equals(ranges.get(last).from(), from)
                        && Objects.equals(ranges.get(last).to(), to)) {
                    ranges.set(last, new RingDiff.Range(ranges.get(last).start(), end, from, to));
                } else {
                    ranges.add(new RingDiff.Range(start, end, from, to));
                }
            }
            start = end + 1;
        }
        List<RingDiff.Flow> flowList = new ArrayList<>();
        flows.forEach((k, v) -> flowList.add(new RingDiff.Flow(k.get(0), k.get(1), v)));
        flowList.sort((x, y) -> {
            if (x.count() != y.count()) {
                return Long.compare(y.count(), x.count());
            }
            int c = compareNullable(x.from(), y.from());
            return c != 0 ? c : compareNullable(x.to(), y.to());
        });
        return new Diff(moved, flowList, ranges);
    }

    /** null first, then byte-wise. */
    static int compareNullable(String x, String y) {
        if (x == null || y == null) {
            return x == null ? (y == null ? 0 : -1) : 1;
        }
        return Arrays.compareUnsigned(x.getBytes(StandardCharsets.US_ASCII), y.getBytes(StandardCharsets.US_ASCII));
    }

    record Diff(long movedCount, List<RingDiff.Flow> flows, List<RingDiff.Range> ranges) {
    }
}
