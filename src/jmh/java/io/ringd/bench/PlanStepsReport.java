package io.ringd.bench;

import io.ringd.ring.KeyHashes;
import io.ringd.ring.PlanStep;
import io.ringd.ring.PlanSteps;
import io.ringd.ring.RingConfig;

/**
 * What ramping a change costs in extra movement, per placement: for a join
 * of a tenth of the nodes (to reach 10, 100 and 1,000 nodes of weight 1) and
 * a drain of the same tenth, with a 1 % budget, the steps, their lower bound,
 * the direct change's moved share and the steps' sum, and the time to plan
 * (one run after one warm-up run of the same plan; JMH's
 * PlanStepsBenchmark measures the ring's more carefully). Run by
 * bench/plans.sh; prints a Markdown table and the machine.
 */
public final class PlanStepsReport {

    private PlanStepsReport() {
    }

    public static void main(String[] args) {
        double budget = 0.01;
        Machine m = Machine.here();
        System.out.println("Machine: " + m.shortDescription() + ", commit " + m.commit());
        System.out.println();
        System.out.println("| placement | plan | nodes after / before | steps | lower bound | over budget | movedShare "
                + "| stepsMovedShare | extra | plan time (ms) |");
        System.out.println("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
        String[] placements = args.length > 0 ? args : new String[] {"ring", "ketama", "maglev"};
        for (String placement : placements) {
            RingConfig config = switch (placement) {
                case "ring" -> RingConfig.defaults();
                case "ketama" -> RingConfig.ketama();
                case "maglev" -> RingConfig.maglev(KeyHashes.md5(), RingConfig.DEFAULT_MAGLEV_TABLE_SIZE);
                default -> throw new IllegalArgumentException("ring, ketama or maglev: " + placement);
            };
            for (int n : new int[] {10, 100, 1_000}) {
                for (String kind : new String[] {"join", "drain"}) {
                    String plan = kind + "-" + Math.max(1, n / 10);
                    PlanStepsBenchmark.Scenario s = PlanStepsBenchmark.Scenario.of(config, n, plan);
                    PlanSteps.of(s.before(), s.changes(), budget); // warm-up
                    long t0 = System.nanoTime();
                    PlanSteps steps = PlanSteps.of(s.before(), s.changes(), budget);
                    long t1 = System.nanoTime();
                    if (!PlanStepsBenchmark.Scenario.replay(s.before(), steps).fingerprint()
                            .equals(s.before().apply(s.changes()).fingerprint())) {
                        throw new IllegalStateException(placement + " " + plan + ": the steps miss the target");
                    }
                    long over = steps.steps().stream().filter(PlanStep::overBudget).count();
                    int after = s.before().apply(s.changes()).nodeCount();
                    System.out.printf("| %s | %s | %d / %d | %d | %d | %d | %.4f | %.4f | %.2fx | %.0f |%n", placement,
                            plan, after, s.before().nodeCount(), steps.steps().size(),
                            PlanStepsBenchmark.Scenario.lowerBound(steps, budget), over, steps.movedShare(),
                            steps.stepsMovedShare(), steps.stepsMovedShare() / steps.movedShare(), (t1 - t0) / 1e6);
                }
            }
        }
    }
}
