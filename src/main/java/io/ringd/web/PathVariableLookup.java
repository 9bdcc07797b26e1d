package io.ringd.web;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;

import org.springframework.core.DefaultParameterNameDiscoverer;
import org.springframework.core.MethodParameter;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.HandlerExecutionChain;
import org.springframework.web.servlet.HandlerMapping;
import org.springframework.web.servlet.handler.HandlerMappingIntrospector;
import org.springframework.web.util.ServletRequestPathUtils;

/**
 * The name of the path variable that a raw {@code ;} of a request's path
 * falls in, for its refusal: that of the handler the path reaches once the
 * {@code ;} is percent-encoded, or {@code "path"}. It knows no route: it asks
 * the handler mappings, on refusals only.
 */
final class PathVariableLookup {

    private final HandlerMappingIntrospector handlers;

    PathVariableLookup(HandlerMappingIntrospector handlers) {
        this.handlers = handlers;
    }

    String nameAt(HttpServletRequest request) {
        HttpServletRequest encoded = new HttpServletRequestWrapper(request) {
            @Override
            public String getRequestURI() {
                return super.getRequestURI().replace(";", "%3B");
            }
        };
        try {
            ServletRequestPathUtils.parseAndCache(encoded);
            for (HandlerMapping mapping : handlers.getHandlerMappings()) {
                HandlerExecutionChain chain = mapping.getHandler(encoded);
                if (chain != null && chain.getHandler() instanceof HandlerMethod hm) {
                    for (MethodParameter p : hm.getMethodParameters()) {
                        PathVariable v = p.getParameterAnnotation(PathVariable.class);
                        if (v != null) {
                            p.initParameterNameDiscovery(new DefaultParameterNameDiscoverer());
                            String name = !v.name().isEmpty() ? v.name() : p.getParameterName();
                            return name != null ? name : "path";
                        }
                    }
                }
            }
        } catch (Exception e) {
            // no handler takes this path (or its method): name the path itself
        }
        return "path";
    }
}
