package io.ringd.admin;

import java.util.EnumMap;
import java.util.Map;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.http.HttpHeaders;
import org.springframework.stereotype.Component;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.HandlerInterceptor;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.ringd.state.Rings;
import io.ringd.web.AdminOnly;
import io.ringd.web.RingPaths;
import io.ringd.web.problem.ApiException;
import io.ringd.web.problem.Problems;

/**
 * Who may write: a handler marked {@link AdminOnly} runs only for a request
 * that presents the admin token as {@code Authorization: Bearer <token>};
 * a ring token ({@code ringd.admin.ring-tokens.<name>}) runs those of its
 * own ring, and is refused with 403 anywhere else; any other is refused with 401 and {@code WWW-Authenticate: Bearer}, counted
 * by reason in {@code ringd_admin_auth_failures_total}. Admin answers are
 * {@code Cache-Control: no-store}. Nothing here logs or repeats a token.
 */
@Component
class AdminInterceptor implements HandlerInterceptor {

    /** The counter of refused admin calls, tagged {@code reason}: {@code ringd_admin_auth_failures_total}. */
    static final String FAILURES = "ringd.admin.auth.failures";

    private final AdminToken token;
    private final Rings rings;
    private final Map<Reason, Counter> failures = new EnumMap<>(Reason.class);

    /** Why an admin call was refused: the {@code reason} tag of {@value #FAILURES}. */
    enum Reason {
        /** No Authorization header. */
        MISSING,
        /** Another scheme than Bearer (Basic, say), or no scheme. */
        SCHEME,
        /** {@code Bearer} with nothing after it. */
        EMPTY,
        /** A bearer token that is not the admin token. */
        WRONG;

        String tag() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    AdminInterceptor(AdminToken token, Rings rings, ObjectProvider<MeterRegistry> registry) {
        this.token = token;
        this.rings = rings;
        MeterRegistry meters = registry.getIfAvailable();
        if (meters != null) {
            for (Reason r : Reason.values()) {
                failures.put(r, Counter.builder(FAILURES).description("Admin calls refused with 401, by reason")
                        .tag("reason", r.tag()).register(meters));
            }
        }
    }

    @Override
    public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler) {
        if (!(handler instanceof HandlerMethod hm) || !hm.hasMethodAnnotation(AdminOnly.class)) {
            return true;
        }
        response.setHeader(HttpHeaders.CACHE_CONTROL, "no-store"); // an admin answer is for its caller only
        String auth = request.getHeader(HttpHeaders.AUTHORIZATION);
        String presented = auth == null ? null : auth.trim().equalsIgnoreCase("Bearer") ? ""
                : auth.regionMatches(true, 0, "Bearer ", 0, 7) ? auth.substring(7).trim() : null;
        if (!token.matches(presented) && !ringTokenMay(request, hm, presented)) {
            Reason reason = auth == null ? Reason.MISSING : presented == null ? Reason.SCHEME
                    : presented.isEmpty() ? Reason.EMPTY : Reason.WRONG;
            Counter c = failures.get(reason);
            if (c != null) {
                c.increment();
            }
            response.setHeader(HttpHeaders.WWW_AUTHENTICATE, reason == Reason.MISSING || reason == Reason.SCHEME
                    ? "Bearer realm=\"ringd\"" : "Bearer realm=\"ringd\", error=\"invalid_token\"");
            // The message never repeats what was sent.
            throw new ApiException(Problems.UNAUTHORIZED, switch (reason) {
                case MISSING -> "this call needs 'Authorization: Bearer <admin token>'";
                case SCHEME -> "the Authorization header must be 'Bearer <admin token>'";
                case EMPTY -> "the bearer token is empty";
                case WRONG -> "the admin token is not valid";
            }, "Authorization");
        }
        return true;
    }

    /**
     * Whether {@code presented} is the ring token of the ring the request is for; a ring token used for
     * another ring, or for an instance-wide call, is 403.
     */
    private boolean ringTokenMay(HttpServletRequest request, HandlerMethod hm, String presented) {
        String ring = token.ringOf(presented);
        if (ring == null) {
            return false;
        }
        String target = RingPaths.of(request, rings).name();
        if (hm.getMethodAnnotation(AdminOnly.class).instance()) {
            throw new ApiException(Problems.FORBIDDEN, "this is the ring token of " + ring + ": it may make the "
                    + "admin calls of that ring only, not make or delete rings (the admin token may)", "Authorization");
        }
        if (!ring.equals(target)) {
            throw new ApiException(Problems.FORBIDDEN, "this is the ring token of " + ring + ": it may make the "
                    + "admin calls of that ring only, not of the ring " + target, "ring");
        }
        return true;
    }
}
