package io.ringd.wire;

import java.util.Comparator;
import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;

import io.ringd.ring.Change;

/**
 * The data of a {@code change} event of {@code /ring/events}: what turns
 * version - 1 into version. {@code settings} is left out when they stayed.
 *
 * @param version     the version this change made
 * @param incarnation the ring's incarnation (docs/ring.md section 20); left out when not known
 * @param committedAt when it was committed ({@link WireTime}); {@code null} if not recorded
 * @param fingerprint the fingerprint of the ring it made
 * @param changes     the membership changes, ascending by id (empty for a settings change)
 * @param settings    the new settings, or {@code null} when they stayed
 * @param plan        the planned change this version is a step of (docs/ring.md section 24); left out when none
 */
public record ChangeEventJson(Long version, @JsonInclude(JsonInclude.Include.NON_NULL) String incarnation,
        String committedAt, String fingerprint, List<ChangeJson> changes,
        @JsonInclude(JsonInclude.Include.NON_NULL) SettingsJson settings,
        @JsonInclude(JsonInclude.Include.NON_NULL) PlanMarkJson plan) {

    /** An event of a version that is no plan's step. */
    public ChangeEventJson(Long version, String incarnation, String committedAt, String fingerprint,
            List<ChangeJson> changes, SettingsJson settings) {
        this(version, incarnation, committedAt, fingerprint, changes, settings, null);
    }

    /** The event of a version: its changes sorted by id. */
    public static ChangeEventJson of(long version, String committedAt, String fingerprint, List<Change> changes,
            SettingsJson settings) {
        return of(version, null, committedAt, fingerprint, changes, settings);
    }

    /** The event of a version of the ring {@code incarnation} (or null): its changes sorted by id. */
    public static ChangeEventJson of(long version, String incarnation, String committedAt, String fingerprint,
            List<Change> changes, SettingsJson settings) {
        return of(version, incarnation, committedAt, fingerprint, changes, settings, null);
    }

    /** As above, the step {@code plan} of a planned change (or null). */
    public static ChangeEventJson of(long version, String incarnation, String committedAt, String fingerprint,
            List<Change> changes, SettingsJson settings, PlanMarkJson plan) {
        return new ChangeEventJson(version, incarnation, committedAt, fingerprint,
                changes.stream().sorted(Comparator.comparing(Change::id)).map(ChangeJson::of).toList(), settings,
                plan);
    }
}
