package io.ringd.placement;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicReference;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

import com.fasterxml.jackson.annotation.JsonInclude;

import io.ringd.ring.HashRing;
import io.ringd.ring.Node;
import io.ringd.ring.RingConfig;
import io.ringd.ring.RingPoints;
import io.ringd.state.RingState;
import io.ringd.web.RingApi;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;

/**
 * Where the points sit ({@code GET /points}), for drawing the ring: every
 * point of a ring of up to 20,000 points, every entry of a Maglev table of up
 * to 20,000 entries, and otherwise an exact summary in 720 equal slices. The
 * answer for the current ring is kept until the ring changes, so many pages
 * drawing one large ring cost one summary.
 */
@RestController
@RingApi
@Tag(name = "placement", description = "Ownership of the hash space and what moves when membership changes")
class PointsController {

    /** The slices of a summary. */
    static final int SLICES = RingPoints.DEFAULT_SLICES;
    /** The owners named per slice; the others are summed. */
    static final int TOP = 4;

    private final AtomicReference<Computed> last = new AtomicReference<>();

    private record Computed(HashRing ring, PointsAnswer answer) {
    }

    record PointView(@Schema(example = "1457184536") long hash, @Schema(example = "cache-b") String node,
            @Schema(description = "The vnode label: id#i (ketama: id-k[j]), with the node's hashKey in place of "
                    + "its id when it has one", example = "cache-b#41") String vnode) {
    }

    record ShareView(@Schema(example = "cache-b") String node,
            @Schema(description = "Hash values (ring) or entries (Maglev) of the slice it owns") long count) {
    }

    record SliceView(@Schema(description = "The slice's first hash value (ring) or entry (Maglev)") long start,
            @Schema(description = "The slice's last hash value or entry, inclusive") long end,
            @Schema(description = "The largest owners, by count descending then id, at most 4") List<ShareView> owners,
            @Schema(description = "What the other owners hold together") long othersCount,
            @Schema(description = "How many other owners") int othersNodes) {
    }

    @JsonInclude(JsonInclude.Include.NON_NULL)
    record PointsAnswer(long version, @Schema(description = "ring or maglev", example = "ring") String placement,
            @Schema(description = "Ring points after collisions, or Maglev entries (0 for an empty ring)")
            int pointCount,
            @Schema(description = "Ring of at most 20,000 points: every point, ascending")
            List<PointView> points,
            @Schema(description = "Maglev table of at most 20,000 entries: each entry's owner, in entry order")
            List<String> entries,
            @Schema(description = "Otherwise: 720 equal slices of the hash space (ring; slice s holds the values "
                    + "floor(s*2^32/720) .. floor((s+1)*2^32/720)-1) or of the entries (Maglev, with M for 2^32)")
            List<SliceView> slices,
            @Schema(description = "With hash ketama: how a weighted node's digests are counted (libketama, "
                    + "libmemcached or hashring)", example = "libmemcached") String ketamaFlavor,
            @Schema(description = "The placement string of each node that has one (its hashKey), by id; absent "
                    + "when every node is placed by its id") Map<String, String> hashKeys) {

        PointsAnswer(long version, String placement, int pointCount, List<PointView> points, List<String> entries,
                List<SliceView> slices, HashRing ring) {
            this(version, placement, pointCount, points, entries, slices, ring.config().ketamaFlavorName(),
                    hashKeys(ring));
        }

        private static Map<String, String> hashKeys(HashRing ring) {
            Map<String, String> out = new TreeMap<>();
            for (Node n : ring.nodes()) {
                if (n.hashKey() != null) {
                    out.put(n.id(), n.hashKey());
                }
            }
            return out.isEmpty() ? null : out;
        }
    }

    @GetMapping("/points")
    @Operation(summary = "Where the points sit, for drawing the ring", description = "A ring of at most 20,000 "
            + "points lists every point (hash, owner, vnode label); a Maglev table of at most 20,000 entries lists "
            + "every entry's owner; anything larger is summarised exactly in 720 equal slices, each naming its "
            + "largest owners and what the others hold together.")
    @ApiResponse(responseCode = "200", description = "The points, entries or slices")
    PointsAnswer points(@Parameter(hidden = true) RingState current) {
        HashRing ring = current.ring();
        Computed c = last.get();
        if (c != null && c.ring() == ring) {
            return c.answer();
        }
        PointsAnswer answer = compute(ring);
        last.set(new Computed(ring, answer));
        return answer;
    }

    static PointsAnswer compute(HashRing ring) {
        String placement = ring.config().algorithmName();
        int n = ring.pointCount();
        boolean table = ring.config().algorithm() == RingConfig.Algorithm.MAGLEV;
        if (n <= RingPoints.MAX_LISTED) {
            if (table) { // an empty table (no members) has no entries
                return new PointsAnswer(ring.version(), placement, n, null,
                        ring.isTable() ? RingPoints.entries(ring) : List.of(), null, ring);
            }
            List<PointView> points = RingPoints.points(ring).stream()
                    .map(p -> new PointView(p.hash(), p.node(), p.vnode())).toList();
            return new PointsAnswer(ring.version(), placement, n, points, null, null, ring);
        }
        List<SliceView> slices = RingPoints.slices(ring, SLICES, TOP).stream()
                .map(s -> new SliceView(s.start(), s.end(),
                        s.owners().stream().map(o -> new ShareView(o.node(), o.count())).toList(), s.othersCount(),
                        s.othersNodes()))
                .toList();
        return new PointsAnswer(ring.version(), placement, n, null, null, slices, ring);
    }
}
