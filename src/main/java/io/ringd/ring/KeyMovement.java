package io.ringd.ring;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * How a sample of keys moved between two assignments: the count and
 * fraction that changed node and the from->to matrix.
 *
 * @param keyCount   keys compared
 * @param movedCount keys whose node changed
 * @param flows      from->to counts, by count descending, then from, then to
 */
public record KeyMovement(int keyCount, int movedCount, List<Flow> flows) {

    public KeyMovement {
        flows = List.copyOf(flows);
    }

    /** {@code count} keys moved from {@code from} to {@code to} ({@code null}: no node). */
    public record Flow(String from, String to, int count) {
    }

    /** The fraction of keys that moved, 0 for no keys. */
    public double movedFraction() {
        return keyCount == 0 ? 0 : movedCount / (double) keyCount;
    }

    /**
     * Compares two assignments of the same keys.
     *
     * @throws IllegalArgumentException if the key lists differ
     */
    public static KeyMovement between(KeyAssignment before, KeyAssignment after) {
        if (!before.keys().equals(after.keys())) {
            throw new IllegalArgumentException("assignments must be of the same keys in the same order");
        }
        Map<List<String>, int[]> counts = new HashMap<>();
        int moved = 0;
        for (int i = 0; i < before.size(); i++) {
            String from = before.node(i);
            String to = after.node(i);
            if (!Objects.equals(from, to)) {
                moved++;
                counts.computeIfAbsent(java.util.Arrays.asList(from, to), k -> new int[1])[0]++;
            }
        }
        List<Flow> flows = new ArrayList<>();
        counts.forEach((k, v) -> flows.add(new Flow(k.get(0), k.get(1), v[0])));
        Comparator<String> ids = Comparator.nullsFirst(Comparator.naturalOrder());
        flows.sort(Comparator.comparingInt(Flow::count).reversed()
                .thenComparing(Flow::from, ids).thenComparing(Flow::to, ids));
        return new KeyMovement(before.size(), moved, flows);
    }
}
