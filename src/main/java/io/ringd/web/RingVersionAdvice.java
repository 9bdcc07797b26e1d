package io.ringd.web;

import java.net.URI;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.core.MethodParameter;
import org.springframework.http.HttpMethod;
import org.springframework.http.ProblemDetail;
import org.springframework.http.MediaType;
import org.springframework.http.converter.HttpMessageConverter;
import org.springframework.http.server.ServerHttpRequest;
import org.springframework.http.server.ServerHttpResponse;
import org.springframework.http.server.ServletServerHttpRequest;
import org.springframework.http.server.ServletServerHttpResponse;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.servlet.mvc.method.annotation.ResponseBodyAdvice;

import io.ringd.state.Rings;
import io.ringd.state.ServedRing;

/**
 * Sets {@code X-Ring-Version} on the answers {@link RingHeaders} says carry
 * it where {@link RingHeadersInterceptor} has not: after a write, to the
 * version current when the answer is written (so an admin call answers with
 * the version it made), and on refusals made before a handler was chosen.
 * Reads keep the version the interceptor read once. A problem's
 * {@code instance} is the path the client sent, with its ring's prefix.
 */
@ControllerAdvice
class RingVersionAdvice implements ResponseBodyAdvice<Object> {

    private final Rings rings;

    RingVersionAdvice(Rings rings) {
        this.rings = rings;
    }

    @Override
    public boolean supports(MethodParameter returnType, Class<? extends HttpMessageConverter<?>> converterType) {
        return true;
    }

    @Override
    public Object beforeBodyWrite(Object body, MethodParameter returnType, MediaType contentType,
            Class<? extends HttpMessageConverter<?>> converterType, ServerHttpRequest request,
            ServerHttpResponse response) {
        if (request instanceof ServletServerHttpRequest in && response instanceof ServletServerHttpResponse out) {
            HttpServletRequest req = in.getServletRequest();
            HttpServletResponse res = out.getServletResponse();
            if (body instanceof ProblemDetail p && req.getAttribute(RingPaths.ORIGINAL_PATH) instanceof String path) {
                try {
                    p.setInstance(URI.create(path)); // the path the client sent, /rings/{name} included
                } catch (IllegalArgumentException e) {
                    p.setInstance(null); // not a URI as sent: no instance rather than the wrong one
                }
            }
            if (RingHeaders.carries(req)) {
                boolean read = HttpMethod.GET.equals(request.getMethod()) || HttpMethod.HEAD.equals(request.getMethod());
                if (!read || !res.containsHeader(RingHeaders.VERSION)) {
                    ServedRing ring = RingPaths.of(req, rings);
                    response.getHeaders().set(RingHeaders.NAME, ring.name());
                    response.getHeaders().set(RingHeaders.VERSION, Long.toString(ring.service().current().version()));
                }
            }
        }
        return body;
    }
}
