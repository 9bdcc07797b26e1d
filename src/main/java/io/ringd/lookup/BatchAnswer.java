package io.ringd.lookup;

import java.util.List;

import tools.jackson.databind.annotation.JsonSerialize;

/**
 * The answer of a batch route: {@code {"version","routes":[{"key","node"}]}}, in request order, written by
 * {@link BatchWriter}: the fields in this order, as Jackson writes the record.
 */
@JsonSerialize(using = BatchWriter.class)
record BatchAnswer(long version, List<KeyNode> routes) {

    /** One key of a batch and the node that owns it. */
    record KeyNode(String key, String node) {
    }
}
