package io.ringd.lookup;

import java.util.ArrayList;
import java.util.List;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import com.fasterxml.jackson.annotation.JsonInclude;

import tools.jackson.core.JsonGenerator;
import tools.jackson.core.SerializableString;
import tools.jackson.core.io.SerializedString;
import tools.jackson.databind.SerializationContext;
import tools.jackson.databind.annotation.JsonSerialize;
import tools.jackson.databind.ser.std.StdSerializer;

import io.ringd.ring.HashRing;
import io.ringd.ring.RingPoints;
import io.ringd.state.LookupEvents;
import io.ringd.state.NodeLoads;
import io.ringd.state.RingService;
import io.ringd.state.RingState;
import io.ringd.web.ApiDocs;
import io.ringd.web.problem.ApiException;
import io.ringd.web.problem.Fields;
import io.ringd.web.RingApi;
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
 * the routed node's load.
 */
@RestController
@RingApi
@Tag(name = "lookup", description = "Where a key lives and which replicas hold it")
class LookupController {

    /** The largest preference list. */
    static final int MAX_N = 10_000;

    static final String KEY = "The key, any UTF-8 string of 1 to 4096 bytes, percent-encoded: every byte "
            + "outside A-Z a-z 0-9 - . _ ~ as %XX (a '/' is %2F, a ';' is %3B). Send a key that is exactly '.' or '..' "
            + "as %2E or %2E%2E, or as ?key=: many HTTP clients normalize such path segments away.";
    static final String VERSION = "Answer at this older version (kept: at least the last 100); "
            + "the current one when absent.";
    static final String BOUND = "Bounded load: answer the first node of the key's preference order whose load "
            + "is at most bound times the mean load over all nodes (the primary if none is), and say how many "
            + "nodes were skipped. A number c with 1 < c <= 10. Loads are each node's decayed count of routed "
            + "keys, or the load reported with PUT /nodes/{id}/load (see GET /loads). Answers at the current "
            + "version only: with a version other than the current one, 400.";
    static final String EXPLAIN = "Also say why: the ring point that owns the key's hash (its hash and vnode "
            + "label X#i) and the arc of hash values it owns, from one past the previous point to the point "
            + "itself, wrapping past 2^32-1; for a Maglev table, the entry (hash mod M) and the hash values it "
            + "holds. With bound, it explains the key's own point (the first node of its preference order).";

    private final RingService ring;
    private final LookupEvents events;
    private final NodeLoads loads;

    LookupController(RingService ring, ObjectProvider<LookupEvents> events, ObjectProvider<NodeLoads> loads) {
        this.ring = ring;
        this.events = events.getIfAvailable(() -> LookupEvents.NONE); // resolved once, not per request
        this.loads = loads.getIfAvailable(() -> NodeLoads.NONE);
    }

    /**
     * {@code {"key","node","hash","version"}}, {@code "skipped"} with {@code ?bound=}, and {@code "explain"}
     * with {@code ?explain=true}.
     */
    record RouteAnswer(String key, String node, long hash, long version,
            @Schema(description = "Only with bound: how many nodes of the key's preference order were passed "
                    + "over (all of them when none was within the bound and the primary answers)", example = "1")
            @JsonInclude(JsonInclude.Include.NON_NULL) Integer skipped,
            @Schema(description = "Only with explain=true: where the key's hash falls")
            @JsonInclude(JsonInclude.Include.NON_NULL) Explain explain) {

        RouteAnswer(String key, String node, long hash, long version) {
            this(key, node, hash, version, null, null);
        }

        RouteAnswer explained(Explain e) {
            return new RouteAnswer(key, node, hash, version, skipped, e);
        }
    }

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

        static Explain of(HashRing r, long hash) {
            if (r.isTable()) {
                RingPoints.TableEntry e = RingPoints.entryOf(r, hash);
                return new Explain("maglev", e.node(), null, null, null, null, null, null, e.entry(),
                        e.tableSize(), e.first(), e.last(), e.count());
            }
            RingPoints.PointOwner o = RingPoints.ownerOf(r, hash);
            return new Explain("ring", o.node(), o.index(), o.point(), o.vnode(), o.start(), o.end(),
                    o.start() > o.end(), null, null, null, null, o.count());
        }
    }

    /** {@code {"key","nodes","version"}}. */
    record PreferenceAnswer(String key, List<String> nodes, long version) {
    }

    /**
     * {@code {"version","routes":[{"key","node"}]}}, written by {@link BatchWriter}: the fields in this
     * order, as Jackson writes the record.
     */
    @JsonSerialize(using = BatchWriter.class)
    record BatchAnswer(long version, List<KeyNode> routes) {
    }

    /**
     * Writes a {@link BatchAnswer} straight to the generator: the same JSON as the record's bean serializer
     * ({@code version}, then {@code routes} of {@code key} and {@code node}), without a property look-up per
     * field of each of up to 10,000 routes.
     */
    static final class BatchWriter extends StdSerializer<BatchAnswer> {

        private static final SerializableString VERSION = new SerializedString("version");
        private static final SerializableString ROUTES = new SerializedString("routes");
        private static final SerializableString KEY = new SerializedString("key");
        private static final SerializableString NODE = new SerializedString("node");

        BatchWriter() {
            super(BatchAnswer.class);
        }

        @Override
        public void serialize(BatchAnswer answer, JsonGenerator gen, SerializationContext context) {
            List<KeyNode> routes = answer.routes();
            gen.writeStartObject(answer);
            gen.writeName(VERSION);
            gen.writeNumber(answer.version());
            gen.writeName(ROUTES);
            gen.writeStartArray(routes, routes.size());
            for (int i = 0; i < routes.size(); i++) {
                KeyNode route = routes.get(i);
                gen.writeStartObject(route);
                gen.writeName(KEY);
                gen.writeString(route.key());
                gen.writeName(NODE);
                gen.writeString(route.node());
                gen.writeEndObject();
            }
            gen.writeEndArray();
            gen.writeEndObject();
        }
    }

    record KeyNode(String key, String node) {
    }

    @GetMapping("/route/{key}")
    @Operation(summary = "The node that owns a key", description = "The owner of the first ring point at or after "
            + "the key's hash, wrapping past the last point. With bound, the first node of the key's preference "
            + "order within its bound, and skipped. With explain=true, the owning point, its vnode label and its "
            + "arc (for a Maglev table, the entry and its hash values).")
    @ApiResponse(responseCode = "200", description = "The owner")
    @ApiResponse(responseCode = "400", description = "Bad key, version or bound, or bound with an older version")
    @ApiResponse(responseCode = "404", description = "Version never made")
    @ApiResponse(responseCode = "410", description = "Version no longer kept")
    @ApiResponse(responseCode = "503", description = "The ring has no nodes")
    RouteAnswer route(@Parameter(description = KEY, example = "user%2F42") @PathVariable String key,
            @Parameter(description = VERSION, example = "7") @RequestParam(required = false) Long version,
            @Parameter(description = BOUND, example = "1.25", schema = @Schema(type = "number", format = "double",
                    exclusiveMinimumValue = 1, maximum = "10"))
            @RequestParam(required = false) String bound,
            @Parameter(description = EXPLAIN, example = "true") @RequestParam(defaultValue = "false") boolean explain,
            @Parameter(hidden = true) RingState current) {
        return answer(Keys.check(key, "key"), version, bound, explain, current);
    }

    @GetMapping(path = "/route", params = "key")
    @Operation(summary = "The node that owns a key given as ?key=", description = "The same answer as "
            + "/route/{key}, bound and explain included; the key is form-decoded ('+' is a space).")
    @ApiResponse(responseCode = "200", description = "The owner")
    @ApiResponse(responseCode = "400", description = "Bad key, version or bound, or bound with an older version")
    @ApiResponse(responseCode = "404", description = "Version never made")
    @ApiResponse(responseCode = "410", description = "Version no longer kept")
    @ApiResponse(responseCode = "503", description = "The ring has no nodes")
    RouteAnswer routeQuery(@Parameter(description = "The key, form-encoded", example = "user/42")
            @RequestParam String key,
            @Parameter(description = VERSION, example = "7") @RequestParam(required = false) Long version,
            @Parameter(description = BOUND, example = "1.25", schema = @Schema(type = "number", format = "double",
                    exclusiveMinimumValue = 1, maximum = "10"))
            @RequestParam(required = false) String bound,
            @Parameter(description = EXPLAIN, example = "true") @RequestParam(defaultValue = "false") boolean explain,
            @Parameter(hidden = true) RingState current) {
        return answer(Keys.check(key, "key"), version, bound, explain, current);
    }

    @GetMapping({"/route/", "/preference/"})
    @io.swagger.v3.oas.annotations.Hidden
    Object emptyKey() {
        throw ApiException.badRequest("key must be 1 to 4096 UTF-8 bytes: it is empty", "key");
    }

    /** The ring to answer from: the request's current state, or a kept version. */
    private HashRing at(RingState current, Long version) {
        return version == null ? current.ring() : Fields.named("version", () -> ring.ringAt(version));
    }

    /** A checked key's route: plain, or bounded when {@code bound} is given. */
    private RouteAnswer answer(String key, Long version, String bound, boolean explain, RingState current) {
        if (bound == null) {
            HashRing r = at(current, version);
            RouteAnswer a = routeKey(key, r);
            return explain ? a.explained(Explain.of(r, a.hash())) : a;
        }
        double c = BoundedLoad.parseBound(bound);
        HashRing r = current.ring();
        if (version != null && version != r.version()) {
            throw ApiException.badRequest("bound answers at the current version only (" + r.version()
                    + "): loads are known for the current ring alone; leave out version or bound", "bound");
        }
        long hash = r.hash(key);
        r.routeHash(hash); // an empty ring answers 503 before any load is read
        BoundedLoad.Choice choice = BoundedLoad.choose(r, hash, c, loads.read());
        events.routed(r.version(), choice.node());
        events.bounded(r.version(), choice.skipped());
        loads.routed(r.version(), choice.node());
        return new RouteAnswer(key, choice.node(), hash, r.version(), choice.skipped(),
                explain ? Explain.of(r, hash) : null);
    }

    private RouteAnswer routeKey(String key, HashRing r) {
        long hash = r.hash(key);
        String node = r.routeHash(hash);
        events.routed(r.version(), node); // counted only when r is the current version
        loads.routed(r.version(), node); // likewise
        return new RouteAnswer(key, node, hash, r.version());
    }

    @PostMapping(path = "/route", consumes = ApiDocs.JSON)
    @Operation(summary = "The owners of many keys", description = "1 to 10,000 keys, answered in request order, "
            + "all at one version.", requestBody = @io.swagger.v3.oas.annotations.parameters.RequestBody(
                    required = true, content = @Content(mediaType = ApiDocs.JSON,
                            schema = @Schema(implementation = RouteBatchRequest.class), examples = @ExampleObject(
                            value = "{\"keys\":[\"user:42\",\"user/43\"]}"))))
    @ApiResponse(responseCode = "200", description = "The owners, in request order")
    @ApiResponse(responseCode = "400", description = "Bad body or key")
    @ApiResponse(responseCode = "413", description = "Body over 4 MiB")
    @ApiResponse(responseCode = "503", description = "The ring has no nodes")
    BatchAnswer routeBatch(@RequestBody RouteBatchRequest body, @Parameter(hidden = true) RingState current) {
        List<String> keys = body.checked();
        HashRing r = current.ring();
        List<KeyNode> routes = new ArrayList<>(keys.size());
        NodeCounts counts = new NodeCounts(Math.min(r.nodeCount(), keys.size())); // reported once per node
        for (int i = 0; i < keys.size(); i++) {
            String key = keys.get(i);
            String node = r.route(key);
            routes.add(new KeyNode(key, node));
            counts.add(node);
        }
        long version = r.version();
        counts.forEach((node, count) -> {
            events.routed(version, node, count);
            loads.routed(version, node, count);
        });
        return new BatchAnswer(version, routes);
    }

    @GetMapping("/preference/{key}")
    @Operation(summary = "The replicas of a key", description = "Up to n distinct nodes clockwise from the key's "
            + "hash; element 0 is the route. With distinctZones, nodes of zones not yet taken come first.")
    @ApiResponse(responseCode = "200", description = "The preference list")
    @ApiResponse(responseCode = "400", description = "Bad key, n or version")
    @ApiResponse(responseCode = "404", description = "Version never made")
    @ApiResponse(responseCode = "410", description = "Version no longer kept")
    @ApiResponse(responseCode = "503", description = "The ring has no nodes")
    PreferenceAnswer preference(@Parameter(description = KEY, example = "user%3A42") @PathVariable String key,
            @Parameter(description = "How many nodes, 1 to 10000", example = "3")
            @RequestParam(defaultValue = "3") int n,
            @Parameter(description = "Prefer nodes of distinct zones", example = "false")
            @RequestParam(defaultValue = "false") boolean distinctZones,
            @Parameter(description = VERSION, example = "7") @RequestParam(required = false) Long version,
            @Parameter(hidden = true) RingState current) {
        return preferenceOf(Keys.check(key, "key"), n, distinctZones, current, version);
    }

    @GetMapping(path = "/preference", params = "key")
    @Operation(summary = "The replicas of a key given as ?key=", description = "The same answer as "
            + "/preference/{key}.")
    @ApiResponse(responseCode = "200", description = "The preference list")
    @ApiResponse(responseCode = "400", description = "Bad key, n or version")
    @ApiResponse(responseCode = "404", description = "Version never made")
    @ApiResponse(responseCode = "410", description = "Version no longer kept")
    @ApiResponse(responseCode = "503", description = "The ring has no nodes")
    PreferenceAnswer preferenceQuery(@Parameter(description = "The key, form-encoded", example = "user:42")
            @RequestParam String key,
            @Parameter(description = "How many nodes, 1 to 10000", example = "3")
            @RequestParam(defaultValue = "3") int n,
            @Parameter(description = "Prefer nodes of distinct zones", example = "false")
            @RequestParam(defaultValue = "false") boolean distinctZones,
            @Parameter(description = VERSION, example = "7") @RequestParam(required = false) Long version,
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
