package io.ringd.state;

import java.util.List;

import io.ringd.ring.Node;

/**
 * Everything a store keeps: the current version, settings and members, and
 * the history of kept versions (whose latest is the current one).
 *
 * @param version  the current version
 * @param settings the current settings
 * @param nodes    the current members, ascending by id
 * @param history  the kept versions
 */
public record PersistedState(long version, RingSettings settings, List<Node> nodes, RingHistory history) {

    public PersistedState {
        nodes = List.copyOf(nodes);
        if (history.latestVersion() != version) {
            throw new IllegalArgumentException("history ends at version " + history.latestVersion()
                    + " but the state is at version " + version);
        }
    }

    /**
     * Checks that replaying the history gives the current settings and members.
     *
     * @throws IllegalStateException when it does not
     */
    public void checkConsistent() {
        RingHistory.Version replayed = history.at(version);
        if (!replayed.settings().equals(settings) || !replayed.nodes().equals(nodes)) {
            throw new IllegalStateException("the history does not replay to the state of version " + version);
        }
    }
}
