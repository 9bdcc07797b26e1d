package io.ringd.membership;

import java.net.URI;

import jakarta.servlet.http.HttpServletResponse;

import org.springframework.http.HttpHeaders;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;

import io.ringd.state.RingNames;
import io.ringd.state.RingState;
import io.ringd.state.Rings;
import io.ringd.state.ServedRing;
import io.ringd.web.AdminOnly;
import io.ringd.web.ApiDocs;
import io.ringd.web.RingHeaders;
import io.ringd.wire.RingJson;
import io.ringd.wire.RingsJson;
import io.ringd.wire.WireTime;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.ExampleObject;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;

/**
 * The rings one ringd serves (docs/ring.md section 22): list them, make one,
 * delete one. Each ring's own calls are its paths under {@code /rings/{name}}.
 */
@RestController
@Tag(name = "rings", description = "Named rings: one ringd serves a ring per sharded service. Every path of a "
        + "ring is also served under /rings/{name} (/rings/sessions/route/{key}, /rings/sessions/nodes/{id}, "
        + "/rings/sessions/ring/events ...); the paths without the prefix are the ring default.")
class RingsController {

    static final String NAME = "The ring's name: 1 to 63 of a-z, 0-9 and '-', starting and ending with a letter "
            + "or digit";

    private final Rings rings;

    RingsController(Rings rings) {
        this.rings = rings;
    }

    /** The body of {@code POST /rings}. */
    @Schema(name = "RingRequest", description = "A ring to make")
    record RingRequest(@Schema(description = NAME, example = "sessions") String name,
            @Schema(nullable = true, description = "As PUT /settings; absent fields take the start-up defaults")
            SettingsRequest settings) {
    }

    @GetMapping("/rings")
    @Operation(summary = "Every ring", description = "Ascending by name; default always among them.")
    @ApiResponse(responseCode = "200", description = "The rings")
    RingsJson all() {
        return new RingsJson(rings.all().stream().map(RingsController::summary).toList());
    }

    @PostMapping(path = "/rings", consumes = ApiDocs.JSON)
    @AdminOnly(instance = true)
    @Operation(summary = "Make a ring", description = "The new ring starts empty at version 0 with the settings "
            + "given (absent fields: the start-up defaults), durable before the answer. Its paths are then served "
            + "under /rings/{name}.",
            requestBody = @io.swagger.v3.oas.annotations.parameters.RequestBody(required = true, content = @Content(
                    mediaType = ApiDocs.JSON, schema = @Schema(implementation = RingRequest.class),
                    examples = @ExampleObject(value = "{\"name\":\"sessions\",\"settings\":{\"hash\":\"murmur3\"}}"))))
    @ApiResponse(responseCode = "201", description = "Made: the new ring's GET /ring body")
    @ApiResponse(responseCode = "400", description = "Bad name or setting")
    @ApiResponse(responseCode = "403", description = "A ring token: only the admin token makes rings")
    @ApiResponse(responseCode = "409", description = "The name is in use, or ringd.rings.max rings exist")
    @ApiResponse(responseCode = "503", description = "The store could not make the ring durable")
    ResponseEntity<RingJson> create(@RequestBody RingRequest body, HttpServletResponse response) {
        String name = body.name();
        if (name == null) {
            throw new io.ringd.state.InvalidInputException("name", "name is required: the new ring's name");
        }
        ServedRing ring = rings.create(name, body.settings() == null ? null : body.settings().toPatch());
        RingState s = ring.service().current();
        RingHeaders.set(response, ring, s.version());
        return ResponseEntity.created(URI.create("/rings/" + name)).eTag(EntityTags.of(s)).body(s.document());
    }

    @GetMapping("/rings/{name}")
    @Operation(summary = "One ring", description = "The ring's GET /ring body, as /rings/{name}/ring answers it.")
    @ApiResponse(responseCode = "200", description = "The ring")
    @ApiResponse(responseCode = "304", description = "Not modified since the tag in If-None-Match")
    @ApiResponse(responseCode = "404", description = "No ring of that name")
    ResponseEntity<RingJson> one(@Parameter(description = NAME, example = "sessions") @PathVariable String name,
            @Parameter(description = "The ETag of a ring held by the client", example = "\"7-0a1b2c3d4e5f6789\"")
            @RequestHeader(name = HttpHeaders.IF_NONE_MATCH, required = false) String ifNoneMatch,
            HttpServletResponse response) {
        ServedRing ring = named(name);
        RingState s = ring.service().current();
        RingHeaders.set(response, ring, s.version());
        return EntityTags.document(s, ifNoneMatch);
    }

    @DeleteMapping("/rings/{name}")
    @AdminOnly(instance = true)
    @Operation(summary = "Delete a ring", description = "Its state and history are gone for good, its streams "
            + "end, and its paths answer 404 naming ring; a ring made later with that name starts again at "
            + "version 0. The ring default cannot be deleted.")
    @ApiResponse(responseCode = "204", description = "Deleted")
    @ApiResponse(responseCode = "403", description = "A ring token: only the admin token deletes rings")
    @ApiResponse(responseCode = "404", description = "No ring of that name")
    @ApiResponse(responseCode = "409", description = "The ring default")
    @ApiResponse(responseCode = "503", description = "The store could not delete it")
    ResponseEntity<Void> delete(@Parameter(description = NAME, example = "sessions") @PathVariable String name,
            HttpServletResponse response) {
        named(name);
        rings.delete(name);
        response.setHeader(RingHeaders.NAME, name);
        return ResponseEntity.noContent().build();
    }

    private ServedRing named(String name) {
        return rings.get(RingNames.check(name, "ring"));
    }

    static RingsJson.Summary summary(ServedRing r) {
        RingState s = r.service().current();
        return new RingsJson.Summary(r.name(), s.version(), s.nodes().size(), s.ring().pointCount(), s.fingerprint(),
                WireTime.format(s.committedAt()));
    }
}
