package io.ringd.ring;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * An immutable, versioned consistent-hash ring: members, their points, and
 * the lookups, ownership and fingerprint of SPEC.md sections 2 to 6.
 *
 * <p>Instances are snapshots: a membership change returns a new ring (one
 * version later) built incrementally from this one, and this one stays
 * valid. Every method is safe to call from any number of threads.
 */
public final class HashRing {

    /*
     * Design note.
     *
     * Layout. Points are unsigned 32-bit values; they are stored "biased"
     * (sign bit flipped, p ^ 0x80000000) so that signed int comparison, and
     * so Arrays.binarySearch, orders them as unsigned. Invariants, enforced
     * by build():
     *   - points strictly ascending (biased, signed order);
     *   - points.length == owners.length; owners[i] indexes members;
     *   - members ascending by id (String.compareTo is byte-wise on ASCII);
     *   - vnodes[m] holds hash("id#i") of member m for i = 0 .. k-1, in
     *     index order, so a reweight keeps or drops a suffix;
     *   - entries holds every distinct (point, member) pair, sorted, as
     *     (biasedPoint << 32) | memberIndex, so a collision group lists its
     *     nodes in ascending id order and the ring takes the first of each.
     * Lookup takes the first point >= hash and wraps to 0.
     *
     * Incremental changes. A change hashes only the points a node gains
     * (a new node all of its own, a reweight up its new suffix, a reweight
     * down or a removal none), sorts those, filters the old entries of the
     * changed nodes out while renumbering member indices, and merges the two
     * sorted runs: linear in the ring's size plus c log c for c changed
     * points. Nothing depends on the order of operations: the entries, and
     * so the ring, are a function of the set of (id, weight) and the config.
     */

    /** The most members a ring may have. */
    public static final int MAX_NODES = 10_000;
    /** The most points (vnodes before collisions) a ring may have. */
    public static final long MAX_POINTS = 4_000_000L;
    /** The size of the hash space, {@code 2^32}. */
    public static final long HASH_SPACE = 1L << 32;

    private static final int BIAS = Integer.MIN_VALUE;
    private static final int[] NO_INTS = new int[0];
    private static final long[] NO_LONGS = new long[0];

    private final RingConfig config;
    private final long version;
    private final Node[] members;
    private final int[][] vnodes;
    private final long[] entries;
    private final int[] points;
    private final int[] owners;
    private final int owningCount;
    /** zone class per member: members in one zone share it; each zoneless member has its own. */
    private final int[] zoneClass;
    private final int owningZoneCount;
    private final long vnodeCount;

    private volatile String fingerprint;
    private volatile Ownership ownership;

    private HashRing(RingConfig config, long version, Node[] members, int[][] vnodes, long[] entries) {
        this.config = config;
        this.version = version;
        this.members = members;
        this.vnodes = vnodes;
        this.entries = entries;
        long total = 0;
        for (int[] v : vnodes) {
            total += v.length;
        }
        this.vnodeCount = total;

        // The ring: the first entry of each point group (smallest id wins).
        int distinct = 0;
        for (int i = 0; i < entries.length; i++) {
            if (i == 0 || (int) (entries[i] >>> 32) != (int) (entries[i - 1] >>> 32)) {
                distinct++;
            }
        }
        int[] pts = new int[distinct];
        int[] own = new int[distinct];
        boolean[] owns = new boolean[members.length];
        int j = 0;
        for (int i = 0; i < entries.length; i++) {
            int p = (int) (entries[i] >>> 32);
            if (i == 0 || p != (int) (entries[i - 1] >>> 32)) {
                pts[j] = p;
                own[j] = (int) entries[i];
                owns[own[j]] = true;
                j++;
            }
        }
        this.points = pts;
        this.owners = own;

        Map<String, Integer> zoneIds = new HashMap<>();
        int[] zc = new int[members.length];
        int next = 0;
        for (int m = 0; m < members.length; m++) {
            String zone = members[m].zone();
            if (zone == null) {
                zc[m] = next++;
            } else {
                Integer known = zoneIds.get(zone);
                if (known == null) {
                    known = next++;
                    zoneIds.put(zone, known);
                }
                zc[m] = known;
            }
        }
        this.zoneClass = zc;
        int owning = 0;
        Set<Integer> owningZones = new HashSet<>();
        for (int m = 0; m < members.length; m++) {
            if (owns[m]) {
                owning++;
                owningZones.add(zc[m]);
            }
        }
        this.owningCount = owning;
        this.owningZoneCount = owningZones.size();
    }

    // ---------------------------------------------------------------- factories

    /** The empty ring at version 0. */
    public static HashRing empty(RingConfig config) {
        Objects.requireNonNull(config, "config");
        return new HashRing(config, 0, new Node[0], new int[0][], NO_LONGS);
    }

    /** The empty ring at version 0 with the default config (md5, 128 points per weight). */
    public static HashRing empty() {
        return empty(RingConfig.defaults());
    }

    /**
     * A ring of {@code nodes} at {@code version}, built from scratch (for
     * restoring a stored state or rebuilding an old version).
     *
     * @throws IllegalArgumentException if an id appears twice or version is negative
     * @throws RingException.LimitExceeded past the node or point limit
     */
    public static HashRing of(RingConfig config, long version, Collection<Node> nodes) {
        Objects.requireNonNull(config, "config");
        if (version < 0) {
            throw new IllegalArgumentException("version must be >= 0: " + version);
        }
        TreeMap<String, Node> byId = new TreeMap<>();
        for (Node n : nodes) {
            if (byId.put(n.id(), n) != null) {
                throw new IllegalArgumentException("node id appears twice: " + n.id());
            }
        }
        checkLimits(byId.values(), config.vnodesPerWeight());
        Node[] members = byId.values().toArray(new Node[0]);
        int[][] vnodes = new int[members.length][];
        for (int m = 0; m < members.length; m++) {
            vnodes[m] = hashVnodes(config.hash(), members[m].id(), NO_INTS,
                    (int) members[m].pointCount(config.vnodesPerWeight()));
        }
        int[] all = new int[members.length];
        for (int m = 0; m < members.length; m++) {
            all[m] = m;
        }
        long[] entries = entriesOf(vnodes, all);
        return new HashRing(config, version, members, vnodes, entries);
    }

    // ---------------------------------------------------------------- changes

    /** This ring with {@code node} added or replaced. */
    public HashRing put(Node node) {
        return apply(List.of(Change.put(node)));
    }

    /** This ring without the member {@code id}. */
    public HashRing remove(String id) {
        return apply(List.of(Change.remove(id)));
    }

    /**
     * Applies a batch of changes as one: all or nothing, one new version.
     * When the batch changes nothing (same weights and zones), this ring is
     * returned as it is, at its version.
     *
     * @throws RingException.InvalidBatch if an id appears twice in the batch
     * @throws RingException.UnknownNode  if a removal names no member
     * @throws RingException.LimitExceeded past the node or point limit
     */
    public HashRing apply(List<? extends Change> changes) {
        Objects.requireNonNull(changes, "changes");
        Set<String> seen = new HashSet<>();
        for (Change c : changes) {
            Objects.requireNonNull(c, "change");
            if (!seen.add(c.id())) {
                throw new RingException.InvalidBatch("node id appears twice in one batch: " + c.id(), c.id());
            }
        }
        TreeMap<String, Node> next = new TreeMap<>();
        for (Node n : members) {
            next.put(n.id(), n);
        }
        boolean changed = false;
        for (Change c : changes) {
            if (c instanceof Change.Remove r) {
                if (next.remove(r.id()) == null) {
                    throw new RingException.UnknownNode(r.id());
                }
                changed = true;
            } else {
                Node n = ((Change.Put) c).node();
                Node old = next.put(n.id(), n);
                changed |= old == null || !old.sameAs(n);
            }
        }
        if (!changed) {
            return this;
        }
        checkLimits(next.values(), config.vnodesPerWeight());
        return rebuild(next.values().toArray(new Node[0]));
    }

    /**
     * This membership under another config, at the next version; this ring
     * itself when the config is the same.
     */
    public HashRing withConfig(RingConfig newConfig) {
        Objects.requireNonNull(newConfig, "config");
        if (newConfig.equals(config)) {
            return this;
        }
        checkLimits(Arrays.asList(members), newConfig.vnodesPerWeight());
        return of(newConfig, version + 1, Arrays.asList(members));
    }

    private HashRing rebuild(Node[] next) {
        int vpw = config.vnodesPerWeight();
        int[][] nextVnodes = new int[next.length][];
        int[] oldToNew = new int[members.length];
        Arrays.fill(oldToNew, -1); // -1: removed or its points changed
        int[] changedNew = new int[next.length];
        int changedCount = 0;
        int o = 0;
        for (int m = 0; m < next.length; m++) {
            Node n = next[m];
            while (o < members.length && members[o].id().compareTo(n.id()) < 0) {
                o++; // removed member
            }
            int want = (int) n.pointCount(vpw);
            if (o < members.length && members[o].id().equals(n.id())) {
                int[] had = vnodes[o];
                if (had.length == want) {
                    nextVnodes[m] = had;
                    oldToNew[o] = m;
                } else {
                    nextVnodes[m] = hashVnodes(config.hash(), n.id(), had, want);
                    changedNew[changedCount++] = m;
                }
                o++;
            } else {
                nextVnodes[m] = hashVnodes(config.hash(), n.id(), NO_INTS, want);
                changedNew[changedCount++] = m;
            }
        }
        long[] added = entriesOf(nextVnodes, Arrays.copyOf(changedNew, changedCount));
        long[] merged = new long[countKept(oldToNew) + added.length];
        int a = 0;
        int w = 0;
        for (long e : entries) {
            int newIndex = oldToNew[(int) e];
            if (newIndex < 0) {
                continue;
            }
            long kept = (e & 0xFFFF_FFFF_0000_0000L) | newIndex;
            while (a < added.length && added[a] < kept) {
                merged[w++] = added[a++];
            }
            merged[w++] = kept;
        }
        while (a < added.length) {
            merged[w++] = added[a++];
        }
        return new HashRing(config, version + 1, next, nextVnodes, merged);
    }

    private int countKept(int[] oldToNew) {
        int kept = 0;
        for (long e : entries) {
            if (oldToNew[(int) e] >= 0) {
                kept++;
            }
        }
        return kept;
    }

    /** hash("id#i") for i < want, reusing the hashes already known in {@code had}. */
    private static int[] hashVnodes(KeyHash hash, String id, int[] had, int want) {
        if (want <= had.length) {
            return Arrays.copyOf(had, want);
        }
        int[] out = Arrays.copyOf(had, want);
        StringBuilder label = new StringBuilder(id.length() + 8).append(id).append('#');
        int prefix = label.length();
        for (int i = had.length; i < want; i++) {
            label.setLength(prefix);
            out[i] = hash.hash(label.append(i).toString());
        }
        return out;
    }

    /** Sorted, distinct entries of the given members. */
    private static long[] entriesOf(int[][] vnodes, int[] which) {
        int total = 0;
        for (int m : which) {
            total += vnodes[m].length;
        }
        long[] out = new long[total];
        int w = 0;
        for (int m : which) {
            for (int p : vnodes[m]) {
                out[w++] = ((long) (p ^ BIAS) << 32) | m;
            }
        }
        Arrays.sort(out);
        int d = 0;
        for (int i = 0; i < out.length; i++) {
            if (i == 0 || out[i] != out[d - 1]) {
                out[d++] = out[i];
            }
        }
        return d == out.length ? out : Arrays.copyOf(out, d);
    }

    private static void checkLimits(Collection<Node> nodes, int vnodesPerWeight) {
        if (nodes.size() > MAX_NODES) {
            throw new RingException.LimitExceeded(
                    "the ring may hold at most " + MAX_NODES + " nodes: " + nodes.size());
        }
        long total = 0;
        for (Node n : nodes) {
            total += n.pointCount(vnodesPerWeight);
        }
        if (total > MAX_POINTS) {
            throw new RingException.LimitExceeded(
                    "the ring may hold at most " + MAX_POINTS + " points: " + total);
        }
    }

    // ---------------------------------------------------------------- lookups

    /**
     * The node that owns {@code key}: the owner of the first point at or
     * after its hash, wrapping past the last point.
     *
     * @throws RingException.NoNodes on an empty ring
     */
    public String route(String key) {
        return members[owners[indexOf(config.hash().hash(key))]].id();
    }

    /**
     * The owner of a hash value in {@code 0 .. 2^32-1}.
     *
     * @throws RingException.NoNodes on an empty ring
     */
    public String routeHash(long hash) {
        return members[owners[indexOf(checkHash(hash))]].id();
    }

    /** The hash of {@code key} under this ring's hash function, unsigned. */
    public long hash(String key) {
        return config.hash().hashUnsigned(key);
    }

    /**
     * Up to {@code n} distinct nodes for {@code key}, in clockwise order from
     * its hash; element 0 is {@link #route(String)}.
     *
     * @throws RingException.NoNodes on an empty ring
     */
    public List<String> preference(String key, int n) {
        return preference(key, n, false);
    }

    /**
     * Up to {@code n} distinct nodes for {@code key}; with
     * {@code distinctZones}, nodes of zones not yet taken come first (SPEC.md
     * section 4).
     *
     * @throws RingException.NoNodes on an empty ring
     * @throws IllegalArgumentException if {@code n < 1}
     */
    public List<String> preference(String key, int n, boolean distinctZones) {
        return preferenceAt(indexOf(config.hash().hash(key)), n, distinctZones);
    }

    /** {@link #preference(String, int, boolean)} for a hash value. */
    public List<String> preferenceHash(long hash, int n, boolean distinctZones) {
        return preferenceAt(indexOf(checkHash(hash)), n, distinctZones);
    }

    private List<String> preferenceAt(int start, int n, boolean distinctZones) {
        if (n < 1) {
            throw new IllegalArgumentException("n must be >= 1: " + n);
        }
        int want = Math.min(n, owningCount);
        int[] taken = distinctZones ? zonedWalk(start, want) : plainWalk(start, want);
        String[] ids = new String[taken.length];
        for (int i = 0; i < taken.length; i++) {
            ids[i] = members[taken[i]].id();
        }
        return Collections.unmodifiableList(Arrays.asList(ids));
    }

    /** The first {@code want} distinct owners clockwise from {@code start}. */
    private int[] plainWalk(int start, int want) {
        int[] taken = new int[want];
        int count = 0;
        if (want <= Seen.SMALL) { // the taken nodes are the seen set: scan them
            for (int i = start; count < want; i = i + 1 == points.length ? 0 : i + 1) {
                int m = owners[i];
                int k = 0;
                while (k < count && taken[k] != m) {
                    k++;
                }
                if (k == count) {
                    taken[count++] = m;
                }
            }
            return taken;
        }
        Seen seen = new Seen(members.length, want);
        for (int i = start; count < want; i = i + 1 == points.length ? 0 : i + 1) {
            int m = owners[i];
            if (seen.add(m)) {
                taken[count++] = m;
            }
        }
        return taken;
    }

    private int[] zonedWalk(int start, int want) {
        int[] taken = new int[want];
        int count = 0;
        int[] order = new int[owningCount]; // distinct owners in clockwise order, as met
        int met = 0;
        Seen seen = new Seen(members.length, owningCount);
        Seen zones = new Seen(zoneClass.length, owningZoneCount);
        boolean[] isTaken = new boolean[members.length];
        int zonesTaken = 0;
        int i = start;
        while (count < want && zonesTaken < owningZoneCount) {
            int m = owners[i];
            i = i + 1 == points.length ? 0 : i + 1;
            if (seen.add(m)) {
                order[met++] = m;
                if (zones.add(zoneClass[m])) {
                    taken[count++] = m;
                    isTaken[m] = true;
                    zonesTaken++;
                }
            }
        }
        for (int k = 0; k < met && count < want; k++) {
            if (!isTaken[order[k]]) {
                taken[count++] = order[k];
            }
        }
        while (count < want) { // every node met so far is taken: keep walking
            int m = owners[i];
            i = i + 1 == points.length ? 0 : i + 1;
            if (seen.add(m)) {
                taken[count++] = m;
            }
        }
        return taken;
    }

    /** A set of small ints: a linear scan while small, a bitmap beyond. */
    private static final class Seen {
        static final int SMALL = 16;
        private final int[] few;
        private final boolean[] bits;
        private int size;

        Seen(int universe, int expected) {
            if (expected <= SMALL) {
                few = new int[expected];
                bits = null;
            } else {
                few = null;
                bits = new boolean[universe];
            }
        }

        boolean add(int v) {
            if (bits != null) {
                if (bits[v]) {
                    return false;
                }
                bits[v] = true;
                return true;
            }
            for (int k = 0; k < size; k++) {
                if (few[k] == v) {
                    return false;
                }
            }
            few[size++] = v;
            return true;
        }
    }

    /** Index of the first point >= hash, wrapping to 0; hash is unsigned in an int. */
    private int indexOf(int hash) {
        int[] pts = points;
        if (pts.length == 0) {
            throw new RingException.NoNodes();
        }
        int biased = hash ^ BIAS;
        // Branch-free lower bound: the loop runs log2(n) times whatever the
        // key, and the select compiles to a conditional move, so no branch
        // mispredicts. Invariant: the answer lies in [base, base + n].
        int base = 0;
        int n = pts.length;
        while (n > 1) {
            int half = n >>> 1;
            base = pts[base + half - 1] < biased ? base + half : base;
            n -= half;
        }
        int lo = pts[base] < biased ? base + 1 : base;
        return lo == pts.length ? 0 : lo;
    }

    private static int checkHash(long hash) {
        if (hash < 0 || hash >= HASH_SPACE) {
            throw new IllegalArgumentException("hash must be in [0, 4294967295]: " + hash);
        }
        return (int) hash;
    }

    /**
     * The node each key routes to, in the keys' order; compare two with
     * {@link KeyMovement#between(KeyAssignment, KeyAssignment)}.
     */
    public KeyAssignment assignments(List<String> keys) {
        String[] nodes = new String[keys.size()];
        for (int i = 0; i < nodes.length; i++) {
            nodes[i] = points.length == 0 ? null : route(keys.get(i));
        }
        return new KeyAssignment(keys, nodes, version);
    }

    // ---------------------------------------------------------------- accessors

    /** The version: 0 for a new empty ring, one more for each accepted change. */
    public long version() {
        return version;
    }

    /** The config this ring was built with. */
    public RingConfig config() {
        return config;
    }

    /** The members, ascending by id (including any that lost every point). */
    public List<Node> nodes() {
        return List.of(members);
    }

    /** The member with that id. */
    public Optional<Node> node(String id) {
        int m = memberIndex(id);
        return m < 0 ? Optional.empty() : Optional.of(members[m]);
    }

    /** Whether a member has that id. */
    public boolean contains(String id) {
        return memberIndex(id) >= 0;
    }

    /** The number of members. */
    public int nodeCount() {
        return members.length;
    }

    /** The number of distinct points on the ring (after collisions). */
    public int pointCount() {
        return points.length;
    }

    /** The number of vnodes placed, before collisions (what the point limit counts). */
    public long vnodeCount() {
        return vnodeCount;
    }

    /** Whether no node owns a point (every lookup fails). */
    public boolean isEmpty() {
        return points.length == 0;
    }

    /** The point at {@code index} ({@code 0 .. pointCount()-1}), unsigned, ascending. */
    public long pointAt(int index) {
        return Integer.toUnsignedLong(points[index] ^ BIAS);
    }

    /** The owner of the point at {@code index}. */
    public String ownerAt(int index) {
        return members[owners[index]].id();
    }

    private int memberIndex(String id) {
        int lo = 0;
        int hi = members.length - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            int c = members[mid].id().compareTo(id);
            if (c < 0) {
                lo = mid + 1;
            } else if (c > 0) {
                hi = mid - 1;
            } else {
                return mid;
            }
        }
        return -1;
    }

    // ---------------------------------------------------------------- ownership

    /** Exact ownership of the hash space per member, ascending by id. */
    public Ownership ownership() {
        Ownership o = ownership;
        if (o == null) {
            long[] counts = new long[members.length];
            int[] owned = new int[members.length];
            int len = points.length;
            for (int i = 0; i < len; i++) {
                long arc;
                if (i == 0) {
                    arc = HASH_SPACE - pointAt(len - 1) + pointAt(0);
                } else {
                    arc = pointAt(i) - pointAt(i - 1);
                }
                counts[owners[i]] += arc;
                owned[owners[i]]++;
            }
            List<Ownership.Share> shares = new ArrayList<>(members.length);
            for (int m = 0; m < members.length; m++) {
                shares.add(new Ownership.Share(members[m], owned[m], counts[m]));
            }
            o = new Ownership(version, shares);
            ownership = o;
        }
        return o;
    }

    /**
     * The exact difference between two rings: what moves, where, and which
     * ranges of the hash space change owner.
     */
    public static RingDiff diff(HashRing from, HashRing to) {
        return RingDiff.between(from, to, Integer.MAX_VALUE);
    }

    /**
     * {@link #diff(HashRing, HashRing)} keeping only the first {@code keepRanges}
     * moved ranges, so memory stays bounded however much moves; the range
     * count, moved count and flows are still exact.
     */
    public static RingDiff diff(HashRing from, HashRing to, int keepRanges) {
        return RingDiff.between(from, to, keepRanges);
    }

    // ---------------------------------------------------------------- fingerprint

    /**
     * Lowercase hex SHA-256 over, for each point ascending, its 4 bytes
     * big-endian, its owner's id in ASCII, and {@code 0x0A}.
     */
    public String fingerprint() {
        String f = fingerprint;
        if (f == null) {
            MessageDigest sha = KeyHashes.newDigest("SHA-256");
            byte[][] ids = new byte[members.length][];
            for (int m = 0; m < members.length; m++) {
                ids[m] = members[m].id().getBytes(StandardCharsets.US_ASCII);
            }
            byte[] buf = new byte[4];
            for (int i = 0; i < points.length; i++) {
                int p = points[i] ^ BIAS;
                buf[0] = (byte) (p >>> 24);
                buf[1] = (byte) (p >>> 16);
                buf[2] = (byte) (p >>> 8);
                buf[3] = (byte) p;
                sha.update(buf);
                sha.update(ids[owners[i]]);
                sha.update((byte) 0x0A);
            }
            f = KeyHashes.toLowerHex(sha.digest());
            fingerprint = f;
        }
        return f;
    }

    // package-private views for RingDiff

    int[] biasedPoints() {
        return points;
    }

    int[] ownerIndices() {
        return owners;
    }

    Node[] memberArray() {
        return members;
    }

    @Override
    public String toString() {
        return "HashRing[" + members.length + " nodes, " + points.length + " points, v" + version + "]";
    }
}
