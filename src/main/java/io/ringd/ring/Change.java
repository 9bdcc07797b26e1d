package io.ringd.ring;

import java.util.Objects;

/** One membership change: add or replace a node, or remove one. */
public sealed interface Change permits Change.Put, Change.Remove {

    /** The id of the node this change is about. */
    String id();

    /** Adds {@code node}, or replaces the member with its id. */
    static Change put(Node node) {
        return new Put(node);
    }

    /** Removes the member with that id. */
    static Change remove(String id) {
        return new Remove(id);
    }

    /** Add or replace. */
    record Put(Node node) implements Change {
        public Put {
            Objects.requireNonNull(node, "node");
        }

        @Override
        public String id() {
            return node.id();
        }
    }

    /** Remove. */
    record Remove(String id) implements Change {
        public Remove {
            Node.checkId(id);
        }
    }
}
