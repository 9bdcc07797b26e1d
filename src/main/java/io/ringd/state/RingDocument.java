package io.ringd.state;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;

import io.ringd.ring.Node;
import io.swagger.v3.oas.annotations.media.Schema;

/**
 * Everything a client needs to build a byte-identical ring: the body of
 * {@code GET /ring} and the data of a {@code snapshot} event of
 * {@code /ring/events}.
 *
 * @param version     the version
 * @param fingerprint the fingerprint of the ring at that version (docs/ring.md)
 * @param settings    the ring settings
 * @param nodes       the members, ascending by id
 * @param committedAt when the version was committed (RFC 3339, UTC, milliseconds); null if not recorded
 */
@Schema(name = "Ring", description = "The whole ring at one version")
public record RingDocument(long version, String fingerprint, RingSettings settings, List<NodeDocument> nodes,
        @Schema(nullable = true, example = "2026-11-30T10:11:29.606Z",
                description = "When the version was committed; null for versions stored before commit times were kept")
        String committedAt) {

    private static final DateTimeFormatter RFC_3339_MILLIS =
            DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

    /**
     * A member as the API shows it.
     *
     * @param id     the node id
     * @param weight the weight
     * @param zone   the zone, or null
     */
    @Schema(name = "Node")
    public record NodeDocument(String id, double weight,
            @Schema(nullable = true, description = "null: no zone") String zone) {

        public static NodeDocument of(Node n) {
            return new NodeDocument(n.id(), n.weight(), n.zone());
        }

        public static List<NodeDocument> all(List<Node> nodes) {
            return nodes.stream().map(NodeDocument::of).toList();
        }
    }

    /** The document of {@code state}. */
    public static RingDocument of(RingState state) {
        return new RingDocument(state.version(), state.fingerprint(), state.settings(),
                NodeDocument.all(state.nodes()), time(state.committedAt()));
    }

    /** A commit time as the API shows it: RFC 3339, UTC, always three fraction digits; null stays null. */
    public static String time(Instant t) {
        return t == null ? null : RFC_3339_MILLIS.format(t);
    }
}
