package io.ringd.wire;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;

import io.ringd.ring.Change;

/**
 * A membership change, told apart by {@code op}:
 * {@code {"op":"put","id":"cache-4","weight":1.0,"zone":null}} or
 * {@code {"op":"remove","id":"cache-1"}}. An unknown {@code op} is refused
 * by the reader.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, include = JsonTypeInfo.As.EXISTING_PROPERTY, property = "op",
        visible = true)
@JsonSubTypes({ @JsonSubTypes.Type(value = ChangeJson.Put.class, name = ChangeJson.PUT),
        @JsonSubTypes.Type(value = ChangeJson.Remove.class, name = ChangeJson.REMOVE) })
public sealed interface ChangeJson permits ChangeJson.Put, ChangeJson.Remove {

    String PUT = "put";
    String REMOVE = "remove";

    /** {@code put} or {@code remove}. */
    String op();

    /** The id of the node changed. */
    String id();

    /**
     * The change, checked by the library.
     *
     * @throws WireException naming the field at fault, as {@link NodeJson#toNode()}
     */
    Change toChange();

    static ChangeJson of(Change c) {
        if (c instanceof Change.Put p) {
            return new Put(PUT, p.id(), p.node().weight(), p.node().zone(), p.node().hashKey());
        }
        return new Remove(REMOVE, c.id());
    }

    /**
     * Add or replace a node.
     *
     * @param op      {@code put}
     * @param id      the node id
     * @param weight  the weight
     * @param zone    the zone, or {@code null}
     * @param hashKey the placement string, or {@code null} for the id (and absent from the JSON)
     */
    record Put(String op, String id, Double weight, String zone,
            @JsonInclude(JsonInclude.Include.NON_NULL) String hashKey) implements ChangeJson {

        /** A put of a node placed by its id. */
        public Put(String op, String id, Double weight, String zone) {
            this(op, id, weight, zone, null);
        }

        @Override
        public Change toChange() {
            return Change.put(new NodeJson(id, weight, zone, hashKey).toNode());
        }
    }

    /**
     * Remove a node.
     *
     * @param op {@code remove}
     * @param id the node id
     */
    record Remove(String op, String id) implements ChangeJson {
        @Override
        public Change toChange() {
            return Change.remove(NodeJson.checkedId(id));
        }
    }
}
