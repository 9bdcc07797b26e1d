package io.ringd.ring;

import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * Where each of a sample of keys routes at one version, in the keys' order;
 * {@code null} for every key on an empty ring.
 */
public final class KeyAssignment {

    private final List<String> keys;
    private final String[] nodes;
    private final long version;

    KeyAssignment(List<String> keys, String[] nodes, long version) {
        this.keys = List.copyOf(keys);
        this.nodes = nodes;
        this.version = version;
    }

    /** Routes each of {@code keys} on {@code ring}: {@code null} for every key when it has no point. */
    static KeyAssignment of(HashRing ring, List<String> keys) {
        String[] nodes = new String[keys.size()];
        boolean empty = ring.isEmpty();
        for (int i = 0; i < nodes.length; i++) {
            nodes[i] = empty ? null : ring.route(keys.get(i));
        }
        return new KeyAssignment(keys, nodes, ring.version());
    }

    /** The keys, in order. */
    public List<String> keys() {
        return keys;
    }

    /** The node of each key, in the keys' order. */
    public List<String> nodes() {
        return Collections.unmodifiableList(Arrays.asList(nodes));
    }

    /** The node of key {@code index}. */
    public String node(int index) {
        return nodes[index];
    }

    /** The number of keys. */
    public int size() {
        return nodes.length;
    }

    /** The ring version the keys were routed at. */
    public long version() {
        return version;
    }
}
