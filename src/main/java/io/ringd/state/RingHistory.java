package io.ringd.state;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

import io.ringd.ring.Node;

/**
 * The versions a ring keeps, as memberships and settings rather than
 * snapshots: the oldest kept version in full, then one delta per version up
 * to the current one. Immutable.
 *
 * @param baseVersion  the oldest kept version
 * @param baseSettings its settings
 * @param baseNodes    its members, ascending by id
 * @param deltas       versions {@code baseVersion + 1 ..} in order
 * @param baseCommittedAt when the oldest kept version was committed; {@code null} when not known
 */
public record RingHistory(long baseVersion, RingSettings baseSettings, List<Node> baseNodes,
        List<HistoryDelta> deltas, Instant baseCommittedAt) {

    /** A history whose oldest version's commit time is not known. */
    public RingHistory(long baseVersion, RingSettings baseSettings, List<Node> baseNodes, List<HistoryDelta> deltas) {
        this(baseVersion, baseSettings, baseNodes, deltas, null);
    }

    public RingHistory {
        baseNodes = List.copyOf(baseNodes);
        deltas = List.copyOf(deltas);
        for (int i = 0; i < deltas.size(); i++) {
            if (deltas.get(i).version() != baseVersion + 1 + i) {
                throw new IllegalArgumentException("history deltas must be consecutive from version "
                        + (baseVersion + 1) + ": found " + deltas.get(i).version() + " at position " + i);
            }
        }
    }

    /** A history whose only version is {@code version}. */
    public static RingHistory startingAt(long version, RingSettings settings, List<Node> nodes) {
        return new RingHistory(version, settings, nodes, List.of());
    }

    /** A history whose only version is {@code version}, committed at {@code committedAt}. */
    public static RingHistory startingAt(long version, RingSettings settings, List<Node> nodes,
            Instant committedAt) {
        return new RingHistory(version, settings, nodes, List.of(), committedAt);
    }

    /** When {@code version} (a kept one) was committed, or {@code null} when not known. */
    public Instant committedAt(long version) {
        if (version == baseVersion) {
            return baseCommittedAt;
        }
        return delta(version).committedAt();
    }

    /**
     * The change that made {@code version}.
     *
     * @throws VersionException.Gone    if {@code version} is the oldest kept or older (its change is not kept)
     * @throws VersionException.NotMade if newer than the latest
     */
    public HistoryDelta delta(long version) {
        if (version > latestVersion()) {
            throw new VersionException.NotMade(version, latestVersion());
        }
        if (version <= baseVersion) {
            throw new VersionException.Gone(version, baseVersion + 1);
        }
        return deltas.get((int) (version - baseVersion - 1));
    }

    /** The changes after {@code version}, in order: empty when it is the latest. */
    public List<HistoryDelta> after(long version) {
        if (version < baseVersion || version > latestVersion()) {
            throw new IllegalArgumentException("version " + version + " is not kept: " + baseVersion + " .. "
                    + latestVersion());
        }
        return deltas.subList((int) (version - baseVersion), deltas.size());
    }

    /** The newest version kept. */
    public long latestVersion() {
        return baseVersion + deltas.size();
    }

    /** The number of versions kept. */
    public int size() {
        return deltas.size() + 1;
    }

    /** This history with {@code delta} appended, keeping at most {@code capacity} versions. */
    public RingHistory append(HistoryDelta delta, int capacity) {
        if (delta.version() != latestVersion() + 1) {
            throw new IllegalArgumentException("next version must be " + (latestVersion() + 1) + ": "
                    + delta.version());
        }
        List<HistoryDelta> next = new ArrayList<>(deltas.size() + 1);
        next.addAll(deltas);
        next.add(delta);
        if (next.size() + 1 <= capacity) {
            return new RingHistory(baseVersion, baseSettings, baseNodes, next, baseCommittedAt);
        }
        int drop = next.size() + 1 - capacity;
        TreeMap<String, Node> members = members(baseNodes);
        RingSettings settings = baseSettings;
        for (int i = 0; i < drop; i++) {
            HistoryDelta d = next.get(i);
            d.applyTo(members);
            if (d.settings() != null) {
                settings = d.settings();
            }
        }
        return new RingHistory(baseVersion + drop, settings, List.copyOf(members.values()),
                next.subList(drop, next.size()), next.get(drop - 1).committedAt());
    }

    /** One kept version's settings and members. */
    public record Version(long version, RingSettings settings, List<Node> nodes) {
    }

    /**
     * The settings and members at {@code version}.
     *
     * @throws VersionException.Gone    if older than the oldest kept
     * @throws VersionException.NotMade if newer than the latest
     */
    public Version at(long version) {
        if (version > latestVersion()) {
            throw new VersionException.NotMade(version, latestVersion());
        }
        if (version < baseVersion) {
            throw new VersionException.Gone(version, baseVersion);
        }
        TreeMap<String, Node> members = members(baseNodes);
        RingSettings settings = baseSettings;
        for (HistoryDelta d : deltas) {
            if (d.version() > version) {
                break;
            }
            d.applyTo(members);
            if (d.settings() != null) {
                settings = d.settings();
            }
        }
        return new Version(version, settings, List.copyOf(members.values()));
    }

    private static TreeMap<String, Node> members(List<Node> nodes) {
        TreeMap<String, Node> m = new TreeMap<>();
        for (Node n : nodes) {
            m.put(n.id(), n);
        }
        return m;
    }
}
