package io.ringd.ring;

import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * An immutable, versioned placement of keys on nodes: its members and where
 * they sit, with the lookups, preference lists, ownership, diffs and
 * fingerprint of docs/ring.md sections 3 to 10. The {@link RingConfig}
 * chooses the placement: a consistent-hash ring of {@code "id#i"} points
 * (the default), libketama's ring (section 14) or a Maglev table
 * (section 15); the API is the same for all three.
 *
 * <p>Instances are snapshots: a membership change returns a new ring (one
 * version later) built incrementally from this one, and this one stays
 * valid. Every method is safe to call from any number of threads.
 */
public final class HashRing implements Placement {

    /*
     * Design note.
     *
     * Layout. The ring is two parallel arrays, points[] and owners[]
     * (indices into members[]). Points are unsigned 32-bit values stored
     * "biased" (sign bit flipped, p ^ BIAS) so that signed int comparison
     * orders them as unsigned. Invariants:
     *   - points strictly ascending (biased, signed order);
     *     points.length == owners.length; owners[i] indexes members;
     *   - members ascending by id (String.compareTo is byte-wise on ASCII);
     *   - every member counted in owningCount owns a point, and
     *     owningZoneCount counts the zone classes of those members.
     * The constructor stores what it is given and derives two read-only
     * views of it, ids[] (members[m].id()) and the search index below
     * (unless the builder hands it one it made while writing the points);
     * RingBuilder.snapshot() is its only caller and establishes the
     * invariants (its design note says how), along with those of placed[]
     * and shadowed[], which only the builder reads, to make the next
     * version incrementally.
     *
     * A Maglev table (config algorithm MAGLEV) uses the same fields another
     * way: owners[] is the table itself (owners[e] is the member of entry
     * e, owners.length == tableSize == M, every entry owned), points[] is
     * empty, shadowed[] too, placed[] all zero, and
     * maglevPerm[] keeps each member's offset and skip for the next
     * version (Maglev's design note). tableSize is 0 for every ring, and
     * for an empty table (no members), which behaves as an empty ring.
     * "Index" in the lookups below means a ring index or a table entry; the
     * preference walk reads owners[] forward from it either way, which is
     * what both contracts ask. Ketama rings are plain rings here: only the
     * builder knows how their points were made.
     *
     * Lookup. indexOf takes the first point >= hash and wraps to 0, through
     * a search index of the hash space (PointIndex's design note says how);
     * then one read of owners[] and one of ids[]. route and routeHash do
     * nothing else, and the named key hashes allocate nothing, so a lookup
     * allocates nothing.
     *
     * Everything else is elsewhere in the package: building and changes in
     * RingBuilder (with Ketama and Maglev), preference lists in
     * PreferenceWalk, ownership in Ownership.of, the fingerprint in
     * Fingerprint, diffs in RingDiff (and TableDiff when a Maglev table is
     * involved) and key assignments in KeyAssignment.of. Ownership and the
     * fingerprint are computed on first use and cached in volatile fields;
     * two threads may both compute one, and get the same value.
     */

    /** The most members a ring may have. */
    public static final int MAX_NODES = 10_000;
    /** The most points (vnodes before collisions) a ring may have. */
    public static final long MAX_POINTS = 4_000_000L;
    /** The size of the hash space, {@code 2^32}. */
    public static final long HASH_SPACE = 1L << 32;

    /** XORed into an unsigned point to store it in signed order, and out again to read it. */
    static final int BIAS = Integer.MIN_VALUE;

    private final RingConfig config;
    private final long version;
    // The fields without "private" are the internal arrays and counts that the builder, the walks,
    // ownership, the fingerprint and the diffs read in place; never handed outside the package.
    final Node[] members;
    /** members[m].id(), read by lookups without going through the Node. */
    final String[] ids;
    /** Vnodes member m placed (for the builder); all 0 for a Maglev table. */
    final int[] placed;
    /** Entries (biasedPoint << 32 | member) hidden by a collision, sorted (for the builder). */
    final long[] shadowed;
    private final long vnodeCount;
    final int[] points;
    final int[] owners;
    /** First point in or after each of the 2^bits buckets of the hash space, then points.length. */
    private final int[] index;
    /** 32 - bits: a hash's bucket is hash >>> indexShift. */
    private final int indexShift;
    final int owningCount;
    /** zone class per member: members in one zone share it; each zoneless member has its own. */
    final int[] zoneClass;
    final int owningZoneCount;
    /** M for a Maglev table with members, else 0. */
    final int tableSize;
    /** Maglev: offset and skip of member m at [2m] and [2m + 1]; null for rings. */
    final int[] maglevPerm;

    private volatile String fingerprint;
    private volatile Ownership ownership;

    /** Only {@link RingBuilder} makes rings; see the design note for what it guarantees. */
    HashRing(RingConfig config, long version, Node[] members, int[] placed, long[] shadowed, long vnodeCount,
            int[] points, int[] owners, int[] index, int owningCount, int[] zoneClass, int owningZoneCount,
            int tableSize, int[] maglevPerm) {
        this.config = config;
        this.version = version;
        this.members = members;
        this.ids = new String[members.length];
        for (int m = 0; m < members.length; m++) {
            ids[m] = members[m].id();
        }
        this.placed = placed;
        this.shadowed = shadowed;
        int bits = PointIndex.bits(points.length);
        this.indexShift = 32 - bits;
        this.index = points.length == 0 ? null
                : index != null && index.length == (1 << bits) + 1 ? index : PointIndex.of(points, bits);
        this.vnodeCount = vnodeCount;
        this.points = points;
        this.owners = owners;
        this.owningCount = owningCount;
        this.zoneClass = zoneClass;
        this.owningZoneCount = owningZoneCount;
        this.tableSize = tableSize;
        this.maglevPerm = maglevPerm;
    }

    // ---------------------------------------------------------------- factories

    /** The empty ring at version 0. */
    public static HashRing empty(RingConfig config) {
        return RingBuilder.empty(config);
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
        return RingBuilder.of(config, version, nodes);
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
        return RingBuilder.apply(this, changes);
    }

    /**
     * This membership under another config, at the next version; this ring
     * itself when the config is the same.
     */
    public HashRing withConfig(RingConfig newConfig) {
        return RingBuilder.withConfig(this, newConfig);
    }

    /**
     * The ring a recorded version describes: this ring with {@code changes}
     * applied, under {@code config}, at {@code version}, whatever the steps
     * did to the version number (both changes and a config are two steps; a
     * step that changes nothing the ring is made of, such as a Maglev table
     * size under {@code RING}, is none), so a follower lands on the version
     * it was told of.
     *
     * @throws RingException.InvalidBatch  if an id appears twice in the batch
     * @throws RingException.UnknownNode   if a removal names no member
     * @throws RingException.LimitExceeded past the node or point limit
     */
    public HashRing apply(List<? extends Change> changes, RingConfig config, long version) {
        HashRing next = (changes.isEmpty() ? this : apply(changes)).withConfig(config);
        return next.version() == version ? next : of(config, version, next.nodes());
    }

    // ---------------------------------------------------------------- lookups

    /**
     * The node that owns {@code key}: the owner of the first point at or
     * after its hash, wrapping past the last point (for a Maglev table, the
     * owner of entry {@code hash mod M}).
     *
     * @throws RingException.NoNodes on an empty ring
     */
    @Override
    public String route(String key) {
        return ids[owners[indexOf(config.hash().hash(key))]];
    }

    /**
     * The owner of a hash value in {@code 0 .. 2^32-1}.
     *
     * @throws RingException.NoNodes on an empty ring
     */
    @Override
    public String routeHash(long hash) {
        return ids[owners[indexOf(PointIndex.checkHash(hash))]];
    }

    /** The hash of {@code key} under this ring's hash function, unsigned. */
    @Override
    public long hash(String key) {
        return config.hash().hashUnsigned(key);
    }

    /**
     * Up to {@code n} distinct nodes for {@code key}, in clockwise order from
     * its hash (for a Maglev table, reading entries forward from the key's
     * entry, wrapping); element 0 is {@link #route(String)}.
     *
     * @throws RingException.NoNodes on an empty ring
     */
    public List<String> preference(String key, int n) {
        return preference(key, n, false);
    }

    /**
     * Up to {@code n} distinct nodes for {@code key}; with
     * {@code distinctZones}, nodes of zones not yet taken come first
     * (docs/ring.md section 6, preference lists).
     *
     * @throws RingException.NoNodes on an empty ring
     * @throws IllegalArgumentException if {@code n < 1}
     */
    public List<String> preference(String key, int n, boolean distinctZones) {
        return PreferenceWalk.from(this, indexOf(config.hash().hash(key)), n, distinctZones);
    }

    /** {@link #preference(String, int, boolean)} for a hash value. */
    public List<String> preferenceHash(long hash, int n, boolean distinctZones) {
        return PreferenceWalk.from(this, indexOf(PointIndex.checkHash(hash)), n, distinctZones);
    }

    /** Index of the first point >= hash (unsigned in an int), wrapping to 0; for a Maglev table the entry hash mod M. */
    private int indexOf(int hash) {
        return PointIndex.indexOf(points, index, indexShift, tableSize, hash);
    }

    /**
     * The node each key routes to, in the keys' order; compare two with
     * {@link KeyMovement#between(KeyAssignment, KeyAssignment)}.
     */
    public KeyAssignment assignments(List<String> keys) {
        return KeyAssignment.of(this, keys);
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

    /**
     * The number of distinct points on the ring (after collisions). For a
     * Maglev table: its number of entries, M (0 without members).
     */
    public int pointCount() {
        return owners.length;
    }

    /**
     * The number of vnodes placed, before collisions (what the point limit
     * counts; for ketama, 4 per digest). For a Maglev table: its number of
     * entries, M (0 without members), which the point limit does not count.
     */
    public long vnodeCount() {
        return vnodeCount;
    }

    /** Whether no node owns a point or an entry (every lookup fails). */
    public boolean isEmpty() {
        return owners.length == 0;
    }

    /**
     * Whether this is a Maglev table with members: its "points" are then the
     * entries {@code 0 .. M-1}, read with {@link #ownerAt(int)}, and it has
     * no {@link #pointAt(int)}.
     */
    public boolean isTable() {
        return tableSize != 0;
    }

    /**
     * The point at {@code index} ({@code 0 .. pointCount()-1}), unsigned, ascending.
     *
     * @throws UnsupportedOperationException for a Maglev table, which has
     *         entries rather than points: entry {@code e} holds the hash values
     *         {@code e, e + M, e + 2M, ...}
     */
    public long pointAt(int index) {
        if (tableSize != 0) {
            throw new UnsupportedOperationException(
                    "a Maglev table has entries, not points: use ownerAt(entry) for entry 0 .. " + (tableSize - 1));
        }
        return Integer.toUnsignedLong(points[index] ^ BIAS);
    }

    /** The owner of the point at {@code index}; for a Maglev table, of entry {@code index}. */
    public String ownerAt(int index) {
        return ids[owners[index]];
    }

    /**
     * An estimate of the heap this snapshot holds, in bytes: its points,
     * owners, search index and hidden points, and about 100 bytes a member
     * (for holding a few versions within a budget).
     */
    public long memoryBytes() {
        long bytes = 128 + 4L * points.length + 4L * owners.length + 8L * shadowed.length
                + (index == null ? 0 : 4L * index.length) + 4L * placed.length + 4L * zoneClass.length
                + (maglevPerm == null ? 0 : 4L * maglevPerm.length);
        return bytes + 100L * members.length;
    }

    /** The index of member {@code id}, or -1: ids are ascending, as the members are. */
    int memberIndex(String id) {
        int m = Arrays.binarySearch(ids, id);
        return m >= 0 ? m : -1;
    }

    // ---------------------------------------------------------------- ownership, diffs, fingerprint

    /** Exact ownership of the hash space per member, ascending by id. */
    public Ownership ownership() {
        Ownership o = ownership;
        if (o == null) {
            o = Ownership.of(this);
            ownership = o;
        }
        return o;
    }

    /**
     * The exact difference between two rings: what moves, where, and which
     * ranges of the hash space change owner. Any two placements can be
     * compared (a ring and a Maglev table, two tables of different sizes);
     * when one side is a Maglev table the counts and flows are exact and the
     * ranges are not listed ({@link RingDiff#rangesListed()}).
     */
    public static RingDiff diff(HashRing from, HashRing to) {
        return RingDiff.between(from, to, Integer.MAX_VALUE, Integer.MAX_VALUE, null);
    }

    /**
     * {@link #diff(HashRing, HashRing)} keeping only the first {@code keepRanges}
     * moved ranges, so memory stays bounded however much moves; the range
     * count, moved count and flows are still exact.
     */
    public static RingDiff diff(HashRing from, HashRing to, int keepRanges) {
        return RingDiff.between(from, to, keepRanges, Integer.MAX_VALUE, null);
    }

    /**
     * {@link #diff(HashRing, HashRing)} keeping only the first {@code keepRanges}
     * moved ranges and the first {@code keepFlows} flows (in the flow order),
     * and, when {@code node} is not {@code null}, only the flows and ranges
     * from or to that node (the moved count counting only those). Memory
     * stays bounded by what is kept whatever moves; the counts are exact. A
     * node that is a member of neither ring has no flows.
     *
     * @throws IllegalArgumentException for a negative limit or a node that is no valid id
     */
    public static RingDiff diff(HashRing from, HashRing to, int keepRanges, int keepFlows, String node) {
        return RingDiff.between(from, to, keepRanges, keepFlows, node);
    }

    /**
     * Lowercase hex SHA-256 over, for each point ascending, its 4 bytes
     * big-endian, its owner's id in ASCII, and {@code 0x0A}; for a Maglev
     * table, over each entry in order, its owner's id in ASCII and
     * {@code 0x0A}.
     */
    public String fingerprint() {
        String f = fingerprint;
        if (f == null) {
            f = Fingerprint.of(this);
            fingerprint = f;
        }
        return f;
    }

    @Override
    public String toString() {
        String what = switch (config.algorithm()) {
            case MAGLEV -> "maglev table of " + owners.length + " entries";
            case KETAMA -> owners.length + " ketama points";
            case RING -> owners.length + " points";
        };
        return "HashRing[" + members.length + " nodes, " + what + ", v" + version + "]";
    }
}
