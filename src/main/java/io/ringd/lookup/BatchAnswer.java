package io.ringd.lookup;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;

import tools.jackson.databind.annotation.JsonSerialize;

/**
 * The answer of a batch route: {@code {"version","routes":[{"key","node"}]}}, in request order, written by
 * {@link BatchWriter}: the fields in this order, as Jackson writes the record; with {@code "handoff":true}
 * each route also carries {@code "handoff"} (an object or null).
 */
@JsonSerialize(using = BatchWriter.class)
record BatchAnswer(long version, List<KeyNode> routes, boolean withHandoff) {

    BatchAnswer(long version, List<KeyNode> routes) {
        this(version, routes, false);
    }

    /** One key of a batch and the node that owns it, and its handoff when asked for (null: none). */
    record KeyNode(String key, String node, @JsonInclude(JsonInclude.Include.NON_NULL) HandoffJson handoff) {
        KeyNode(String key, String node) {
            this(key, node, null);
        }
    }
}
