package io.ringd.membership;

import jakarta.servlet.http.HttpServletRequest;

import org.springframework.http.HttpHeaders;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import io.ringd.state.Incarnation;
import io.ringd.state.PersistedState;
import io.ringd.state.RingService;
import io.ringd.state.Rings;
import io.ringd.web.RingPaths;
import io.ringd.state.RingState;
import io.ringd.state.StoreConflictException;
import io.ringd.state.VersionException;
import io.ringd.web.AdminOnly;
import io.ringd.web.IfMatch;
import io.ringd.web.RingApi;
import io.ringd.web.problem.ApiException;
import io.ringd.web.problem.Problems;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;

/**
 * The recovery step for a shared store that lost the ring: {@code POST
 * /store/reseed} writes the ring this instance holds back to the store.
 */
@RestController
@RingApi
@Tag(name = "store", description = "Recovering a shared store that lost the ring")
class ReseedController {

    private final Rings rings;

    ReseedController(Rings rings) {
        this.rings = rings;
    }

    /** The ring of the request being answered. */
    private RingService ring() {
        return RingPaths.here(rings).service();
    }

    /** {@code {"version","incarnation"}}: what the store holds now. */
    record ReseedAnswer(long version, String incarnation) {
    }

    @PostMapping("/store/reseed")
    @AdminOnly
    @Operation(summary = "Re-seed the shared store from this instance's ring", description = "For a ZooKeeper "
            + "store that lost the ring (its path deleted, the ensemble's data wiped, or another ring in its "
            + "place): writes the whole ring this instance holds (version, settings, members, kept history and "
            + "incarnation) to the store. Instances that serve the same incarnation accept writes again once they "
            + "see it. Into a store that holds no ring; one that holds a ring only with ?replace= naming that "
            + "ring's incarnation, and never over a newer version of this instance's own ring. Re-seed from the "
            + "instance with the highest version.")
    @ApiResponse(responseCode = "200", description = "The store holds this instance's ring")
    @ApiResponse(responseCode = "400", description = "A malformed replace or If-Match, or a body (none is taken)")
    @ApiResponse(responseCode = "412", description = "If-Match names another version than the one held here")
    @ApiResponse(responseCode = "409", description = "The store holds a ring that ?replace= does not name, a newer "
            + "version of this ring, or is not a shared store")
    @ApiResponse(responseCode = "503", description = "The store is out of reach, or no ring is loaded here")
    ReseedAnswer reseed(@Parameter(description = "The incarnation of the ring the store holds now, to replace it "
            + "(an explicit choice: that ring's history is gone from the store)", example = "5f0c3a9e1b7d2468")
            @RequestParam(required = false) String replace,
            @Parameter(description = "Re-seed only if the ring held here is still at this version (bare or quoted) "
                    + "or still the ring of this ETag of GET /ring; 412 otherwise", example = "7")
            @RequestHeader(name = HttpHeaders.IF_MATCH, required = false) String ifMatch,
            HttpServletRequest request) {
        if (request.getContentLengthLong() > 0 || request.getHeader(HttpHeaders.TRANSFER_ENCODING) != null) {
            throw ApiException.badRequest("POST /store/reseed takes no body: a body it ignored could be meant as a "
                    + "condition it did not check", "body");
        }
        if (replace != null && !Incarnation.valid(replace)) {
            throw ApiException.badRequest("replace must be an incarnation, 16 lowercase hex digits: "
                    + ApiException.abbreviate(replace), "replace");
        }
        Long expected = IfMatch.version(ifMatch, ring().current());
        if (expected != null && expected != ring().current().version()) {
            throw new VersionException.Mismatch(expected, ring().current().version());
        }
        if (!ring().store().shared()) {
            throw new ApiException(Problems.RESEED_REFUSED, "this instance's store is its own, not shared: "
                    + "there is nothing to re-seed", null);
        }
        RingState cur = ring().current();
        try {
            RingState seeded = ring().reseed(replace);
            return new ReseedAnswer(seeded.version(), seeded.incarnation());
        } catch (StoreConflictException e) {
            PersistedState stored = e.latest();
            String mine = cur.incarnation();
            if (mine != null && mine.equals(stored.incarnation()) && stored.version() > cur.version()) {
                throw new ApiException(Problems.RESEED_REFUSED, "the store holds version " + stored.version()
                        + " of this ring, newer than version " + cur.version() + " held here: re-seed from an "
                        + "instance at version " + stored.version() + " or later", null);
            }
            throw new ApiException(Problems.RESEED_REFUSED, "the store holds a ring (incarnation "
                    + stored.incarnation() + ", version " + stored.version() + ", " + stored.nodes().size()
                    + " nodes): nothing was changed; to replace it with this instance's (incarnation " + mine
                    + ", version " + cur.version() + "), name it: POST /store/reseed?replace="
                    + stored.incarnation(), "replace");
        }
    }
}
