package io.ringd.state;

import java.util.List;
import java.util.TreeMap;

import io.ringd.ring.Change;
import io.ringd.ring.Node;

/**
 * Everything a store keeps: the current version, settings and members, the
 * history of kept versions (whose latest is the current one), and the ring's
 * incarnation.
 *
 * @param version     the current version
 * @param settings    the current settings
 * @param nodes       the current members, ascending by id
 * @param history     the kept versions
 * @param incarnation the ring's incarnation ({@link Incarnation}); {@code null} for a state stored before
 *                    incarnations were kept, which takes one when it is first loaded
 */
public record PersistedState(long version, RingSettings settings, List<Node> nodes, RingHistory history,
        String incarnation) {

    /** A state without an incarnation (as stored before incarnations were kept). */
    public PersistedState(long version, RingSettings settings, List<Node> nodes, RingHistory history) {
        this(version, settings, nodes, history, null);
    }

    public PersistedState {
        if (incarnation != null && !Incarnation.valid(incarnation)) {
            throw new IllegalArgumentException("an incarnation is 16 lowercase hex digits: " + incarnation);
        }
        nodes = List.copyOf(nodes);
        if (history.latestVersion() != version) {
            throw new IllegalArgumentException("history ends at version " + history.latestVersion()
                    + " but the state is at version " + version);
        }
    }

    /** This state with {@code incarnation}. */
    public PersistedState withIncarnation(String incarnation) {
        return new PersistedState(version, settings, nodes, history, incarnation);
    }

    /**
     * Checks that the history is a sequence of real changes that replays to
     * the current settings and members: no version removes a node that is
     * not a member or changes nothing, and the last one gives exactly this
     * state.
     *
     * @throws IllegalStateException naming the version and the node or setting at fault
     */
    public void checkConsistent() {
        TreeMap<String, Node> members = new TreeMap<>();
        for (Node n : history.baseNodes()) {
            members.put(n.id(), n);
        }
        RingSettings replayed = history.baseSettings();
        for (HistoryDelta d : history.deltas()) {
            boolean changed = d.settings() != null && !d.settings().equals(replayed);
            for (Change c : d.changes()) {
                if (c instanceof Change.Put p) {
                    Node before = members.put(p.id(), p.node());
                    changed |= !p.node().equals(before);
                } else if (members.remove(c.id()) == null) {
                    throw new IllegalStateException("history: version " + d.version() + " removes node \"" + c.id()
                            + "\", which is not a member of version " + (d.version() - 1));
                } else {
                    changed = true;
                }
            }
            if (!changed) {
                throw new IllegalStateException("history: version " + d.version() + " changes nothing (it puts "
                        + "nodes that are already members as they are" + (d.settings() != null
                                ? " and sets the settings it already had" : "") + "): every version changes something");
            }
            if (d.settings() != null) {
                replayed = d.settings();
            }
        }
        if (!replayed.equals(settings)) {
            throw new IllegalStateException("the history replays to settings " + replayed + " at version " + version
                    + " but the state has " + settings);
        }
        TreeMap<String, Node> stated = new TreeMap<>();
        nodes.forEach(n -> stated.put(n.id(), n));
        for (Node n : members.values()) {
            Node s = stated.get(n.id());
            if (s == null) {
                throw new IllegalStateException("the history replays to node " + n + " at version " + version
                        + " but the state has no node \"" + n.id() + "\"");
            }
            if (!s.equals(n)) {
                throw new IllegalStateException("the history replays to node " + n + " at version " + version
                        + " but the state has " + s);
            }
        }
        for (Node s : stated.values()) {
            if (!members.containsKey(s.id())) {
                throw new IllegalStateException("the state has node " + s + " at version " + version
                        + " but the history never adds it (or removes it)");
            }
        }
    }
}
