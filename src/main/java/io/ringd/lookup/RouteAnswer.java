package io.ringd.lookup;

import com.fasterxml.jackson.annotation.JsonInclude;

import io.swagger.v3.oas.annotations.media.Schema;

/**
 * The answer of a route: {@code {"key","node","hash","version"}},
 * {@code "skipped"} with {@code ?bound=}, and {@code "explain"} with
 * {@code ?explain=true}.
 */
record RouteAnswer(String key, String node, long hash, long version,
        @Schema(description = "Only with bound: how many nodes of the key's preference order were passed "
                + "over (all of them when none was within the bound and the primary answers)", example = "1")
        @JsonInclude(JsonInclude.Include.NON_NULL) Integer skipped,
        @Schema(description = "Only with explain=true: where the key's hash falls")
        @JsonInclude(JsonInclude.Include.NON_NULL) Explain explain) {

    RouteAnswer(String key, String node, long hash, long version) {
        this(key, node, hash, version, null, null);
    }

    RouteAnswer explained(Explain e) {
        return new RouteAnswer(key, node, hash, version, skipped, e);
    }
}
