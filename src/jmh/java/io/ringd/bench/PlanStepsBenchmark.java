package io.ringd.bench;

import io.ringd.ring.Change;
import io.ringd.ring.HashRing;
import io.ringd.ring.Node;
import io.ringd.ring.PlanSteps;
import io.ringd.ring.RingConfig;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Computing the steps of a plan ({@code PlanSteps.of}) with a 1 % budget on
 * a ring that has 1,000 nodes x 128 points (md5, weight 1 each) when the plan
 * is done: {@code join-100} is 100 nodes joining 900 ({@code node-0005},
 * {@code node-0015}, ... {@code node-0995}, spread over the ids),
 * {@code join-1} one node ({@code node-0500}) joining the other 999, and
 * {@code drain-100} the same 100 nodes drained from all 1,000. Each
 * operation plans from the same trial-level ring. The trial prints the steps
 * and their lower bound, the moved share over the budget.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
public class PlanStepsBenchmark {

    static final int NODES = 1_000;
    static final double BUDGET = 0.01;

    @Param({"join-100", "join-1", "drain-100"})
    public String plan;

    private HashRing before;
    private List<Change> changes;

    @Setup(Level.Trial)
    public void setUp() {
        Scenario s = Scenario.of(RingConfig.defaults(), NODES, plan);
        before = s.before;
        changes = s.changes;
        PlanSteps steps = PlanSteps.of(before, changes, BUDGET);
        if (!Scenario.replay(before, steps).fingerprint().equals(before.apply(changes).fingerprint())) {
            throw new IllegalStateException("the steps do not reach the target");
        }
        System.out.printf("%n%s: %d steps, lower bound %d (moved share %.5f / budget %.2f), steps moved %.5f%n",
                plan, steps.steps().size(), Scenario.lowerBound(steps, BUDGET), steps.movedShare(), BUDGET,
                steps.stepsMovedShare());
    }

    @Benchmark
    public PlanSteps planSteps() {
        return PlanSteps.of(before, changes, BUDGET);
    }

    /** A ring before and the changes of a plan: {@code join-K} or {@code drain-K} of {@code node-%04d}s. */
    record Scenario(HashRing before, List<Change> changes) {

        /**
         * {@code join-K}: the nodes {@code node-0000 .. node-(n-1)} but K of them, which join;
         * {@code drain-K}: all n, of which K are removed. The K are spread evenly over the ids.
         */
        static Scenario of(RingConfig config, int n, String plan) {
            boolean join = plan.startsWith("join-");
            int k = Integer.parseInt(plan.substring(plan.indexOf('-') + 1));
            List<Node> all = Fixtures.nodes(n);
            List<Node> kept = new ArrayList<>();
            List<Change> changes = new ArrayList<>();
            int stride = n / k;
            for (int i = 0; i < n; i++) {
                Node node = all.get(i);
                if (i % stride == stride / 2 && changes.size() < k) {
                    changes.add(join ? Change.put(node) : Change.remove(node.id()));
                } else {
                    kept.add(node);
                }
            }
            return new Scenario(HashRing.of(config, 1, join ? kept : all), changes);
        }

        static HashRing replay(HashRing before, PlanSteps steps) {
            HashRing ring = before;
            for (var step : steps.steps()) {
                ring = ring.apply(step.changes());
            }
            return ring;
        }

        /** The fewest steps the budget allows: the direct change's moved share over the budget, rounded up. */
        static long lowerBound(PlanSteps steps, double budget) {
            return (long) Math.ceil(steps.movedShare() / budget);
        }
    }
}
