package io.ringd.placement;

import java.util.List;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import io.ringd.ring.Change;
import io.ringd.ring.Ownership;
import io.ringd.ring.RingDiff;
import io.ringd.state.ChangeBatch;
import io.ringd.state.RingState;
import io.ringd.web.ApiDocs;
import io.ringd.web.problem.ApiException;
import io.ringd.web.RingApi;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.ExampleObject;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;

/** How the hash space is split ({@code /ownership}) and what moves between versions ({@code /diff}). */
@RestController
@RingApi
@Tag(name = "placement", description = "Ownership of the hash space and what moves when membership changes")
class PlacementController {

    static final int DEFAULT_MAX_RANGES = 1000;
    static final int MAX_RANGES = Diffs.KEPT;
    static final int DEFAULT_MAX_FLOWS = 1000;
    static final int MAX_FLOWS = Diffs.KEPT;

    private final Diffs diffs;

    PlacementController(Diffs diffs) {
        this.diffs = diffs;
    }

    record NodeShare(String id, double weight, @Schema(nullable = true, description = "null: no zone") String zone,
            int points, long count, double share) {
    }

    record OwnershipAnswer(long version, List<NodeShare> nodes) {
    }

    record FlowView(@Schema(nullable = true, description = "null: no node (an empty ring)") String from,
            @Schema(nullable = true, description = "null: no node (an empty ring)") String to, long count,
            double share) {
    }

    record RangeView(long start, long end,
            @Schema(nullable = true, description = "null: no node (an empty ring)") String from,
            @Schema(nullable = true, description = "null: no node (an empty ring)") String to) {
    }

    record DiffAnswer(long from, @Schema(nullable = true, description = "null for a dry run (POST /diff)") Long to,
            @Schema(description = "Hash values whose owner changes (with node: to or from it)") long movedCount,
            double movedShare,
            @Schema(description = "How many flows there are in all (with node: to or from it)") int flowCount,
            @Schema(description = "The first maxFlows flows, by count descending, then from, then to")
            List<FlowView> flows,
            @Schema(description = "flowCount > maxFlows") boolean flowsTruncated,
            @Schema(description = "How many moved ranges there are in all (with node: to or from it); 0 when "
                    + "a Maglev table is involved") int rangeCount,
            @Schema(description = "The first maxRanges moved ranges, by start") List<RangeView> ranges,
            @Schema(description = "rangeCount > maxRanges") boolean rangesTruncated) {
    }

    @GetMapping("/ownership")
    @Operation(summary = "Exact ownership of the hash space", description = "Per member, ascending by id: the count "
            + "of hash values it owns (the counts add up to 2^32), its share, and its ring points after collisions.")
    @ApiResponse(responseCode = "200", description = "The ownership")
    OwnershipAnswer ownership(@Parameter(hidden = true) RingState current) {
        Ownership o = current.ring().ownership();
        return new OwnershipAnswer(o.version(), o.shares().stream()
                .map(s -> new NodeShare(s.node().id(), s.node().weight(), s.node().zone(), s.points(), s.count(),
                        s.share()))
                .toList());
    }

    @GetMapping("/diff")
    @Operation(summary = "What moved between two versions", description = "Exact moved count and share, the "
            + "first maxFlows from->to flows (by count descending) of flowCount, and the first maxRanges moved "
            + "ranges (inclusive, sorted, never wrapping) of rangeCount; with node, only those from or to it. "
            + "Each diff is computed once and cached.")
    @ApiResponse(responseCode = "200", description = "The diff")
    @ApiResponse(responseCode = "400", description = "Bad parameter")
    @ApiResponse(responseCode = "404", description = "A version never made, or a node of neither version")
    @ApiResponse(responseCode = "410", description = "A version no longer kept")
    @ApiResponse(responseCode = "503", description = BUSY)
    DiffAnswer diff(@Parameter(description = "The version diffed from", example = "6") @RequestParam long from,
            @Parameter(description = "The version diffed to; the current one when absent", example = "7")
            @RequestParam(required = false) Long to,
            @Parameter(description = "The most ranges listed, 0 to 100000", example = "1000")
            @RequestParam(defaultValue = "" + DEFAULT_MAX_RANGES) int maxRanges,
            @Parameter(description = "The most flows listed, 0 to 100000", example = "1000")
            @RequestParam(defaultValue = "" + DEFAULT_MAX_FLOWS) int maxFlows,
            @Parameter(description = NODE, example = "cache-4") @RequestParam(required = false) String node,
            @Parameter(hidden = true) RingState current) {
        checkLimits(maxRanges, maxFlows);
        RingDiff d = diffs.between(from, to, node, current);
        return answer(d, d.fromVersion(), d.toVersion(), maxRanges, maxFlows);
    }

    private static final String NODE = "Only the flows and ranges from or to this node (a member of either side)";
    private static final String BUSY = "Too many expensive reads at once (busy): try again after Retry-After";

    @PostMapping(path = "/diff", consumes = ApiDocs.JSON)
    @Operation(summary = "What a batch of changes would move", description = "A dry run of a /membership body "
            + "against the current version: nothing is applied. 'to' is null.",
            requestBody = @io.swagger.v3.oas.annotations.parameters.RequestBody(required = true, content = @Content(
                    mediaType = ApiDocs.JSON, schema = @Schema(implementation = ChangeBatch.class), examples = @ExampleObject(value = "{\"changes\":["
                            + "{\"op\":\"put\",\"id\":\"cache-4\",\"weight\":1}]}"))))
    @ApiResponse(responseCode = "200", description = "The diff")
    @ApiResponse(responseCode = "400", description = "Bad change or parameter")
    @ApiResponse(responseCode = "404", description = "A removal names no member, or a node of neither side")
    @ApiResponse(responseCode = "413", description = "Body over 4 MiB")
    @ApiResponse(responseCode = "503", description = BUSY)
    DiffAnswer preview(@RequestBody ChangeBatch body,
            @Parameter(description = "The most ranges listed, 0 to 100000", example = "1000")
            @RequestParam(defaultValue = "" + DEFAULT_MAX_RANGES) int maxRanges,
            @Parameter(description = "The most flows listed, 0 to 100000", example = "1000")
            @RequestParam(defaultValue = "" + DEFAULT_MAX_FLOWS) int maxFlows,
            @Parameter(description = NODE, example = "cache-4") @RequestParam(required = false) String node,
            @Parameter(hidden = true) RingState current) {
        checkLimits(maxRanges, maxFlows);
        List<Change> changes = body.toChanges();
        RingDiff d = diffs.dryRun(changes, node, maxRanges, maxFlows, current);
        return answer(d, d.fromVersion(), null, maxRanges, maxFlows);
    }

    private static void checkLimits(int maxRanges, int maxFlows) {
        if (maxRanges < 0 || maxRanges > MAX_RANGES) {
            throw ApiException.badRequest("maxRanges must be in [0, 100000]: " + maxRanges, "maxRanges");
        }
        if (maxFlows < 0 || maxFlows > MAX_FLOWS) {
            throw ApiException.badRequest("maxFlows must be in [0, 100000]: " + maxFlows, "maxFlows");
        }
    }

    private static DiffAnswer answer(RingDiff d, long from, Long to, int maxRanges, int maxFlows) {
        List<FlowView> flows = d.flows().subList(0, Math.min(maxFlows, d.flows().size())).stream()
                .map(f -> new FlowView(f.from(), f.to(), f.count(), f.share())).toList();
        List<RangeView> ranges = d.ranges(maxRanges).stream()
                .map(r -> new RangeView(r.start(), r.end(), r.from(), r.to())).toList();
        return new DiffAnswer(from, to, d.movedCount(), d.movedShare(), d.flowCount(), flows,
                d.flowCount() > maxFlows, d.rangeCount(), ranges, d.rangeCount() > maxRanges);
    }
}
