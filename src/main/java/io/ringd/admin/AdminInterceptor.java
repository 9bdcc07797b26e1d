package io.ringd.admin;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.http.HttpHeaders;
import org.springframework.stereotype.Component;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.HandlerInterceptor;

import io.ringd.web.AdminOnly;
import io.ringd.web.ApiException;
import io.ringd.web.Problems;

/**
 * Who may write: a handler marked {@link AdminOnly} runs only for a request
 * that presents the admin token as {@code Authorization: Bearer <token>};
 * any other is refused with 401 and {@code WWW-Authenticate: Bearer}.
 */
@Component
class AdminInterceptor implements HandlerInterceptor {

    private final AdminToken token;

    AdminInterceptor(AdminToken token) {
        this.token = token;
    }

    @Override
    public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler) {
        if (!(handler instanceof HandlerMethod hm) || !hm.hasMethodAnnotation(AdminOnly.class)) {
            return true;
        }
        String auth = request.getHeader(HttpHeaders.AUTHORIZATION);
        String presented = auth != null && auth.regionMatches(true, 0, "Bearer ", 0, 7)
                ? auth.substring(7).trim() : null;
        if (!token.matches(presented)) {
            response.setHeader(HttpHeaders.WWW_AUTHENTICATE, "Bearer realm=\"ringd\"");
            throw new ApiException(Problems.UNAUTHORIZED, auth == null
                    ? "this call needs 'Authorization: Bearer <admin token>'"
                    : presented == null ? "the Authorization header must be 'Bearer <admin token>'"
                            : "the admin token is not valid", "Authorization");
        }
        return true;
    }
}
