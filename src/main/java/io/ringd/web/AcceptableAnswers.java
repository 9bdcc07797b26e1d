package io.ringd.web;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import org.springframework.web.HttpMediaTypeNotAcceptableException;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.HandlerInterceptor;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/**
 * Content negotiation before the handler runs, not after: a request whose
 * {@code Accept} admits none of the handler's answers is a 406 and the handler
 * never runs. Left to the framework, negotiation happens when the answer is
 * written, so an admin write with {@code Accept: application/xml} was applied
 * and then answered 406, a refusal that changed the ring. A handler answers
 * what its mapping's {@code produces} names, or JSON (errors problem+json).
 */
@Component
class AcceptableAnswers implements HandlerInterceptor {

    private static final List<MediaType> JSON = List.of(MediaType.APPLICATION_JSON, MediaType.APPLICATION_PROBLEM_JSON);

    private final Map<HandlerMethod, List<MediaType>> producible = new ConcurrentHashMap<>();

    @Override
    public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler)
            throws HttpMediaTypeNotAcceptableException {
        String accept = request.getHeader(HttpHeaders.ACCEPT);
        if (accept == null || accept.isBlank() || !(handler instanceof HandlerMethod hm)
                || !QueryParameters.owns(request, hm)) {
            return true;
        }
        List<MediaType> answers = producible.computeIfAbsent(hm, AcceptableAnswers::producible);
        for (MediaType asked : MediaType.parseMediaTypes(accept)) { // RequestGuardFilter refused unparsable ones
            if (asked.getQualityValue() > 0 && answers.stream().anyMatch(asked::isCompatibleWith)) {
                return true;
            }
        }
        throw new HttpMediaTypeNotAcceptableException(answers);
    }

    private static List<MediaType> producible(HandlerMethod handler) {
        RequestMapping mapping = AnnotatedElementUtils.findMergedAnnotation(handler.getMethod(), RequestMapping.class);
        if (mapping == null || mapping.produces().length == 0) {
            return JSON;
        }
        return MediaType.parseMediaTypes(List.of(mapping.produces()));
    }
}
