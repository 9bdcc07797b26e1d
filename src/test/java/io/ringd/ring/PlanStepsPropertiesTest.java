package io.ringd.ring;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.Set;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The rules of a plan's steps (docs/plans.md) over random rings, changes and
 * budgets, for every placement. Plain JUnit over a seeded {@link Random}:
 * the seed is {@link RingTesting#DEFAULT_SEED} unless
 * {@code -Dringd.seed=<seed>} is given, is printed, and is in every assertion
 * message, so a failure replays.
 *
 * <p>Each plan is replayed step by step from the ring before: every step's
 * moved count is the exact diff of the rings around it, within the budget
 * unless the step is one ramp unit (or the first step's unramped changes)
 * marked over budget; the last ring is the target (same members, same
 * fingerprint); weights only go the way of their change; and a one-node
 * plan under {@code algorithm=ring} moves no value twice, in steps none of
 * which could have been merged with the next.
 */
@Timeout(value = 300, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class PlanStepsPropertiesTest {

    private static final double[] BUDGETS = {1, 0.5, 0.2, 0.05, 0.01, 0.002};

    @ParameterizedTest
    @ValueSource(strings = {"md5", "murmur3", "sha256", "coarse", "ketama", "maglev"})
    void steps_keepTheBudget_reachTheTarget_andTheirMovedCountsAreExactDiffs(String placement) {
        long seed = RingTesting.seed("steps_keepTheBudget_reachTheTarget_andTheirMovedCountsAreExactDiffs["
                + placement + "]");
        Random rnd = new Random(seed);
        int rounds = placement.equals("maglev") || placement.equals("ketama") ? 120 : 400;
        int oneNode = 0;
        int multiStep = 0;
        int over = 0;
        int twice = 0;
        for (int round = 0; round < rounds; round++) {
            RingConfig config = config(placement, rnd);
            List<Node> members = RingTesting.randomMembers(rnd, rnd.nextInt(10));
            HashRing before = HashRing.of(config, 1 + rnd.nextInt(100), members);
            List<Change> changes = randomChanges(rnd, members);
            double budget = BUDGETS[rnd.nextInt(BUDGETS.length)];
            String at = "seed " + seed + " " + placement + " round " + round + " budget " + budget + " "
                    + config.algorithm() + " vpw " + config.vnodesPerWeight() + " members " + members
                    + " changes " + changes;

            PlanSteps plan = PlanSteps.of(before, changes, budget);
            HashRing target = before.apply(changes);
            List<HashRing> rings = checkSteps(before, target, changes, plan, budget, at);

            assertThat(plan.movedCount()).as(at).isEqualTo(HashRing.diff(before, target).movedCount());
            assertThat(plan.stepsMovedCount()).as(at)
                    .isEqualTo(plan.steps().stream().mapToLong(PlanStep::movedCount).sum())
                    .isGreaterThanOrEqualTo(plan.movedCount());
            if (plan.steps().size() > 1) {
                multiStep++;
            }
            if (plan.steps().stream().anyMatch(PlanStep::overBudget)) {
                over++;
            }
            if (plan.stepsMovedCount() > plan.movedCount()) {
                twice++;
            }
            if (config.algorithm() == RingConfig.Algorithm.RING && oneNodeWeight(before, changes)) {
                oneNode++;
                assertThat(plan.stepsMovedCount()).as(at + ": a one-node ring plan moves no value twice")
                        .isEqualTo(plan.movedCount());
                long budgetCount = (long) Math.floor(budget * HashRing.HASH_SPACE);
                for (int s = 0; s + 1 < plan.steps().size(); s++) {
                    assertThat(plan.steps().get(s).movedCount() + plan.steps().get(s + 1).movedCount())
                            .as(at + ": steps " + s + " and " + (s + 1) + " fit the budget together, so the first "
                                    + "was not as large as the budget allows")
                            .isGreaterThan(budgetCount);
                }
            }
            assertThat(rings).hasSize(plan.steps().size() + 1);
        }
        assertThat(multiStep).as("seed " + seed + ": plans of several steps").isGreaterThan(rounds / 5);
        assertThat(over).as("seed " + seed + ": plans with a step over budget").isGreaterThan(0);
        if (placement.equals("ketama") || placement.equals("maglev")) {
            assertThat(twice).as("seed " + seed + ": plans that move values twice").isGreaterThan(0);
        } else {
            assertThat(oneNode).as("seed " + seed + ": one-node plans").isGreaterThan(rounds / 4);
        }
    }

    /**
     * Replays the plan from {@code before} and checks every rule of its steps;
     * answers the rings, {@code before} first.
     */
    static List<HashRing> checkSteps(HashRing before, HashRing target, List<Change> changes, PlanSteps plan,
            double budget, String at) {
        Map<String, Change> byId = new HashMap<>();
        changes.forEach(c -> byId.put(c.id(), c));
        List<HashRing> rings = new ArrayList<>();
        rings.add(before);
        HashRing prev = before;
        long prevDone = 0;
        Set<String> removed = new HashSet<>();
        for (int s = 0; s < plan.steps().size(); s++) {
            PlanStep step = plan.steps().get(s);
            String as = at + " step " + s + " " + step;
            assertThat(step.changes()).as(as).isNotEmpty();
            List<String> ids = step.changes().stream().map(Change::id).toList();
            assertThat(ids).as(as + ": one change per node, in id order").isSorted().doesNotHaveDuplicates();
            HashRing next = prev.apply(step.changes());
            assertThat(step.movedCount()).as(as + ": the exact diff from the ring before the step")
                    .isEqualTo(HashRing.diff(prev, next).movedCount());
            if (!step.overBudget()) {
                assertThat(step.movedShare()).as(as + ": within the budget").isLessThanOrEqualTo(budget);
            } else {
                assertThat(step.movedShare()).as(as + ": over budget only when it is").isGreaterThan(budget);
                boolean oneUnit = step.rampDone() - prevDone == 1;
                boolean unrampedFirst = s == 0 && step.rampDone() == 0;
                assertThat(oneUnit || unrampedFirst)
                        .as(as + ": a step over budget is one ramp unit, or the unramped changes of the first")
                        .isTrue();
            }
            assertThat(step.rampDone()).as(as).isGreaterThanOrEqualTo(prevDone);
            if (s > 0) {
                assertThat(step.rampDone()).as(as + ": every step after the first ramps").isGreaterThan(prevDone);
            }
            for (Change c : step.changes()) {
                Change goal = byId.get(c.id());
                assertThat(goal).as(as + ": a change of a node the plan changes").isNotNull();
                assertThat(removed).as(as + ": a removed node leaves in its last step").doesNotContain(c.id());
                if (c instanceof Change.Remove) {
                    assertThat(goal).as(as).isInstanceOf(Change.Remove.class);
                    removed.add(c.id());
                    continue;
                }
                Node n = ((Change.Put) c).node();
                Node was = prev.node(c.id()).orElse(null);
                Node first = before.node(c.id()).orElse(null);
                Node shape = goal instanceof Change.Put p ? p.node() : first;
                assertThat(n.zone()).as(as + ": the target zone from the first step on").isEqualTo(shape.zone());
                assertThat(n.hashKey()).as(as + ": the target hashKey from the first step on")
                        .isEqualTo(shape.hashKey());
                double w0 = first == null ? 0 : first.weight();
                double w1 = goal instanceof Change.Put p ? p.node().weight() : 0;
                double lo = Math.min(w0, w1);
                double hi = Math.max(w0, w1);
                assertThat(n.weight()).as(as + ": between the old and the target weight").isBetween(lo, hi);
                if (was != null) {
                    if (w1 > w0) {
                        assertThat(n.weight()).as(as + ": raised in steps").isGreaterThanOrEqualTo(was.weight());
                    } else {
                        assertThat(n.weight()).as(as + ": lowered in steps").isLessThanOrEqualTo(was.weight());
                    }
                }
            }
            prevDone = step.rampDone();
            rings.add(next);
            prev = next;
        }
        if (!plan.steps().isEmpty()) {
            PlanStep last = plan.steps().get(plan.steps().size() - 1);
            assertThat(last.rampDone()).as(at + ": the last step ends the ramp").isEqualTo(last.rampUnits());
        }
        assertThat(prev.nodes()).as(at + ": the last step reaches the target membership").isEqualTo(target.nodes());
        assertThat(prev.fingerprint()).as(at).isEqualTo(target.fingerprint());
        return rings;
    }

    private static RingConfig config(String placement, Random rnd) {
        switch (placement) {
            case "ketama":
                return RingConfig.ketama();
            case "maglev":
                return RingConfig.maglev(KeyHashes.md5(), new int[] {13, 101, 1009, 4099}[rnd.nextInt(4)]);
            default:
                return new RingConfig(RingTesting.hashNamed(placement), 1 + rnd.nextInt(40));
        }
    }

    /** Whether the plan changes one node's weight and nothing else that moves (no hashKey). */
    private static boolean oneNodeWeight(HashRing before, List<Change> changes) {
        int weights = 0;
        for (Change c : changes) {
            Node old = before.node(c.id()).orElse(null);
            if (c instanceof Change.Put p) {
                if (old != null && !Objects.equals(old.hashKey(), p.node().hashKey())) {
                    return false;
                }
                if (old == null || old.weight() != p.node().weight()) {
                    weights++;
                }
            } else {
                weights++;
            }
        }
        return weights == 1;
    }

    /** A random id not in {@code ids}, added to it. */
    private static String freshId(Random rnd, Set<String> ids) {
        String id;
        do {
            id = RingTesting.randomId(rnd);
        } while (ids.contains(id));
        ids.add(id);
        return id;
    }

    /** Joins, drains, reweights, zone and hashKey changes, renames: one node half the time, else a batch. */
    static List<Change> randomChanges(Random rnd, List<Node> members) {
        List<Change> changes = new ArrayList<>();
        Set<String> ids = new HashSet<>();
        members.forEach(n -> ids.add(n.id()));
        Set<String> used = new HashSet<>();
        int count = rnd.nextBoolean() ? 1 : 1 + rnd.nextInt(4);
        for (int c = 0; c < count; c++) {
            int kind = members.isEmpty() ? 0 : rnd.nextInt(7);
            if (kind == 0) { // join
                String id = freshId(rnd, ids);
                used.add(id);
                changes.add(Change.put(RingTesting.randomNode(rnd, id)));
                continue;
            }
            Node old = members.get(rnd.nextInt(members.size()));
            if (!used.add(old.id())) {
                continue;
            }
            switch (kind) {
                case 1: // drain
                    changes.add(Change.remove(old.id()));
                    break;
                case 2:
                case 3: { // reweight, the zone kept
                    double w;
                    do {
                        w = RingTesting.randomWeight(rnd);
                    } while (w == old.weight());
                    changes.add(Change.put(new Node(old.id(), w, old.zone(), old.hashKey())));
                    break;
                }
                case 6: { // a rename: another id placed by the removed node's string (docs/ring.md section 3)
                    String id = freshId(rnd, ids);
                    used.add(id);
                    changes.add(Change.remove(old.id()));
                    changes.add(Change.put(new Node(id, old.weight(), old.zone(), old.placementKey())));
                    break;
                }
                case 4: // zone only
                    changes.add(Change.put(new Node(old.id(), old.weight(),
                            Objects.equals(old.zone(), "other") ? null : "other", old.hashKey())));
                    break;
                default: // a hashKey, with a new weight half the time
                    changes.add(Change.put(new Node(old.id(), rnd.nextBoolean() ? old.weight()
                            : RingTesting.randomWeight(rnd), old.zone(), "key/" + old.id())));
            }
        }
        return changes;
    }
}
