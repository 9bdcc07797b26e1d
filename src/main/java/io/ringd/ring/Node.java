package io.ringd.ring;

import java.util.regex.Pattern;

/**
 * A member of the ring: an id, a weight, an optional zone and an optional
 * placement string.
 *
 * <p>Ids and zones are 1 to 200 characters from {@code A-Z a-z 0-9 . _ - : @}
 * (so {@code host:port} is an id); the weight is a finite double in
 * {@code (0, 10000]}. Two weights are the same when the doubles are equal.
 * The {@code hashKey}, when set, is hashed where the id would be to place
 * the node's points (docs/ring.md section 14): 1 to 4096 bytes of UTF-8,
 * any characters ({@code host/10.0.0.7:11211}); answers still name the id.
 *
 * @param id      the node id, case-sensitive
 * @param weight  the weight, {@code 0 < weight <= 10000}
 * @param zone    the zone, or {@code null} for none
 * @param hashKey the placement string, or {@code null} for the id
 */
public record Node(String id, double weight, String zone, String hashKey) {

    /** The largest weight a node may have. */
    public static final double MAX_WEIGHT = 10_000;
    /** The longest id or zone, in characters. */
    public static final int MAX_ID_LENGTH = 200;
    /** The longest placement string, in bytes of UTF-8. */
    public static final int MAX_HASH_KEY_BYTES = 4096;

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._:@-]{1," + MAX_ID_LENGTH + "}");

    public Node {
        checkId(id);
        if (!(weight > 0 && weight <= MAX_WEIGHT)) { // also refuses NaN
            throw new IllegalArgumentException("weight must be in (0, 10000]: " + weight);
        }
        if (zone != null && !NAME.matcher(zone).matches()) {
            throw new IllegalArgumentException(
                    "zone must be 1 to 200 characters from A-Z a-z 0-9 . _ - : @: " + quote(zone));
        }
        if (hashKey != null) {
            checkHashKey(hashKey);
        }
    }

    /** A node placed by its id. */
    public Node(String id, double weight, String zone) {
        this(id, weight, zone, null);
    }

    /** A node without a zone, placed by its id. */
    public static Node of(String id, double weight) {
        return new Node(id, weight, null, null);
    }

    /** The string the node's points are placed by: its {@code hashKey}, or its id when it has none. */
    public String placementKey() {
        return hashKey != null ? hashKey : id;
    }

    /**
     * Checks a placement string: 1 to 4096 bytes of UTF-8, no unpaired surrogate (which has no
     * UTF-8 form).
     *
     * @throws IllegalArgumentException naming the bad value
     */
    public static String checkHashKey(String hashKey) {
        if (hashKey == null || hashKey.isEmpty()) {
            throw new IllegalArgumentException("hashKey must be 1 to 4096 bytes of UTF-8: " + quote(hashKey));
        }
        long bytes = 0;
        for (int i = 0; i < hashKey.length(); i++) {
            char c = hashKey.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < hashKey.length()
                    && Character.isLowSurrogate(hashKey.charAt(i + 1))) {
                bytes += 4;
                i++;
            } else if (Character.isSurrogate(c)) {
                throw new IllegalArgumentException("hashKey has an unpaired surrogate at index " + i);
            } else {
                bytes += c < 0x80 ? 1 : c < 0x800 ? 2 : 3;
            }
        }
        if (bytes > MAX_HASH_KEY_BYTES) {
            throw new IllegalArgumentException("hashKey must be 1 to 4096 bytes of UTF-8: " + bytes + " bytes");
        }
        return hashKey;
    }

    /** This node with another placement string ({@code null}: its id). */
    public Node withHashKey(String newHashKey) {
        return new Node(id, weight, zone, newHashKey);
    }

    /**
     * Checks a node id.
     *
     * @throws IllegalArgumentException naming the bad id
     */
    public static String checkId(String id) {
        if (id == null || !NAME.matcher(id).matches()) {
            throw new IllegalArgumentException(
                    "node id must be 1 to 200 characters from A-Z a-z 0-9 . _ - : @: " + quote(id));
        }
        return id;
    }

    /**
     * The number of points this node places at {@code vnodesPerWeight}:
     * {@code max(1, round(vnodesPerWeight * weight))}, in double arithmetic.
     */
    public long pointCount(int vnodesPerWeight) {
        return Math.max(1L, Math.round(vnodesPerWeight * weight));
    }

    /** Whether {@code other} has the same weight, zone and placement string (the id aside). */
    boolean sameAs(Node other) {
        return Double.compare(weight, other.weight) == 0 && java.util.Objects.equals(zone, other.zone)
                && java.util.Objects.equals(hashKey, other.hashKey);
    }

    /** Whether {@code other} is placed by the same string (its points are the same hashes). */
    boolean samePlacement(Node other) {
        return placementKey().equals(other.placementKey());
    }

    private static String quote(String s) {
        if (s == null) {
            return "null";
        }
        String shown = s.length() > 64 ? s.substring(0, 64) + "..." : s;
        return "\"" + shown + "\"";
    }
}
