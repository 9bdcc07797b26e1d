package io.ringd.state;

import java.util.List;

import io.ringd.ring.HashRing;
import io.ringd.ring.Node;

/**
 * One immutable version of the ring: its settings, membership, snapshot and
 * fingerprint. Swapped whole on every accepted change.
 *
 * @param settings    the ring settings
 * @param ring        the snapshot (its version is this state's version)
 * @param fingerprint the snapshot's fingerprint, computed once
 */
public record RingState(RingSettings settings, HashRing ring, String fingerprint) {

    static RingState of(RingSettings settings, HashRing ring) {
        return new RingState(settings, ring, ring.fingerprint());
    }

    public long version() {
        return ring.version();
    }

    public List<Node> nodes() {
        return ring.nodes();
    }

    @Override
    public String toString() {
        return "RingState[v" + version() + ", " + settings + ", " + ring + "]";
    }
}
