package io.ringd.lookup;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import io.ringd.ring.HandoffIndex;
import io.ringd.ring.HashRing;
import io.ringd.state.ExpensiveReads;
import io.ringd.state.Rings;
import io.ringd.state.ServedRing;
import io.ringd.web.RingPaths;
import io.ringd.state.RingState;
import io.ringd.web.ApiDocs;
import io.ringd.web.RingApi;
import io.ringd.web.problem.ApiException;
import io.ringd.web.problem.Fields;
import io.ringd.web.problem.Problems;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.ExampleObject;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;

/**
 * Where keys live: {@code /route} and {@code /preference}. A lookup reads the
 * ring once (the state the ring headers were set from, or a kept version for
 * {@code ?version=}) and hashes its key once. With {@code ?bound=c}, a route
 * answers the first node of the key's preference order within its bound
 * ({@link BoundedLoad}); every key answered at the current version counts in
 * the routed node's load. With {@code ?handoff=true} (or {@code "handoff":true}
 * in a batch) an answer adds who held the key before, from the version's
 * handoff index ({@link Handoffs}), built once per version.
 */
@RestController
@RingApi
@Tag(name = LookupDocs.TAG, description = LookupDocs.TAG_TEXT)
class LookupController {

    /** The largest preference list. */
    static final int MAX_N = 10_000;

    private final Rings rings;
    private final ExplainLabels labels;

    LookupController(Rings rings, ExpensiveReads reads) {
        this.rings = rings;
        this.labels = new ExplainLabels(reads);
    }

    /** The ring of the request being answered. */
    private ServedRing here() {
        return RingPaths.here(rings);
    }

    @GetMapping("/route/{key}")
    @Operation(summary = LookupDocs.ROUTE, description = LookupDocs.ROUTE_TEXT)
    @ApiResponse(responseCode = "200", description = LookupDocs.OWNER)
    @ApiResponse(responseCode = "400", description = LookupDocs.BAD_ROUTE)
    @ApiResponse(responseCode = "404", description = LookupDocs.NOT_MADE)
    @ApiResponse(responseCode = "409", description = LookupDocs.EMPTY_VERSION)
    @ApiResponse(responseCode = "410", description = LookupDocs.GONE)
    @ApiResponse(responseCode = "503", description = LookupDocs.NO_NODES_OR_BUSY)
    RouteAnswer route(@Parameter(description = LookupDocs.KEY, example = "user%2F42") @PathVariable String key,
            @Parameter(description = LookupDocs.VERSION, example = "7")
            @RequestParam(required = false) Long version,
            @Parameter(description = LookupDocs.BOUND, example = "1.25", schema = @Schema(type = "number",
                    format = "double", exclusiveMinimumValue = 1, maximum = "10"))
            @RequestParam(required = false) String bound,
            @Parameter(description = LookupDocs.EXPLAIN, example = "true")
            @RequestParam(defaultValue = "false") boolean explain,
            @Parameter(description = LookupDocs.HANDOFF, example = "true")
            @RequestParam(defaultValue = "false") boolean handoff,
            @Parameter(description = LookupDocs.WINDOW, example = "PT30S")
            @RequestParam(required = false) String window,
            @Parameter(hidden = true) RingState current) {
        return answer(Keys.check(key, "key"), version, bound, explain, handoff, window, current);
    }

    @GetMapping(path = "/route", params = "key")
    @Operation(summary = LookupDocs.ROUTE_QUERY, description = LookupDocs.ROUTE_QUERY_TEXT)
    @ApiResponse(responseCode = "200", description = LookupDocs.OWNER)
    @ApiResponse(responseCode = "400", description = LookupDocs.BAD_ROUTE)
    @ApiResponse(responseCode = "404", description = LookupDocs.NOT_MADE)
    @ApiResponse(responseCode = "409", description = LookupDocs.EMPTY_VERSION)
    @ApiResponse(responseCode = "410", description = LookupDocs.GONE)
    @ApiResponse(responseCode = "503", description = LookupDocs.NO_NODES_OR_BUSY)
    RouteAnswer routeQuery(@Parameter(description = LookupDocs.KEY_FORM, example = "user/42")
            @RequestParam String key,
            @Parameter(description = LookupDocs.VERSION, example = "7")
            @RequestParam(required = false) Long version,
            @Parameter(description = LookupDocs.BOUND, example = "1.25", schema = @Schema(type = "number",
                    format = "double", exclusiveMinimumValue = 1, maximum = "10"))
            @RequestParam(required = false) String bound,
            @Parameter(description = LookupDocs.EXPLAIN, example = "true")
            @RequestParam(defaultValue = "false") boolean explain,
            @Parameter(description = LookupDocs.HANDOFF, example = "true")
            @RequestParam(defaultValue = "false") boolean handoff,
            @Parameter(description = LookupDocs.WINDOW, example = "PT30S")
            @RequestParam(required = false) String window,
            @Parameter(hidden = true) RingState current) {
        return answer(Keys.check(key, "key"), version, bound, explain, handoff, window, current);
    }

    @GetMapping({"/route/", "/preference/"})
    @io.swagger.v3.oas.annotations.Hidden
    Object emptyKey() {
        throw ApiException.badRequest("key must be 1 to 4096 UTF-8 bytes: it is empty", "key");
    }

    /** The ring to answer from: the request's current state, or a kept version. */
    private HashRing at(RingState current, Long version) {
        if (version == null) {
            return current.ring();
        }
        HashRing r = Fields.named("version", () -> here().service().ringAt(version));
        if (r.isEmpty() && r.version() != current.version()) { // a fact of the past, not the service's state: 4xx
            throw new ApiException(Problems.VERSION_WITHOUT_NODES, "version " + r.version()
                    + " had no nodes: no key had an owner there", "version");
        }
        return r;
    }

    /** A checked key's route, and its handoff when asked for. */
    private RouteAnswer answer(String key, Long version, String bound, boolean explain, boolean handoff,
            String window, RingState current) {
        Instant since = HandoffWindow.since(here().handoffs(), handoff, window, "window");
        if (!handoff) {
            return answer(key, version, bound, explain, current);
        }
        if (version != null && version != current.version()) {
            throw ApiException.badRequest("handoff answers at the current version only (" + current.version()
                    + "): it says who held the key before the current owner; leave out version or handoff",
                    "handoff");
        }
        RouteAnswer a = answer(key, version, bound, explain, current);
        HandoffIndex index = here().handoffs().indexOf(current);
        return a.handedOff(HandoffJson.of(index.handoff(key, a.hash(), since)));
    }

    /** A checked key's route: plain, or bounded when {@code bound} is given. */
    private RouteAnswer answer(String key, Long version, String bound, boolean explain, RingState current) {
        if (bound == null) {
            HashRing r = at(current, version);
            RouteAnswer a = routeKey(key, r);
            return explain ? a.explained(Explain.of(r, a.hash(), labels)) : a;
        }
        double c = BoundedLoad.parseBound(bound);
        HashRing r = current.ring();
        if (version != null && version != r.version()) {
            throw ApiException.badRequest("bound answers at the current version only (" + r.version()
                    + "): loads are known for the current ring alone; leave out version or bound", "bound");
        }
        long hash = r.hash(key);
        r.routeHash(hash); // an empty ring answers 503 before any load is read
        ServedRing served = here();
        BoundedLoad.Choice choice = BoundedLoad.choose(r, hash, c, served.loads().read());
        served.events().routed(r.version(), choice.node());
        served.events().bounded(r.version(), choice.skipped());
        served.loads().routed(r.version(), choice.node());
        return new RouteAnswer(key, choice.node(), hash, r.version(), choice.skipped(),
                explain ? Explain.of(r, hash, labels) : null);
    }

    private RouteAnswer routeKey(String key, HashRing r) {
        long hash = r.hash(key);
        String node = r.routeHash(hash);
        ServedRing served = here();
        served.events().routed(r.version(), node); // counted only when r is the current version
        served.loads().routed(r.version(), node); // likewise
        return new RouteAnswer(key, node, hash, r.version());
    }

    @PostMapping(path = "/route", consumes = ApiDocs.JSON)
    @Operation(summary = LookupDocs.ROUTE_BATCH, description = LookupDocs.ROUTE_BATCH_TEXT,
            requestBody = @io.swagger.v3.oas.annotations.parameters.RequestBody(required = true,
                    content = @Content(mediaType = ApiDocs.JSON,
                            schema = @Schema(implementation = RouteBatchRequest.class),
                            examples = @ExampleObject(value = LookupDocs.ROUTE_BATCH_EXAMPLE))))
    @ApiResponse(responseCode = "200", description = LookupDocs.OWNERS)
    @ApiResponse(responseCode = "400", description = LookupDocs.BAD_BATCH)
    @ApiResponse(responseCode = "413", description = LookupDocs.TOO_LARGE)
    @ApiResponse(responseCode = "503", description = LookupDocs.NO_NODES)
    BatchAnswer routeBatch(@RequestBody RouteBatchRequest body, @Parameter(hidden = true) RingState current) {
        List<String> keys = body.checked();
        boolean handoff = Boolean.TRUE.equals(body.handoff());
        Instant since = HandoffWindow.since(here().handoffs(), handoff, body.window(), "window");
        HashRing r = current.ring();
        if (handoff) {
            r.routeHash(0); // an empty ring answers 503 before an index is built
        }
        HandoffIndex index = handoff ? here().handoffs().indexOf(current) : null;
        List<BatchAnswer.KeyNode> routes = new ArrayList<>(keys.size());
        NodeCounts counts = new NodeCounts(Math.min(r.nodeCount(), keys.size())); // reported once per node
        for (int i = 0; i < keys.size(); i++) {
            String key = keys.get(i);
            if (index == null) {
                String node = r.route(key);
                routes.add(new BatchAnswer.KeyNode(key, node));
                counts.add(node);
            } else {
                long hash = r.hash(key);
                String node = r.routeHash(hash);
                routes.add(new BatchAnswer.KeyNode(key, node, HandoffJson.of(index.handoff(key, hash, since))));
                counts.add(node);
            }
        }
        long version = r.version();
        counts.forEach((node, count) -> {
            here().events().routed(version, node, count);
            here().loads().routed(version, node, count);
        });
        return new BatchAnswer(version, routes, handoff);
    }

    @GetMapping("/preference/{key}")
    @Operation(summary = LookupDocs.PREFERENCE, description = LookupDocs.PREFERENCE_TEXT)
    @ApiResponse(responseCode = "200", description = LookupDocs.PREFERENCE_LIST)
    @ApiResponse(responseCode = "400", description = LookupDocs.BAD_PREFERENCE)
    @ApiResponse(responseCode = "404", description = LookupDocs.NOT_MADE)
    @ApiResponse(responseCode = "409", description = LookupDocs.EMPTY_VERSION)
    @ApiResponse(responseCode = "410", description = LookupDocs.GONE)
    @ApiResponse(responseCode = "503", description = LookupDocs.NO_NODES_OR_BUSY)
    PreferenceAnswer preference(@Parameter(description = LookupDocs.KEY, example = "user%3A42")
            @PathVariable String key,
            @Parameter(description = LookupDocs.N, example = "3")
            @RequestParam(defaultValue = "3") int n,
            @Parameter(description = LookupDocs.DISTINCT_ZONES, example = "false")
            @RequestParam(defaultValue = "false") boolean distinctZones,
            @Parameter(description = LookupDocs.VERSION, example = "7") @RequestParam(required = false) Long version,
            @Parameter(hidden = true) RingState current) {
        return preferenceOf(Keys.check(key, "key"), n, distinctZones, current, version);
    }

    @GetMapping(path = "/preference", params = "key")
    @Operation(summary = LookupDocs.PREFERENCE_QUERY, description = LookupDocs.PREFERENCE_QUERY_TEXT)
    @ApiResponse(responseCode = "200", description = LookupDocs.PREFERENCE_LIST)
    @ApiResponse(responseCode = "400", description = LookupDocs.BAD_PREFERENCE)
    @ApiResponse(responseCode = "404", description = LookupDocs.NOT_MADE)
    @ApiResponse(responseCode = "409", description = LookupDocs.EMPTY_VERSION)
    @ApiResponse(responseCode = "410", description = LookupDocs.GONE)
    @ApiResponse(responseCode = "503", description = LookupDocs.NO_NODES_OR_BUSY)
    PreferenceAnswer preferenceQuery(@Parameter(description = LookupDocs.KEY_FORM, example = "user:42")
            @RequestParam String key,
            @Parameter(description = LookupDocs.N, example = "3")
            @RequestParam(defaultValue = "3") int n,
            @Parameter(description = LookupDocs.DISTINCT_ZONES, example = "false")
            @RequestParam(defaultValue = "false") boolean distinctZones,
            @Parameter(description = LookupDocs.VERSION, example = "7") @RequestParam(required = false) Long version,
            @Parameter(hidden = true) RingState current) {
        return preferenceOf(Keys.check(key, "key"), n, distinctZones, current, version);
    }

    private PreferenceAnswer preferenceOf(String key, int n, boolean distinctZones, RingState current,
            Long version) {
        if (n < 1 || n > MAX_N) {
            throw ApiException.badRequest("n must be in [1, 10000]: " + n, "n");
        }
        HashRing r = at(current, version);
        return new PreferenceAnswer(key, r.preference(key, n, distinctZones), r.version());
    }
}
