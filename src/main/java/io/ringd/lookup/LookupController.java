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

import io.ringd.ring.HashRing;
import io.ringd.state.RingService;
import io.ringd.web.ApiDocs;
import io.ringd.web.ApiException;
import io.ringd.web.Bodies;
import io.ringd.web.Keys;
import io.ringd.web.LookupEvents;
import io.ringd.web.Problems;
import io.ringd.web.Snapshots;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.ExampleObject;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import tools.jackson.databind.JsonNode;

/** Where keys live: {@code /route} and {@code /preference}. */
@RestController
@Tag(name = "lookup", description = "Where a key lives and which replicas hold it")
class LookupController {

    /** The largest preference list. */
    static final int MAX_N = 10_000;

    private final RingService ring;
    private final Snapshots snapshots;
    private final LookupEvents events;

    LookupController(RingService ring, Snapshots snapshots, ObjectProvider<LookupEvents> events) {
        this.ring = ring;
        this.snapshots = snapshots;
        this.events = events.getIfAvailable(() -> LookupEvents.NONE); // resolved once, not per request
    }

    /** {@code {"key","node","hash","version"}}. */
    record RouteAnswer(String key, String node, long hash, long version) {
    }

    /** {@code {"key","nodes","version"}}. */
    record PreferenceAnswer(String key, List<String> nodes, long version) {
    }

    /** {@code {"version","routes":[{"key","node"}]}}. */
    record BatchAnswer(long version, List<KeyNode> routes) {
    }

    record KeyNode(String key, String node) {
    }

    @GetMapping("/route/{key}")
    @Operation(summary = "The node that owns a key", description = "The owner of the first ring point at or after "
            + "the key's hash, wrapping past the last point.")
    @ApiResponse(responseCode = "200", description = "The owner")
    @ApiResponse(responseCode = "400", description = "Bad key or version")
    @ApiResponse(responseCode = "404", description = "Version never made")
    @ApiResponse(responseCode = "410", description = "Version no longer kept")
    @ApiResponse(responseCode = "503", description = "The ring has no nodes")
    RouteAnswer route(@Parameter(description = ApiDocs.KEY, example = "user%2F42") @PathVariable String key,
            @Parameter(description = ApiDocs.VERSION, example = "7") @RequestParam(required = false) Long version) {
        return routeKey(Keys.check(key, "key"), version);
    }

    @GetMapping(path = "/route", params = "key")
    @Operation(summary = "The node that owns a key given as ?key=", description = "The same answer as "
            + "/route/{key}; the key is form-decoded ('+' is a space).")
    @ApiResponse(responseCode = "200", description = "The owner")
    @ApiResponse(responseCode = "400", description = "Bad key or version")
    @ApiResponse(responseCode = "404", description = "Version never made")
    @ApiResponse(responseCode = "410", description = "Version no longer kept")
    @ApiResponse(responseCode = "503", description = "The ring has no nodes")
    RouteAnswer routeQuery(@Parameter(description = "The key, form-encoded", example = "user/42")
            @RequestParam String key,
            @Parameter(description = ApiDocs.VERSION, example = "7") @RequestParam(required = false) Long version) {
        return routeKey(Keys.check(key, "key"), version);
    }

    @GetMapping({"/route/", "/preference/"})
    @io.swagger.v3.oas.annotations.Hidden
    Object emptyKey() {
        throw new ApiException(Problems.BAD_REQUEST, "key must be 1 to 4096 UTF-8 bytes: it is empty", "key");
    }

    private RouteAnswer routeKey(String key, Long version) {
        HashRing r = snapshots.at(version, "version");
        String node = r.route(key);
        events.routed(r.version(), node); // counted only when r is the current version
        return new RouteAnswer(key, node, r.hash(key), r.version());
    }

    @PostMapping(path = "/route", consumes = "application/json")
    @Operation(summary = "The owners of many keys", description = "1 to 10,000 keys, answered in request order, "
            + "all at one version.", requestBody = @io.swagger.v3.oas.annotations.parameters.RequestBody(
                    content = @Content(mediaType = "application/json", examples = @ExampleObject(
                            value = "{\"keys\":[\"user:42\",\"user/43\"]}"))))
    @ApiResponse(responseCode = "200", description = "The owners, in request order")
    @ApiResponse(responseCode = "400", description = "Bad body or key")
    @ApiResponse(responseCode = "413", description = "Body over 4 MiB")
    @ApiResponse(responseCode = "415", description = "Body not JSON")
    @ApiResponse(responseCode = "503", description = "The ring has no nodes")
    BatchAnswer routeBatch(@RequestBody JsonNode body) {
        List<String> keys = Bodies.keys(body);
        HashRing r = ring.current().ring();
        List<KeyNode> routes = new ArrayList<>(keys.size());
        for (String key : keys) {
            String node = r.route(key);
            routes.add(new KeyNode(key, node));
            events.routed(r.version(), node);
        }
        return new BatchAnswer(r.version(), routes);
    }

    @GetMapping("/preference/{key}")
    @Operation(summary = "The replicas of a key", description = "Up to n distinct nodes clockwise from the key's "
            + "hash; element 0 is the route. With distinctZones, nodes of zones not yet taken come first.")
    @ApiResponse(responseCode = "200", description = "The preference list")
    @ApiResponse(responseCode = "400", description = "Bad key, n or version")
    @ApiResponse(responseCode = "404", description = "Version never made")
    @ApiResponse(responseCode = "410", description = "Version no longer kept")
    @ApiResponse(responseCode = "503", description = "The ring has no nodes")
    PreferenceAnswer preference(@Parameter(description = ApiDocs.KEY, example = "user%3A42") @PathVariable String key,
            @Parameter(description = "How many nodes, 1 to 10000", example = "3")
            @RequestParam(defaultValue = "3") int n,
            @Parameter(description = "Prefer nodes of distinct zones", example = "false")
            @RequestParam(defaultValue = "false") boolean distinctZones,
            @Parameter(description = ApiDocs.VERSION, example = "7") @RequestParam(required = false) Long version) {
        return preferenceOf(Keys.check(key, "key"), n, distinctZones, version);
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
            @Parameter(description = ApiDocs.VERSION, example = "7") @RequestParam(required = false) Long version) {
        return preferenceOf(Keys.check(key, "key"), n, distinctZones, version);
    }

    private PreferenceAnswer preferenceOf(String key, int n, boolean distinctZones, Long version) {
        if (n < 1 || n > MAX_N) {
            throw new ApiException(Problems.BAD_REQUEST, "n must be in [1, 10000]: " + n, "n");
        }
        HashRing r = snapshots.at(version, "version");
        return new PreferenceAnswer(key, r.preference(key, n, distinctZones), r.version());
    }
}
