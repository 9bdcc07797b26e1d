package io.ringd.lookup;

import java.util.List;

import io.ringd.web.problem.ApiException;
import io.swagger.v3.oas.annotations.media.ArraySchema;
import io.swagger.v3.oas.annotations.media.Schema;

/**
 * The body of {@code POST /route}: {@code {"keys":[...]}}, and
 * {@code "handoff":true} (with an optional {@code "window"}) for each key's
 * handoff.
 *
 * @param keys    1 to 10,000 keys, each 1 to 4096 UTF-8 bytes
 * @param handoff whether to add each key's handoff (docs/ring.md section 21); absent is false
 * @param window  with handoff, a shorter window than ringd.handoff.window, an ISO-8601 duration
 */
@Schema(name = "RouteBatchRequest", description = "Keys to route, all at one version")
record RouteBatchRequest(
        @ArraySchema(minItems = 1, maxItems = MAX_KEYS, schema = @Schema(example = "user:42",
                description = "A key of 1 to 4096 UTF-8 bytes"))
        @Schema(requiredMode = Schema.RequiredMode.REQUIRED) List<String> keys,
        @Schema(description = "Add each key's handoff: who held it before, within the window", example = "true")
        Boolean handoff,
        @Schema(description = "With handoff: a shorter window than the configured one, an ISO-8601 duration",
                example = "PT30S") String window) {

    RouteBatchRequest(List<String> keys) {
        this(keys, null, null);
    }

    /** The most keys in one request. */
    static final int MAX_KEYS = 10_000;

    /**
     * The keys, checked.
     *
     * @throws ApiException (400) naming the key at fault ({@code keys[3]})
     */
    List<String> checked() {
        if (keys == null) {
            throw ApiException.badRequest("keys must be an array of strings", "keys");
        }
        if (keys.isEmpty() || keys.size() > MAX_KEYS) {
            throw ApiException.badRequest("keys must hold 1 to " + MAX_KEYS + " keys: " + keys.size(), "keys");
        }
        for (int i = 0; i < keys.size(); i++) {
            String key = keys.get(i);
            if (key == null) {
                String at = "keys[" + i + "]";
                throw ApiException.badRequest(at + " must be a string", at);
            }
            if (!Keys.valid(key)) {
                Keys.check(key, "keys[" + i + "]"); // throws, naming the key at fault
            }
        }
        return keys;
    }
}
