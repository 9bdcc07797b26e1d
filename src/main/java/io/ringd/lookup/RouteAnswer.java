package io.ringd.lookup;

import java.util.Optional;

import com.fasterxml.jackson.annotation.JsonInclude;

import io.swagger.v3.oas.annotations.media.Schema;

/**
 * The answer of a route: {@code {"key","node","hash","version"}},
 * {@code "skipped"} with {@code ?bound=}, {@code "explain"} with
 * {@code ?explain=true}, and {@code "handoff"} (an object, or null when the
 * key did not move within the window) with {@code ?handoff=true}.
 */
record RouteAnswer(String key, String node, long hash, long version,
        @Schema(description = "Only with bound: how many nodes of the key's preference order were passed "
                + "over (all of them when none was within the bound and the primary answers)", example = "1")
        @JsonInclude(JsonInclude.Include.NON_NULL) Integer skipped,
        @Schema(description = "Only with explain=true: where the key's hash falls")
        @JsonInclude(JsonInclude.Include.NON_NULL) Explain explain,
        @Schema(description = "Only with handoff=true: who held the key before, or null when its owner did not "
                + "change within the window", nullable = true)
        @JsonInclude(JsonInclude.Include.NON_NULL) Optional<HandoffJson> handoff) {

    RouteAnswer(String key, String node, long hash, long version) {
        this(key, node, hash, version, null, null, null);
    }

    RouteAnswer(String key, String node, long hash, long version, Integer skipped, Explain explain) {
        this(key, node, hash, version, skipped, explain, null);
    }

    RouteAnswer explained(Explain e) {
        return new RouteAnswer(key, node, hash, version, skipped, e, handoff);
    }

    /** This answer with its handoff ({@code null}: the key did not move within the window). */
    RouteAnswer handedOff(HandoffJson h) {
        return new RouteAnswer(key, node, hash, version, skipped, explain, Optional.ofNullable(h));
    }
}
