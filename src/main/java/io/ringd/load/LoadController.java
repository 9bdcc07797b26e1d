package io.ringd.load;

import java.util.List;

import org.springframework.http.HttpHeaders;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;

import io.ringd.state.NodeInput;
import io.ringd.state.RingService;
import io.ringd.state.Rings;
import io.ringd.web.RingPaths;
import io.ringd.state.VersionException;
import io.ringd.web.AdminOnly;
import io.ringd.web.ApiDocs;
import io.ringd.web.IfMatch;
import io.ringd.web.RingApi;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.ExampleObject;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;

/**
 * The loads that bounded-load lookups ({@code /route?bound=c}) compare:
 * shown to anyone, reported and cleared by admins. A load never changes
 * membership or the ring version.
 */
@RestController
@RingApi
@Tag(name = "load", description = "Node loads, for bounded-load lookups (/route?bound=c)")
class LoadController {

    static final String IF_MATCH = "Apply only if the ring is still at this version (bare or quoted) "
            + "or still the ring of this ETag of GET /ring; 412 otherwise.";
    static final String ID = "The node id, a member of the ring";

    private final Rings rings;

    LoadController(Rings rings) {
        this.rings = rings;
    }

    /** The loads of the request's ring. */
    private LoadTracker tracker() {
        return RingPaths.here(rings).part(LoadTracker.class);
    }

    private RingService ring() {
        return RingPaths.here(rings).service();
    }

    /** One member's load, as shown. */
    @Schema(name = "NodeLoad", description = "A member's load")
    record NodeLoad(
            @Schema(description = "The node id", example = "cache-1") String id,
            @Schema(description = "The load bounded lookups compare: the reported one when source is reported, "
                    + "else the decayed count", example = "42.5") double load,
            @Schema(description = "reported: a load reported with PUT /nodes/{id}/load, younger than "
                    + "ringd.load.report-ttl; decayed: the decayed count of routed keys; followers "
                    + "(ringd.load.source=followers): the median of the latencies the followers reported of it",
                    allowableValues = {"reported", "decayed", "followers"}, example = "reported") String source,
            @Schema(description = "The decayed count of the keys routed to this node by this instance, "
                    + "each counting 1 when routed and halving every ringd.load.half-life; counted even under a "
                    + "report", example = "17.25") double decayed) {

        static NodeLoad of(LoadTracker.Entry e) {
            return new NodeLoad(e.id(), e.load(), e.source(), e.decayed());
        }
    }

    /** {@code {"version","mean","nodes":[...]}}. */
    @Schema(name = "LoadsAnswer", description = "Every member's load")
    record LoadsAnswer(@Schema(description = "The version whose members these are", example = "8") long version,
            @Schema(description = "The mean load over every member, the one bound multiplies", example = "30.1")
            double mean,
            @Schema(description = "Every member, ascending by id") List<NodeLoad> nodes) {
    }

    /** {@code {"version","node":{...}}}. */
    @Schema(name = "NodeLoadAnswer", description = "One member's load")
    record NodeLoadAnswer(@Schema(description = "The version whose members the load was set among", example = "8")
            long version, NodeLoad node) {
    }

    @GetMapping("/loads")
    @Operation(summary = "Every member's load", description = "The load of each member, reported or decayed, "
            + "and their mean: /route?bound=c answers the first node of the key's preference order whose load is "
            + "at most c times this mean. Loads are this instance's own.")
    @ApiResponse(responseCode = "200", description = "The loads")
    LoadsAnswer loads() {
        LoadTracker.Snapshot s = tracker().snapshot();
        return new LoadsAnswer(s.version(), s.mean(), s.nodes().stream().map(NodeLoad::of).toList());
    }

    @PutMapping(path = "/nodes/{id}/load", consumes = ApiDocs.JSON)
    @AdminOnly
    @Operation(summary = "Report a node's load", description = "The load stands in for the node's decayed count "
            + "until it is cleared (DELETE), replaced, older than ringd.load.report-ttl, or the node leaves. "
            + "It never changes membership and makes no new version.",
            requestBody = @io.swagger.v3.oas.annotations.parameters.RequestBody(required = true, content = @Content(
                    mediaType = ApiDocs.JSON, schema = @Schema(implementation = LoadRequest.class),
                    examples = @ExampleObject(value = "{\"load\":42.5}"))))
    @ApiResponse(responseCode = "200", description = "Reported")
    @ApiResponse(responseCode = "400", description = "Bad id or load")
    @ApiResponse(responseCode = "404", description = "No such member")
    @ApiResponse(responseCode = "412", description = "If-Match names another version")
    @ApiResponse(responseCode = "413", description = "Body over 4 MiB")
    NodeLoadAnswer putLoad(@Parameter(description = ID, example = "cache-1") @PathVariable String id,
            @RequestBody LoadRequest body,
            @Parameter(description = IF_MATCH, example = "7")
            @RequestHeader(name = HttpHeaders.IF_MATCH, required = false) String ifMatch) {
        NodeInput.id(id, "id");
        Long expected = IfMatch.version(ifMatch, ring().current());
        double load = body.checked();
        checkIfMatch(expected);
        return answer(tracker().report(id, load));
    }

    @DeleteMapping("/nodes/{id}/load")
    @AdminOnly
    @Operation(summary = "Clear a node's reported load", description = "Its decayed count is its load again. "
            + "Clearing a node that has no reported load answers the same.")
    @ApiResponse(responseCode = "200", description = "Cleared")
    @ApiResponse(responseCode = "400", description = "Bad id")
    @ApiResponse(responseCode = "404", description = "No such member")
    @ApiResponse(responseCode = "412", description = "If-Match names another version")
    NodeLoadAnswer clearLoad(@Parameter(description = ID, example = "cache-1") @PathVariable String id,
            @Parameter(description = IF_MATCH, example = "7")
            @RequestHeader(name = HttpHeaders.IF_MATCH, required = false) String ifMatch) {
        NodeInput.id(id, "id");
        checkIfMatch(IfMatch.version(ifMatch, ring().current()));
        return answer(tracker().clear(id));
    }

    private void checkIfMatch(Long expected) {
        long current = ring().current().version();
        if (expected != null && expected != current) {
            throw new VersionException.Mismatch(expected, current);
        }
    }

    private static NodeLoadAnswer answer(LoadTracker.One one) {
        return new NodeLoadAnswer(one.version(), NodeLoad.of(one.node()));
    }
}
