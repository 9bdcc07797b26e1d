package io.ringd.web.problem;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;

import jakarta.servlet.http.HttpServletResponse;

import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.stereotype.Component;

import tools.jackson.databind.json.JsonMapper;

/** Writes a problem detail straight to a response, for the places before Spring MVC (filters, valves). */
@Component
public class ProblemWriter {

    private final JsonMapper json = JsonMapper.builder().build();

    public void write(HttpServletResponse response, Problems type, String detail, String field) throws IOException {
        ProblemDetail p = type.detail(detail, field);
        response.setStatus(type.status().value());
        response.setHeader(HttpHeaders.CACHE_CONTROL, "no-store");
        response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
        response.setCharacterEncoding("UTF-8");
        response.getOutputStream().write(bytes(p));
    }

    /** The body of {@code p}: its type, title, status and detail, then its properties, in this order. */
    public byte[] bytes(ProblemDetail p) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("type", p.getType().toString());
        body.put("title", p.getTitle());
        body.put("status", p.getStatus());
        body.put("detail", p.getDetail());
        if (p.getProperties() != null) {
            body.putAll(p.getProperties());
        }
        return json.writeValueAsBytes(body);
    }
}
