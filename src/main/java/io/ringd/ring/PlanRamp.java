package io.ringd.ring;

/**
 * One node whose weight changes in a plan (PlanSteps): from {@code from} (null: added) to {@code to} (null:
 * removed).
 */
record PlanRamp(Node from, Node to) {
    String id() {
        return from != null ? from.id() : to.id();
    }

    /** The node at weight {@code w}, with its target zone and hashKey (its own when removed). */
    Node at(double w) {
        Node shape = to != null ? to : from;
        return new Node(shape.id(), w, shape.zone(), shape.hashKey());
    }

    String placementKey() {
        return to != null ? to.placementKey() : from.placementKey();
    }
}
