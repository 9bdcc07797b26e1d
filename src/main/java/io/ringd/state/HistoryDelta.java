package io.ringd.state;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import io.ringd.ring.Change;
import io.ringd.ring.Node;

/**
 * What one version changed from the one before: membership changes, or new
 * settings; when it was committed, and the fingerprint of the ring it made.
 *
 * @param version     the version this change made
 * @param changes     the membership changes (empty for a settings change)
 * @param settings    the new settings, or {@code null} when they stayed
 * @param committedAt when the version was committed; {@code null} for versions stored before it was recorded
 * @param fingerprint the fingerprint of the ring at this version; {@code null} for versions stored before it
 *                    was recorded (then it is computed when needed)
 * @param plan        the planned change this version is a step of, or {@code null}
 */
public record HistoryDelta(long version, List<Change> changes, RingSettings settings, Instant committedAt,
        String fingerprint, PlanMark plan) {

    public HistoryDelta {
        changes = List.copyOf(changes);
    }

    /** A delta that is no plan's step. */
    public HistoryDelta(long version, List<Change> changes, RingSettings settings, Instant committedAt,
            String fingerprint) {
        this(version, changes, settings, committedAt, fingerprint, null);
    }

    /** A delta whose commit time and fingerprint are not known. */
    public HistoryDelta(long version, List<Change> changes, RingSettings settings) {
        this(version, changes, settings, null, null);
    }

    /** Applies the membership changes to {@code members} (id to node). */
    void applyTo(Map<String, Node> members) {
        for (Change c : changes) {
            if (c instanceof Change.Put p) {
                members.put(p.id(), p.node());
            } else {
                members.remove(c.id());
            }
        }
    }
}
