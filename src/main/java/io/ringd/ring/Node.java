package io.ringd.ring;

import java.util.regex.Pattern;

/**
 * A member of the ring: an id, a weight and an optional zone.
 *
 * <p>Ids and zones are 1 to 200 characters from {@code A-Z a-z 0-9 . _ - : @}
 * (so {@code host:port} is an id); the weight is a finite double in
 * {@code (0, 10000]}. Two weights are the same when the doubles are equal.
 *
 * @param id     the node id, case-sensitive
 * @param weight the weight, {@code 0 < weight <= 10000}
 * @param zone   the zone, or {@code null} for none
 */
public record Node(String id, double weight, String zone) {

    /** The largest weight a node may have. */
    public static final double MAX_WEIGHT = 10_000;
    /** The longest id or zone, in characters. */
    public static final int MAX_ID_LENGTH = 200;

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
    }

    /** A node without a zone. */
    public static Node of(String id, double weight) {
        return new Node(id, weight, null);
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

    /** Whether {@code other} has the same weight and zone (the id aside). */
    boolean sameAs(Node other) {
        return Double.compare(weight, other.weight) == 0 && java.util.Objects.equals(zone, other.zone);
    }

    private static String quote(String s) {
        if (s == null) {
            return "null";
        }
        String shown = s.length() > 64 ? s.substring(0, 64) + "..." : s;
        return "\"" + shown + "\"";
    }
}
