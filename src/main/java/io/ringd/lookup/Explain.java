package io.ringd.lookup;

import com.fasterxml.jackson.annotation.JsonInclude;

import io.ringd.ring.HashRing;
import io.ringd.ring.RingPoints;
import io.swagger.v3.oas.annotations.media.Schema;

/**
 * Why a key goes where it goes. On a ring: the owning point's index, hash and vnode label, and its arc
 * {@code start..end} (inclusive; wrapping past 2^32-1 when start > end) of {@code count} hash values. On a
 * Maglev table: the entry ({@code hash mod tableSize}) and the hash values it holds, {@code first},
 * {@code first + tableSize}, ... up to {@code last}, {@code count} of them.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
record Explain(@Schema(description = "ring or maglev", example = "ring") String placement,
        @Schema(description = "The owner of the point or entry (the key's primary)", example = "cache-b")
        String node,
        @Schema(description = "Ring: the point's index, 0 .. points-1, ascending", example = "17") Integer index,
        @Schema(description = "Ring: the point's hash, the last value of its arc", example = "1460000000")
        Long point,
        @Schema(description = "Ring: the vnode label, id#i (ketama: id-k[j], point j of MD5(\"id-k\"))",
                example = "cache-b#41") String vnode,
        @Schema(description = "Ring: the first hash value of the arc, one past the previous point",
                example = "1450000001") Long start,
        @Schema(description = "Ring: the last hash value of the arc, the point itself", example = "1460000000")
        Long end,
        @Schema(description = "Ring: start > end, the arc runs past 2^32-1 to 0", example = "false")
        Boolean wraps,
        @Schema(description = "Maglev: the table entry, hash mod tableSize", example = "1234") Integer entry,
        @Schema(description = "Maglev: the table size M", example = "65537") Integer tableSize,
        @Schema(description = "Maglev: the entry's first hash value (the entry itself)", example = "1234")
        Long first,
        @Schema(description = "Maglev: the entry's last hash value", example = "4294903019") Long last,
        @Schema(description = "How many hash values the arc or entry holds", example = "10000000") long count) {

    static Explain of(HashRing r, long hash, RingPoints.Labeller labels) {
        if (r.isTable()) {
            RingPoints.TableEntry e = RingPoints.entryOf(r, hash);
            return new Explain("maglev", e.node(), null, null, null, null, null, null, e.entry(),
                    e.tableSize(), e.first(), e.last(), e.count());
        }
        RingPoints.PointOwner o = RingPoints.ownerOf(r, hash, labels);
        return new Explain("ring", o.node(), o.index(), o.point(), o.vnode(), o.start(), o.end(),
                o.start() > o.end(), null, null, null, null, o.count());
    }
}
