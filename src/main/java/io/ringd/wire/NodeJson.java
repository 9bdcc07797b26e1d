package io.ringd.wire;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonRootName;

import io.ringd.ring.Node;

/**
 * A member: {@code {"id":"cache-1","weight":1.0,"zone":"eu-1a"}}; a
 * {@code null} zone, written as {@code null}, is no zone. A node placed by
 * a string of its own adds it: {@code "hashKey":"host/10.0.0.7:11211"}
 * (absent for a node placed by its id).
 *
 * @param id      the node id
 * @param weight  the weight, in (0, 10000]
 * @param zone    the zone, or {@code null}
 * @param hashKey the placement string, or {@code null} for the id
 */
@JsonRootName("Node")
public record NodeJson(String id, Double weight, String zone,
        @JsonInclude(JsonInclude.Include.NON_NULL) String hashKey) {

    /** A node placed by its id. */
    public NodeJson(String id, Double weight, String zone) {
        this(id, weight, zone, null);
    }

    public static NodeJson of(Node n) {
        return new NodeJson(n.id(), n.weight(), n.zone(), n.hashKey());
    }

    public static List<NodeJson> all(List<Node> nodes) {
        return nodes.stream().map(NodeJson::of).toList();
    }

    /**
     * The node, checked by the library.
     *
     * @throws WireException for a missing id or weight ({@code field} named), a bad id ({@code "id"}),
     *                       a bad hashKey ({@code "hashKey"}), or a weight or zone the library refuses
     *                       (the form as a whole)
     */
    public Node toNode() {
        String checked = checkedId(id);
        if (weight == null) {
            throw WireException.missing("weight");
        }
        if (hashKey != null) {
            try {
                Node.checkHashKey(hashKey);
            } catch (IllegalArgumentException e) {
                throw WireException.invalid("hashKey", e);
            }
        }
        try {
            return new Node(checked, weight, zone, hashKey);
        } catch (IllegalArgumentException e) {
            throw WireException.invalid(null, e);
        }
    }

    /** {@code id}, present and valid; a fault is the {@code "id"} field's. */
    static String checkedId(String id) {
        if (id == null) {
            throw WireException.missing("id");
        }
        try {
            return Node.checkId(id);
        } catch (IllegalArgumentException e) {
            throw WireException.invalid("id", e);
        }
    }
}
