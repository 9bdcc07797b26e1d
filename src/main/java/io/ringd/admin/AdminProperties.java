package io.ringd.admin;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Admin access.
 *
 * @param token         the bearer token of the admin calls (environment {@code RINGD_ADMIN_TOKEN});
 *                      when absent one is generated into the data folder
 * @param previousToken a second token accepted too (environment {@code RINGD_ADMIN_PREVIOUS_TOKEN}), for
 *                      rotating the token without downtime; absent by default
 */
@ConfigurationProperties("ringd.admin")
public record AdminProperties(String token, String previousToken) {

    public AdminProperties {
        token = checked("ringd.admin.token", token);
        previousToken = checked("ringd.admin.previous-token", previousToken);
        if (previousToken != null && token == null) {
            throw new IllegalArgumentException("ringd.admin.previous-token needs ringd.admin.token: "
                    + "it is accepted beside the current token during a rotation");
        }
    }

    private static String checked(String name, String value) {
        if (value == null || value.isBlank()) {
            return null;
        }
        if (value.length() < 16 || !value.chars().allMatch(c -> c > 0x20 && c < 0x7f)) {
            throw new IllegalArgumentException(
                    name + " must be at least 16 printable ASCII characters without spaces");
        }
        return value;
    }
}
