package io.ringd.load;

import io.ringd.state.InvalidInputException;
import io.swagger.v3.oas.annotations.media.Schema;

/**
 * The body of {@code PUT /nodes/{id}/load}: {@code {"load": 42.5}}.
 *
 * @param load required, finite, {@code >= 0}
 */
@Schema(name = "LoadRequest", description = "A node's load, in any unit every node's load is reported in")
record LoadRequest(
        @Schema(requiredMode = Schema.RequiredMode.REQUIRED, description = "Finite, >= 0", minimum = "0",
                example = "42.5") Double load) {

    /**
     * The load, checked.
     *
     * @throws InvalidInputException (400) naming {@code load}
     */
    double checked() {
        if (load == null) {
            throw new InvalidInputException("load", "load is required");
        }
        if (!(load >= 0) || Double.isInfinite(load)) {
            throw new InvalidInputException("load", "load must be a finite number >= 0: " + load);
        }
        return load;
    }
}
