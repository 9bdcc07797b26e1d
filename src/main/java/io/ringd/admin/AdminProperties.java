package io.ringd.admin;

import java.util.Map;
import java.util.TreeMap;

import org.springframework.boot.context.properties.ConfigurationProperties;

import io.ringd.state.RingNames;

/**
 * Admin access.
 *
 * @param token         the bearer token of the admin calls (environment {@code RINGD_ADMIN_TOKEN});
 *                      when absent one is generated into the data folder
 * @param previousToken a second token accepted too (environment {@code RINGD_ADMIN_PREVIOUS_TOKEN}), for
 *                      rotating the token without downtime; absent by default
 * @param ringTokens    by ring name, a bearer token that may make the admin calls of that one ring only
 *                      ({@code ringd.admin.ring-tokens.<name>}, environment {@code RINGD_ADMIN_RING_TOKENS_<NAME>};
 *                      docs/ring.md section 22); none by default
 */
@ConfigurationProperties("ringd.admin")
public record AdminProperties(String token, String previousToken, Map<String, String> ringTokens) {

    public AdminProperties {
        token = checked("ringd.admin.token", token);
        previousToken = checked("ringd.admin.previous-token", previousToken);
        Map<String, String> rings = new TreeMap<>();
        String admin = token;
        String previous = previousToken;
        if (ringTokens != null) {
            ringTokens.forEach((name, t) -> {
                if (!RingNames.valid(name)) {
                    throw new IllegalArgumentException("ringd.admin.ring-tokens." + name + ": '" + name
                            + "' is not a ring name (1 to 63 of a-z, 0-9 and '-', starting and ending with a "
                            + "letter or digit)");
                }
                String checked = checked("ringd.admin.ring-tokens." + name, t);
                if (checked == null) {
                    throw new IllegalArgumentException("ringd.admin.ring-tokens." + name + " is empty");
                }
                if (checked.equals(admin) || checked.equals(previous) || rings.containsValue(checked)) {
                    throw new IllegalArgumentException("ringd.admin.ring-tokens." + name
                            + " is the same as another token: each ring token must be its own");
                }
                rings.put(name, checked);
            });
        }
        ringTokens = java.util.Collections.unmodifiableMap(rings);
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
