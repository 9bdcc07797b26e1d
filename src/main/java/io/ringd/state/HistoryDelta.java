package io.ringd.state;

import java.util.List;
import java.util.Map;

import io.ringd.ring.Change;
import io.ringd.ring.Node;

/**
 * What one version changed from the one before: membership changes, or new
 * settings.
 *
 * @param version  the version this change made
 * @param changes  the membership changes (empty for a settings change)
 * @param settings the new settings, or {@code null} when they stayed
 */
public record HistoryDelta(long version, List<Change> changes, RingSettings settings) {

    public HistoryDelta {
        changes = List.copyOf(changes);
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
