package io.ringd.wire;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/**
 * A state file ({@code "format": 1}): the current version, the ring's
 * incarnation, settings and members, and the kept history.
 *
 * @param format      the format, 1
 * @param version     the current version
 * @param incarnation the ring's incarnation, 16 lowercase hex digits; absent in a state written before
 *                    incarnations were kept
 * @param settings the current settings
 * @param nodes    the current members, ascending by id
 * @param history  the kept versions
 */
public record StateJson(Integer format, Long version,
        @JsonInclude(JsonInclude.Include.NON_NULL) String incarnation, SettingsJson settings, List<NodeJson> nodes,
        StateJson.History history) {

    /**
     * The kept versions: the oldest kept one whole, then what each later one changed.
     *
     * @param baseVersion     the oldest kept version
     * @param baseSettings    its settings
     * @param baseNodes       its members, ascending by id
     * @param baseCommittedAt when it was committed ({@link java.time.Instant#toString()}); left out if not recorded
     * @param deltas          the later versions, ascending
     */
    public record History(Long baseVersion, SettingsJson baseSettings, List<NodeJson> baseNodes,
            @JsonInclude(JsonInclude.Include.NON_NULL) String baseCommittedAt, List<Delta> deltas) {
    }

    /**
     * What one version changed. A put is written {@code {"id","weight","zone","op":"put"}}
     * (see {@link StoredPutOrder}).
     *
     * @param version     the version this change made
     * @param changes     the membership changes (empty for a settings change)
     * @param settings    the new settings; left out when they stayed
     * @param committedAt when it was committed ({@link java.time.Instant#toString()}); left out if not recorded
     * @param fingerprint the fingerprint of the ring it made; left out if not recorded
     * @param plan        the planned change it is a step of; left out when none
     */
    public record Delta(Long version, List<ChangeJson> changes,
            @JsonInclude(JsonInclude.Include.NON_NULL) SettingsJson settings,
            @JsonInclude(JsonInclude.Include.NON_NULL) String committedAt,
            @JsonInclude(JsonInclude.Include.NON_NULL) String fingerprint,
            @JsonInclude(JsonInclude.Include.NON_NULL) PlanMarkJson plan) {

        /** A delta that is no plan's step. */
        public Delta(Long version, List<ChangeJson> changes, SettingsJson settings, String committedAt,
                String fingerprint) {
            this(version, changes, settings, committedAt, fingerprint, null);
        }
    }

    /**
     * The order a state file has always written a put's fields in: the node,
     * then {@code op}. A mix-in for {@link ChangeJson.Put} on the mapper that
     * writes state files.
     */
    @JsonPropertyOrder({ "id", "weight", "zone", "hashKey", "op" })
    public interface StoredPutOrder {
    }
}
