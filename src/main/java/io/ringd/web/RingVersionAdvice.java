package io.ringd.web;

import org.springframework.core.MethodParameter;
import org.springframework.http.MediaType;
import org.springframework.http.converter.HttpMessageConverter;
import org.springframework.http.server.ServerHttpRequest;
import org.springframework.http.server.ServerHttpResponse;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.servlet.mvc.method.annotation.ResponseBodyAdvice;

import io.ringd.state.RingService;

/**
 * Sets {@code X-Ring-Version} to the version current when the answer is
 * written, so an admin call answers with the version it made.
 */
@ControllerAdvice
class RingVersionAdvice implements ResponseBodyAdvice<Object> {

    private final RingService ring;

    RingVersionAdvice(RingService ring) {
        this.ring = ring;
    }

    @Override
    public boolean supports(MethodParameter returnType, Class<? extends HttpMessageConverter<?>> converterType) {
        return true;
    }

    @Override
    public Object beforeBodyWrite(Object body, MethodParameter returnType, MediaType contentType,
            Class<? extends HttpMessageConverter<?>> converterType, ServerHttpRequest request,
            ServerHttpResponse response) {
        String path = request.getURI().getRawPath();
        if (!path.startsWith("/actuator") && !path.startsWith("/v3/api-docs") && !path.startsWith("/swagger-ui")) {
            response.getHeaders().set(RingHeaders.VERSION, Long.toString(ring.current().version()));
        }
        return body;
    }
}
