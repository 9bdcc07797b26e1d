package io.ringd.plan;

import java.net.URI;

import org.springframework.http.HttpHeaders;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import io.ringd.state.Rings;
import io.ringd.state.ServedRing;
import io.ringd.web.AdminOnly;
import io.ringd.web.ApiDocs;
import io.ringd.web.IfMatch;
import io.ringd.web.RingApi;
import io.ringd.web.RingPaths;
import io.ringd.wire.PlanJson;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.ExampleObject;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.servlet.http.HttpServletRequest;

/**
 * Planned changes (docs/ring.md section 24): a membership change made in
 * steps, each moving at most a budgeted share of the hash space and waiting
 * for the fleet; read by anyone, made and steered by admins.
 */
@RestController
@RingApi
@Tag(name = "plans", description = "Planned changes: ramps and drains within a movement budget, gated on the fleet")
class PlansController {

    static final String PLAN_ID = "The plan's id, as POST /plans answered it";
    static final String UNKNOWN = "No plan of this ring has that id (plan-not-found, field id)";
    static final String WRONG_STATE = "The plan is not in a state for this (plan-state, field state): nothing was "
            + "changed";

    private final Rings rings;

    PlansController(Rings rings) {
        this.rings = rings;
    }

    private RingPlans plans() {
        return PlansParts.of(RingPaths.here(rings));
    }

    @PostMapping(path = "/plans", consumes = ApiDocs.JSON)
    @AdminOnly
    @Operation(summary = "Make a planned change and start it", description = "The steps are computed now, from "
            + "the ring as it is: added or heavier nodes are ramped up, removed or lighter ones down, each step "
            + "moving at most maxMovedShare (a step that cannot be split further is overBudget). After each step "
            + "the next waits minStepInterval and the gate. While the plan runs or is paused, other membership and "
            + "settings writes are refused with 409 plan-running. ?dryRun=true answers the plan (id and state "
            + "null) and starts nothing.",
            requestBody = @io.swagger.v3.oas.annotations.parameters.RequestBody(required = true, content = @Content(
                    mediaType = ApiDocs.JSON, schema = @Schema(implementation = PlanRequest.class),
                    examples = @ExampleObject(value = "{\"changes\":[{\"op\":\"put\",\"id\":\"cache-e\",\"weight\":1}],"
                            + "\"maxMovedShare\":0.05,\"minStepInterval\":\"PT30S\","
                            + "\"gate\":{\"convergedShare\":0.99,\"timeout\":\"PT2M\"}}"))))
    @ApiResponse(responseCode = "200", description = "A dry run: the plan that would be made; nothing started")
    @ApiResponse(responseCode = "201", description = "Made and started; Location names it")
    @ApiResponse(responseCode = "400", description = "Bad changes, budget, interval or gate (field named), changes "
            + "that change nothing, or a ring limit reached")
    @ApiResponse(responseCode = "404", description = "A removal names no member")
    @ApiResponse(responseCode = "409", description = "A plan of this ring is running or paused already "
            + "(plan-running, with its id as plan)")
    @ApiResponse(responseCode = "412", description = "If-Match names another version")
    @ApiResponse(responseCode = "503", description = "The store could not make the plan durable")
    ResponseEntity<PlanJson> create(@RequestBody PlanRequest body,
            @Parameter(description = "true: answer the plan without making it", example = "true")
            @RequestParam(defaultValue = "false") boolean dryRun,
            @Parameter(description = "Plan only if the ring is still at this version (bare or quoted) or still the "
                    + "ring of this ETag of GET /ring; 412 otherwise.", example = "7")
            @RequestHeader(name = HttpHeaders.IF_MATCH, required = false) String ifMatch,
            HttpServletRequest request) {
        ServedRing ring = RingPaths.here(rings);
        Long expected = IfMatch.version(ifMatch, ring.service().current());
        PlanJson plan = PlansParts.of(ring).create(body, dryRun, expected);
        if (dryRun) {
            return ResponseEntity.ok(plan);
        }
        return ResponseEntity.created(URI.create(RingPaths.prefix(request) + "/plans/" + plan.id())).body(plan);
    }

    @GetMapping("/plans")
    @Operation(summary = "The plans of the ring, newest first", description = "The running or paused one, and the "
            + "latest ended ones (ringd.plans.keep in all).")
    PlanJson.Plans list() {
        return new PlanJson.Plans(plans().list());
    }

    @GetMapping("/plans/{id}")
    @Operation(summary = "One plan: its steps and progress")
    @ApiResponse(responseCode = "200", description = "The plan")
    @ApiResponse(responseCode = "404", description = UNKNOWN)
    PlanJson get(@Parameter(description = PLAN_ID, example = "3f9a0c1d2e4b") @PathVariable String id) {
        return plans().get(id);
    }

    @PostMapping("/plans/{id}/pause")
    @AdminOnly
    @Operation(summary = "Pause a running plan", description = "No further step is made until it is resumed; the "
            + "ring stays where the last step left it, and other writes stay refused.")
    @ApiResponse(responseCode = "200", description = "Paused")
    @ApiResponse(responseCode = "404", description = UNKNOWN)
    @ApiResponse(responseCode = "409", description = WRONG_STATE)
    PlanJson pause(@Parameter(description = PLAN_ID, example = "3f9a0c1d2e4b") @PathVariable String id) {
        return plans().pause(id);
    }

    @PostMapping("/plans/{id}/resume")
    @AdminOnly
    @Operation(summary = "Resume a paused plan", description = "The gate's timeout counts afresh from now.")
    @ApiResponse(responseCode = "200", description = "Running again")
    @ApiResponse(responseCode = "404", description = UNKNOWN)
    @ApiResponse(responseCode = "409", description = WRONG_STATE)
    PlanJson resume(@Parameter(description = PLAN_ID, example = "3f9a0c1d2e4b") @PathVariable String id) {
        return plans().resume(id);
    }

    @PostMapping("/plans/{id}/abort")
    @AdminOnly
    @Operation(summary = "Abort a running or paused plan", description = "The steps made stay made; the ring is "
            + "writable again.")
    @ApiResponse(responseCode = "200", description = "Aborted")
    @ApiResponse(responseCode = "404", description = UNKNOWN)
    @ApiResponse(responseCode = "409", description = WRONG_STATE)
    PlanJson abort(@Parameter(description = PLAN_ID, example = "3f9a0c1d2e4b") @PathVariable String id) {
        return plans().abort(id);
    }
}
