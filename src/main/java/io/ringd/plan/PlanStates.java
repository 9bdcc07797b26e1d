package io.ringd.plan;

import java.util.ArrayList;
import java.util.List;

import io.ringd.state.HistoryDelta;
import io.ringd.wire.PlanJson;
import io.ringd.wire.WireTime;

/** A plan's states and reasons (docs/ring.md section 24), and the plan records its transitions make. */
final class PlanStates {

    static final String RUNNING = "running";
    static final String PAUSED = "paused";
    static final String DONE = "done";
    static final String ABORTED = "aborted";
    static final String FAILED = "failed";
    /** Every state, in the order the metrics list them. */
    static final List<String> ALL = List.of(RUNNING, PAUSED, DONE, ABORTED, FAILED);

    static final String ADMIN = "admin";
    static final String GATE_TIMEOUT = "gate-timeout";
    static final String RING_CHANGED = "ring-changed";
    static final String STEP_REFUSED = "step-refused";

    private PlanStates() {
    }

    /** Whether {@code p} holds its ring: running or paused. */
    static boolean holds(PlanJson p) {
        return RUNNING.equals(p.state()) || PAUSED.equals(p.state());
    }

    /** The version step {@code k} of {@code p} is made after: the plan's base, or step k - 1's. */
    static long versionBefore(PlanJson p, int k) {
        return k == 1 ? p.baseVersion() : p.steps().get(k - 2).version();
    }

    /** {@code p} in {@code state}, with {@code reason}, {@code waitingSince} and {@code endedAt}. */
    static PlanJson with(PlanJson p, String state, String reason, String waitingSince, String endedAt) {
        return new PlanJson(p.id(), p.ring(), state, reason, p.createdAt(), p.changes(), p.maxMovedShare(),
                p.minStepInterval(), p.gate(), p.movedShare(), p.stepsMovedShare(), p.steps(), p.currentStep(),
                p.baseVersion(), waitingSince, endedAt);
    }

    /** {@code p} with step {@code k} committed as {@code made}: done after its last step. */
    static PlanJson committed(PlanJson p, int k, HistoryDelta made) {
        List<PlanJson.Step> steps = new ArrayList<>(p.steps());
        PlanJson.Step s = steps.get(k - 1);
        String at = WireTime.format(made.committedAt());
        steps.set(k - 1, new PlanJson.Step(s.step(), s.changes(), s.movedShare(), s.overBudget(), made.version(), at));
        boolean last = k == steps.size();
        return new PlanJson(p.id(), p.ring(), last ? DONE : p.state(), p.reason(), p.createdAt(), p.changes(),
                p.maxMovedShare(), p.minStepInterval(), p.gate(), p.movedShare(), p.stepsMovedShare(),
                List.copyOf(steps), k, p.baseVersion(), last ? null : at, last ? at : null);
    }
}
