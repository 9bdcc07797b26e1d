package io.ringd.lookup;

import java.util.List;

import io.ringd.ring.Handoff;
import io.ringd.wire.WireTime;
import io.swagger.v3.oas.annotations.media.ArraySchema;
import io.swagger.v3.oas.annotations.media.Schema;

/**
 * A key's handoff as the API shows it (docs/ring.md section 21):
 * {@code {"movedAt","movedAtTime","previous"}}.
 */
@Schema(name = "Handoff", description = "Who held the key before: the version at which its owner last changed "
        + "within the window, its commit time, and the distinct earlier owners, newest first (at most 8, never "
        + "the current owner; empty for a key that came from an empty ring)")
record HandoffJson(@Schema(example = "12") long movedAt,
        @Schema(example = "2026-11-30T10:11:29.606Z", nullable = true) String movedAtTime,
        @ArraySchema(maxItems = 8, schema = @Schema(example = "cache-a")) List<String> previous) {

    /** {@code h} in its JSON form; null for no handoff. */
    static HandoffJson of(Handoff h) {
        return h == null ? null : new HandoffJson(h.movedAt(), WireTime.format(h.movedAtTime()), h.previous());
    }
}
