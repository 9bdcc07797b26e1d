package io.ringd.plan;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.List;

import io.ringd.ring.Change;
import io.ringd.state.ChangeBatch;
import io.ringd.state.InvalidInputException;
import io.swagger.v3.oas.annotations.media.ArraySchema;
import io.swagger.v3.oas.annotations.media.Schema;

/**
 * The body of {@code POST /plans}: the target changes, as {@code POST /membership} takes them, the budget
 * of each step, the least interval between steps and the gate each step waits for.
 */
@Schema(name = "PlanRequest", description = "A planned change: the target changes, made in steps within a budget")
record PlanRequest(
        @ArraySchema(minItems = 1, maxItems = ChangeBatch.MAX_CHANGES,
                schema = @Schema(implementation = ChangeBatch.Item.class))
        @Schema(requiredMode = Schema.RequiredMode.REQUIRED) List<ChangeBatch.Item> changes,
        @Schema(requiredMode = Schema.RequiredMode.REQUIRED, description = "The most each step may move, in (0, 1]",
                example = "0.05") Double maxMovedShare,
        @Schema(description = "The least time between two steps' commits, ISO-8601, PT0S to PT24H; PT0S when "
                + "absent", example = "PT30S", nullable = true) String minStepInterval,
        @Schema(description = "What each step after the first waits for; none when absent", nullable = true)
        GateRequest gate) {

    /** The longest {@code minStepInterval} and gate {@code timeout}. */
    static final Duration MAX_DURATION = Duration.ofHours(24);

    /**
     * The gate: {@code convergedShare} of the followers at the step's version, within {@code timeout}.
     *
     * @param convergedShare in (0, 1]
     * @param timeout        ISO-8601, PT1S to PT24H
     */
    @Schema(name = "PlanGate")
    record GateRequest(
            @Schema(requiredMode = Schema.RequiredMode.REQUIRED, example = "0.99") Double convergedShare,
            @Schema(requiredMode = Schema.RequiredMode.REQUIRED, example = "PT2M") String timeout) {
    }

    /** The changes, checked as {@code POST /membership} checks them. */
    List<Change> toChanges() {
        return new ChangeBatch(changes).toChanges();
    }

    /** The budget, checked. */
    double budget() {
        if (maxMovedShare == null) {
            throw new InvalidInputException("maxMovedShare", "maxMovedShare is required: the most each step may "
                    + "move, in (0, 1]");
        }
        return share(maxMovedShare, "maxMovedShare");
    }

    /** The interval, checked; zero when absent. */
    Duration interval() {
        return minStepInterval == null ? Duration.ZERO
                : duration(minStepInterval, "minStepInterval", Duration.ZERO);
    }

    /** The gate's share, checked; null without a gate. */
    Double gateShare() {
        if (gate == null) {
            return null;
        }
        if (gate.convergedShare() == null) {
            throw new InvalidInputException("gate.convergedShare", "gate.convergedShare is required: the share of "
                    + "the followers each step waits for, in (0, 1]");
        }
        return share(gate.convergedShare(), "gate.convergedShare");
    }

    /** The gate's timeout, checked; null without a gate. */
    Duration gateTimeout() {
        if (gate == null) {
            return null;
        }
        if (gate.timeout() == null) {
            throw new InvalidInputException("gate.timeout", "gate.timeout is required: how long a step waits for "
                    + "the followers before the plan pauses, PT1S to PT24H");
        }
        return duration(gate.timeout(), "gate.timeout", Duration.ofSeconds(1));
    }

    private static double share(double s, String field) {
        if (!(s > 0 && s <= 1)) {
            throw new InvalidInputException(field, field + " must be in (0, 1]: " + s);
        }
        return s;
    }

    private static Duration duration(String s, String field, Duration least) {
        Duration d;
        try {
            d = Duration.parse(s);
        } catch (DateTimeParseException e) {
            throw new InvalidInputException(field, field + " must be an ISO-8601 duration such as PT30S: \""
                    + (s.length() > 40 ? s.substring(0, 40) + "..." : s) + "\"");
        }
        if (d.compareTo(least) < 0 || d.compareTo(MAX_DURATION) > 0) {
            throw new InvalidInputException(field, field + " must be " + least + " to " + MAX_DURATION + ": " + s);
        }
        return d;
    }
}
