package io.ringd.web.problem;

import io.swagger.v3.oas.annotations.media.Schema;

/**
 * What an error answer's body holds (RFC 9457), as the API description shows
 * it; {@link Problems#detail} builds the real ones.
 *
 * @param type     the problem type, a URN of the form {@code urn:ringd:problem:<slug>}
 * @param title    the type's short title
 * @param status   the HTTP status
 * @param detail   what went wrong, for a person
 * @param field    the parameter, header or JSON field at fault ({@code changes[2].weight}), when there is one
 * @param instance the path of the request refused, on refusals made by a handler
 * @param movedShare    {@code moved-share-exceeded} only: the share of the hash space the change would move
 * @param movedCount    {@code moved-share-exceeded} only: the hash values it would move
 * @param maxMovedShare {@code moved-share-exceeded} only: the most one change may move
 *                      ({@code ringd.guard.max-moved-share})
 * @param plan          {@code plan-running} only: the id of the plan that holds the ring
 * @param planState     {@code plan-running} only: its state, running or paused
 */
@Schema(name = ProblemSchema.NAME, description = "An RFC 9457 problem detail")
public record ProblemSchema(
        @Schema(requiredMode = Schema.RequiredMode.REQUIRED, example = "urn:ringd:problem:bad-request") String type,
        @Schema(requiredMode = Schema.RequiredMode.REQUIRED, example = "Bad request") String title,
        @Schema(requiredMode = Schema.RequiredMode.REQUIRED, example = "400") int status,
        @Schema(requiredMode = Schema.RequiredMode.REQUIRED, example = "weight must be in (0, 10000]: 0.0")
        String detail,
        @Schema(nullable = true, example = "changes[2].weight") String field,
        @Schema(nullable = true, format = "uri-reference", example = "/membership") String instance,
        @Schema(nullable = true, description = "moved-share-exceeded only: the share of the hash space the "
                + "change would move", example = "0.3333333332557231") Double movedShare,
        @Schema(nullable = true, description = "moved-share-exceeded only: the hash values it would move",
                example = "1431655765") Long movedCount,
        @Schema(nullable = true, description = "moved-share-exceeded only: the most one change may move "
                + "(ringd.guard.max-moved-share)", example = "0.25") Double maxMovedShare,
        @Schema(nullable = true, description = "plan-running only: the id of the plan that holds the ring",
                example = "3f9a0c1d2e4b") String plan,
        @Schema(nullable = true, description = "plan-running only: its state, running or paused",
                example = "running") String planState) {

    /** The schema's name in the API description's components. */
    public static final String NAME = "Problem";
}
