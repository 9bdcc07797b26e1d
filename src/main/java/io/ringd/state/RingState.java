package io.ringd.state;

import java.time.Instant;
import java.util.List;

import io.ringd.ring.HashRing;
import io.ringd.ring.Node;
import io.ringd.wire.NodeJson;
import io.ringd.wire.RingJson;
import io.ringd.wire.WireTime;

/**
 * One immutable version of the ring: its settings, membership, snapshot,
 * fingerprint and commit time. Swapped whole on every accepted change.
 *
 * @param settings    the ring settings
 * @param ring        the snapshot (its version is this state's version)
 * @param fingerprint the snapshot's fingerprint, computed once
 * @param committedAt when this version was committed; {@code null} for a version stored before commit times
 *                    were recorded
 * @param incarnation the incarnation of the ring this version belongs to ({@link Incarnation}); {@code null}
 *                    only before a ring was loaded
 */
public record RingState(RingSettings settings, HashRing ring, String fingerprint, Instant committedAt,
        String incarnation) {

    /** A state of no known incarnation. */
    public RingState(RingSettings settings, HashRing ring, String fingerprint, Instant committedAt) {
        this(settings, ring, fingerprint, committedAt, null);
    }

    static RingState of(RingSettings settings, HashRing ring, Instant committedAt, String incarnation) {
        return new RingState(settings, ring, ring.fingerprint(), committedAt, incarnation);
    }

    public long version() {
        return ring.version();
    }

    public List<Node> nodes() {
        return ring.nodes();
    }

    /** This version as {@code GET /ring} and a {@code snapshot} event show it. */
    public RingJson document() {
        return new RingJson(version(), incarnation, fingerprint, settings.json(), NodeJson.all(nodes()),
                WireTime.format(committedAt));
    }

    @Override
    public String toString() {
        return "RingState[v" + version() + ", " + settings + ", " + ring + "]";
    }
}
