package io.ringd.state;

import io.ringd.ring.Node;

/** Checks of node ids and nodes given as input, naming the input at fault in each refusal. */
public final class NodeInput {

    private NodeInput() {
    }

    /**
     * A node id, checked.
     *
     * @throws InvalidInputException naming {@code field}
     */
    public static String id(String id, String field) {
        try {
            return Node.checkId(id);
        } catch (IllegalArgumentException e) {
            throw new InvalidInputException(field, e.getMessage());
        }
    }

    /**
     * The id of a node being added or replaced, checked: as {@link #id}, and not {@code .} or
     * {@code ..}, which no ordinary client can address ({@code /nodes/..} is normalised away).
     * The library and the state files take them (a ring saved with one still loads, and its node
     * can still be removed by a batch); only new puts are refused.
     *
     * @throws InvalidInputException naming {@code field}
     */
    public static String newId(String id, String field) {
        id(id, field);
        if (id.equals(".") || id.equals("..")) {
            throw new InvalidInputException(field, "node id must not be " + id
                    + ": a path segment of . or .. cannot be addressed (clients and proxies normalise it away)");
        }
        return id;
    }

    /**
     * A node of that id, weight, zone and placement string ({@code null}: its id), checked;
     * {@code prefix} is put before the field names in refusals ({@code "changes[2]."}, or
     * {@code ""}).
     *
     * @throws InvalidInputException naming the weight, zone or hashKey
     */
    public static Node node(String id, Double weight, String zone, String hashKey, String prefix) {
        if (hashKey != null) {
            try {
                Node.checkHashKey(hashKey);
            } catch (IllegalArgumentException e) {
                throw new InvalidInputException(prefix + "hashKey", e.getMessage());
            }
        }
        if (weight == null) {
            throw new InvalidInputException(prefix + "weight", "weight is required");
        }
        if (!(weight > 0 && weight <= Node.MAX_WEIGHT)) {
            throw new InvalidInputException(prefix + "weight", "weight must be in (0, 10000]: " + weight);
        }
        try {
            return new Node(id, weight, zone, hashKey);
        } catch (IllegalArgumentException e) {
            throw new InvalidInputException(prefix + "zone", e.getMessage());
        }
    }

    static String required(String value, String field) {
        if (value == null) {
            throw new InvalidInputException(field, field + " is required");
        }
        return value;
    }

    /** {@code s}, cut to 40 characters for a message. */
    public static String abbreviate(String s) {
        return s.length() > 40 ? s.substring(0, 40) + "..." : s;
    }
}
