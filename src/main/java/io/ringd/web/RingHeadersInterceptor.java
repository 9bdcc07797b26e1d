package io.ringd.web;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.core.MethodParameter;
import org.springframework.stereotype.Component;
import org.springframework.web.bind.support.WebDataBinderFactory;
import org.springframework.web.context.request.NativeWebRequest;
import org.springframework.web.method.support.HandlerMethodArgumentResolver;
import org.springframework.web.method.support.ModelAndViewContainer;
import org.springframework.web.servlet.HandlerInterceptor;

import io.ringd.state.LookupEvents;
import io.ringd.state.RingService;
import io.ringd.state.Rings;
import io.ringd.state.ServedRing;
import io.ringd.state.RingState;
import io.ringd.web.problem.ApiException;
import io.ringd.web.problem.Problems;

/**
 * On every request to a {@link RingApi} handler: reads the current state
 * once, sets {@code X-Ring-Version} from it, marks and counts clients that
 * sent an older {@code X-Ring-Version} as stale, counts those that sent a
 * newer one (they have seen another ring), and hands the same state to
 * the handler (a {@link RingState} parameter), so the header and the body
 * describe one version.
 */
@Component
class RingHeadersInterceptor implements HandlerInterceptor, HandlerMethodArgumentResolver {

    private static final String STATE = RingHeadersInterceptor.class.getName() + ".state";

    private final Rings rings;

    RingHeadersInterceptor(Rings rings) {
        this.rings = rings;
    }

    @Override
    public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler) {
        if (!RingHeaders.carries(handler)) {
            return true;
        }
        ServedRing served = RingPaths.of(request, rings);
        RingService ring = served.service();
        if (!ring.isLoaded()) {
            throw new ApiException(Problems.STORE_UNAVAILABLE, "the ring has not been loaded yet: its store ("
                    + "shared by several instances) has not been reachable since this instance started", null);
        }
        RingState state = ring.current();
        request.setAttribute(STATE, state);
        long version = state.version();
        RingHeaders.set(response, served, version);
        LookupEvents events = served.events();
        Long client = RingHeaders.parseVersion(request.getHeader(RingHeaders.VERSION));
        if (client != null && client < version) {
            response.setHeader(RingHeaders.STALE, "true");
            events.stale(version - client);
        } else if (client != null && client > version) {
            events.ahead();
        }
        return true;
    }

    @Override
    public boolean supportsParameter(MethodParameter parameter) {
        return parameter.getParameterType() == RingState.class;
    }

    @Override
    public Object resolveArgument(MethodParameter parameter, ModelAndViewContainer mav, NativeWebRequest request,
            WebDataBinderFactory binders) {
        Object state = request.getAttribute(STATE, NativeWebRequest.SCOPE_REQUEST);
        return state != null ? state
                : RingPaths.of(request.getNativeRequest(HttpServletRequest.class), rings).service().current();
    }
}
