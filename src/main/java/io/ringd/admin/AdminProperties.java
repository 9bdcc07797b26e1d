package io.ringd.admin;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Admin access.
 *
 * @param token the bearer token of the admin calls (environment {@code RINGD_ADMIN_TOKEN});
 *              when absent one is generated into the data folder
 */
@ConfigurationProperties("ringd.admin")
public record AdminProperties(String token) {

    public AdminProperties {
        if (token != null && token.isBlank()) {
            token = null;
        }
        if (token != null && (token.length() < 16 || !token.chars().allMatch(c -> c > 0x20 && c < 0x7f))) {
            throw new IllegalArgumentException(
                    "ringd.admin.token must be at least 16 printable ASCII characters without spaces");
        }
    }
}
