package io.ringd.wire;

/**
 * The {@code plan} of a change event and of a stored history entry: the
 * planned change a version is a step of (docs/ring.md section 24).
 *
 * @param id   the plan's id
 * @param step the step's number, from 1
 * @param of   how many steps the plan has
 */
public record PlanMarkJson(String id, Integer step, Integer of) {
}
