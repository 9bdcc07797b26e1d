package io.ringd.state;

import java.util.Objects;

import io.ringd.wire.PlanMarkJson;

/**
 * Which step of which planned change a version is (docs/ring.md section 24):
 * carried by the version's history entry and its change event.
 *
 * @param id   the plan's id
 * @param step the step's number, from 1
 * @param of   how many steps the plan has
 */
public record PlanMark(String id, int step, int of) {

    public PlanMark {
        Objects.requireNonNull(id, "id");
        if (step < 1 || step > of) {
            throw new IllegalArgumentException("a plan step is 1 to " + of + ": " + step);
        }
    }

    /** Its wire form: the {@code plan} of a change event and of a stored history entry. */
    public PlanMarkJson json() {
        return new PlanMarkJson(id, step, of);
    }
}
