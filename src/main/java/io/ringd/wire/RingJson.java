package io.ringd.wire;

import java.time.Instant;
import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonRootName;

import io.ringd.ring.HashRing;

/**
 * The whole ring at one version, all a client needs to build it
 * byte-identical: the body of {@code GET /ring} and the data of a
 * {@code snapshot} event of {@code /ring/events}.
 *
 * @param version     the version
 * @param incarnation the ring's incarnation (docs/ring.md section 20); left out when not known
 * @param fingerprint the fingerprint of the ring at that version (docs/ring.md)
 * @param settings    the ring settings
 * @param nodes       the members, ascending by id
 * @param committedAt when the version was committed ({@link WireTime}); {@code null} if not recorded
 */
@JsonRootName("Ring")
public record RingJson(Long version, @JsonInclude(JsonInclude.Include.NON_NULL) String incarnation,
        String fingerprint, SettingsJson settings, List<NodeJson> nodes, String committedAt) {

    /** The document of {@code ring}, built with {@code settings}, committed at {@code committedAt} (or null). */
    public static RingJson of(HashRing ring, SettingsJson settings, Instant committedAt) {
        return of(ring, null, settings, committedAt);
    }

    /** The document of {@code ring} of the ring {@code incarnation} (or null), built with {@code settings}. */
    public static RingJson of(HashRing ring, String incarnation, SettingsJson settings, Instant committedAt) {
        return new RingJson(ring.version(), incarnation, ring.fingerprint(), settings, NodeJson.all(ring.nodes()),
                WireTime.format(committedAt));
    }
}
