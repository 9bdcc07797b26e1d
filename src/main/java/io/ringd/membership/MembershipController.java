package io.ringd.membership;

import java.util.List;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import io.ringd.ring.Node;
import io.ringd.ring.RingException;
import io.ringd.state.ChangeBatch;
import io.ringd.state.NodeInput;
import io.ringd.state.RingService;
import io.ringd.state.Rings;
import io.ringd.web.RingPaths;
import io.ringd.state.RingState;
import io.ringd.web.AdminOnly;
import io.ringd.web.ApiDocs;
import io.ringd.web.IfMatch;
import io.ringd.web.RingApi;
import io.ringd.wire.NodeJson;
import io.ringd.wire.RingJson;
import io.ringd.wire.SettingsJson;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.headers.Header;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.ExampleObject;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;

/** The members and settings of the ring: read by anyone, changed by admins. */
@RestController
@RingApi
@Tag(name = "membership", description = "Nodes, settings and the ring itself")
class MembershipController {

    static final String IF_MATCH = "Apply only if the ring is still at this version (bare or quoted) "
            + "or still the ring of this ETag of GET /ring; 412 otherwise.";
    static final String FORCE = "true: make the change whatever share of the hash space it moves; otherwise a "
            + "change that would move more than ringd.guard.max-moved-share (1 by default: off) is refused with 409. "
            + "true or false.";
    static final String GUARDED = "The change would move more of the hash space than ringd.guard.max-moved-share "
            + "allows (moved-share-exceeded, with movedShare and maxMovedShare; field force): nothing was changed. "
            + "?force=true makes it";

    private final Rings rings;

    MembershipController(Rings rings) {
        this.rings = rings;
    }

    /** The ring of the request being answered. */
    private RingService ring() {
        return RingPaths.here(rings).service();
    }

    record NodesAnswer(long version, List<NodeJson> nodes) {
    }

    record NodeAnswer(long version, NodeJson node) {
    }

    record SettingsAnswer(long version, SettingsJson settings) {
    }

    record VersionAnswer(long version) {
    }

    @GetMapping("/ring")
    @Operation(summary = "The whole ring", description = "Version, fingerprint, settings, members and commit "
            + "time: all a client needs to build the same ring. ETag is "
            + "\"<version>-<first 16 hex digits of the fingerprint>\"; If-None-Match with the current tag answers "
            + "304, any other tag (another ring, another version, a bare version) 200.")
    @ApiResponse(responseCode = "200", description = "The ring", headers = @Header(name = HttpHeaders.ETAG,
            description = "The version and the first 16 hex digits of the fingerprint, quoted",
            schema = @Schema(type = "string", example = "\"8-5c4a568501f2a916\"")))
    @ApiResponse(responseCode = "304", description = "Not modified since the tag in If-None-Match",
            headers = @Header(name = HttpHeaders.ETAG, description = "The same tag",
                    schema = @Schema(type = "string", example = "\"8-5c4a568501f2a916\"")))
    ResponseEntity<RingJson> ring(@Parameter(description = "The ETag of a ring held by the client",
            example = "\"7-0a1b2c3d4e5f6789\"")
            @RequestHeader(name = HttpHeaders.IF_NONE_MATCH, required = false) String ifNoneMatch,
            @Parameter(hidden = true) RingState s) {
        return EntityTags.document(s, ifNoneMatch);
    }

    @GetMapping("/nodes")
    @Operation(summary = "The members", description = "Ascending by id.")
    @ApiResponse(responseCode = "200", description = "The members")
    NodesAnswer nodes(@Parameter(hidden = true) RingState s) {
        return new NodesAnswer(s.version(), NodeJson.all(s.nodes()));
    }

    @GetMapping("/nodes/{id}")
    @Operation(summary = "One member")
    @ApiResponse(responseCode = "200", description = "The member")
    @ApiResponse(responseCode = "400", description = "Malformed id")
    @ApiResponse(responseCode = "404", description = "No such member")
    NodeAnswer node(@Parameter(description = "The node id", example = "cache-1") @PathVariable String id,
            @Parameter(hidden = true) RingState s) {
        NodeInput.id(id, "id");
        Node n = s.ring().node(id).orElseThrow(() -> new RingException.UnknownNode(id));
        return new NodeAnswer(s.version(), NodeJson.of(n));
    }

    @GetMapping("/settings")
    @Operation(summary = "The ring settings")
    @ApiResponse(responseCode = "200", description = "The settings")
    SettingsAnswer settings(@Parameter(hidden = true) RingState s) {
        return new SettingsAnswer(s.version(), s.settings().json());
    }

    @PutMapping(path = "/nodes/{id}", consumes = ApiDocs.JSON)
    @AdminOnly
    @Operation(summary = "Add or replace a node", description = "201 when the node is new, 200 otherwise. An absent "
            + "zone means no zone. The same weight and zone again makes no new version.",
            requestBody = @io.swagger.v3.oas.annotations.parameters.RequestBody(required = true, content = @Content(
                    mediaType = ApiDocs.JSON, schema = @Schema(implementation = NodeRequest.class), examples = @ExampleObject(
                            value = "{\"weight\":1,\"zone\":\"eu-1a\"}"))))
    @ApiResponse(responseCode = "200", description = "Replaced (or unchanged)")
    @ApiResponse(responseCode = "201", description = "Added")
    @ApiResponse(responseCode = "400", description = "Bad id, weight or zone, or a ring limit reached")
    @ApiResponse(responseCode = "409", description = GUARDED)
    @ApiResponse(responseCode = "412", description = "If-Match names another version")
    @ApiResponse(responseCode = "413", description = "Body over 4 MiB")
    @ApiResponse(responseCode = "503", description = "The store could not make the change durable")
    ResponseEntity<NodeAnswer> put(@Parameter(description = "The node id", example = "cache-1") @PathVariable String id,
            @RequestBody NodeRequest body,
            @Parameter(description = IF_MATCH, example = "7")
            @RequestHeader(name = HttpHeaders.IF_MATCH, required = false) String ifMatch,
            @Parameter(description = FORCE, example = "true") @RequestParam(defaultValue = "false") boolean force) {
        NodeInput.newId(id, "id");
        Long expected = IfMatch.version(ifMatch, ring().current());
        Node node = body.toNode(id);
        RingService.PutResult r = ring().put(node, expected, force);
        NodeAnswer answer = new NodeAnswer(r.state().version(), NodeJson.of(node));
        return ResponseEntity.status(r.created() ? HttpStatus.CREATED : HttpStatus.OK).body(answer);
    }

    @DeleteMapping("/nodes/{id}")
    @AdminOnly
    @Operation(summary = "Remove a node")
    @ApiResponse(responseCode = "200", description = "Removed")
    @ApiResponse(responseCode = "400", description = "Malformed id")
    @ApiResponse(responseCode = "404", description = "No such member")
    @ApiResponse(responseCode = "409", description = GUARDED)
    @ApiResponse(responseCode = "412", description = "If-Match names another version")
    @ApiResponse(responseCode = "503", description = "The store could not make the change durable")
    VersionAnswer remove(@Parameter(description = "The node id", example = "cache-1") @PathVariable String id,
            @Parameter(description = IF_MATCH, example = "7")
            @RequestHeader(name = HttpHeaders.IF_MATCH, required = false) String ifMatch,
            @Parameter(description = FORCE, example = "true") @RequestParam(defaultValue = "false") boolean force) {
        NodeInput.id(id, "id");
        return new VersionAnswer(ring().remove(id, IfMatch.version(ifMatch, ring().current()), force).version());
    }

    @PostMapping(path = "/membership", consumes = ApiDocs.JSON)
    @AdminOnly
    @Operation(summary = "Apply a batch of changes", description = "All or nothing, one version. An id twice in "
            + "one batch is 400; removing an absent id is 404.",
            requestBody = @io.swagger.v3.oas.annotations.parameters.RequestBody(required = true, content = @Content(
                    mediaType = ApiDocs.JSON, schema = @Schema(implementation = ChangeBatch.class),
                    examples = @ExampleObject(value = "{\"changes\":["
                            + "{\"op\":\"put\",\"id\":\"cache-4\",\"weight\":1,\"zone\":\"eu-1b\"},"
                            + "{\"op\":\"remove\",\"id\":\"cache-1\"}]}"))))
    @ApiResponse(responseCode = "200", description = "Applied")
    @ApiResponse(responseCode = "400", description = "Bad change, an id twice, or a ring limit reached")
    @ApiResponse(responseCode = "404", description = "A removal names no member")
    @ApiResponse(responseCode = "409", description = GUARDED)
    @ApiResponse(responseCode = "412", description = "If-Match names another version")
    @ApiResponse(responseCode = "413", description = "Body over 4 MiB")
    @ApiResponse(responseCode = "503", description = "The store could not make the change durable")
    VersionAnswer membership(@RequestBody ChangeBatch body,
            @Parameter(description = IF_MATCH, example = "7")
            @RequestHeader(name = HttpHeaders.IF_MATCH, required = false) String ifMatch,
            @Parameter(description = FORCE, example = "true") @RequestParam(defaultValue = "false") boolean force) {
        Long expected = IfMatch.version(ifMatch, ring().current());
        return new VersionAnswer(ring().apply(body.toChanges(), expected, force).version());
    }

    @PutMapping(path = "/settings", consumes = ApiDocs.JSON)
    @AdminOnly
    @Operation(summary = "Change the ring settings", description = "Absent fields keep their value. hash=ketama "
            + "is libketama's placement, algorithm=maglev a Maglev table (docs/ring.md sections 14 and 15).",
            requestBody = @io.swagger.v3.oas.annotations.parameters.RequestBody(required = true, content = @Content(
                    mediaType = ApiDocs.JSON, schema = @Schema(implementation = SettingsRequest.class),
                    examples = @ExampleObject(value = "{\"hash\":\"murmur3\",\"vnodesPerWeight\":256}"))))
    @ApiResponse(responseCode = "200", description = "Applied (or unchanged)")
    @ApiResponse(responseCode = "400", description = "Bad or unsupported value, or a ring limit reached")
    @ApiResponse(responseCode = "409", description = GUARDED)
    @ApiResponse(responseCode = "412", description = "If-Match names another version")
    @ApiResponse(responseCode = "413", description = "Body over 4 MiB")
    @ApiResponse(responseCode = "503", description = "The store could not make the change durable")
    SettingsAnswer updateSettings(@RequestBody SettingsRequest body,
            @Parameter(description = IF_MATCH, example = "7")
            @RequestHeader(name = HttpHeaders.IF_MATCH, required = false) String ifMatch,
            @Parameter(description = FORCE, example = "true") @RequestParam(defaultValue = "false") boolean force) {
        Long expected = IfMatch.version(ifMatch, ring().current());
        RingState s = ring().updateSettings(body.toPatch(), expected, force);
        return new SettingsAnswer(s.version(), s.settings().json());
    }
}
