package io.ringd.ring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.junit.jupiter.api.Test;

/** How a sample of keys moves between two assignments. */
class KeyMovementTest {

    private static final List<String> KEYS = keys(2000);

    private static List<String> keys(int n) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add("user:" + i);
        }
        return out;
    }

    @Test
    void between_countsEveryKeyThatChangedNodeAndItsFlow() {
        HashRing before = HashRing.of(RingConfig.defaults(), 4,
                List.of(Node.of("a", 1), Node.of("b", 1), Node.of("c", 1), Node.of("d", 1)));
        HashRing after = before.apply(List.of(Change.remove("a"), Change.put(Node.of("e", 2)), Change.put(Node.of("b", 0.5))));
        KeyAssignment x = before.assignments(KEYS);
        KeyAssignment y = after.assignments(KEYS);
        assertThat(x.version()).isEqualTo(4);
        assertThat(y.version()).isEqualTo(5);
        assertThat(x.keys()).isEqualTo(KEYS);
        assertThat(x.size()).isEqualTo(KEYS.size());

        // the expected movement, counted here by routing every key on both rings
        int moved = 0;
        Map<String, Integer> flows = new TreeMap<>();
        for (String k : KEYS) {
            String from = before.route(k);
            String to = after.route(k);
            if (!from.equals(to)) {
                moved++;
                flows.merge(from + "->" + to, 1, Integer::sum);
            }
        }
        for (int i = 0; i < KEYS.size(); i++) {
            assertThat(x.node(i)).isEqualTo(before.route(KEYS.get(i)));
            assertThat(y.nodes().get(i)).isEqualTo(after.route(KEYS.get(i)));
        }

        KeyMovement m = KeyMovement.between(x, y);
        assertThat(m.keyCount()).isEqualTo(2000);
        assertThat(m.movedCount()).isEqualTo(moved).isPositive();
        assertThat(m.movedFraction()).isEqualTo(moved / 2000.0);
        Map<String, Integer> got = new TreeMap<>();
        m.flows().forEach(f -> got.put(f.from() + "->" + f.to(), f.count()));
        assertThat(got).isEqualTo(flows);
        assertThat(m.flows()).hasSizeGreaterThan(3);
        for (int i = 1; i < m.flows().size(); i++) {
            KeyMovement.Flow p = m.flows().get(i - 1);
            KeyMovement.Flow f = m.flows().get(i);
            boolean ordered = p.count() > f.count()
                    || p.count() == f.count() && (p.from().compareTo(f.from()) < 0
                    || p.from().equals(f.from()) && p.to().compareTo(f.to()) < 0);
            assertThat(ordered).as("%s before %s", p, f).isTrue();
        }
    }

    @Test
    void between_sameAssignment_movesNothing() {
        HashRing ring = HashRing.empty().put(Node.of("a", 1)).put(Node.of("b", 1));
        KeyMovement m = KeyMovement.between(ring.assignments(KEYS), ring.assignments(KEYS));
        assertThat(m.movedCount()).isZero();
        assertThat(m.flows()).isEmpty();
        assertThat(m.movedFraction()).isZero();
        KeyMovement none = KeyMovement.between(ring.assignments(List.of()), ring.assignments(List.of()));
        assertThat(none.keyCount()).isZero();
        assertThat(none.movedFraction()).isZero();
    }

    @Test
    void between_fromAnEmptyRing_movesEveryKeyFromNull() {
        HashRing ring = HashRing.empty().put(Node.of("a", 1)).put(Node.of("b", 1));
        KeyMovement m = KeyMovement.between(HashRing.empty().assignments(KEYS), ring.assignments(KEYS));
        assertThat(m.movedCount()).isEqualTo(2000);
        assertThat(m.movedFraction()).isEqualTo(1.0);
        assertThat(m.flows()).hasSize(2).allSatisfy(f -> assertThat(f.from()).isNull());
        assertThat(m.flows().get(0).count()).isGreaterThanOrEqualTo(m.flows().get(1).count());
        KeyMovement back = KeyMovement.between(ring.assignments(KEYS), HashRing.empty().assignments(KEYS));
        assertThat(back.flows()).allSatisfy(f -> assertThat(f.to()).isNull());
    }

    @Test
    void between_flowsOfEqualCountAreOrderedByFromThenToWithNullFirst() {
        HashRing ab = HashRing.of(new RingConfig(RingTesting.table(Map.of("a#0", 100L, "b#0", 200L, "c#0", 300L,
                "k1", 50L, "k2", 150L, "k3", 250L)), 1), 0, List.of(Node.of("a", 1), Node.of("b", 1)));
        HashRing bc = ab.apply(List.of(Change.remove("a"), Change.put(Node.of("c", 1))));
        // k1 (50): a -> b; k2 (150): b -> b; k3 (250): a -> c (250 wrapped to a, now c at 300)
        KeyMovement m = KeyMovement.between(ab.assignments(List.of("k1", "k2", "k3")),
                bc.assignments(List.of("k1", "k2", "k3")));
        assertThat(m.flows()).containsExactly(new KeyMovement.Flow("a", "b", 1), new KeyMovement.Flow("a", "c", 1));
        KeyMovement fromNothing = KeyMovement.between(HashRing.empty().assignments(List.of("k1", "k2", "k3")),
                ab.assignments(List.of("k1", "k2", "k3")));
        assertThat(fromNothing.flows()).containsExactly(new KeyMovement.Flow(null, "a", 2), new KeyMovement.Flow(null, "b", 1));
    }

    @Test
    void between_refusesAssignmentsOfOtherKeys() {
        HashRing ring = HashRing.empty().put(Node.of("a", 1));
        KeyAssignment ab = ring.assignments(List.of("a", "b"));
        for (List<String> other : List.of(List.of("b", "a"), List.of("a"), List.of("a", "b", "c"), List.of("a", "B"))) {
            assertThatIllegalArgumentException().as("%s", other)
                    .isThrownBy(() -> KeyMovement.between(ab, ring.assignments(other)))
                    .withMessageContaining("same keys");
            assertThatIllegalArgumentException().as("%s", other)
                    .isThrownBy(() -> KeyMovement.between(ring.assignments(other), ab));
        }
    }

    @Test
    void assignment_keepsItsOwnCopyOfTheKeys() {
        List<String> keys = new ArrayList<>(List.of("x", "y"));
        KeyAssignment a = HashRing.empty().put(Node.of("a", 1)).assignments(keys);
        keys.add("z");
        assertThat(a.keys()).containsExactly("x", "y");
        assertThat(a.size()).isEqualTo(2);
    }
}
