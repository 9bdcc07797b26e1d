package io.ringd.web;

import java.util.List;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Cross-origin access (docs/security.md): none unless origins are named.
 *
 * @param allowedOrigins the origins (scheme, host and port, such as {@code https://ops.example.com}) whose
 *                       pages may call ringd; empty (the default) answers no cross-origin request
 */
@ConfigurationProperties("ringd.cors")
public record CorsProperties(List<String> allowedOrigins) {

    public CorsProperties {
        allowedOrigins = allowedOrigins == null ? List.of()
                : allowedOrigins.stream().map(String::trim).filter(o -> !o.isEmpty()).toList();
        if (allowedOrigins.contains("*")) {
            throw new IllegalArgumentException("ringd.cors.allowed-origins must name origins, not '*'");
        }
    }
}
