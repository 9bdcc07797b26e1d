package io.ringd.wire;

import java.util.List;

/**
 * The rings one ringd serves: the body of {@code GET /rings} (docs/ring.md
 * section 22), ascending by name.
 *
 * @param rings every ring
 */
public record RingsJson(List<Summary> rings) {

    /**
     * One ring.
     *
     * @param name        its name
     * @param version     its current version
     * @param nodes       how many members it has
     * @param points      its points after collisions (Maglev: its table's entries)
     * @param fingerprint its fingerprint at that version
     * @param committedAt when that version was committed ({@link WireTime}); {@code null} if not recorded
     */
    public record Summary(String name, Long version, Integer nodes, Integer points, String fingerprint,
            String committedAt) {
    }
}
