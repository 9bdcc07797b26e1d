package io.ringd.follow;

import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.context.request.async.DeferredResult;

import com.fasterxml.jackson.annotation.JsonInclude;

import io.ringd.state.BusyException;
import io.ringd.state.Rings;
import io.ringd.state.ServedRing;
import io.ringd.web.ApiDocs;
import io.ringd.web.RingApi;
import io.ringd.web.RingPaths;
import io.ringd.web.problem.ApiException;
import io.ringd.wire.WireTime;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.ExampleObject;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;

/**
 * Followers: the processes that hold a ring and route from memory report the
 * version they applied, and anyone may ask which hold which version and
 * whether the fleet has converged (docs/ring.md section 23). Reports need no
 * admin token: followers are readers.
 */
@RestController
@RingApi
@Tag(name = "followers", description = "Which followers hold which version, and whether the fleet has converged")
class FollowersController {

    /** The longest a convergence question waits. */
    static final Duration MAX_WAIT = Duration.ofSeconds(60);
    static final Duration DEFAULT_WAIT = Duration.ofSeconds(10);
    static final int DEFAULT_LIMIT = 1000;

    private final Rings rings;
    private final FollowersProperties props;

    FollowersController(Rings rings, FollowersProperties props) {
        this.rings = rings;
        this.props = props;
    }

    private RingFollowers followers() {
        return FollowersParts.of(RingPaths.here(rings));
    }

    @PutMapping(path = "/followers/{id}", consumes = ApiDocs.JSON)
    @Operation(summary = "Report the version a follower applied", description = "A follower reports after "
            + "applying each version, and at least every 20 s while it runs. Its fingerprint is checked against "
            + "the version's: a mismatch, or a version never made, makes it diverged. With ringd.load.source="
            + "followers, the latencies it reports are the loads bounded lookups compare.",
            requestBody = @io.swagger.v3.oas.annotations.parameters.RequestBody(required = true, content = @Content(
                    mediaType = ApiDocs.JSON, schema = @Schema(implementation = FollowerReport.class),
                    examples = @ExampleObject(value = "{\"version\":8,\"fingerprint\":\"9f2c41d7e0b35a86c1f4e2d9b0"
                            + "7a63581e4c2b9d7f0a3e6c5b8d1f4a7c0e3b6d\",\"nodes\":{\"cache-1\":{\"latencyMs\":3.2}}}"))))
    @ApiResponse(responseCode = "204", description = "Taken", content = @Content)
    @ApiResponse(responseCode = "400", description = "Bad id, version, fingerprint or latency")
    @ApiResponse(responseCode = "503", description = "The ring knows as many followers as it may (ringd.followers.max"
            + ") and none is silent, or takes no more reports this second; Retry-After says when to try again")
    ResponseEntity<Void> report(@Parameter(description = "The follower's id: 1 to 200 of A-Z a-z 0-9 . _ : @ / - "
            + "(a '/' sent as %2F)", example = "web-7.example:4711:3f9a2c") @PathVariable String id,
            @RequestBody FollowerReport body) {
        FollowerReport.checkId(id);
        long version = body.checkedVersion();
        String fingerprint = body.checkedFingerprint();
        var latencies = body.checkedLatencies();
        if (followers().report(id, version, fingerprint, latencies) == FollowerRegistry.Outcome.FULL) {
            throw new BusyException("ring " + RingPaths.here(rings).name() + " knows " + props.max() + " followers "
                    + "(ringd.followers.max) and none is silent: a new one is taken once an older one has been "
                    + "silent for ringd.followers.ttl (" + props.ttl().toSeconds() + " s)",
                    (int) Math.min(Integer.MAX_VALUE, props.ttl().toSeconds() / 2));
        }
        return ResponseEntity.noContent().build();
    }

    // ------------------------------------------------------------------ GET /followers

    @Schema(name = "Follower", description = "A follower of the ring and the version it holds")
    @JsonInclude(JsonInclude.Include.ALWAYS)
    record FollowerJson(@Schema(description = "Its id", example = "web-7.example:4711:3f9a2c") String id,
            @Schema(description = "The version it reported last", example = "8") long version,
            @Schema(description = "current: at the ring's version; behind: an older one (its fingerprint matching "
                    + "while kept); diverged: a fingerprint that is not its version's, or a version never made; "
                    + "silent: no report for ringd.followers.ttl",
                    allowableValues = {"current", "behind", "diverged", "silent"}) String state,
            @Schema(description = "How many versions it lags the ring", example = "0") long lagVersions,
            @Schema(description = "When it reported last (RFC 3339, UTC)", example = "2026-12-02T10:15:30.123Z")
            String reportedAt,
            @Schema(description = "From the commit of its version to its first report of it, in seconds; null when "
                    + "the commit time is not known (a version no longer kept)", example = "0.042",
                    nullable = true) Double appliedSeconds) {

        static FollowerJson of(FollowerRegistry.Row r) {
            FollowerEntry e = r.entry();
            return new FollowerJson(e.id(), e.version(), r.state().wire(), r.lagVersions(),
                    WireTime.format(Instant.ofEpochMilli(e.reportedAt())), e.appliedSeconds());
        }
    }

    @Schema(name = "FollowerCounts", description = "How many followers are in each state")
    record SummaryJson(int current, int behind, int diverged, int silent) {
    }

    @Schema(name = "Followers", description = "The followers of the ring")
    record FollowersJson(@Schema(description = "The ring's version", example = "8") long version,
            @Schema(description = "Those asked for, ascending id") List<FollowerJson> followers,
            @Schema(description = "Every follower, whatever the state and limit asked") SummaryJson summary) {
    }

    @GetMapping("/followers")
    @Operation(summary = "The followers and the versions they hold", description = "Every follower known to this "
            + "instance or, with a shared store, to any instance, ascending id.")
    @ApiResponse(responseCode = "200", description = "The followers")
    @ApiResponse(responseCode = "400", description = "Bad state or limit")
    FollowersJson list(@Parameter(description = "Only followers in this state", schema = @Schema(allowableValues = {
            "current", "behind", "diverged", "silent"})) @RequestParam(required = false) String state,
            @Parameter(description = "At most this many followers, 1 to 10000 (default 1000)", example = "100")
            @RequestParam(required = false) String limit) {
        FollowerState only = null;
        if (state != null) {
            only = FollowerState.parse(state);
            if (only == null) {
                throw ApiException.badRequest("state must be current, behind, diverged or silent: "
                        + ApiException.abbreviate(state), "state");
            }
        }
        int max = limit == null ? DEFAULT_LIMIT : parseLimit(limit);
        FollowerRegistry registry = followers().registry();
        long now = registry.now();
        FollowerCounts.Summary s = registry.census(now).summary();
        List<FollowerRegistry.Row> rows = registry.rows(now, only, max);
        List<FollowerJson> shown = new ArrayList<>(rows.size());
        for (FollowerRegistry.Row r : rows) {
            shown.add(FollowerJson.of(r));
        }
        return new FollowersJson(s.version(), shown, new SummaryJson(s.current(), s.behind(), s.diverged(),
                s.silent()));
    }

    private static int parseLimit(String text) {
        int n;
        try {
            n = Integer.parseInt(text);
        } catch (NumberFormatException e) {
            n = -1;
        }
        if (n < 1 || n > 10_000) {
            throw ApiException.badRequest("limit must be a whole number from 1 to 10000: "
                    + ApiException.abbreviate(text), "limit");
        }
        return n;
    }

    // ------------------------------------------------------------------ GET /followers/converged

    @Schema(name = "Convergence", description = "Whether the followers reached a version")
    record ConvergedJson(@Schema(description = "The version asked about", example = "8") long version,
            @Schema(description = "The share asked for", example = "1.0") double share,
            @Schema(description = "Whether at least share of the followers that are not silent report version or "
                    + "later with matching fingerprints (true with no followers)") boolean converged,
            @Schema(description = "Followers that are not silent", example = "12") int followers,
            @Schema(description = "Of them, those at version or later with matching fingerprints", example = "12")
            int atOrPast,
            @Schema(description = "Of them, those diverged", example = "0") int diverged) {

        static ConvergedJson of(FollowerCounts.Convergence c) {
            return new ConvergedJson(c.version(), c.share(), c.converged(), c.followers(), c.atOrPast(),
                    c.diverged());
        }
    }

    @GetMapping("/followers/converged")
    @Operation(summary = "Wait until the followers have applied a version", description = "Answers as soon as at "
            + "least share of the followers that are not silent report version or later with matching "
            + "fingerprints, or when wait runs out (converged false). A version this instance has not reached yet "
            + "is waited for like any other. No thread waits while the request does.")
    @ApiResponse(responseCode = "200", description = "Converged, or the wait ran out")
    @ApiResponse(responseCode = "400", description = "Bad version, share or wait")
    @ApiResponse(responseCode = "503", description = "As many requests wait already as may "
            + "(ringd.followers.max-waiters)")
    DeferredResult<ConvergedJson> converged(
            @Parameter(description = "The version (default: the ring's current one)", example = "8")
            @RequestParam(required = false) String version,
            @Parameter(description = "The share of the followers that are not silent, more than 0 and at most 1 "
                    + "(default 1.0)", example = "1.0") @RequestParam(required = false) String share,
            @Parameter(description = "How long to wait at most, an ISO-8601 duration from PT0S to PT60S "
                    + "(default PT10S)", example = "PT10S") @RequestParam(required = false) String wait) {
        ServedRing ring = RingPaths.here(rings);
        long v = version == null ? ring.service().current().version() : parseVersion(version);
        double s = share == null ? 1.0 : parseShare(share);
        Duration w = wait == null ? DEFAULT_WAIT : parseWait(wait);
        CompletableFuture<FollowerCounts.Convergence> answer = FollowersParts.of(ring).await(v, s, w);
        DeferredResult<ConvergedJson> result = new DeferredResult<>(w.toMillis() + 30_000L);
        result.onTimeout(() -> answer.cancel(false));
        result.onError(e -> answer.cancel(false));
        result.onCompletion(() -> answer.cancel(false));
        answer.whenComplete((c, e) -> {
            if (c != null) {
                result.setResult(ConvergedJson.of(c));
            }
        });
        return result;
    }

    private static long parseVersion(String text) {
        long v;
        try {
            v = Long.parseLong(text);
        } catch (NumberFormatException e) {
            v = -1;
        }
        if (v < 0) {
            throw ApiException.badRequest("version must be a whole number >= 0: " + ApiException.abbreviate(text),
                    "version");
        }
        return v;
    }

    private static double parseShare(String text) {
        double s;
        try {
            s = Double.parseDouble(text);
        } catch (NumberFormatException e) {
            s = Double.NaN;
        }
        if (!(s > 0 && s <= 1)) {
            throw ApiException.badRequest("share must be a number more than 0 and at most 1: "
                    + ApiException.abbreviate(text), "share");
        }
        return s;
    }

    private static Duration parseWait(String text) {
        Duration d;
        try {
            d = Duration.parse(text);
        } catch (DateTimeParseException | ArithmeticException e) {
            throw ApiException.badRequest("wait must be an ISO-8601 duration such as PT10S: "
                    + (text.isEmpty() ? "(empty)" : ApiException.abbreviate(text)), "wait");
        }
        if (d.isNegative() || d.compareTo(MAX_WAIT) > 0) {
            throw ApiException.badRequest("wait must be from PT0S to PT60S: " + ApiException.abbreviate(text),
                    "wait");
        }
        return d;
    }
}
