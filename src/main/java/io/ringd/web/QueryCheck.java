package io.ringd.web;

import java.util.Map;

import jakarta.servlet.http.HttpServletRequest;

import io.ringd.web.problem.ApiException;

/**
 * Refuses a query string that is not valid percent-encoded UTF-8, or that
 * repeats a parameter (the container would join the values with commas).
 */
final class QueryCheck {

    private QueryCheck() {
    }

    /** @throws ApiException 400 naming {@code query} or the repeated parameter */
    static void check(HttpServletRequest request) {
        if (request.getQueryString() == null) {
            return;
        }
        Map<String, String[]> params;
        try {
            params = request.getParameterMap();
        } catch (IllegalStateException e) { // the container's InvalidParameterException
            throw ApiException.badRequest("the query string is not valid percent-encoded UTF-8", "query");
        }
        for (Map.Entry<String, String[]> p : params.entrySet()) {
            if (p.getValue().length > 1) {
                String name = ApiException.abbreviate(p.getKey());
                throw ApiException.badRequest("the parameter " + name + " is given " + p.getValue().length
                        + " times; give it once", name);
            }
        }
    }
}
