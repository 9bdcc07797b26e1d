package io.ringd.web;

import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.servlet.DispatcherType;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.boot.webmvc.error.ErrorController;
import org.springframework.core.DefaultParameterNameDiscoverer;
import org.springframework.core.MethodParameter;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.stereotype.Component;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.HandlerInterceptor;

import io.ringd.web.problem.ApiException;

/**
 * One strictness for query parameters, as for JSON fields: a parameter the
 * handler does not declare ({@code ?version=} on {@code /ownership}, a
 * misspelt {@code ?maxrange=}) is refused with 400 naming it, never ignored.
 * The parameters a handler takes are read from its own declarations, its
 * {@link RequestParam} arguments and its mapping's {@code params}, so a new
 * parameter needs nothing here. It applies to ringd's own handlers (not the
 * actuator's, the API description's or the error answers').
 */
@Component
class QueryParameters implements HandlerInterceptor {

    /** The package of ringd's handlers: the parent of this one. */
    private static final String OWN = QueryParameters.class.getPackageName()
            .substring(0, QueryParameters.class.getPackageName().lastIndexOf('.') + 1);
    /** A handler that takes any parameter (a {@code @RequestParam Map}). */
    private static final Set<String> ANY = java.util.Collections.unmodifiableSet(new TreeSet<>());

    private final Map<HandlerMethod, Set<String>> declared = new ConcurrentHashMap<>();

    @Override
    public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler) {
        if (request.getQueryString() == null || !(handler instanceof HandlerMethod hm) || !owns(request, hm)) {
            return true;
        }
        Set<String> allowed = declared.computeIfAbsent(hm, QueryParameters::allowed);
        if (allowed == ANY) {
            return true;
        }
        for (String name : request.getParameterMap().keySet()) {
            if (!allowed.contains(name)) {
                throw ApiException.badRequest("unknown query parameter " + ApiException.abbreviate(name)
                        + (allowed.isEmpty() ? "; this call takes none" : "; this call takes " + allowed),
                        ApiException.abbreviate(name));
            }
        }
        return true;
    }

    /**
     * Whether {@code handler} is one of ringd's own (not the actuator's, the API description's or the
     * error answers') and {@code request} reached it directly.
     */
    static boolean owns(HttpServletRequest request, HandlerMethod handler) {
        return request.getDispatcherType() == DispatcherType.REQUEST && handler.getBeanType().getName().startsWith(OWN)
                && !ErrorController.class.isAssignableFrom(handler.getBeanType());
    }

    /** The query parameters {@code handler} declares, sorted; {@link #ANY} for a catch-all map. */
    static Set<String> allowed(HandlerMethod handler) {
        Set<String> names = new TreeSet<>();
        for (MethodParameter p : handler.getMethodParameters()) {
            RequestParam param = p.getParameterAnnotation(RequestParam.class);
            if (param == null) {
                continue;
            }
            if (Map.class.isAssignableFrom(p.getParameterType()) && param.name().isEmpty()) {
                return ANY;
            }
            p.initParameterNameDiscovery(new DefaultParameterNameDiscoverer());
            String name = !param.name().isEmpty() ? param.name() : p.getParameterName();
            if (name != null) {
                names.add(name);
            }
        }
        RequestMapping mapping = AnnotatedElementUtils.findMergedAnnotation(handler.getMethod(), RequestMapping.class);
        if (mapping != null) {
            for (String condition : mapping.params()) {
                if (!condition.startsWith("!")) {
                    names.add(condition.split("!?=", 2)[0]);
                }
            }
        }
        return java.util.Collections.unmodifiableSet(names);
    }
}
