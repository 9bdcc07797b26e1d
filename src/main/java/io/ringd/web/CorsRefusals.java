package io.ringd.web;

import java.io.IOException;

import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.server.ServerHttpResponse;
import org.springframework.web.cors.DefaultCorsProcessor;
import org.springframework.web.servlet.handler.AbstractHandlerMapping;

import io.ringd.web.problem.ProblemWriter;
import io.ringd.web.problem.Problems;

/**
 * A cross-origin request from an origin {@code ringd.cors.allowed-origins}
 * does not name is refused with a 403 problem detail, like every other
 * refusal, instead of the framework's plain-text answer.
 */
class CorsRefusals extends DefaultCorsProcessor {

    private static final ProblemWriter WRITER = new ProblemWriter();

    @Override
    protected void rejectRequest(ServerHttpResponse response) throws IOException {
        response.setStatusCode(HttpStatus.FORBIDDEN);
        response.getHeaders().setContentType(MediaType.APPLICATION_PROBLEM_JSON);
        response.getHeaders().setCacheControl("no-store");
        response.getBody().write(WRITER.bytes(Problems.FORBIDDEN.detail("this origin may not call ringd "
                + "(ringd.cors.allowed-origins)", "Origin")));
        response.flush();
    }

    /** Puts this processor on every handler mapping. */
    static BeanPostProcessor onEveryHandlerMapping() {
        return new BeanPostProcessor() {
            @Override
            public Object postProcessAfterInitialization(Object bean, String beanName) {
                if (bean instanceof AbstractHandlerMapping mapping) {
                    mapping.setCorsProcessor(new CorsRefusals());
                }
                return bean;
            }
        };
    }
}
