package io.ringd.ring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

/** Plans' steps with exact expectations, and the input a plan refuses (docs/plans.md). */
class PlanStepsTest {

    /** docs/ring.md section 5: md5, one point per weight, a and b in z1, c in z2, d without a zone. */
    private static HashRing sectionFive() {
        return HashRing.of(RingConfig.of("md5", 1), 1, List.of(new Node("a", 1, "z1"), new Node("b", 1, "z1"),
                new Node("c", 1, "z2"), Node.of("d", 1)));
    }

    @Test
    void aOnePointJoin_isOneStep_overBudgetWhenItsArcIsLarger() {
        HashRing ring = sectionFive();
        List<Change> join = List.of(Change.put(Node.of("e", 1)));

        PlanSteps whole = PlanSteps.of(ring, join, 1);
        assertThat(whole.steps()).hasSize(1);
        assertThat(whole.steps().get(0).changes()).containsExactly(Change.put(Node.of("e", 1)));
        assertThat(whole.steps().get(0).movedCount()).isEqualTo(3116295759L); // docs/ring.md section 9
        assertThat(whole.steps().get(0).overBudget()).isFalse();
        assertThat(whole.movedCount()).isEqualTo(3116295759L);
        assertThat(whole.stepsMovedCount()).isEqualTo(3116295759L);

        PlanSteps half = PlanSteps.of(ring, join, 0.5);
        assertThat(half.steps()).singleElement().satisfies(s -> {
            assertThat(s.movedCount()).isEqualTo(3116295759L);
            assertThat(s.overBudget()).as("one point cannot be split").isTrue();
            assertThat(s.rampDone()).isEqualTo(1);
            assertThat(s.rampUnits()).isEqualTo(1);
        });
    }

    @Test
    void aRemovalAcrossZero_isOneStep_ofTheWrapArc() {
        PlanSteps plan = PlanSteps.of(sectionFive(), List.of(Change.remove("c")), 0.1);
        assertThat(plan.steps()).singleElement().satisfies(s -> {
            assertThat(s.changes()).containsExactly(Change.remove("c"));
            assertThat(s.movedCount()).isEqualTo(741626016L); // both ranges of docs/ring.md section 9
            assertThat(s.overBudget()).isTrue();
        });
    }

    @Test
    void aJoin_raisesTheWeightPointByPoint_eachStepTheNodesGrowth() {
        HashRing ring = HashRing.of(RingConfig.of("md5", 16), 1, List.of(Node.of("a", 1), Node.of("b", 1),
                Node.of("c", 1)));
        double budget = 0.05;
        PlanSteps plan = PlanSteps.of(ring, List.of(Change.put(new Node("d", 1, "z"))), budget);

        assertThat(plan.steps()).hasSizeGreaterThan(4);
        HashRing prev = ring;
        long owned = 0;
        int points = 0;
        int previous = 0;
        for (PlanStep s : plan.steps()) {
            assertThat(s.changes()).hasSize(1);
            Node d = ((Change.Put) s.changes().get(0)).node();
            assertThat(d.zone()).isEqualTo("z");
            int k = (int) d.pointCount(16);
            assertThat(k).as("points only grow").isGreaterThan(points);
            if (k < 16) {
                assertThat(d.weight()).as("an intermediate weight gives exactly its points").isEqualTo(k / 16.0);
            }
            points = k;
            prev = prev.apply(s.changes());
            long nowOwned = prev.ownership().shares().stream().filter(x -> x.node().id().equals("d"))
                    .mapToLong(Ownership.Share::count).sum();
            assertThat(s.movedCount()).as("a join's step moves exactly what d gains").isEqualTo(nowOwned - owned);
            owned = nowOwned;
            if (s.overBudget()) {
                assertThat(k - previous).as("only one point's arc is over the budget").isEqualTo(1);
            } else {
                assertThat(s.movedShare()).isLessThanOrEqualTo(budget);
            }
            previous = k;
            assertThat(s.rampDone()).isEqualTo(k);
            assertThat(s.rampUnits()).isEqualTo(16);
        }
        assertThat(((Change.Put) plan.steps().get(plan.steps().size() - 1).changes().get(0)).node())
                .isEqualTo(new Node("d", 1, "z"));
        assertThat(plan.stepsMovedCount()).isEqualTo(plan.movedCount()).isEqualTo(owned);
    }

    @Test
    void aDrain_lowersTheWeight_andRemovesTheNodeInItsLastStep() {
        HashRing ring = HashRing.of(RingConfig.of("murmur3", 8), 1, List.of(Node.of("a", 1), Node.of("b", 2),
                Node.of("c", 1)));
        PlanSteps plan = PlanSteps.of(ring, List.of(Change.remove("b")), 0.1);
        List<PlanStep> steps = plan.steps();
        assertThat(steps).hasSizeGreaterThan(2);
        for (int s = 0; s < steps.size() - 1; s++) {
            assertThat(steps.get(s).changes()).singleElement().isInstanceOf(Change.Put.class);
        }
        assertThat(steps.get(steps.size() - 1).changes()).containsExactly(Change.remove("b"));
        assertThat(plan.stepsMovedCount()).isEqualTo(plan.movedCount());
    }

    @Test
    void aChangeThatKeepsThePoints_isMadeInTheFirstStep_withTheTargetWeight() {
        // 100 * 1.005 is 100.49999999999999: still 100 points (docs/ring.md section 3)
        HashRing ring = HashRing.of(RingConfig.of("md5", 100), 1, List.of(Node.of("a", 1), Node.of("b", 1)));
        PlanSteps plan = PlanSteps.of(ring, List.of(Change.put(Node.of("a", 1.005)),
                Change.put(new Node("b", 1, "z2"))), 0.01);
        assertThat(plan.steps()).singleElement().satisfies(s -> {
            assertThat(s.changes()).containsExactly(Change.put(Node.of("a", 1.005)),
                    Change.put(new Node("b", 1, "z2")));
            assertThat(s.movedCount()).isZero();
            assertThat(s.rampUnits()).isZero();
        });
    }

    @Test
    void zonesAndHashKeys_changeInTheFirstStep_whileWeightsRamp() {
        HashRing ring = HashRing.of(RingConfig.of("md5", 32), 1, List.of(Node.of("a", 1), Node.of("b", 1),
                new Node("c", 1, "z1")));
        List<Change> changes = List.of(Change.put(new Node("a", 2, "z9")), Change.put(new Node("c", 1, "z2")),
                Change.put(new Node("b", 1, null, "host/b")));
        PlanSteps plan = PlanSteps.of(ring, changes, 1);
        assertThat(plan.steps()).singleElement().satisfies(s -> assertThat(s.changes()).containsExactlyElementsOf(
                changes.stream().sorted(java.util.Comparator.comparing(Change::id)).toList()));

        PlanSteps small = PlanSteps.of(ring, changes, 0.05);
        PlanStep first = small.steps().get(0);
        assertThat(first.changes()).extracting(Change::id).contains("b", "c");
        assertThat(first.changes()).contains(Change.put(new Node("c", 1, "z2")));
        assertThat(first.overBudget()).as("b's new hashKey moves more than its share at once").isTrue();
        assertThat(first.rampDone()).isZero();
        for (PlanStep s : small.steps().subList(1, small.steps().size())) {
            assertThat(s.changes()).extracting(Change::id).containsExactly("a");
            assertThat(((Change.Put) s.changes().get(0)).node().zone()).isEqualTo("z9");
        }
        HashRing after = ring;
        for (PlanStep s : small.steps()) {
            after = after.apply(s.changes());
        }
        assertThat(after.fingerprint()).isEqualTo(ring.apply(changes).fingerprint());
    }

    @Test
    void severalNodes_rampTogether_byTheSameFraction() {
        List<Node> nodes = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            nodes.add(Node.of("n" + i, 1));
        }
        HashRing ring = HashRing.of(RingConfig.of("md5", 64), 1, nodes);
        PlanSteps plan = PlanSteps.of(ring, List.of(Change.put(Node.of("x", 1)), Change.put(Node.of("y", 2)),
                Change.remove("n3")), 0.02);
        HashRing prev = ring;
        for (PlanStep s : plan.steps()) {
            prev = prev.apply(s.changes());
            int x = prev.node("x").map(n -> (int) n.pointCount(64)).orElse(0);
            int y = prev.node("y").map(n -> (int) n.pointCount(64)).orElse(0);
            int n3 = prev.node("n3").map(n -> (int) n.pointCount(64)).orElse(0);
            double fx = x / 64.0;
            double fy = y / 128.0;
            double f3 = (64 - n3) / 64.0;
            assertThat(Math.abs(fx - fy)).as("x and y at the same fraction, one point apart at most: " + s)
                    .isLessThanOrEqualTo(1 / 64.0);
            assertThat(Math.abs(fx - f3)).as("x and n3 at the same fraction: " + s).isLessThanOrEqualTo(1 / 64.0);
            assertThat(s.overBudget()).as("no point's arc is that large here: " + s).isFalse();
            assertThat(s.movedShare()).isLessThanOrEqualTo(0.02);
        }
        assertThat(prev.fingerprint()).isEqualTo(ring.apply(List.of(Change.put(Node.of("x", 1)),
                Change.put(Node.of("y", 2)), Change.remove("n3"))).fingerprint());
        assertThat(plan.steps().size()).as("no fewer than the lower bound").isGreaterThanOrEqualTo(
                (int) Math.ceil(plan.movedShare() / 0.02));
    }

    @Test
    void maglev_section15Example_removingB_inStepsWithinTheBudget() {
        HashRing table = HashRing.of(RingConfig.maglev(KeyHashes.md5(), 13), 1, List.of(Node.of("a", 1),
                Node.of("b", 1), Node.of("c", 2)));
        PlanSteps direct = PlanSteps.of(table, List.of(Change.remove("b")), 1);
        assertThat(direct.steps()).singleElement().satisfies(s -> {
            assertThat(s.movedCount()).isEqualTo(1651910500L); // docs/ring.md section 15
            assertThat(s.rampDone()).isEqualTo(PlanSteps.RAMP_UNITS);
        });
        PlanSteps ramp = PlanSteps.of(table, List.of(Change.remove("b")), 0.2);
        assertThat(ramp.steps()).hasSizeGreaterThan(1);
        assertThat(ramp.movedCount()).isEqualTo(1651910500L);
        PlanStepsPropertiesTest.checkSteps(table, table.remove("b"), List.of(Change.remove("b")), ramp, 0.2,
                "maglev example");
    }

    @Test
    void ketama_aDrainFrom11To10Nodes_movesValuesTwice() {
        List<Node> nodes = new ArrayList<>();
        for (int i = 0; i < 11; i++) {
            nodes.add(Node.of("10.0.0." + i + ":11211", 1));
        }
        HashRing ring = HashRing.of(RingConfig.ketama(), 1, nodes);
        List<Change> drain = List.of(Change.remove("10.0.0.4:11211"));
        PlanSteps plan = PlanSteps.of(ring, drain, 0.02);
        PlanStepsPropertiesTest.checkSteps(ring, ring.apply(drain), drain, plan, 0.02, "ketama drain");
        // while the node is light the other ten get up to 44 digests each (40 * 11 / 10), and lose them at the end
        assertThat(plan.stepsMovedShare()).isGreaterThan(plan.movedShare() * 1.5);
    }

    @Test
    void aRename_isMadeInTheFirstStep_unramped() {
        // docs/ring.md section 3: remove c, put cache-c placed by "c": the same points, another owner's name
        HashRing ring = HashRing.of(RingConfig.of("md5", 16), 1, List.of(Node.of("a", 1), Node.of("b", 1),
                Node.of("c", 1)));
        List<Change> changes = List.of(Change.remove("c"), Change.put(new Node("cache-c", 1, null, "c")),
                Change.put(Node.of("d", 1)));
        PlanSteps plan = PlanSteps.of(ring, changes, 0.05);
        PlanStep first = plan.steps().get(0);
        assertThat(first.changes()).contains(Change.remove("c"), Change.put(new Node("cache-c", 1, null, "c")));
        assertThat(first.overBudget()).as("c's share changes owner's name at once").isTrue();
        assertThat(first.rampDone()).isZero();
        assertThat(plan.steps().subList(1, plan.steps().size()))
                .allSatisfy(s -> assertThat(s.changes()).extracting(Change::id).containsExactly("d"));
        PlanStepsPropertiesTest.checkSteps(ring, ring.apply(changes), changes, plan, 0.05, "rename");
    }

    @Test
    void aPlanOfNothingNew_hasNoSteps() {
        HashRing ring = sectionFive();
        PlanSteps plan = PlanSteps.of(ring, List.of(Change.put(new Node("a", 1, "z1"))), 0.1);
        assertThat(plan.steps()).isEmpty();
        assertThat(plan.movedCount()).isZero();
        assertThat(plan.stepsMovedShare()).isZero();
    }

    @Test
    void fromAnEmptyRing_theFirstPointMovesEverything() {
        PlanSteps plan = PlanSteps.of(HashRing.empty(RingConfig.of("md5", 4)), List.of(Change.put(Node.of("a", 1))),
                0.3);
        assertThat(plan.steps().get(0).movedCount()).isEqualTo(HashRing.HASH_SPACE);
        assertThat(plan.steps().get(0).overBudget()).isTrue();
        assertThat(plan.movedCount()).isEqualTo(HashRing.HASH_SPACE);
        assertThat(plan.stepsMovedCount()).isEqualTo(HashRing.HASH_SPACE);
    }

    @Test
    void badInput_isRefused_naming_it() {
        HashRing ring = sectionFive();
        List<Change> join = List.of(Change.put(Node.of("e", 1)));
        for (double bad : new double[] {0, -0.1, 1.5, Double.NaN, Double.POSITIVE_INFINITY}) {
            assertThatThrownBy(() -> PlanSteps.of(ring, join, bad)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("maxMovedShare must be in (0, 1]: " + bad);
        }
        assertThatThrownBy(() -> PlanSteps.of(ring, List.of(), 0.1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("a plan needs at least one change");
        assertThatThrownBy(() -> PlanSteps.of(ring, List.of(Change.remove("zz")), 0.1))
                .isInstanceOf(RingException.UnknownNode.class);
        assertThatThrownBy(() -> PlanSteps.of(ring, List.of(Change.remove("a"), Change.put(Node.of("a", 2))), 0.1))
                .isInstanceOf(RingException.InvalidBatch.class);
    }

    @Test
    void aBudgetThatNeedsTooManySteps_isRefused_beforeAnyRingIsBuilt() {
        List<Node> nodes = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            nodes.add(Node.of("n" + i, 1));
        }
        HashRing ring = HashRing.of(RingConfig.of("md5", 128), 1, nodes);
        // 128,000 points, of which some 30,000 take an arc of more than the budget's 4 values
        assertThatThrownBy(() -> PlanSteps.of(ring, List.of(Change.put(Node.of("big", 1000))), 1e-9))
                .isInstanceOf(RingException.LimitExceeded.class)
                .hasMessage("a plan may have at most 10000 steps: this budget needs more");
    }
}
